package delivery

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Fresh rows skip the claim transaction: when this process's workers run
// and their backlog is short, Service.Enqueue writes the rows already
// leased to this process (leased, next_attempt_at = now + Lease) and hands
// them to the workers in memory right after the send's commit
// (store.Tx.AfterCommit), with the signed message itself, so a send costs
// the delivery side no claim commit and no re-read. The durable state is
// the same as after a claim: a crash leaves leased rows, which are taken
// again like any claimed row whose worker died (SQLite: at start;
// PostgreSQL: when the lease lapses). Retries, rows queued while the
// backlog is long and rows of other processes go through the dispatcher's
// claim as before.

// maxHandedRaw is the largest message handed to a worker in memory; a
// larger one is read from its blob when attempted, so the backlog never
// holds much memory.
const maxHandedRaw = 256 << 10

// freshBacklog bounds the rows waiting in memory for a worker beyond which
// new rows are queued unleased for the dispatcher: a row leased at insert
// must reach a worker well within its lease.
const freshBacklog = 512

// rowQueue is the workers' in-memory backlog: fresh rows and claimed rows.
type rowQueue struct {
	mu    sync.Mutex
	rows  []row
	ready chan struct{} // signalled when rows are waiting
	// drained is called when a pop empties the queue (the dispatcher may
	// claim again).
	drained func()
}

func newRowQueue(drained func()) *rowQueue {
	return &rowQueue{ready: make(chan struct{}, 1), drained: drained}
}

func (q *rowQueue) push(rs ...row) {
	if len(rs) == 0 {
		return
	}
	q.mu.Lock()
	q.rows = append(q.rows, rs...)
	q.mu.Unlock()
	q.signal()
}

func (q *rowQueue) signal() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// pop waits for a row; false when ctx ended (rows left are released at
// shutdown, not attempted with a dead context).
func (q *rowQueue) pop(ctx context.Context) (row, bool) {
	for {
		if ctx.Err() != nil {
			return row{}, false
		}
		q.mu.Lock()
		if n := len(q.rows); n > 0 {
			r := q.rows[0]
			q.rows[0] = row{}
			q.rows = q.rows[1:]
			left := n - 1
			q.mu.Unlock()
			if left > 0 {
				q.signal() // wake the next idle worker
			} else if q.drained != nil {
				q.drained()
			}
			return r, true
		}
		q.mu.Unlock()
		select {
		case <-ctx.Done():
			return row{}, false
		case <-q.ready:
		}
	}
}

func (q *rowQueue) len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.rows)
}

// takeAll empties the queue (at shutdown).
func (q *rowQueue) takeAll() []row {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.rows
	q.rows = nil
	return out
}

// Enqueue writes one queue row per recipient in tx, like the package-level
// Enqueue, but when this process's workers run and have room the rows are
// leased to them at once and handed over with raw (the signed message,
// already durable in tx) after the commit; otherwise the dispatcher is
// woken to claim them.
func (s *Service) Enqueue(ctx context.Context, tx *store.Tx, j Job, raw []byte) ([]Recipient, error) {
	if !s.running.Load() || s.queue.len()+len(j.Recipients) > freshBacklog {
		return Enqueue(ctx, tx, j)
	}
	if len(raw) > maxHandedRaw {
		raw = nil
	}
	now := s.now()
	at, lease := store.Micros(now), store.Micros(now.Add(s.cfg.Lease))
	out := make([]Recipient, 0, len(j.Recipients))
	fresh := make([]row, 0, len(j.Recipients))
	for _, rcpt := range j.Recipients {
		id := ids.New("dlv")
		r := row{ID: id, OrgID: j.OrgID, InboxID: j.InboxID, MessageID: j.MessageID, ThreadID: j.ThreadID, MailFrom: ReturnPath(id, j.Domain),
			Rcpt: rcpt, BlobPath: j.BlobPath, State: StateQueued, CreatedAt: at, raw: raw}
		_, err := tx.ExecContext(ctx, `INSERT INTO outbound_queue (id, org_id, inbox_id, message_id, thread_id, mail_from, rcpt, blob_path,
			state, leased, attempts, next_attempt_at, last_code, last_error, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', TRUE, 0, $9, 0, '', $10, $10)`,
			r.ID, r.OrgID, r.InboxID, r.MessageID, r.ThreadID, r.MailFrom, r.Rcpt, r.BlobPath, lease, at)
		if err != nil {
			return nil, fmt.Errorf("enqueue: %w", err)
		}
		fresh = append(fresh, r)
		out = append(out, Recipient{ID: id, Address: rcpt, Status: StateQueued, UpdatedAt: store.Time(at)})
	}
	tx.AfterCommit(func() { s.queue.push(fresh...) })
	return out, nil
}

// releaseUnattempted gives rows that waited in memory at shutdown back to
// the queue at once, instead of when their lease lapses (a later start or
// another node takes them).
func (s *Service) releaseUnattempted(ctx context.Context) {
	left := s.queue.takeAll()
	if len(left) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	now := store.Micros(s.now())
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		for _, r := range left {
			if _, err := tx.ExecContext(ctx, `UPDATE outbound_queue SET leased = FALSE, next_attempt_at = $2 WHERE id = $1 AND state = 'queued'`,
				r.ID, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		s.log.Warn("delivery: release rows at shutdown (they are taken again when their lease lapses)", "rows", len(left), "err", err)
	}
}
