package inbound

import (
	"context"
	"fmt"

	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
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
