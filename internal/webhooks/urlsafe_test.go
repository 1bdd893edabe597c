package webhooks

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/client/webhook"
)

func TestAddrAllowed(t *testing.T) {
	cases := []struct {
		addr string
		prod bool
		dev  bool
	}{
		{"93.184.216.34", true, true},
		{"2606:2800:220:1:248:1893:25c8:1946", true, true},
		{"127.0.0.1", false, true},
		{"::1", false, true},
		{"::ffff:127.0.0.1", false, true},
		{"10.0.0.1", false, false},
		{"172.16.5.4", false, false},
		{"192.168.1.1", false, false},
		{"100.64.0.1", false, false},
		{"100.100.100.200", false, false},
		{"169.254.169.254", false, false},
		{"::ffff:169.254.169.254", false, false},
		{"fd00:ec2::254", false, false},
		{"fe80::1", false, false},
		{"224.0.0.1", false, false},
		{"ff02::1", false, false},
		{"0.0.0.0", false, false},
		{"::", false, false},
		{"255.255.255.255", false, false},
		{"64:ff9b::a00:1", false, false},
	}
	for _, c := range cases {
		a := netip.MustParseAddr(c.addr)
		if got := addrAllowed(a, false); got != c.prod {
			t.Errorf("%s outside dev mode: allowed=%v, want %v", c.addr, got, c.prod)
		}
		if got := addrAllowed(a, true); got != c.dev {
			t.Errorf("%s in dev mode: allowed=%v, want %v", c.addr, got, c.dev)
		}
	}
}

// mapResolver answers from a table (a test resolver for check-at-save).
type mapResolver map[string][]netip.Addr

func (m mapResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	if a, ok := m[host]; ok {
		return a, nil
	}
	return nil, &lookupError{host}
}

type lookupError struct{ host string }

func (e *lookupError) Error() string { return "no such host " + e.host }

func TestCheckURL(t *testing.T) {
	r := mapResolver{
		"hooks.example.com":    {netip.MustParseAddr("93.184.216.34")},
		"internal.example.com": {netip.MustParseAddr("93.184.216.34"), netip.MustParseAddr("10.1.2.3")},
		"localhost":            {netip.MustParseAddr("127.0.0.1")},
	}
	cases := []struct {
		url     string
		dev, ok bool
	}{
		{"https://hooks.example.com/x", false, true},
		{"https://unresolvable.example.com/x", false, true}, // checked again at every connect
		{"http://hooks.example.com/x", false, false},
		{"http://hooks.example.com/x", true, true},
		{"https://127.0.0.1/x", false, false},
		{"https://10.0.0.1/x", false, false},
		{"https://169.254.169.254/latest/meta-data", false, false},
		{"https://[::1]/x", false, false},
		{"https://[::1]:8443/x", true, true},
		{"https://internal.example.com/x", false, false},
		{"https://localhost:9/x", false, false},
		{"http://localhost:9/x", true, true},
		{"https://10.0.0.1/x", true, false}, // dev mode allows loopback only
		{"ftp://hooks.example.com/x", true, false},
		{"https://u:p@hooks.example.com/x", false, false},
		{"/relative", false, false},
		{"", false, false},
	}
	for _, c := range cases {
		_, err := checkURL(context.Background(), c.url, c.dev, r)
		if (err == nil) != c.ok {
			t.Errorf("checkURL(%q, dev=%v) = %v, want ok=%v", c.url, c.dev, err, c.ok)
		}
	}
}

// TestDialTimeRefusal: a name that passed the check at save time but now
// resolves to loopback (DNS rebinding) is refused at connect time, outside
// dev mode; the receiver is never reached.
func TestDialTimeRefusal(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	defer srv.Close()
	port := srv.URL[strings.LastIndex(srv.URL, ":")+1:]
	prod := newClient(Config{AttemptTimeout: 2 * time.Second, Workers: 4})
	for _, u := range []string{"https://localhost:" + port + "/", "http://127.0.0.1:" + port + "/", "http://[::1]:" + port + "/"} {
		_, err := prod.Post(u, "application/json", strings.NewReader("{}"))
		if err == nil || !isRefused(err) {
			t.Errorf("%s: %v, want a refused address", u, err)
		}
	}
	dev := newClient(Config{Dev: true, AttemptTimeout: 2 * time.Second, Workers: 4})
	resp, err := dev.Post(srv.URL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatalf("dev mode: %v", err)
	}
	resp.Body.Close()
	if hits.Load() != 1 {
		t.Fatalf("receiver hits %d, want 1 (dev mode only)", hits.Load())
	}
}

// TestSignVectors: the server's signer agrees with the shared vectors that
// client/webhook is tested against too.
func TestSignVectors(t *testing.T) {
	raw, err := os.ReadFile("../../client/webhook/testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []struct {
		Name, Secret, Body, Signature string
		Timestamp                     int64
	}
	if err := json.Unmarshal(raw, &vs); err != nil || len(vs) == 0 {
		t.Fatalf("vectors: %v", err)
	}
	for _, v := range vs {
		got := sign(v.Secret, strconv.FormatInt(v.Timestamp, 10), []byte(v.Body))
		if got != v.Signature {
			t.Errorf("%s: %s, want %s", v.Name, got, v.Signature)
		}
		h := http.Header{}
		h.Set(webhook.HeaderTimestamp, strconv.FormatInt(v.Timestamp, 10))
		h.Set(webhook.HeaderSignature, got)
		if err := webhook.Verify(v.Secret, h, []byte(v.Body), time.Unix(v.Timestamp, 0)); err != nil {
			t.Errorf("%s: the public verifier refuses the server's signature: %v", v.Name, err)
		}
	}
}

func TestBackoff(t *testing.T) {
	for n := 1; n <= len(Schedule); n++ {
		if Backoff(n, 0) != Schedule[n-1] || Backoff(n, 0.999999) > Schedule[n-1]*11/10 {
			t.Errorf("attempt %d: %s..%s", n, Backoff(n, 0), Backoff(n, 0.999999))
		}
	}
}
