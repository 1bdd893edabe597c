package inbound_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/email/inbound"
)

// TestBatchPoisonMessage stores a batch in which one message cannot be
// stored: the others must be stored and dequeued, and only the poison one
// stays queued with the failure recorded for a retry.
func TestBatchPoisonMessage(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		ag := env.NewAgent("batch", "email:read")
		ctx := context.Background()
		p := inbound.New(env.App.DB, env.App.Mailbox, inbound.Config{}, nil)
		var raws [][]byte
		for i := range 4 {
			raws = append(raws, []byte(mail("alice@partner.test", ag.Address, fmt.Sprintf("batch %d", i), "hello")))
		}
		const bad = 2
		ids, err := inbound.StoreBatchWithPoison(ctx, p, ag.Address, raws, bad)
		if err != nil {
			t.Fatal(err)
		}
		var stored int
		if err := env.App.DB.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE inbox_id = $1`, ag.InboxID).Scan(&stored); err != nil {
			t.Fatal(err)
		}
		if stored != len(raws)-1 {
			t.Errorf("stored %d messages, want %d", stored, len(raws)-1)
		}
		for i, id := range ids {
			var attempts int
			var lastErr string
			err := env.App.DB.QueryRowContext(ctx, `SELECT attempts, last_error FROM inbound_queue WHERE id = $1`, id).Scan(&attempts, &lastErr)
			switch {
			case i == bad && (err != nil || attempts != 1 || lastErr == ""):
				t.Errorf("poison message: attempts %d, last_error %q, err %v; want one recorded failure", attempts, lastErr, err)
			case i != bad && err == nil:
				t.Errorf("message %d still queued after its batch", i)
			}
		}
	})
}
