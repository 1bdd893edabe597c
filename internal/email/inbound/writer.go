package inbound

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
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
	// refused is the quota refusal of this message by the transaction
	// that spooled the others (see spoolAll).
	refused error
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
		if err := p.spoolAll(wctx, tx, spool); err != nil {
			return err
		}
		if len(batch) == 0 {
			return nil
		}
		return p.storeAll(wctx, tx, batch)
	})
	if err != nil && len(spool) > 0 && len(batch) > 0 {
		err = p.db.InTx(wctx, func(tx *store.Tx) error { return p.spoolAll(wctx, tx, spool) })
		answer(spool, err)
		p.storeEach(ctx, batch)
		return
	}
	answer(spool, err)
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

// answer tells each waiting session the outcome: the transaction's error,
// else its own quota refusal, else nil (durable: say 250).
func answer(spool []spoolReq, err error) {
	for _, r := range spool {
		if err != nil {
			r.done <- err
		} else {
			r.done <- r.refused
		}
	}
}

// spoolAll counts the spooled messages against their organizations'
// inbound quota (mailbox.ReserveInbound) and writes those the quota allows;
// a refused message is left out and its session answers 452. The
// reservations are taken in the order of organization ids, whatever the
// order of the messages, so that spool transactions of several nodes lock
// the counters' rows in one order. A message for several organizations
// that one of them refuses gives back what the others reserved.
func (p *Pipeline) spoolAll(ctx context.Context, tx *store.Tx, spool []spoolReq) error {
	type claim struct {
		org string
		req int
		n   int64
	}
	var claims []claim
	for i := range spool {
		spool[i].refused = nil
		for org, n := range spool[i].row.orgs {
			claims = append(claims, claim{org, i, n})
		}
	}
	slices.SortFunc(claims, func(a, b claim) int { return cmp.Or(strings.Compare(a.org, b.org), cmp.Compare(a.req, b.req)) })
	now := p.now()
	var granted []claim
	for _, c := range claims {
		r := &spool[c.req]
		if r.refused != nil {
			continue
		}
		if err := mailbox.ReserveInbound(ctx, tx, c.org, c.n, c.n*r.row.Size, now); err != nil {
			if qerr := overQuota(err); errors.Is(qerr, smtpserver.ErrOverQuota) {
				r.refused = qerr
				continue
			}
			if apierr.From(err).Code == apierr.CodeNotFound {
				// The organization is gone: nothing to count, and the worker
				// skips recipients that no longer exist. One such message
				// must not fail the others of the transaction.
				continue
			}
			return err
		}
		granted = append(granted, c)
	}
	for _, c := range granted {
		r := &spool[c.req]
		if r.refused != nil {
			if err := mailbox.ReleaseInbound(ctx, tx, c.org, c.n, c.n*r.row.Size, now); err != nil {
				return err
			}
			continue
		}
		// Each inbox of the organization stores its own copy's bytes.
		if err := mailbox.RecordReservation(ctx, tx, r.row.ID, c.org, c.n*r.row.Size); err != nil {
			return err
		}
	}
	for _, r := range spool {
		if r.refused != nil {
			continue
		}
		if err := p.insertRow(ctx, tx, r.row, r.raw); err != nil {
			return err
		}
	}
	return nil
}

// insertRow writes the raw message (at r.BlobPath, a database blob path)
// and its queue row.
func (p *Pipeline) insertRow(ctx context.Context, tx *store.Tx, r queueRow, raw []byte) error {
	if _, err := p.blobs.WriteTx(ctx, tx, strings.TrimPrefix(r.BlobPath, mailbox.DBPrefix), raw); err != nil {
		return fmt.Errorf("spool message: %w", err)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO inbound_queue (id, blob_path, size, sha256, remote_ip, helo, mail_from, recipients, tls,
		received_at, attempts, claimed_until, last_error, quota_counted) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, '', TRUE)`,
		r.ID, r.BlobPath, r.Size, r.SHA256, r.RemoteIP, r.Helo, r.MailFrom, r.Recipients, r.TLS, r.ReceivedAt, r.ClaimedUntil)
	if err != nil {
		return fmt.Errorf("spool message: %w", err)
	}
	return nil
}
