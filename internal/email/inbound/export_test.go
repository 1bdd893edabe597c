package inbound

import (
	"context"
	"fmt"

	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
	"github.com/agentsvc/agentsvc/internal/store"
)

// StoreBatchWithPoison spools raws to rcpt through Deliver, prepares them,
// points the delivery of raws[bad] at an inbox that does not exist (a store
// failure only that message has), and stores all of them as one batch. It
// returns the queue ids in order. The pipeline's workers must not run.
func StoreBatchWithPoison(ctx context.Context, p *Pipeline, rcpt string, raws [][]byte, bad int) ([]string, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go p.runWriters(ctx)
	for _, raw := range raws {
		if err := p.Deliver(ctx, smtpserver.Envelope{MailFrom: "a@b.test", Recipients: []string{rcpt}}, raw); err != nil {
			return nil, err
		}
	}
	var ids []string
	var batch []prepared
	for i := range raws {
		row := <-p.work
		prep, err := p.prepare(ctx, row)
		if err != nil {
			return nil, err
		}
		if len(prep.deliveries) != 1 {
			return nil, fmt.Errorf("message %d: %d deliveries", i, len(prep.deliveries))
		}
		if i == bad {
			d := &prep.deliveries[0]
			d.rcpt.InboxID = "inb_does_not_exist"
			if d.msg, err = mailbox.Render(newMessage(d.rcpt, row, parsedOf(raws[i]), mailbox.Screening{}, mailbox.Authentication{})); err != nil {
				return nil, err
			}
		}
		ids = append(ids, row.ID)
		batch = append(batch, prep)
	}
	p.storeBatch(ctx, batch)
	return ids, nil
}

func parsedOf(raw []byte) *content.Parsed {
	p, _ := content.Parse(raw)
	return p
}

// SpoolFor writes one spooled message per entry of orgs (its recipient
// inboxes per organization) in a single transaction, as the writer does for
// a group of sessions, and returns each session's answer.
func SpoolFor(ctx context.Context, p *Pipeline, orgs []map[string]int64) ([]error, error) {
	spool := make([]spoolReq, len(orgs))
	for i, o := range orgs {
		id := ids.New("inq")
		spool[i] = spoolReq{row: queueRow{ID: id, BlobPath: mailbox.DBPrefix + "inbound/test/" + id + ".eml", Size: 10,
			Recipients: "[]", QuotaCounted: true, orgs: o}, raw: []byte("Subject: x\r\n\r\nx\r\n"), done: make(chan error, 1)}
	}
	err := p.db.InTx(ctx, func(tx *store.Tx) error { return p.spoolAll(ctx, tx, spool) })
	if err != nil {
		return nil, err
	}
	answer(spool, nil)
	out := make([]error, len(spool))
	for i, r := range spool {
		out[i] = <-r.done
	}
	return out, nil
}
