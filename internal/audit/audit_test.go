package audit

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func TestDetailsObjectMatchesMarshal(t *testing.T) {
	for _, tc := range []struct {
		name  string
		pairs []string
	}{
		{"empty", nil},
		{"ids", []string{"agent_id", "agt_01abc", "token_id", "tok_01xyz"}},
		{"quotes and backslash", []string{"credential_name", `my "bank" \ login`}},
		{"control characters", []string{"credential_name", "a\nb\tc\x00d\x1f"}},
		{"html", []string{"credential_name", "<script>&</script>"}},
		{"unicode", []string{"credential_name", "Bänk 🔑 \u2028 line separator"}},
		{"invalid utf-8", []string{"credential_name", "bad \xff\xfe bytes"}},
		{"empty value", []string{"kind", ""}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := map[string]string{}
			for i := 0; i+1 < len(tc.pairs); i += 2 {
				m[tc.pairs[i]] = tc.pairs[i+1]
			}
			want, err := json.Marshal(m)
			if err != nil {
				t.Fatal(err)
			}
			// json.Marshal sorts keys; the cases give them sorted.
			if got := DetailsObject(tc.pairs...); got != string(want) {
				t.Fatalf("DetailsObject = %s, json.Marshal = %s", got, want)
			}
		})
	}
}

// TestRecordMany writes batches of sizes around the chunk boundaries and
// reads every entry back with its own details.
func TestRecordMany(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		agent := auth.NewPrincipal(auth.KindAgent, "org_a", "agt_a", "tok_a", "t", nil)
		key := auth.NewPrincipal(auth.KindOrgKey, "org_a", "", "key_a", "k", nil)
		total := 0
		for _, n := range []int{0, 1, 2, 3, 7, 128, 129, 300} {
			items := make([]Item, n)
			for i := range items {
				it := Item{OrgID: "org_a", Principal: agent, Action: "test.many", Target: Target{Type: "thing", ID: fmt.Sprintf("n%d-%d", n, i)}}
				switch i % 3 {
				case 0:
					it.DetailsJSON = DetailsObject("i", fmt.Sprint(i), "via", "json")
				case 1:
					it.Details = map[string]any{"i": fmt.Sprint(i), "via": "map"}
				default:
					it.Principal = key // no details at all
				}
				items[i] = it
			}
			if err := db.InTx(ctx, func(tx *store.Tx) error { return RecordMany(ctx, tx, items) }); err != nil {
				t.Fatalf("n=%d: %v", n, err)
			}
			total += n
			got, err := List(ctx, db, "org_a", Filter{Action: "test.many"}, 1000, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != total {
				t.Fatalf("after n=%d: %d entries, want %d", n, len(got), total)
			}
			byTarget := map[string]Entry{}
			for _, e := range got {
				byTarget[e.TargetID] = e
			}
			for i, it := range items {
				e, ok := byTarget[it.Target.ID]
				if !ok {
					t.Fatalf("n=%d: entry %d missing", n, i)
				}
				wantActor := "agt_a"
				if i%3 == 2 {
					wantActor = "key_a"
				}
				if e.ActorID != wantActor || e.CredentialID != it.Principal.CredentialID || e.Action != "test.many" || e.TargetType != "thing" {
					t.Fatalf("n=%d entry %d: %+v", n, i, e)
				}
				switch i % 3 {
				case 0, 1:
					if e.Details["i"] != fmt.Sprint(i) {
						t.Fatalf("n=%d entry %d: details %v", n, i, e.Details)
					}
				default:
					if len(e.Details) != 0 {
						t.Fatalf("n=%d entry %d: details %v, want none", n, i, e.Details)
					}
				}
			}
		}
	})
}

// BenchmarkRecordMany measures the group commit's insert on SQLite; µs/row
// includes the commit's sync, shared by the batch.
func BenchmarkRecordMany(b *testing.B) {
	db := storetest.Open(b, store.SQLite)
	p := auth.NewPrincipal(auth.KindAgent, "org_x", "agt_x", "tok_x", "bench", nil)
	for _, n := range []int{1, 20, 64} {
		items := make([]Item, n)
		for i := range items {
			items[i] = Item{OrgID: "org_x", Principal: p, Action: "vault.totp", Target: Target{Type: "credential", ID: "crd_x"},
				DetailsJSON: DetailsObject("agent_id", "agt_x", "credential_name", "bench", "kind", "login", "token_id", "tok_x")}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if err := db.InTx(context.Background(), func(tx *store.Tx) error { return RecordMany(context.Background(), tx, items) }); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/row")
		})
	}
}
