package delivery

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"mime"
	"net/textproto"
	"strings"

	"github.com/jhillyerd/enmime/v2"
	"github.com/jhillyerd/enmime/v2/dsn"

	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Backend wraps the SMTP server's backend (the inbound pipeline): mail to a
// return path bounces+<row id>@<domain> is a report about an outbound
// message and is handled here; everything else goes on to next.
func (s *Service) Backend(next smtpserver.Backend) smtpserver.Backend {
	return &reportBackend{s: s, next: next}
}

type reportBackend struct {
	s    *Service
	next smtpserver.Backend
}

// bounceToken returns the queue row id of a return-path address.
func bounceToken(rcpt string) (string, bool) {
	local, _, ok := strings.Cut(strings.ToLower(strings.TrimSpace(rcpt)), "@")
	if !ok {
		return "", false
	}
	tok, ok := strings.CutPrefix(local, "bounces+")
	if !ok || !ids.Valid("dlv", tok) {
		return "", false
	}
	return tok, true
}

func (b *reportBackend) CheckRecipient(ctx context.Context, rcpt string) error {
	tok, ok := bounceToken(rcpt)
	if !ok {
		return b.next.CheckRecipient(ctx, rcpt)
	}
	var one int
	err := b.s.db.QueryRowContext(ctx, `SELECT 1 FROM outbound_queue WHERE id = $1`, tok).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return smtpserver.ErrUnknownRecipient
	}
	return err
}

// Deliver handles the reports synchronously, in a transaction committed
// before it returns (and so before the 250), then hands the other
// recipients to the pipeline.
func (b *reportBackend) Deliver(ctx context.Context, env smtpserver.Envelope, raw []byte) error {
	var others []string
	for _, rcpt := range env.Recipients {
		tok, ok := bounceToken(rcpt)
		if !ok {
			others = append(others, rcpt)
			continue
		}
		if err := b.s.HandleReport(ctx, tok, raw); err != nil {
			return err
		}
	}
	if len(others) == 0 {
		return nil
	}
	env.Recipients = others
	return b.next.Deliver(ctx, env, raw)
}

// Report kinds HandleReport recognises.
const (
	ReportBounce    = "bounce"
	ReportDelay     = "delay"
	ReportComplaint = "complaint"
	ReportOther     = "other"
)

// Report is what a message to a return path said.
type Report struct {
	Kind   string
	Status string // DSN Status (5.1.1) or ARF Feedback-Type (abuse)
	Detail string // Diagnostic-Code, or the ARF user agent
}

// ParseReport reads a DSN (multipart/report; report-type=delivery-status,
// RFC 3464) or an ARF feedback report (report-type=feedback-report, RFC
// 5965). Anything else (an auto-reply to the return path) is ReportOther.
func ParseReport(raw []byte) Report {
	root, err := enmime.ReadParts(bytes.NewReader(raw))
	if err != nil || !strings.EqualFold(root.ContentType, "multipart/report") {
		return Report{Kind: ReportOther}
	}
	// enmime leaves ContentTypeParams empty on parsed parts: read the header.
	_, params, _ := mime.ParseMediaType(root.Header.Get("Content-Type"))
	switch strings.ToLower(params["report-type"]) {
	case "feedback-report":
		for p := root.FirstChild; p != nil; p = p.NextSibling {
			if strings.EqualFold(p.ContentType, "message/feedback-report") {
				h := readFields(p.Content)
				return Report{Kind: ReportComplaint, Status: strings.ToLower(h.Get("Feedback-Type")), Detail: h.Get("User-Agent")}
			}
		}
		return Report{Kind: ReportComplaint, Status: "abuse"}
	case "delivery-status":
		rep, err := dsn.ParseReport(root)
		if err != nil || rep == nil {
			return Report{Kind: ReportOther}
		}
		for _, r := range rep.DeliveryStatus.RecipientDSNs {
			action := strings.ToLower(r.Get("Action"))
			out := Report{Status: r.Get("Status"), Detail: r.Get("Diagnostic-Code")}
			switch {
			case dsn.IsFailed(r):
				out.Kind = ReportBounce
				return out
			case action == "delayed":
				out.Kind = ReportDelay
				return out
			}
		}
	}
	return Report{Kind: ReportOther}
}

// readFields parses a block of header fields (the ARF machine-readable part).
func readFields(b []byte) textproto.MIMEHeader {
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(append(bytes.TrimLeft(b, "\r\n"), "\r\n\r\n"...))))
	h, _ := r.ReadMIMEHeader()
	return h
}

// HandleReport applies a report that arrived for queue row id.
func (s *Service) HandleReport(ctx context.Context, id string, raw []byte) error {
	rep := ParseReport(raw)
	if rep.Kind == ReportOther {
		s.log.Info("delivery: mail to a return path that is no report; dropped", "delivery_id", id)
		return nil
	}
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		r, err := readRow(ctx, tx, id)
		if errors.Is(err, sql.ErrNoRows) {
			return nil
		}
		if err != nil {
			return err
		}
		detail := strings.TrimSpace(rep.Status + " " + rep.Detail)
		data := map[string]any{"report": rep.Kind, "status": rep.Status, "detail": rep.Detail}
		switch rep.Kind {
		case ReportBounce:
			if r.State == StateBounced {
				return nil // the same DSN twice
			}
			if _, err := tx.ExecContext(ctx, `UPDATE outbound_queue SET state = 'bounced', leased = FALSE, last_code = 550, last_error = $2, updated_at = $3 WHERE id = $1`,
				id, detail, store.Micros(s.now())); err != nil {
				return fmt.Errorf("record bounce: %w", err)
			}
			return appendEvent(ctx, tx, r, events.MessageBounced, data)
		case ReportDelay:
			return appendEvent(ctx, tx, r, events.MessageDeliveryDelayed, data)
		default:
			data["feedback_type"] = rep.Status
			return appendEvent(ctx, tx, r, events.MessageComplained, data)
		}
	})
}
