package machines

import (
	"context"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func TestCleanPath(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"/root/a.txt", "/root/a.txt", true},
		{"/root//a.txt", "/root/a.txt", true},
		{"/root/dir/", "/root/dir", true},
		{"/", "/", true},
		{"/root/../etc/passwd", "", false},
		{"/root/./a", "", false},
		{"..", "", false},
		{"root/a", "", false},
		{"", "", false},
		{"/proc", "", false},
		{"/proc/1/root", "", false},
		{"/sys/x", "", false},
		{"/dev/sda", "", false},
		{"/devices/ok", "/devices/ok", true},
		{"/a\x00b", "", false},
	} {
		got, err := cleanPath(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("cleanPath(%q) = %q, %v; want %q ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestBilledSeconds(t *testing.T) {
	for _, tc := range []struct{ from, to, want int64 }{
		{0, 0, 0},
		{10, 5, 0},
		{0, 1, 1},
		{0, 1_000_000, 1},
		{0, 1_000_001, 2},
		{5_000_000, 7_500_000, 3},
	} {
		if got := billedSeconds(tc.from, tc.to); got != tc.want {
			t.Errorf("billedSeconds(%d, %d) = %d, want %d", tc.from, tc.to, got, tc.want)
		}
	}
}

func TestDesktopTokens(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		d := &desktopSigner{db: db}
		now := time.Now()
		tok, err := d.sign(ctx, "mch_a", now.Add(time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		// A second signer (another node) shares the key through the database.
		other := &desktopSigner{db: db}
		for _, tc := range []struct {
			name    string
			signer  *desktopSigner
			machine string
			token   string
			at      time.Time
			want    bool
		}{
			{"valid", d, "mch_a", tok, now, true},
			{"valid on another node", other, "mch_a", tok, now, true},
			{"other machine", d, "mch_b", tok, now, false},
			{"expired", d, "mch_a", tok, now.Add(2 * time.Minute), false},
			{"tampered expiry", d, "mch_a", "9999999999" + tok[len(tok)-44:], now, false},
			{"garbage", d, "mch_a", "x", now, false},
		} {
			if got := tc.signer.verify(ctx, tc.machine, tc.token, tc.at); got != tc.want {
				t.Errorf("%s: verify = %v, want %v", tc.name, got, tc.want)
			}
		}
	})
}
