package mailbox

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// ThreadWindow is how far back the subject fallback looks for a thread to
// join: a "Re: Invoice" three months later is a new conversation.
const ThreadWindow = 30 * 24 * time.Hour

// snippetRunes is the length of snippets in lists and events.
const snippetRunes = 160

// NewMessage is a message to store: a parsed inbound message with its
// screening, or (from the sending side) an outbound one.
type NewMessage struct {
	OrgID        string
	InboxID      string
	InboxAddress string
	Direction    string
	Parsed       *content.Parsed
	Screening    Screening
	Auth         Authentication
	// Quarantined holds the message for a team member (blocked verdict).
	Quarantined bool
	// Code and Link are the one-time code and confirmation link found in
	// it, when already known (outbound); nil leaves them to be extracted on
	// demand from the stored raw message.
	Code, Link *string
	Size       int64
	SHA256     string
	BlobPath   string
	ReceivedAt time.Time
	// Labels are added to the thread (outbound sends may label at once).
	Labels []string
	// InboundCounted: the message was already counted against the month's
	// inbound quota (ReserveInbound, when the pipeline spooled it), so
	// storing it adds only its bytes.
	InboundCounted bool
	// SanitizedHTML, when set, is content.Sanitize(Parsed.HTML), done once
	// by a caller storing the same message in several inboxes; nil has
	// Render sanitize it.
	SanitizedHTML *content.SafeHTML
}

// Stored is the outcome of InsertMessage.
type Stored struct {
	Message MessageSummary
	// Duplicate is true when the same message (Message-ID and content) was
	// already in the inbox, for example an SMTP retry after a lost 250; the
	// existing message is returned and nothing is written.
	Duplicate bool
}

// Rendered is a message made ready to store: everything InsertMessage
// works out without the database (ids, sanitized HTML, snippet,
// correspondents, the JSON columns). The inbound pipeline renders in its
// workers, so the transaction of the one writer holds only the reads and
// writes that need it.
type Rendered struct {
	n             NewMessage
	msgID         string
	atts          []Attachment
	html, snippet string
	corr          []string
	normSubject   string
	now           time.Time
	// The JSON columns.
	refs, to, cc, replyTo, reasons, findings, auth, warnings string
}

// Render prepares n for InsertRendered. A Rendered is stored at most once:
// its ids are fixed (a transaction that rolled back may be retried with it).
func Render(n NewMessage) (*Rendered, error) {
	p := n.Parsed
	if p == nil {
		return nil, errors.New("mailbox: message without content")
	}
	if n.Direction == "" {
		n.Direction = Inbound
	}
	if n.Screening.Verdict == "" {
		n.Screening.Verdict = "clean"
	}
	if n.Screening.Reasons == nil {
		n.Screening.Reasons = []string{}
	}
	n.Screening.Findings = nonNilFindings(n.Screening.Findings)
	now := n.ReceivedAt
	if now.IsZero() {
		now = time.Now()
	}
	// Stored as microseconds: the summary returned shows what a read gives.
	now = store.Time(store.Micros(now))
	r := &Rendered{n: n, msgID: ids.New("msg"), now: now}

	// Attachment ids first: the sanitized HTML points inline images at them.
	r.atts = make([]Attachment, 0, len(p.Attachments))
	cids := map[string]string{}
	for _, a := range p.Attachments {
		att := Attachment{ID: ids.New("att"), Filename: a.Filename, ContentType: a.ContentType, Size: int64(a.Size),
			Inline: a.Inline, ContentID: a.ContentID, partID: a.PartID, messageID: r.msgID, inboxID: n.InboxID}
		r.atts = append(r.atts, att)
		if a.ContentID != "" {
			cids[a.ContentID] = att.ID
		}
	}
	if p.HTML != "" {
		safe := n.SanitizedHTML
		if safe == nil {
			s := content.Sanitize(p.HTML)
			safe = &s
		}
		r.html = safe.WithImages(func(cid string) (string, bool) {
			id, ok := cids[cid]
			return "/api/v1/attachments/" + id, ok
		})
	}
	r.snippet = p.Snippet(snippetRunes)
	r.corr = correspondentsOf(p, n.InboxAddress)
	r.normSubject = NormalizeSubject(p.Subject)
	r.refs, r.to, r.cc = jsonText(nonNil(p.References)), jsonText(nonNilAddr(p.To)), jsonText(nonNilAddr(p.Cc))
	r.replyTo, r.reasons, r.findings = jsonText(nonNilAddr(p.ReplyTo)), jsonText(n.Screening.Reasons), jsonText(n.Screening.Findings)
	r.auth, r.warnings = jsonText(n.Auth), jsonText(nonNil(p.Warnings))
	return r, nil
}

// InsertMessage stores a message in tx: it finds or starts its thread,
// writes the message and its attachment metadata, updates the thread, the
// known correspondents and the usage counters, and appends the event
// (message.received, or message.quarantined for held mail) to the
// organization's log, all in the caller's transaction.
func InsertMessage(ctx context.Context, tx *store.Tx, n NewMessage) (Stored, error) {
	r, err := Render(n)
	if err != nil {
		return Stored{}, err
	}
	return InsertRendered(ctx, tx, r)
}

// InsertRendered is InsertMessage for a message rendered beforehand.
func InsertRendered(ctx context.Context, tx *store.Tx, r *Rendered) (Stored, error) {
	var b Batch
	st, err := b.Insert(ctx, tx, r)
	if err != nil {
		return st, err
	}
	return st, b.Flush(ctx, tx)
}

// Batch stores several rendered messages in one transaction and writes
// what they add to the organizations' usage counters and the inboxes' known
// correspondents once per counter and domain, at Flush: under load most
// messages of a batch go to the same few inboxes, and each statement saved
// is a round trip on PostgreSQL and a row update on SQLite's one writer.
// Nothing in the transaction reads those rows between Insert and Flush
// (quotas are checked before, screening decided before). The zero Batch is
// ready to use; use one per transaction.
type Batch struct {
	usage map[usageKey]usageSum
	corr  map[corrKey]time.Time
}

// usageKey is an organization's counters for a month (the inbound count
// is per month).
type usageKey struct{ org, month string }

type usageSum struct{ bytes, inbound int64 }

type corrKey struct{ inbox, domain string }

// Insert stores one message in tx, as InsertMessage does, except that the
// usage and correspondents it adds wait for Flush.
func (b *Batch) Insert(ctx context.Context, tx *store.Tx, r *Rendered) (Stored, error) {
	n, p, now, msgID := r.n, r.n.Parsed, r.now, r.msgID
	if p.MessageID != "" && n.SHA256 != "" {
		var existing string
		err := tx.QueryRowContext(ctx, `SELECT id FROM messages WHERE inbox_id = $1 AND header_message_id = $2 AND sha256 = $3`,
			n.InboxID, p.MessageID, n.SHA256).Scan(&existing)
		if err == nil {
			m, err := getMessage(ctx, tx, n.OrgID, existing)
			return Stored{Message: m.MessageSummary, Duplicate: true}, err
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return Stored{}, fmt.Errorf("dedupe: %w", err)
		}
	}
	th, err := findThread(ctx, tx, n, r.corr, r.normSubject, now)
	if err != nil {
		return Stored{}, err
	}
	fromName, fromAddr := p.From.Name, strings.ToLower(p.From.Address)
	threadSnippet := r.snippet
	if n.Quarantined {
		threadSnippet = ""
	}
	unread := n.Direction == Inbound
	// changes lists what joining an existing thread changed that the agent
	// sees (the PATCH path's names): decided from values already at hand,
	// so the hot path reads nothing more when nothing changed.
	var changes []string
	joined := th != nil
	if th == nil {
		folder := FolderInbox
		if n.Quarantined {
			folder = FolderQuarantine
		}
		th = &threadRow{ID: ids.New("thr"), Folder: folder}
		_, err = tx.ExecContext(ctx, `INSERT INTO threads (id, org_id, inbox_id, folder, subject, normalized_subject, correspondents, snippet,
			last_from_name, last_from_address, message_count, agent_read, team_read, last_message_at, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 1, $11, $12, $13, $13, $13)`,
			th.ID, n.OrgID, n.InboxID, folder, p.Subject, r.normSubject, strings.Join(r.corr, " "), threadSnippet,
			fromName, fromAddr, !unread, !unread, store.Micros(now))
		if err != nil {
			return Stored{}, fmt.Errorf("insert thread: %w", err)
		}
	} else {
		folder := th.Folder
		if n.Direction == Inbound && folder == FolderArchive {
			folder = FolderInbox
		}
		merged := mergeCorrespondents(th.Correspondents, r.corr)
		_, err = tx.ExecContext(ctx, `UPDATE threads SET folder = $2, correspondents = $3, snippet = $4, last_from_name = $5,
			last_from_address = $6, message_count = message_count + 1,
			agent_read = (agent_read AND $7), team_read = (team_read AND $7),
			last_message_at = CASE WHEN last_message_at > $8 THEN last_message_at ELSE $8 END, updated_at = $8 WHERE id = $1`,
			th.ID, folder, strings.Join(merged, " "), threadSnippet, fromName, fromAddr, !unread, store.Micros(now))
		if err != nil {
			return Stored{}, fmt.Errorf("update thread: %w", err)
		}
		if folder != th.Folder {
			changes = append(changes, "folder")
		}
		if unread && th.AgentRead {
			changes = append(changes, "read")
		}
		th.Folder = folder
	}

	var sent int64
	if !p.Date.IsZero() {
		sent = store.Micros(p.Date)
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO messages (id, org_id, inbox_id, thread_id, direction, header_message_id, in_reply_to, refs,
		from_name, from_address, to_json, cc_json, reply_to_json, subject, snippet, text_body, html_body, verdict, reasons, findings,
		auth_json, warnings, code, link, quarantined, size, sha256, blob_path, sent_at, received_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30)`,
		msgID, n.OrgID, n.InboxID, th.ID, n.Direction, p.MessageID, p.InReplyTo, r.refs,
		fromName, p.From.Address, r.to, r.cc, r.replyTo,
		p.Subject, r.snippet, p.Text, r.html, n.Screening.Verdict, r.reasons, r.findings,
		r.auth, r.warnings, n.Code, n.Link, n.Quarantined, n.Size, n.SHA256, n.BlobPath, sent, store.Micros(now))
	if err != nil {
		return Stored{}, fmt.Errorf("insert message: %w", err)
	}
	for _, a := range r.atts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO attachments (id, org_id, inbox_id, message_id, part_id, filename, content_type, size, inline, content_id)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
			a.ID, n.OrgID, n.InboxID, msgID, a.partID, a.Filename, a.ContentType, a.Size, a.Inline, a.ContentID); err != nil {
			return Stored{}, fmt.Errorf("insert attachment: %w", err)
		}
	}
	labelsAdded := false
	for _, l := range n.Labels {
		added, err := addLabelTo(ctx, tx, th.ID, l)
		if err != nil {
			return Stored{}, err
		}
		labelsAdded = labelsAdded || added
	}
	// Labels on a thread this message starts are part of its creation, not
	// a change of it.
	if labelsAdded && joined {
		changes = append(changes, "labels")
	}
	if !n.Quarantined && (n.Direction == Outbound || n.Screening.Verdict == "clean") {
		for _, d := range correspondentDomains(n.Direction, p) {
			if b.corr == nil {
				b.corr = map[corrKey]time.Time{}
			}
			k := corrKey{n.InboxID, d}
			if last, ok := b.corr[k]; !ok || now.After(last) {
				b.corr[k] = now
			}
		}
	}
	if b.usage == nil {
		b.usage = map[usageKey]usageSum{}
	}
	k := usageKey{n.OrgID, month(now)}
	sum := b.usage[k]
	sum.bytes += n.Size
	if n.Direction == Inbound && !n.InboundCounted {
		sum.inbound++
	}
	b.usage[k] = sum

	// The summary a read of the new row would give, built from what was
	// written instead of read back.
	m := r.summary(th.ID)
	if n.Direction == Inbound {
		typ := events.MessageReceived
		if n.Quarantined {
			typ = events.MessageQuarantined
		}
		if _, err := events.Append(ctx, tx, n.OrgID, n.InboxID, typ, messageEventData(m)); err != nil {
			return Stored{}, err
		}
	}
	// The reference's thread.updated (folder, labels or read state changed),
	// in the same transaction as the change. Only then is the thread read
	// back, for the payload the PATCH path sends.
	if len(changes) > 0 {
		t, err := getThread(ctx, tx, n.OrgID, th.ID)
		if err != nil {
			return Stored{}, err
		}
		if _, err := events.Append(ctx, tx, n.OrgID, n.InboxID, events.ThreadUpdated, threadEventData(t, changes)); err != nil {
			return Stored{}, err
		}
	}
	return Stored{Message: m}, nil
}

// Flush writes the usage and correspondents of the messages inserted
// since the last Flush, in a fixed order (organization, month; inbox,
// domain) so that concurrent transactions take the rows in the same order.
func (b *Batch) Flush(ctx context.Context, tx *store.Tx) error {
	keys := slices.Collect(maps.Keys(b.usage))
	slices.SortFunc(keys, func(x, y usageKey) int {
		return cmp.Or(strings.Compare(x.org, y.org), strings.Compare(x.month, y.month))
	})
	for _, k := range keys {
		at, err := time.Parse("2006-01", k.month)
		if err != nil {
			return fmt.Errorf("usage month: %w", err)
		}
		if err := addUsageN(ctx, tx, k.org, b.usage[k].bytes, b.usage[k].inbound, at); err != nil {
			return err
		}
	}
	ckeys := slices.Collect(maps.Keys(b.corr))
	slices.SortFunc(ckeys, func(x, y corrKey) int {
		return cmp.Or(strings.Compare(x.inbox, y.inbox), strings.Compare(x.domain, y.domain))
	})
	for _, k := range ckeys {
		if err := RecordCorrespondent(ctx, tx, k.inbox, k.domain, b.corr[k]); err != nil {
			return err
		}
	}
	clear(b.usage)
	clear(b.corr)
	return nil
}

// summary is the MessageSummary of the stored message, as getMessage would
// read it (empty lists, not nil; attachments in the mail's part order).
func (r *Rendered) summary(threadID string) MessageSummary {
	n, p := r.n, r.n.Parsed
	atts := slices.Clone(r.atts)
	slices.SortStableFunc(atts, func(a, b Attachment) int { return content.ComparePartIDs(a.partID, b.partID) })
	return MessageSummary{
		ID: r.msgID, InboxID: n.InboxID, ThreadID: threadID, Direction: n.Direction,
		From: Address{Name: p.From.Name, Address: p.From.Address},
		To:   slices.Clone(nonNilAddr(p.To)), Cc: slices.Clone(nonNilAddr(p.Cc)), Subject: p.Subject, Snippet: r.snippet,
		Screening:   Screening{Verdict: n.Screening.Verdict, Reasons: slices.Clone(n.Screening.Reasons), Findings: slices.Clone(n.Screening.Findings)},
		Quarantined: n.Quarantined, Attachments: atts, Auth: n.Auth, ReceivedAt: r.now, Size: n.Size,
	}
}

// messageEventData is the payload of message events: ids and a short summary,
// never the body (the reference's webhook data for message.received).
func messageEventData(m MessageSummary) map[string]any {
	status := "delivered"
	if m.Quarantined {
		status = "quarantined"
	}
	return map[string]any{
		"message_id": m.ID, "thread_id": m.ThreadID, "inbox_id": m.InboxID, "direction": m.Direction, "status": status,
		"subject": m.Subject, "from": m.From, "snippet": m.Snippet, "verdict": m.Screening.Verdict, "reasons": m.Screening.Reasons,
	}
}

type threadRow struct {
	ID, Folder     string
	Correspondents []string
	// AgentRead is the agent's read flag before the message joins: new
	// inbound mail clearing it is a thread change (thread.updated).
	AgentRead bool
}

// findThread picks the thread a new message joins, or nil for a new one.
// Held (quarantined) mail never joins a thread, so a blocked reply cannot
// drag a conversation into quarantine, and nothing joins a quarantined thread.
func findThread(ctx context.Context, tx *store.Tx, n NewMessage, corr []string, ns string, now time.Time) (*threadRow, error) {
	if n.Quarantined {
		return nil, nil
	}
	p := n.Parsed
	// 1. By the ids the message refers to: In-Reply-To first, then
	// References from the newest (last) back.
	refs := make([]string, 0, len(p.References)+1)
	if p.InReplyTo != "" {
		refs = append(refs, p.InReplyTo)
	}
	for i := len(p.References) - 1; i >= 0; i-- {
		if r := p.References[i]; r != "" && r != p.InReplyTo {
			refs = append(refs, r)
		}
	}
	if len(refs) > 20 {
		refs = refs[:20]
	}
	for _, ref := range refs {
		var th threadRow
		var corrs string
		err := tx.QueryRowContext(ctx, `SELECT t.id, t.folder, t.correspondents, t.agent_read FROM messages m JOIN threads t ON t.id = m.thread_id
			WHERE m.inbox_id = $1 AND m.header_message_id = $2 AND t.folder <> 'quarantine' ORDER BY m.id DESC LIMIT 1`, n.InboxID, ref).
			Scan(&th.ID, &th.Folder, &corrs, &th.AgentRead)
		if err == nil {
			th.Correspondents = splitFields(corrs)
			return &th, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return nil, fmt.Errorf("thread by reference: %w", err)
		}
	}
	// 2. By normalized subject with a shared correspondent, within the window.
	if ns == "" {
		return nil, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, folder, correspondents, agent_read FROM threads
		WHERE inbox_id = $1 AND normalized_subject = $2 AND folder <> 'quarantine' AND last_message_at >= $3
		ORDER BY last_message_at DESC LIMIT 10`, n.InboxID, ns, store.Micros(now.Add(-ThreadWindow)))
	if err != nil {
		return nil, fmt.Errorf("thread by subject: %w", err)
	}
	defer rows.Close()
	// Inbound mail joins when its sender is already in the conversation;
	// outbound mail when one of its recipients is.
	var others []string
	if n.Direction == Inbound {
		others = []string{strings.ToLower(p.From.Address)}
	} else {
		others = corr
	}
	for rows.Next() {
		var th threadRow
		var corrs string
		if err := rows.Scan(&th.ID, &th.Folder, &corrs, &th.AgentRead); err != nil {
			return nil, err
		}
		th.Correspondents = splitFields(corrs)
		for _, o := range others {
			if o != "" && slices.Contains(th.Correspondents, o) {
				return &th, rows.Err()
			}
		}
	}
	return nil, rows.Err()
}

// subjectPrefix matches the reply and forward markers that mail programs
// write in many languages: Re, Fwd, Fw, AW (German), WG (German forward),
// SV / VS (Nordic), VL (Finnish), TR (French forward), RIF (Italian), Antw
// (Dutch), Odp (Polish, Czech), RES / ENC (Portuguese), RV (Spanish
// forward), Ynt / İlt (Turkish), Vá / Továbbítás (Hungarian), Balas /
// Teruskan (Indonesian), 回复 / 答复 / 转发 and 回覆 / 答覆 / 轉寄 / 轉發
// (Chinese: Foxmail, QQ, Outlook), 회신 / 전달 (Korean), Ответ / Отв /
// Пересл (Russian), ΑΠ / ΣΧΕΤ / ΠΡΘ (Greek), השב / הועבר (Hebrew), with
// optional counters ("Re[2]:", "Re(3):") and full-width colons.
var subjectPrefix = regexp.MustCompile(`(?i)^\s*(re|fwd?|aw|wg|sv|vs|vl|tr|rif|antw|odp|res|enc|rv|ynt|[iİı]lt|vá|továbbítás|balas|teruskan|` +
	`回复|回覆|答复|答覆|转发|轉寄|轉發|회신|전달|ответ|отв|пересл|απ|σχετ|πρθ|השב|הועבר|r)\s*(\[\d+\]|\(\d+\))?\s*[:：]\s*`)

var listTag = regexp.MustCompile(`^\s*\[[^\]]{1,40}\]\s*`)

// NormalizeSubject strips reply and forward prefixes (repeatedly, also
// after a mailing-list tag) and folds case and white space, so "Re: AW:
// Fwd: Invoice  42" and "invoice 42" match.
func NormalizeSubject(s string) string {
	for i := 0; i < 20; i++ {
		loc := subjectPrefix.FindStringIndex(s)
		if loc == nil {
			if t := listTag.FindStringIndex(s); t != nil && subjectPrefix.MatchString(s[t[1]:]) {
				s = s[t[1]:]
				continue
			}
			break
		}
		s = s[loc[1]:]
	}
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// correspondentsOf lists every address of a message except the inbox's own,
// lower-cased, sorted and unique.
func correspondentsOf(p *content.Parsed, own string) []string {
	own = strings.ToLower(own)
	var out []string
	add := func(a content.Address) {
		addr := strings.ToLower(strings.TrimSpace(a.Address))
		if addr != "" && addr != own && !strings.ContainsAny(addr, " \t") && !slices.Contains(out, addr) {
			out = append(out, addr)
		}
	}
	add(p.From)
	for _, l := range [][]content.Address{p.To, p.Cc, p.ReplyTo} {
		for _, a := range l {
			add(a)
		}
	}
	slices.Sort(out)
	if len(out) > 50 {
		out = out[:50]
	}
	return out
}

func mergeCorrespondents(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	slices.Sort(out)
	if len(out) > 100 {
		out = out[:100]
	}
	return out
}

// correspondentDomains are the domains a message shows the inbox exchanging
// mail with: the sender of inbound mail, the recipients of outbound mail.
func correspondentDomains(direction string, p *content.Parsed) []string {
	var addrs []content.Address
	if direction == Inbound {
		addrs = []content.Address{p.From}
	} else {
		addrs = append(append(addrs, p.To...), p.Cc...)
	}
	var out []string
	for _, a := range addrs {
		if _, d, ok := strings.Cut(strings.ToLower(a.Address), "@"); ok && d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// RecordCorrespondent notes that the inbox exchanged mail with domain
// (screening's known correspondents). The sending side calls it too.
func RecordCorrespondent(ctx context.Context, tx *store.Tx, inboxID, domain string, at time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO correspondents (inbox_id, domain, last_at) VALUES ($1, $2, $3)
		ON CONFLICT (inbox_id, domain) DO UPDATE SET last_at = excluded.last_at`, inboxID, domain, store.Micros(at))
	if err != nil {
		return fmt.Errorf("record correspondent: %w", err)
	}
	return nil
}

// KnownCorrespondents lists the domains an inbox exchanged mail with, most
// recent first (at most 500).
func KnownCorrespondents(ctx context.Context, q store.Querier, inboxID string) ([]string, error) {
	out, err := store.Strings(ctx, q, `SELECT domain FROM correspondents WHERE inbox_id = $1 ORDER BY last_at DESC LIMIT 500`, inboxID)
	if err != nil {
		return nil, fmt.Errorf("known correspondents: %w", err)
	}
	return out, nil
}

func splitFields(s string) []string { return strings.Fields(s) }

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return "null"
	}
	return string(b)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func nonNilAddr(s []content.Address) []content.Address {
	if s == nil {
		return []content.Address{}
	}
	return s
}

func nonNilFindings(s []Finding) []Finding {
	if s == nil {
		return []Finding{}
	}
	return s
}
