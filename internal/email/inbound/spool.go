package inbound

import (
	"context"
	"fmt"

	"github.com/agentsvc/agentsvc/internal/store"
)

// groupCommit writes queue rows for many concurrent SMTP sessions in one
// transaction: each commit is a disk flush (synchronous=FULL on SQLite, WAL
// flush on PostgreSQL), so sixteen sessions waiting for their 250 share one
// flush instead of queueing for sixteen. Each caller still returns only
// after the transaction holding its row committed.
type groupCommit struct {
	db  *store.DB
	req chan spoolReq
}

type spoolReq struct {
	row  queueRow
	done chan error
}

// maxGroup bounds the rows of one transaction.
const maxGroup = 64

func newGroupCommit(db *store.DB) *groupCommit {
	return &groupCommit{db: db, req: make(chan spoolReq)}
}

// insert makes row durable; it waits for the committer (started by
// Pipeline.Run) as long as the session may.
func (g *groupCommit) insert(ctx context.Context, row queueRow) error {
	r := spoolReq{row: row, done: make(chan error, 1)}
	select {
	case g.req <- r:
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-r.done:
		return err
	case <-ctx.Done():
		// The row may still commit; the client then gets no 250 and
		// retries, and the duplicate check drops the second copy.
		return ctx.Err()
	}
}

// run commits groups until ctx ends.
func (g *groupCommit) run(ctx context.Context) {
	for {
		var batch []spoolReq
		select {
		case <-ctx.Done():
			return
		case r := <-g.req:
			batch = append(batch, r)
		}
	more:
		for len(batch) < maxGroup {
			select {
			case r := <-g.req:
				batch = append(batch, r)
			default:
				break more
			}
		}
		// A commit must not be cut short by shutdown after the rows were
		// written: the sessions are waiting to say 250.
		err := g.db.InTx(context.WithoutCancel(ctx), func(tx *store.Tx) error {
			for _, r := range batch {
				if err := insertRow(ctx, tx, r.row); err != nil {
					return err
				}
			}
			return nil
		})
		for _, r := range batch {
			r.done <- err
		}
	}
}

func insertRow(ctx context.Context, tx *store.Tx, r queueRow) error {
	_, err := tx.ExecContext(context.WithoutCancel(ctx), `INSERT INTO inbound_queue (id, blob_path, size, sha256, remote_ip, helo, mail_from, recipients, tls,
		received_at, attempts, claimed_until, last_error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, '')`,
		r.ID, r.BlobPath, r.Size, r.SHA256, r.RemoteIP, r.Helo, r.MailFrom, r.Recipients, r.TLS, r.ReceivedAt, r.ClaimedUntil)
	if err != nil {
		return fmt.Errorf("spool message: %w", err)
	}
	return nil
}
