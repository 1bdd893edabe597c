package mailbox

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

const messageCols = `id, inbox_id, thread_id, direction, header_message_id, in_reply_to, refs, from_name, from_address, to_json, cc_json,
	reply_to_json, subject, snippet, text_body, html_body, verdict, reasons, findings, auth_json, warnings, quarantined, size, sent_at, received_at`

func scanMessage(r store.Scanner) (Message, error) {
	var (
		m                                        Message
		refs, to, cc, replyTo, reasons, findings string
		authJSON, warnings                       string
		sent, received                           int64
	)
	err := r.Scan(&m.ID, &m.InboxID, &m.ThreadID, &m.Direction, &m.HeaderID, &m.InReplyTo, &refs, &m.From.Name, &m.From.Address,
		&to, &cc, &replyTo, &m.Subject, &m.Snippet, &m.Text, &m.HTML, &m.Screening.Verdict, &reasons, &findings, &authJSON,
		&warnings, &m.Quarantined, &m.Size, &sent, &received)
	if err != nil {
		return m, err
	}
	_ = json.Unmarshal([]byte(refs), &m.References)
	_ = json.Unmarshal([]byte(to), &m.To)
	_ = json.Unmarshal([]byte(cc), &m.Cc)
	_ = json.Unmarshal([]byte(replyTo), &m.ReplyTo)
	_ = json.Unmarshal([]byte(reasons), &m.Screening.Reasons)
	_ = json.Unmarshal([]byte(findings), &m.Screening.Findings)
	_ = json.Unmarshal([]byte(authJSON), &m.Auth)
	_ = json.Unmarshal([]byte(warnings), &m.Warnings)
	if m.To == nil {
		m.To = []Address{}
	}
	if m.Screening.Reasons == nil {
		m.Screening.Reasons = []string{}
	}
	if sent != 0 {
		t := store.Time(sent)
		m.SentAt = &t
	}
	m.ReceivedAt = store.Time(received)
	m.Attachments = []Attachment{}
	return m, nil
}

// redact withholds what an agent must not read of a quarantined message:
// anything the sender wrote beyond the envelope-like headers (the subject
// stays, so a person can recognise the mail; screening says why it is held).
func redact(m *Message) {
	if !m.Quarantined {
		return
	}
	m.Snippet, m.Text, m.HTML = "", "", ""
	m.Hint = quarantineHint
}

func getMessage(ctx context.Context, q store.Querier, orgID, id string) (Message, error) {
	m, err := scanMessage(q.QueryRowContext(ctx, `SELECT `+messageCols+` FROM messages WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return m, apierr.NotFound("message")
	}
	if err != nil {
		return m, fmt.Errorf("read message: %w", err)
	}
	atts, err := attachmentsOf(ctx, q, []string{id})
	if err != nil {
		return m, err
	}
	if a := atts[id]; a != nil {
		m.Attachments = a
	}
	return m, nil
}

// attachmentsOf returns the attachments of several messages by message id.
func attachmentsOf(ctx context.Context, q store.Querier, msgIDs []string) (map[string][]Attachment, error) {
	out := map[string][]Attachment{}
	if len(msgIDs) == 0 {
		return out, nil
	}
	args := make([]any, len(msgIDs))
	ph := make([]string, len(msgIDs))
	for i, id := range msgIDs {
		args[i] = id
		ph[i] = "$" + strconv.Itoa(i+1)
	}
	rows, err := q.QueryContext(ctx, `SELECT id, message_id, inbox_id, part_id, filename, content_type, size, inline, content_id
		FROM attachments WHERE message_id IN (`+strings.Join(ph, ", ")+`) ORDER BY id`, args...)
	if err != nil {
		return nil, fmt.Errorf("read attachments: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var a Attachment
		if err := rows.Scan(&a.ID, &a.messageID, &a.inboxID, &a.partID, &a.Filename, &a.ContentType, &a.Size, &a.Inline, &a.ContentID); err != nil {
			return nil, err
		}
		out[a.messageID] = append(out[a.messageID], a)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// In the mail's own order (ids made in the same millisecond are in
	// random order): "the second attachment" means what the sender meant.
	for _, list := range out {
		slices.SortStableFunc(list, func(a, b Attachment) int { return content.ComparePartIDs(a.partID, b.partID) })
	}
	return out, nil
}

func withAttachments(ctx context.Context, q store.Querier, ms []Message) error {
	idsList := make([]string, len(ms))
	for i, m := range ms {
		idsList[i] = m.ID
	}
	atts, err := attachmentsOf(ctx, q, idsList)
	if err != nil {
		return err
	}
	for i := range ms {
		if a := atts[ms[i].ID]; a != nil {
			ms[i].Attachments = a
		}
	}
	return nil
}

// Message returns a message p may see, with its bodies (withheld while
// quarantined).
func (s *Service) Message(ctx context.Context, p *auth.Principal, id string) (Message, error) {
	if !ids.Valid("msg", id) {
		return Message{}, apierr.NotFound("message")
	}
	m, err := getMessage(ctx, s.db, p.OrgID, id)
	if err != nil {
		return m, err
	}
	if _, err := visibleInbox(ctx, s.db, p, m.InboxID); err != nil {
		return Message{}, apierr.NotFound("message")
	}
	redact(&m)
	return m, nil
}

// MessageFilter narrows a message list.
type MessageFilter struct {
	// Since keeps messages received (or sent) after it; zero for all.
	Since time.Time
	// Direction is inbound, outbound or "" for both.
	Direction string
}

// ListMessages lists an inbox's messages newest first (limit rows after the
// message id after).
func (s *Service) ListMessages(ctx context.Context, p *auth.Principal, inboxID string, f MessageFilter, limit int, after string) ([]MessageSummary, error) {
	if _, err := visibleInbox(ctx, s.db, p, inboxID); err != nil {
		return nil, err
	}
	if f.Direction != "" && f.Direction != Inbound && f.Direction != Outbound {
		return nil, apierr.Invalid("direction", "must be inbound or outbound")
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+messageCols+` FROM messages
		WHERE inbox_id = $1 AND ($2 = '' OR id < $2) AND received_at > $3 AND ($4 = '' OR direction = $4)
		ORDER BY id DESC LIMIT $5`, inboxID, after, store.Micros(f.Since), f.Direction, limit)
	if err != nil {
		return nil, fmt.Errorf("list messages: %w", err)
	}
	ms, err := collectMessages(rows)
	if err != nil {
		return nil, err
	}
	if err := withAttachments(ctx, s.db, ms); err != nil {
		return nil, err
	}
	out := make([]MessageSummary, len(ms))
	for i := range ms {
		redact(&ms[i])
		out[i] = ms[i].MessageSummary
	}
	return out, nil
}

func collectMessages(rows *sql.Rows) ([]Message, error) { return store.ScanAll(rows, scanMessage) }

// AttachmentData is an attachment's bytes.
type AttachmentData struct {
	Attachment
	Data []byte
}

// attachmentFor loads an attachment's metadata after the access checks:
// another agent's attachment is 404; one of a quarantined message is 409
// until released.
func (s *Service) attachmentFor(ctx context.Context, p *auth.Principal, id string) (Attachment, string, error) {
	if !ids.Valid("att", id) {
		return Attachment{}, "", apierr.NotFound("attachment")
	}
	var a Attachment
	var blob string
	var quarantined bool
	err := s.db.QueryRowContext(ctx, `SELECT a.id, a.message_id, a.inbox_id, a.part_id, a.filename, a.content_type, a.size, a.inline, a.content_id,
		m.blob_path, m.quarantined FROM attachments a JOIN messages m ON m.id = a.message_id WHERE a.org_id = $1 AND a.id = $2`, p.OrgID, id).
		Scan(&a.ID, &a.messageID, &a.inboxID, &a.partID, &a.Filename, &a.ContentType, &a.Size, &a.Inline, &a.ContentID, &blob, &quarantined)
	if errors.Is(err, sql.ErrNoRows) {
		return a, "", apierr.NotFound("attachment")
	}
	if err != nil {
		return a, "", fmt.Errorf("read attachment: %w", err)
	}
	if _, err := visibleInbox(ctx, s.db, p, a.inboxID); err != nil {
		return Attachment{}, "", apierr.NotFound("attachment")
	}
	if quarantined && p.Kind == auth.KindAgent {
		return Attachment{}, "", apierr.Conflict(apierr.CodeInvalidState, "the message of this attachment is in quarantine").
			WithHint("a team member must release it first")
	}
	return a, blob, nil
}

// AttachmentBytes returns an attachment's decoded bytes, re-read from the
// stored raw message (part ids are stable across parses).
func (s *Service) AttachmentBytes(ctx context.Context, p *auth.Principal, id string) (AttachmentData, error) {
	a, blob, err := s.attachmentFor(ctx, p, id)
	if err != nil {
		return AttachmentData{}, err
	}
	raw, err := s.blobs.ReadContext(ctx, blob)
	if err != nil {
		return AttachmentData{}, err
	}
	parsed, err := content.Parse(raw)
	if err != nil {
		return AttachmentData{}, fmt.Errorf("re-parse %s: %w", blob, err)
	}
	for _, part := range parsed.Attachments {
		if part.PartID == a.partID {
			return AttachmentData{Attachment: a, Data: part.Data}, nil
		}
	}
	return AttachmentData{}, fmt.Errorf("attachment %s: part %s not found in %s", id, a.partID, blob)
}

// AttachmentText returns the text of a PDF, CSV, JSON, HTML or text
// attachment as UTF-8, and whether it was cut at the output limit
// (content.DefaultLimits().MaxOutput). Types without text give 415,
// attachments over the extraction limit 413, unreadable or too slow files
// 422.
func (s *Service) AttachmentText(ctx context.Context, p *auth.Principal, id string) (text string, truncated bool, err error) {
	d, err := s.AttachmentBytes(ctx, p, id)
	if err != nil {
		return "", false, err
	}
	// Extraction cuts silently at its limit; asking for a few bytes more
	// than is returned tells a cut text from one that ends there.
	limits := content.DefaultLimits()
	max := limits.MaxOutput
	limits.MaxOutput += utf8.UTFMax
	text, err = content.ExtractText(d.ContentType, d.Filename, d.Data, limits)
	switch {
	case err == nil:
		if len(text) > max {
			n := max
			for n > 0 && !utf8.RuneStart(text[n]) {
				n--
			}
			return text[:n], true, nil
		}
		return text, false, nil
	case errors.Is(err, content.ErrUnsupported):
		return "", false, &apierr.Error{Status: 415, Code: apierr.CodeUnsupportedMediaType,
			Message: "no text can be extracted from " + d.ContentType, Hint: "text is extracted from PDF, CSV, JSON, HTML and text/* attachments; download the bytes instead"}
	case errors.Is(err, content.ErrTooLarge):
		return "", false, &apierr.Error{Status: 413, Code: apierr.CodePayloadTooLarge, Message: "the attachment is too large for text extraction",
			Hint: "download the bytes instead"}
	default:
		return "", false, &apierr.Error{Status: 422, Code: apierr.CodeUnreadableContent, Message: "the attachment could not be read as " + d.ContentType, Err: err,
			Hint: "the file is malformed or took too long to read; download the bytes instead"}
	}
}

// RawMessage returns the message exactly as stored: for inbound mail the
// bytes received over SMTP with the Received header this server prepended,
// for sent mail the signed message handed to delivery. The same rules as
// attachments apply: another agent's message is 404, and while quarantined
// it is 409 for agents, since the raw bytes are the very content withheld.
func (s *Service) RawMessage(ctx context.Context, p *auth.Principal, id string) ([]byte, error) {
	if !ids.Valid("msg", id) {
		return nil, apierr.NotFound("message")
	}
	var inboxID, blob string
	var quarantined bool
	err := s.db.QueryRowContext(ctx, `SELECT inbox_id, blob_path, quarantined FROM messages WHERE org_id = $1 AND id = $2`, p.OrgID, id).
		Scan(&inboxID, &blob, &quarantined)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apierr.NotFound("message")
	}
	if err != nil {
		return nil, fmt.Errorf("read message: %w", err)
	}
	if _, err := visibleInbox(ctx, s.db, p, inboxID); err != nil {
		return nil, apierr.NotFound("message")
	}
	if quarantined && p.Kind == auth.KindAgent {
		return nil, apierr.Conflict(apierr.CodeInvalidState, "this message is in quarantine").
			WithHint("a team member must release it first")
	}
	if blob == "" {
		// Every stored message has its raw form; a row without one is damage,
		// not something the client can fix.
		return nil, fmt.Errorf("message %s has no raw blob", id)
	}
	return s.blobs.ReadContext(ctx, blob)
}
