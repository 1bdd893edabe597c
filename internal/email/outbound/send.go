package outbound

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"net/mail"
	"path"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/email"
	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
)

// SendRequest is the reference's send body.
type SendRequest struct {
	To             []string `json:"to"`
	Subject        string   `json:"subject"`
	Text           string   `json:"text"`
	HTML           string   `json:"html"`
	IdempotencyKey string   `json:"idempotency_key"`
	AttachmentIDs  []string `json:"attachment_ids"`
	Labels         []string `json:"labels"`
	DraftID        string   `json:"draft_id"`
}

// ReplyRequest is the body of a reply.
type ReplyRequest struct {
	Text           string   `json:"text"`
	HTML           string   `json:"html"`
	ReplyAll       bool     `json:"reply_all"`
	IdempotencyKey string   `json:"idempotency_key"`
	AttachmentIDs  []string `json:"attachment_ids"`
	Labels         []string `json:"labels"`
}

// ForwardRequest is the body of a forward.
type ForwardRequest struct {
	To             []string `json:"to"`
	Text           string   `json:"text"`
	IdempotencyKey string   `json:"idempotency_key"`
}

// Sent is the answer to send, reply and forward.
type Sent struct {
	ID              string               `json:"id" doc:"The message id (msg_…): GET /api/v1/messages/{id}."`
	ThreadID        string               `json:"thread_id"`
	InboxID         string               `json:"inbox_id"`
	Status          string               `json:"status" enum:"queued" doc:"Always queued: delivery runs in the background; follow it with GET /api/v1/messages/{id}/deliveries or the message.delivered / delivery_delayed / bounced / failed events."`
	MessageIDHeader string               `json:"message_id_header" doc:"The RFC 5322 Message-ID, without angle brackets."`
	Recipients      []delivery.Recipient `json:"recipients"`
	CreatedAt       time.Time            `json:"created_at"`
}

// outgoing is a message ready to validate and queue.
type outgoing struct {
	op, target     string // for the idempotency hash: what was asked of what
	request        any
	inbox          email.Inbox
	to, cc         []mail.Address
	subject        string
	text, html     string
	inReplyTo      string
	references     []string
	uploadIDs      []string
	forwarded      []file
	labels         []string
	draftID        string
	idempotencyKey string
}

// Send sends a new message (or a draft: fields missing from the request
// are taken from the draft named by draft_id).
func (s *Service) Send(ctx context.Context, p *auth.Principal, inboxID string, r SendRequest) (Sent, bool, error) {
	in, err := s.inboxes.Inbox(ctx, p, inboxID)
	if err != nil {
		return Sent{}, false, err
	}
	o := outgoing{op: "send", target: inboxID, request: r, inbox: in, subject: r.Subject, text: r.Text, html: r.HTML,
		uploadIDs: r.AttachmentIDs, labels: r.Labels, draftID: r.DraftID, idempotencyKey: r.IdempotencyKey}
	toList := r.To
	if r.DraftID != "" {
		d, err := s.visibleDraft(ctx, s.db, p, r.DraftID)
		if err != nil || d.InboxID != in.ID {
			if r.IdempotencyKey != "" {
				// The draft may be gone because this very send succeeded.
				if sent, ok, err := s.replay(ctx, in.ID, r.IdempotencyKey, o); ok || err != nil {
					return sent, ok, err
				}
			}
			return Sent{}, false, apierr.NotFound("draft").WithHint("draft_id must name a draft of this inbox")
		}
		if len(toList) == 0 {
			toList = d.To
		}
		if o.subject == "" {
			o.subject = d.Subject
		}
		if o.text == "" && o.html == "" {
			o.text, o.html = d.Text, d.HTML
		}
		if o.uploadIDs == nil {
			o.uploadIDs = d.AttachmentIDs
		}
		if d.ReplyToMessageID != "" {
			if m, err := s.mb.Message(ctx, p, d.ReplyToMessageID); err == nil {
				o.inReplyTo, o.references = m.HeaderID, referencesOf(m)
			}
		}
	}
	if o.to, err = parseAddresses("to", toList); err != nil {
		return Sent{}, false, err
	}
	if len(o.to) == 0 {
		return Sent{}, false, apierr.Invalid("to", "at least one recipient is required")
	}
	if strings.TrimSpace(o.subject) == "" {
		return Sent{}, false, apierr.Invalid("subject", "is required")
	}
	return s.send(ctx, p, o)
}

func referencesOf(m mailbox.Message) []string {
	refs := append([]string{}, m.References...)
	if m.HeaderID != "" {
		refs = append(refs, m.HeaderID)
	}
	if len(refs) > 20 { // keep the first and the latest (RFC 5322 section 3.6.4)
		refs = append(refs[:1], refs[len(refs)-19:]...)
	}
	return refs
}

// prefixed adds "Re: " or "Fwd: " unless the subject carries it already.
func prefixed(prefix, subject string) string {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(subject)), strings.ToLower(prefix)) {
		return subject
	}
	return prefix + " " + subject
}

// answered loads the message a reply or forward answers, and its inbox;
// quarantined mail cannot be answered until a team member releases it.
func (s *Service) answered(ctx context.Context, p *auth.Principal, messageID string) (mailbox.Message, email.Inbox, error) {
	m, err := s.mb.Message(ctx, p, messageID)
	if err != nil {
		return mailbox.Message{}, email.Inbox{}, err
	}
	if m.Quarantined {
		return mailbox.Message{}, email.Inbox{}, apierr.Conflict(apierr.CodeInvalidState, "the message is in quarantine").WithHint("a team member must release it first")
	}
	in, err := s.inboxes.Inbox(ctx, p, m.InboxID)
	if err != nil {
		return mailbox.Message{}, email.Inbox{}, err
	}
	return m, in, nil
}

// Reply answers a message: to its Reply-To (else its sender), with
// reply_all also to its other recipients except the inbox itself.
func (s *Service) Reply(ctx context.Context, p *auth.Principal, messageID string, r ReplyRequest) (Sent, bool, error) {
	m, in, err := s.answered(ctx, p, messageID)
	if err != nil {
		return Sent{}, false, err
	}
	own := strings.ToLower(in.Address)
	seen := map[string]bool{own: true}
	var to, cc []mail.Address
	add := func(list *[]mail.Address, a content.Address) {
		k := strings.ToLower(a.Address)
		if k == "" || seen[k] {
			return
		}
		if pa, err := parseAddress("to", a.Address); err == nil {
			seen[k] = true
			pa.Name = a.Name
			if checkHeaderText("to", a.Name, 200) != nil {
				pa.Name = ""
			}
			*list = append(*list, pa)
		}
	}
	if m.Direction == mailbox.Outbound {
		for _, a := range m.To {
			add(&to, a)
		}
	} else if len(m.ReplyTo) > 0 {
		for _, a := range m.ReplyTo {
			add(&to, a)
		}
	} else {
		add(&to, m.From)
	}
	if r.ReplyAll {
		for _, a := range append(append([]content.Address{}, m.To...), m.Cc...) {
			add(&cc, a)
		}
	}
	if len(to) == 0 {
		if len(cc) == 0 {
			return Sent{}, false, apierr.Invalid("message_id", "the message has no address to reply to")
		}
		to, cc = cc[:1], cc[1:]
	}
	subject := m.Subject
	if strings.TrimSpace(subject) == "" {
		subject = "(no subject)"
	}
	o := outgoing{op: "reply", target: messageID, request: r, inbox: in, to: to, cc: cc, subject: prefixed("Re:", subject),
		text: r.Text, html: r.HTML, inReplyTo: m.HeaderID, references: referencesOf(m), uploadIDs: r.AttachmentIDs, labels: r.Labels,
		idempotencyKey: r.IdempotencyKey}
	return s.send(ctx, p, o)
}

// Forward sends a message on with the caller's text above it, quoting the
// original and carrying its attachments.
func (s *Service) Forward(ctx context.Context, p *auth.Principal, messageID string, r ForwardRequest) (Sent, bool, error) {
	m, in, err := s.answered(ctx, p, messageID)
	if err != nil {
		return Sent{}, false, err
	}
	to, err := parseAddresses("to", r.To)
	if err != nil {
		return Sent{}, false, err
	}
	if len(to) == 0 {
		return Sent{}, false, apierr.Invalid("to", "at least one recipient is required")
	}
	var files []file
	for _, a := range m.Attachments {
		d, err := s.mb.AttachmentBytes(ctx, p, a.ID)
		if err != nil {
			return Sent{}, false, fmt.Errorf("forward attachment %s: %w", a.ID, err)
		}
		files = append(files, file{Filename: a.Filename, ContentType: a.ContentType, Data: d.Data})
	}
	date := m.ReceivedAt
	if m.SentAt != nil {
		date = *m.SentAt
	}
	toNames := make([]string, len(m.To))
	for i, a := range m.To {
		toNames[i] = a.String()
	}
	header := fmt.Sprintf("---------- Forwarded message ---------\nFrom: %s\nDate: %s\nSubject: %s\nTo: %s\n",
		m.From.String(), date.UTC().Format(time.RFC1123Z), m.Subject, strings.Join(toNames, ", "))
	text := strings.TrimRight(r.Text, "\n") + "\n\n" + header + "\n" + m.Text
	htmlBody := ""
	if m.HTML != "" {
		htmlBody = "<div>" + strings.ReplaceAll(html.EscapeString(r.Text), "\n", "<br>") + "</div><br><div>" +
			strings.ReplaceAll(html.EscapeString(header), "\n", "<br>") + "</div><blockquote>" + m.HTML + "</blockquote>"
	}
	o := outgoing{op: "forward", target: messageID, request: r, inbox: in, to: to, subject: prefixed("Fwd:", m.Subject),
		text: text, html: htmlBody, forwarded: files, idempotencyKey: r.IdempotencyKey}
	return s.send(ctx, p, o)
}

func (o outgoing) hash() string {
	raw, _ := json.Marshal(map[string]any{"op": o.op, "target": o.target, "request": o.request})
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])
}

// replay returns the stored result of an earlier send with the same key:
// (result, true) for the identical request, 409 for another one.
func (s *Service) replay(ctx context.Context, inboxID, key string, o outgoing) (Sent, bool, error) {
	var hash, resp string
	err := s.db.QueryRowContext(ctx, `SELECT request_hash, response_json FROM outbound_messages WHERE inbox_id = $1 AND idempotency_key = $2`,
		inboxID, key).Scan(&hash, &resp)
	if errors.Is(err, sql.ErrNoRows) {
		return Sent{}, false, nil
	}
	if err != nil {
		return Sent{}, false, fmt.Errorf("idempotency: %w", err)
	}
	if hash != o.hash() {
		return Sent{}, false, apierr.Conflict(apierr.CodeIdempotencyConflict, "this idempotency key was used with a different request").
			WithHint("use a new idempotency key for a new action")
	}
	var sent Sent
	if err := json.Unmarshal([]byte(resp), &sent); err != nil {
		return Sent{}, false, fmt.Errorf("stored response: %w", err)
	}
	if o.draftID != "" {
		// The reference: the draft goes even when the send is deduplicated.
		var blobs []string
		err := s.db.InTx(ctx, func(tx *store.Tx) error {
			var e error
			blobs, e = deleteDraft(ctx, tx, o.draftID)
			return e
		})
		if err != nil {
			return Sent{}, false, err
		}
		s.removeBlobs(blobs)
	}
	return sent, true, nil
}

// send validates, composes, signs and queues; the bool is true for a
// deduplicated retry.
func (s *Service) send(ctx context.Context, p *auth.Principal, o outgoing) (Sent, bool, error) {
	if len(o.idempotencyKey) > maxIdempotencyBytes {
		return Sent{}, false, apierr.Invalid("idempotency_key", "must be at most %d characters", maxIdempotencyBytes)
	}
	if o.idempotencyKey != "" {
		if sent, ok, err := s.replay(ctx, o.inbox.ID, o.idempotencyKey, o); ok || err != nil {
			return sent, ok, err
		}
	}
	if len(o.to)+len(o.cc) > MaxRecipients {
		return Sent{}, false, apierr.Invalid("to", "at most %d recipients per message", MaxRecipients)
	}
	if err := checkHeaderText("subject", o.subject, maxSubjectRunes); err != nil {
		return Sent{}, false, err
	}
	if o.text == "" && o.html == "" {
		return Sent{}, false, apierr.Invalid("text", "text or html is required")
	}
	if len(o.text) > maxBodyBytes+64<<10 || len(o.html) > maxBodyBytes+64<<10 {
		return Sent{}, false, apierr.Invalid("text", "text and html may be at most %d bytes each", maxBodyBytes)
	}
	labels := make([]string, 0, len(o.labels))
	for _, l := range o.labels {
		n, err := mailbox.NormalizeLabel(l)
		if err != nil {
			return Sent{}, false, err
		}
		labels = append(labels, n)
	}
	files, _, err := s.loadFiles(ctx, p, o.inbox.ID, o.draftID, o.uploadIDs, true)
	if err != nil {
		return Sent{}, false, err
	}
	files = append(files, o.forwarded...)
	var total int
	for _, f := range files {
		total += len(f.Data)
	}
	if len(files) > MaxAttachments {
		return Sent{}, false, apierr.Invalid("attachment_ids", "at most %d attachments per message", MaxAttachments)
	}
	if total > MaxAttachmentBytes {
		return Sent{}, false, &apierr.Error{Status: 413, Code: apierr.CodePayloadTooLarge,
			Message: fmt.Sprintf("attachments may total at most %d bytes (10 MB)", MaxAttachmentBytes)}
	}
	plan, err := s.plan(ctx, p.OrgID)
	if err != nil {
		return Sent{}, false, err
	}
	if len(files) > 0 && !plan.OutboundAttachments {
		return Sent{}, false, apierr.QuotaExceeded("outbound_attachments", "the %s plan sends no attachments", plan.Name).
			WithHint("move the organization to the paid plan, or send a link instead")
	}

	_, domain, _ := strings.Cut(o.inbox.Address, "@")
	ds, err := s.signer(ctx, p.OrgID, domain)
	if err != nil {
		return Sent{}, false, err
	}
	now := s.now().UTC()
	l := letter{From: mail.Address{Name: o.inbox.DisplayName, Address: o.inbox.Address}, To: o.to, Cc: o.cc, Subject: o.subject,
		Text: o.text, HTML: o.html, MessageID: newMessageID(domain), InReplyTo: o.inReplyTo, References: o.references, Date: now, Files: files}
	if checkHeaderText("display_name", l.From.Name, 200) != nil {
		l.From.Name = ""
	}
	raw, parsed, err := s.build(ctx, l, ds)
	if err != nil {
		return Sent{}, false, err
	}
	sum := sha256.Sum256(raw)
	blobName := path.Join("outbound", now.Format("2006/01/02"), hex.EncodeToString(sum[:8])+"-"+strings.SplitN(l.MessageID, "@", 2)[0]+".eml")
	// Small messages (nearly all) go in the send transaction; a large one
	// (attachments) is a file, synced before the transaction as it would
	// otherwise hold up the commit every concurrent send waits for.
	fileBlob := ""
	if len(raw) > maxRowBlob {
		if err := s.blobs.Write(blobName, raw); err != nil {
			return Sent{}, false, err
		}
		fileBlob = blobName
	}
	rcpts := make([]string, 0, len(o.to)+len(o.cc))
	for _, a := range append(append([]mail.Address{}, o.to...), o.cc...) {
		rcpts = append(rcpts, a.Address)
	}

	var (
		sent       Sent
		draftBlobs []string
	)
	var key any
	if o.idempotencyKey != "" {
		key = o.idempotencyKey
	}
	// The writes go through the group committer (commit.go): its context,
	// not the request's, so one caller giving up fails no other send.
	err = s.committerFor(p.OrgID).do(func(ctx context.Context, tx *store.Tx) error {
		draftBlobs = nil
		if err := s.checkQuotas(ctx, tx, p.OrgID, plan, rcpts, now); err != nil {
			return err
		}
		// The signed message is a row of this transaction: durable with
		// the commit, no file to create and sync.
		blob := fileBlob
		if blob == "" {
			var err error
			if blob, err = s.blobs.WriteTx(ctx, tx, blobName, raw); err != nil {
				return err
			}
		}
		st, err := mailbox.InsertMessage(ctx, tx, mailbox.NewMessage{OrgID: p.OrgID, InboxID: o.inbox.ID, InboxAddress: o.inbox.Address,
			Direction: mailbox.Outbound, Parsed: parsed, Size: int64(len(raw)), SHA256: hex.EncodeToString(sum[:]), BlobPath: blob,
			ReceivedAt: now, Labels: labels})
		if err != nil {
			return err
		}
		m := st.Message
		job := delivery.Job{OrgID: p.OrgID, InboxID: o.inbox.ID, MessageID: m.ID, ThreadID: m.ThreadID, Domain: domain, BlobPath: blob, Recipients: rcpts}
		var recipients []delivery.Recipient
		if s.delivery != nil {
			recipients, err = s.delivery.Enqueue(ctx, tx, job, raw)
		} else {
			recipients, err = delivery.Enqueue(ctx, tx, job)
		}
		if err != nil {
			return err
		}
		sent = Sent{ID: m.ID, ThreadID: m.ThreadID, InboxID: o.inbox.ID, Status: "queued", MessageIDHeader: l.MessageID,
			Recipients: recipients, CreatedAt: now}
		resp, _ := json.Marshal(sent)
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbound_messages (message_id, org_id, inbox_id, idempotency_key, request_hash, response_json, recipients, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, m.ID, p.OrgID, o.inbox.ID, key, o.hash(), string(resp), len(rcpts), store.Micros(now)); err != nil {
			if store.IsUniqueViolation(err) {
				return errRaced
			}
			return fmt.Errorf("record send: %w", err)
		}
		if o.draftID != "" {
			if draftBlobs, err = deleteDraft(ctx, tx, o.draftID); err != nil {
				return err
			}
		}
		addrs := make([]string, len(rcpts))
		copy(addrs, rcpts)
		_, err = events.Append(ctx, tx, p.OrgID, o.inbox.ID, events.MessageSent, map[string]any{
			"message_id": m.ID, "thread_id": m.ThreadID, "inbox_id": o.inbox.ID, "direction": mailbox.Outbound, "status": "queued",
			"subject": m.Subject, "from": m.From, "to": addrs, "snippet": m.Snippet})
		return err
	})
	if err != nil {
		if fileBlob != "" {
			_ = s.blobs.Remove(fileBlob)
		}
		if errors.Is(err, errRaced) {
			// A concurrent request with the same key won: answer as it did.
			sent, ok, rerr := s.replay(ctx, o.inbox.ID, o.idempotencyKey, o)
			if rerr != nil || ok {
				return sent, ok, rerr
			}
		}
		return Sent{}, false, err
	}
	s.removeBlobs(draftBlobs)
	return sent, false, nil
}

// build composes, signs and parses a message, at most GOMAXPROCS at once:
// an RSA signature is a millisecond of CPU, and with every request signing
// at the same time the group committer, which all of them wait for, would
// queue behind them for the processor.
func (s *Service) build(ctx context.Context, l letter, ds *domainSigner) ([]byte, *content.Parsed, error) {
	select {
	case s.cpu <- struct{}{}:
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	}
	defer func() { <-s.cpu }()
	raw, err := compose(l)
	if err != nil {
		return nil, nil, err
	}
	if raw, err = sign(raw, ds); err != nil {
		return nil, nil, err
	}
	parsed, err := content.Parse(raw)
	if err != nil {
		return nil, nil, fmt.Errorf("parse composed message: %w", err)
	}
	return raw, parsed, nil
}

var errRaced = errors.New("outbound: idempotency key taken concurrently")
