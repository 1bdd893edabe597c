package outbound

import (
	"context"
	"fmt"
	"sync"

	"github.com/agentsvc/agentsvc/internal/store"
)

// maxGroup bounds the sends committed in one transaction, so one commit
// (and the answers waiting for it) never grows without limit.
const maxGroup = 128

// committer commits concurrent sends together (group commit): the sends
// that arrive while a transaction is committing are written in the next
// one, each inside its own savepoint, so on SQLite (one writer, one sync
// per commit) concurrent sends share a sync instead of queueing for one
// each. A send that fails (quota, idempotency race, anything) rolls back
// only its savepoint and fails alone; if the shared transaction itself
// fails, every send of the group is retried in a transaction of its own.
// A send returns only after its commit: the API answers 202 only for a
// durable send.
type committer struct {
	db      *store.DB
	mu      sync.Mutex
	pending []*unit
	running bool
}

// committerFor returns the committer of an organization's sends. SQLite
// has one writer, so all sends share one; on PostgreSQL the sends of one
// organization are serial anyway (its quota and event-log locks are held
// to the commit), while different organizations commit in parallel.
func (s *Service) committerFor(orgID string) *committer {
	if s.db.Dialect() != store.Postgres {
		return &s.group
	}
	if c, ok := s.groups.Load(orgID); ok {
		return c.(*committer)
	}
	c, _ := s.groups.LoadOrStore(orgID, &committer{db: s.db})
	return c.(*committer)
}

// unit is one send's writes. fn may run more than once (the group failed,
// then alone): it must reset whatever it reports through its closure.
type unit struct {
	fn   func(ctx context.Context, tx *store.Tx) error
	done chan error
}

// run calls fn; a panic (a bug) fails this send only, as it failed only
// its own request before sends shared a goroutine.
func (u *unit) run(ctx context.Context, tx *store.Tx) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("outbound: send panicked: %v", r)
		}
	}()
	return u.fn(ctx, tx)
}

// do runs fn in a group transaction and returns once it committed (nil) or
// failed. The transaction does not follow the caller's context: a caller
// giving up must not fail the others, so its send may still commit, as it
// may when a client disconnects just before an answer.
func (c *committer) do(fn func(ctx context.Context, tx *store.Tx) error) error {
	u := &unit{fn: fn, done: make(chan error, 1)}
	c.mu.Lock()
	c.pending = append(c.pending, u)
	if !c.running {
		c.running = true
		go c.flush()
	}
	c.mu.Unlock()
	return <-u.done
}

// flush commits groups until none is waiting.
func (c *committer) flush() {
	ctx := context.Background()
	for {
		c.mu.Lock()
		n := min(len(c.pending), maxGroup)
		if n == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		group := append([]*unit(nil), c.pending[:n]...)
		c.pending = append(c.pending[:0], c.pending[n:]...)
		c.mu.Unlock()
		errs := c.commit(ctx, group)
		for i, err := range errs {
			group[i].done <- err
		}
	}
}

// commit writes a group and returns each unit's outcome.
func (c *committer) commit(ctx context.Context, group []*unit) []error {
	errs := make([]error, len(group))
	if len(group) == 1 { // alone: no savepoint needed
		errs[0] = c.db.InTx(ctx, func(tx *store.Tx) error { return group[0].run(ctx, tx) })
		return errs
	}
	err := c.db.InTx(ctx, func(tx *store.Tx) error {
		for i, u := range group {
			errs[i] = tx.Savepoint(ctx, func() error { return u.run(ctx, tx) })
		}
		return nil
	})
	if err == nil {
		return errs
	}
	// The shared transaction failed (its commit, or a savepoint statement):
	// nothing of it is written; each send alone.
	for i, u := range group {
		errs[i] = c.db.InTx(ctx, func(tx *store.Tx) error { return u.run(ctx, tx) })
	}
	return errs
}
