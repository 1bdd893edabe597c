package inbound

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/store"
)

// The writers commit, in each transaction, whatever is waiting: the raw
// messages and queue rows of SMTP sessions waiting to say 250 (the spool)
// and the messages the workers prepared (the store). Each commit is a disk
// flush (synchronous=FULL on SQLite, the WAL flush on PostgreSQL), so
// sixteen sessions share one flush instead of queueing for sixteen. On
// SQLite, with its one write connection, a single writer takes both spool
// and store, so they share the flush too and never wait for each other's
// commit (see runWriters). Each session still returns only after the
// transaction holding its row committed.

// spoolReq is a session waiting for its message to be durable.
type spoolReq struct {
	row  queueRow
	raw  []byte
	done chan error
}

// Bounds of one write transaction.
const (
	maxGroup      = 64 // spooled messages
	maxStoreBatch = 64 // prepared messages
)

// spoolInsert makes row and raw durable; it waits for the writer (started
// by Run) as long as the session may.
func (p *Pipeline) spoolInsert(ctx context.Context, row queueRow, raw []byte) error {
	r := spoolReq{row: row, raw: raw, done: make(chan error, 1)}
	select {
	case p.spool <- r:
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

// runWriters runs the writers until ctx ends. On SQLite one writer takes
// both the spool and the store: there is one write connection, so sharing
// its transactions saves a flush per cycle. On PostgreSQL each
// transaction's statements are network round trips, and transactions run
// side by side on their own connections: the spool gets its own writer, so
// a session's 250 does not wait for a batch of stored messages. (One store
// writer only: two would take thread rows and the event log's lock in
// different orders.)
func (p *Pipeline) runWriters(ctx context.Context) {
	if p.db.Dialect() == store.SQLite {
		p.writeLoop(ctx, p.spool, p.store)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { p.writeLoop(ctx, p.spool, nil) })
	wg.Go(func() { p.writeLoop(ctx, nil, p.store) })
	wg.Wait()
}

// writeLoop writes what comes from spoolIn and storeIn (either may be nil)
// until ctx ends. Batches form only under load: a lone message is written
// at once.
func (p *Pipeline) writeLoop(ctx context.Context, spoolIn chan spoolReq, storeIn chan prepared) {
	spool := make([]spoolReq, 0, maxGroup)
	batch := make([]prepared, 0, maxStoreBatch)
	for {
		spool, batch = spool[:0], batch[:0]
		select {
		case <-ctx.Done():
			return
		case r := <-spoolIn:
			spool = append(spool, r)
		case b := <-storeIn:
			batch = append(batch, b)
		}
	more:
		for {
			// A full side stops taking (a nil channel never delivers).
			spoolCh, storeCh := spoolIn, storeIn
			if len(spool) == maxGroup {
				spoolCh = nil
			}
			if len(batch) == maxStoreBatch {
				storeCh = nil
			}
			if spoolCh == nil && storeCh == nil {
				break
			}
			select {
			case r := <-spoolCh:
				spool = append(spool, r)
			case b := <-storeCh:
				batch = append(batch, b)
			default:
				break more
			}
		}
		p.write(ctx, spool, batch)
	}
}

// write commits spool and batch in one transaction. If that fails, the
// spool is written alone (its sessions are waiting) and the prepared
// messages each on their own, so a poison message fails only itself.
func (p *Pipeline) write(ctx context.Context, spool []spoolReq, batch []prepared) {
	// A commit must not be cut short by shutdown once rows are written:
	// sessions are waiting to say 250.
	wctx := context.WithoutCancel(ctx)
	err := p.db.InTx(wctx, func(tx *store.Tx) error {
		for _, r := range spool {
			if err := p.insertRow(wctx, tx, r.row, r.raw); err != nil {
				return err
			}
		}
		if len(batch) == 0 {
			return nil
		}
		return p.storeAll(wctx, tx, batch)
	})
	if err != nil && len(spool) > 0 && len(batch) > 0 {
		err = p.db.InTx(wctx, func(tx *store.Tx) error {
			for _, r := range spool {
				if err := p.insertRow(wctx, tx, r.row, r.raw); err != nil {
					return err
				}
			}
			return nil
		})
		for _, r := range spool {
			r.done <- err
		}
		p.storeEach(ctx, batch)
		return
	}
	for _, r := range spool {
		r.done <- err
	}
	if err != nil && len(batch) > 0 {
		if len(batch) == 1 {
			p.fail(ctx, batch[0].row.ID, err)
			return
		}
		p.storeEach(ctx, batch)
	}
}

// storeBatch stores a batch in one transaction, or if that fails each
// message on its own.
func (p *Pipeline) storeBatch(ctx context.Context, batch []prepared) { p.write(ctx, nil, batch) }

// storeEach stores each message in its own transaction, recording failures
// on their queue rows for a retry.
func (p *Pipeline) storeEach(ctx context.Context, batch []prepared) {
	for _, b := range batch {
		err := p.db.InTx(ctx, func(tx *store.Tx) error { return p.storeAll(ctx, tx, []prepared{b}) })
		p.fail(ctx, b.row.ID, err)
	}
}

// insertRow writes the raw message (at r.BlobPath, a database blob path)
// and its queue row.
func (p *Pipeline) insertRow(ctx context.Context, tx *store.Tx, r queueRow, raw []byte) error {
	if _, err := p.blobs.WriteTx(ctx, tx, strings.TrimPrefix(r.BlobPath, mailbox.DBPrefix), raw); err != nil {
		return fmt.Errorf("spool message: %w", err)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO inbound_queue (id, blob_path, size, sha256, remote_ip, helo, mail_from, recipients, tls,
		received_at, attempts, claimed_until, last_error) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, '')`,
		r.ID, r.BlobPath, r.Size, r.SHA256, r.RemoteIP, r.Helo, r.MailFrom, r.Recipients, r.TLS, r.ReceivedAt, r.ClaimedUntil)
	if err != nil {
		return fmt.Errorf("spool message: %w", err)
	}
	return nil
}
