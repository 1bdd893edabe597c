package vault

import (
	"context"
	"sync"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

// recorder writes the audit entries of reads (value, code, injection) with
// group commit: entries that arrive while a transaction is committing are
// written together in the next one. A read returns its value only after its
// entry is committed, so the history never misses a read, but on SQLite
// (one writer, a sync per commit) concurrent reads share the sync instead of
// queueing for one each.
type recorder struct {
	db      *store.DB
	mu      sync.Mutex
	pending []pendingEntry
	running bool
}

type pendingEntry struct {
	orgID   string
	p       *auth.Principal
	action  string
	target  audit.Target
	details map[string]any
	done    chan error
}

// record returns once the entry is committed (or failed). If ctx ends first
// the entry may still be written: the history may show a read whose caller
// gave up, never the other way round.
func (r *recorder) record(ctx context.Context, orgID string, p *auth.Principal, action string, target audit.Target, details map[string]any) error {
	e := pendingEntry{orgID: orgID, p: p, action: action, target: target, details: details, done: make(chan error, 1)}
	r.mu.Lock()
	r.pending = append(r.pending, e)
	if !r.running {
		r.running = true
		go r.flush()
	}
	r.mu.Unlock()
	select {
	case err := <-e.done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flush commits batches until none is waiting.
func (r *recorder) flush() {
	for {
		r.mu.Lock()
		batch := r.pending
		r.pending = nil
		if len(batch) == 0 {
			r.running = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		// not the callers' contexts: one caller giving up must not fail the others
		items := make([]audit.Item, len(batch))
		for i, e := range batch {
			items[i] = audit.Item{OrgID: e.orgID, Principal: e.p, Action: e.action, Target: e.target, Details: e.details}
		}
		err := r.db.InTx(context.Background(), func(tx *store.Tx) error {
			return audit.RecordMany(context.Background(), tx, items)
		})
		for _, e := range batch {
			e.done <- err
		}
	}
}
