package delivery_test

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/delivery/deliverytest"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/email/senderauth"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// queue is a delivery service on a real database, running until the test
// ends.
type queue struct {
	t     *testing.T
	db    *store.DB
	blobs mailbox.Blobs
	svc   *delivery.Service
	stop  func()
}

func startQueue(t *testing.T, db *store.DB, cfg delivery.Config) *queue {
	t.Helper()
	blobs := mailbox.Blobs{Dir: t.TempDir()}
	cfg.Hostname = "out.test"
	cfg.Backoff = func(int) time.Duration { return 50 * time.Millisecond }
	cfg.Timeout = 10 * time.Second
	svc := delivery.New(db, blobs, cfg, nil)
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { svc.Run(ctx) })
	stop := sync.OnceFunc(func() { cancel(); wg.Wait() })
	t.Cleanup(stop)
	return &queue{t: t, db: db, blobs: blobs, svc: svc, stop: stop}
}

// enqueue queues one message (without a mailbox message: no events) and
// returns its queue row ids by recipient.
func (q *queue) enqueue(subject string, rcpts ...string) map[string]string {
	q.t.Helper()
	raw := fmt.Sprintf("From: a@out.test\r\nTo: x@example.test\r\nSubject: %s\r\nMessage-ID: <%s@out.test>\r\n\r\nHello.\r\n", subject, subject)
	path := "outbound/" + subject + ".eml"
	if err := q.blobs.Write(path, []byte(raw)); err != nil {
		q.t.Fatal(err)
	}
	ids := map[string]string{}
	err := q.db.InTx(context.Background(), func(tx *store.Tx) error {
		rs, err := delivery.Enqueue(context.Background(), tx, delivery.Job{OrgID: "org_test", Domain: "out.test", BlobPath: path, Recipients: rcpts})
		for _, r := range rs {
			ids[r.Address] = r.ID
		}
		return err
	})
	if err != nil {
		q.t.Fatal(err)
	}
	return ids
}

// waitState waits until the queue row is in state and returns its last
// SMTP code.
func (q *queue) waitState(id, state string) int {
	q.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	var got string
	var code int
	for time.Now().Before(deadline) {
		if err := q.db.QueryRowContext(context.Background(), `SELECT state, last_code FROM outbound_queue WHERE id = $1`, id).
			Scan(&got, &code); err != nil {
			q.t.Fatal(err)
		}
		if got == state {
			return code
		}
		time.Sleep(20 * time.Millisecond)
	}
	q.t.Fatalf("row %s: state %s (code %d), want %s", id, got, code, state)
	return 0
}

// attempts waits until the row has been tried at least n times and returns
// its state and last code.
func (q *queue) attempts(id string, n int) (string, int) {
	q.t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for {
		var state string
		var code, tries int
		if err := q.db.QueryRowContext(context.Background(), `SELECT state, last_code, attempts FROM outbound_queue WHERE id = $1`, id).
			Scan(&state, &code, &tries); err != nil {
			q.t.Fatal(err)
		}
		if tries >= n || time.Now().After(deadline) {
			if tries < n {
				q.t.Fatalf("row %s: %d attempts, want %d", id, tries, n)
			}
			return state, code
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func relayTLS(t *testing.T, r *deliverytest.Relay) *tls.Config {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AddCert(r.TLS.Certificates[0].Leaf)
	return &tls.Config{RootCAs: pool, ServerName: "relay.test", MinVersion: tls.VersionTLS12}
}

// The relay path: STARTTLS with a verified certificate, then AUTH PLAIN,
// one login for several messages (the session is reused); a wrong password
// is a temporary failure (retried), never a bounce.
func TestRelayAuthPlainOverSTARTTLS(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		relay := deliverytest.StartRelay(t, "agent", "s3cret")
		q := startQueue(t, db, delivery.Config{Relay: relay.Addr, RelayUsername: "agent", RelayPassword: "s3cret",
			RelayTLS: relayTLS(t, relay), Workers: 1})
		var rows []string
		for i := range 3 {
			for _, id := range q.enqueue(fmt.Sprintf("relay-%d", i), "someone@far.test") {
				rows = append(rows, id)
			}
		}
		for _, id := range rows {
			if code := q.waitState(id, delivery.StateDelivered); code != 250 {
				t.Errorf("row %s: code %d", id, code)
			}
		}
		got := relay.Received()
		if len(got) != 3 {
			t.Fatalf("relay received %d messages, want 3", len(got))
		}
		for _, r := range got {
			if !r.TLS || len(r.Recipients) != 1 || r.Recipients[0] != "someone@far.test" {
				t.Errorf("received %+v", r)
			}
		}
		if logins, failures := relay.Logins(); len(logins) != 1 || failures != 0 {
			t.Errorf("logins %v, failures %d: want one login for three messages", logins, failures)
		}

		q.stop() // one service per database, as in production
		wrong := startQueue(t, db, delivery.Config{Relay: relay.Addr, RelayUsername: "agent", RelayPassword: "wrong",
			RelayTLS: relayTLS(t, relay), Workers: 1})
		id := wrong.enqueue("relay-wrong", "other@far.test")["other@far.test"]
		if state, code := wrong.attempts(id, 2); state != delivery.StateQueued || code != 535 {
			t.Errorf("wrong password: state %s code %d, want queued 535", state, code)
		}
	})
}

// A relay whose certificate does not verify gets neither credentials nor mail.
func TestRelayCertificateVerified(t *testing.T) {
	db := storetest.Open(t, store.SQLite)
	relay := deliverytest.StartRelay(t, "agent", "s3cret")
	q := startQueue(t, db, delivery.Config{Relay: relay.Addr, RelayUsername: "agent", RelayPassword: "s3cret",
		RelayTLS: &tls.Config{ServerName: "relay.test", MinVersion: tls.VersionTLS12}, Workers: 1})
	id := q.enqueue("relay-untrusted", "someone@far.test")["someone@far.test"]
	if state, _ := q.attempts(id, 1); state != delivery.StateQueued {
		t.Errorf("state %s, want queued", state)
	}
	if logins, failures := relay.Logins(); len(logins)+failures != 0 || len(relay.Received()) != 0 {
		t.Errorf("credentials or mail went to an unverified relay: %v %d %d", logins, failures, len(relay.Received()))
	}
}

// Direct delivery: MX first, the domain's own A record when it has no MX
// (RFC 5321 section 5.1), a null MX (RFC 7505) bounces, and a refused
// recipient on a reused session does not spoil the next message (RSET).
func TestDirectDelivery(t *testing.T) {
	db := storetest.Open(t, store.SQLite)
	sink := deliverytest.StartSink(t)
	sink.Reject(func(rcpt string) error {
		if rcpt == "gone@mx.test" {
			return smtpserver.ErrUnknownRecipient
		}
		return nil
	})
	zone := deliverytest.NewZone()
	zone.MX("mx.test", 10, "in.mx.test")
	zone.A("in.mx.test", "127.0.0.1")
	zone.A("nomx.test", "127.0.0.1")
	zone.MX("nullmx.test", 0, ".")
	res := senderauth.NewResolver(deliverytest.StartDNS(t, zone))
	q := startQueue(t, db, delivery.Config{Port: sink.Port(), Resolver: res, Workers: 1})

	a := q.enqueue("direct-a", "ann@mx.test", "gone@mx.test", "bob@mx.test")
	b := q.enqueue("direct-b", "cy@nomx.test")
	c := q.enqueue("direct-c", "dee@nullmx.test")
	for _, id := range []string{a["ann@mx.test"], a["bob@mx.test"], b["cy@nomx.test"]} {
		q.waitState(id, delivery.StateDelivered)
	}
	if code := q.waitState(a["gone@mx.test"], delivery.StateBounced); code != 550 {
		t.Errorf("unknown recipient: code %d", code)
	}
	if code := q.waitState(c["dee@nullmx.test"], delivery.StateBounced); code != 556 {
		t.Errorf("null MX: code %d", code)
	}
	got := map[string]bool{}
	for _, r := range sink.Received() {
		if !r.TLS {
			t.Error("no STARTTLS")
		}
		for _, rc := range r.Recipients {
			got[rc] = true
		}
	}
	if len(got) != 3 || !got["ann@mx.test"] || !got["bob@mx.test"] || !got["cy@nomx.test"] {
		t.Errorf("sink got %v", got)
	}
}
