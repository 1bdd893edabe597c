package vault

import (
	"context"
	"sync"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

// recorder writes the audit entries of reads (value, code, refusal) with
// group commit: entries that arrive while a transaction is committing are
// written together in the next one. A read returns its value only after its
// entry is committed, so the history never misses a read, but on SQLite
// (one writer, a sync per commit) concurrent reads share the sync instead of
// queueing for one each.
type recorder struct {
	db      *store.DB
	mu      sync.Mutex
	pending *batch // entries for the next transaction; nil when none
	running bool   // a flush goroutine is committing
}

// batch is one transaction's worth of entries. Its callers wait on done
// together: one channel per commit, not one per entry.
type batch struct {
	items []audit.Item
	done  chan struct{} // closed when err is set
	err   error
}

// record returns once the entry is committed (or failed). If ctx ends first
// the entry may still be written: the history may show a read whose caller
// gave up, never the other way round. details is a JSON object
// (audit.DetailsObject).
func (r *recorder) record(ctx context.Context, orgID string, p *auth.Principal, action string, target audit.Target, details string) error {
	r.mu.Lock()
	b := r.pending
	if b == nil {
		b = &batch{done: make(chan struct{})}
		r.pending = b
	}
	b.items = append(b.items, audit.Item{OrgID: orgID, Principal: p, Action: action, Target: target, DetailsJSON: details})
	if !r.running {
		r.running = true
		go r.flush()
	}
	r.mu.Unlock()
	select {
	case <-b.done:
		return b.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// flush commits batches until none is waiting.
func (r *recorder) flush() {
	for {
		r.mu.Lock()
		b := r.pending
		r.pending = nil
		if b == nil {
			r.running = false
			r.mu.Unlock()
			return
		}
		r.mu.Unlock()
		// not the callers' contexts: one caller giving up must not fail the others
		b.err = r.db.InTx(context.Background(), func(tx *store.Tx) error {
			return audit.RecordMany(context.Background(), tx, b.items)
		})
		close(b.done)
	}
}
