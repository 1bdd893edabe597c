package webhooks

import (
	"testing"
	"time"
)

// TestTakeDirect checks which fresh deliveries the SQLite fan-out leases
// itself: while the node and the endpoint's reserve have places and no
// older delivery of the endpoint waits unleased, with a lease covering the
// wait behind the deliveries held before it.
func TestTakeDirect(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	const timeout = 10 * time.Second
	tests := []struct {
		name    string
		pl      places
		takes   int           // how many of 40 fresh deliveries of "a" are leased
		lastEnd time.Duration // the last leased one's lease, from now
	}{
		{"empty node", places{n: 256, direct: true}, reserveDepth, 8*timeout + leaseSlack},
		{"node limit", places{n: 3, direct: true}, 3, timeout + leaseSlack},
		{"endpoint half held", places{n: 256, direct: true, room: map[string]int{"a": reserveDepth / 2}}, reserveDepth / 2, 8*timeout + leaseSlack},
		{"backlog", places{n: 256, direct: true, backlog: map[string]bool{"a": true}}, 0, 0},
		{"PostgreSQL", places{n: 256}, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Helper()
			pl := tt.pl
			pl.now, pl.overflow = now, map[string]bool{}
			if pl.room == nil {
				pl.room = map[string]int{}
			}
			took, first := 0, true
			var last time.Time
			for range 40 {
				end, ok := pl.takeDirect("a", timeout)
				if ok {
					if !first && took > 0 && end.Before(last) {
						t.Fatalf("lease %s before the previous one %s", end, last)
					}
					if first && end != now.Add(time.Duration((reserveDepth-tt.pl.roomOf("a"))/PerEndpointInFlight+1)*timeout+leaseSlack) {
						t.Fatalf("first lease ends %s", end.Sub(now))
					}
					took, last, first = took+1, end, false
				} else if took < tt.takes {
					t.Fatalf("refused after %d, want %d", took, tt.takes)
				}
			}
			if took != tt.takes {
				t.Fatalf("took %d, want %d", took, tt.takes)
			}
			if took > 0 && last.Sub(now) != tt.lastEnd {
				t.Fatalf("last lease ends after %s, want %s", last.Sub(now), tt.lastEnd)
			}
			if pl.direct && took < 40 && !pl.overflow["a"] {
				t.Fatal("deliveries left unleased without a backlog")
			}
			if !pl.direct && pl.overflow["a"] {
				t.Fatal("PostgreSQL keeps no backlog")
			}
		})
	}
}

// TestSettle checks the claim bookkeeping after a turn: an endpoint keeps
// its backlog until a claim took fewer of it than its reserve allowed, and
// a claim that filled its limit makes the next turn claim again.
func TestSettle(t *testing.T) {
	tests := []struct {
		name        string
		backlog     []string
		pl          places
		wantBacklog []string
		wantScan    bool
	}{
		{"overflow becomes backlog", nil, places{overflow: map[string]bool{"a": true}}, []string{"a"}, false},
		{"claim took all due", []string{"a"}, places{claimRan: true, claimN: 100, claimed: map[string]int{"a": 3}}, nil, false},
		{"claim filled the reserve", []string{"a"}, places{claimRan: true, claimN: 100, claimed: map[string]int{"a": reserveDepth}}, []string{"a"}, false},
		{"claim found none", []string{"a", "b"}, places{claimRan: true, claimN: 100, claimed: map[string]int{}}, nil, false},
		{"claim filled its limit", nil, places{claimRan: true, claimN: 5, claimed: map[string]int{"a": 2, "b": 3}}, nil, true},
		{"no claim keeps the backlog", []string{"a"}, places{}, []string{"a"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Helper()
			p := &pump{backlog: map[string]bool{}}
			for _, ep := range tt.backlog {
				p.backlog[ep] = true
			}
			tt.pl.settle(p)
			if len(p.backlog) != len(tt.wantBacklog) {
				t.Fatalf("backlog %v, want %v", p.backlog, tt.wantBacklog)
			}
			for _, ep := range tt.wantBacklog {
				if !p.backlog[ep] {
					t.Fatalf("backlog %v, want %v", p.backlog, tt.wantBacklog)
				}
			}
			if p.scan != tt.wantScan {
				t.Fatalf("scan %v, want %v", p.scan, tt.wantScan)
			}
		})
	}
}
