// Package inbound receives mail for the organizations' inboxes: it is the
// SMTP server's Backend (recipient checks, quotas, a durable spool) and the
// pipeline that turns each spooled message into stored mail.
//
// The life of a message:
//
//	RCPT TO ── CheckRecipient: local inbox? quota left? (else 550 / 452)
//	DATA ───── Deliver: raw bytes → a blob_data row + an inbound_queue row,
//	           written by the writer in a transaction shared with the other
//	           sessions waiting now (one flush for the group) ── only then 250;
//	           the row is leased to this node and handed to a worker with
//	           the bytes in memory (up to 64 MB in flight, else re-read)
//	workers ── parse → sender auth (SPF/DKIM/DMARC) → per recipient inbox:
//	           sender rules → screening (unless allowed and not failing
//	           authentication) → render (ids,
//	           sanitized HTML, snippet, JSON columns), in parallel
//	writer ─── one transaction for what is waiting: the spooled rows above
//	           and a batch of rendered messages: per message thread + message
//	           + attachments + event, then usage and known correspondents once
//	           per organization and domain, queue rows deleted in one
//	           statement; if it fails, the spool alone and each message
//	           alone (a poison message fails only itself). SQLite has one
//	           writer for spool and store (one write connection: they share
//	           each flush); PostgreSQL one for each (round trips, not
//	           flushes, are its cost, and the 250 must not wait for a batch).
//
// A crash anywhere after the 250 loses nothing: the raw message and the row
// are committed, and a restarted server (or, on PostgreSQL, any node once
// the lease lapses) processes the row again, reading the message back. The
// final transaction deletes the row, and a message already stored with the
// same Message-ID and content is not stored twice, so a replay after a
// crash mid-way is harmless. The raw message stays in blob_data under the
// message's blob_path for download and re-parsing (rows spooled by older
// versions point at blob files, which are still read).
package inbound

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"path"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/email/screen"
	"github.com/agentsvc/agentsvc/internal/email/senderauth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Config tunes the pipeline.
type Config struct {
	// Checker authenticates senders; nil skips sender authentication (the
	// results are then "none").
	Checker *senderauth.Checker
	// Detector screens content; required.
	Detector *screen.Detector
	// Workers process spooled messages in parallel (default 4).
	Workers int
	// Lease is how long a node owns a spooled message before another may
	// take it over (default 2 minutes). On SQLite one process owns the
	// database, so a restart takes every row back at once.
	Lease time.Duration
	// MaxAttempts before a failing message is only retried every hour
	// (default 8); it is never dropped.
	MaxAttempts int
}

// Pipeline is the SMTP Backend and the workers behind it.
type Pipeline struct {
	db    *store.DB
	mb    *mailbox.Service
	blobs mailbox.Blobs
	cfg   Config
	log   *slog.Logger
	now   func() time.Time
	work  chan queueRow
	store chan prepared
	spool chan spoolReq
	// inMemory counts the raw bytes of rows handed to workers in memory.
	inMemory atomic.Int64
}

// New builds the pipeline; Run starts its workers.
func New(db *store.DB, mb *mailbox.Service, cfg Config, log *slog.Logger) *Pipeline {
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 2 * time.Minute
	}
	if cfg.MaxAttempts <= 0 {
		cfg.MaxAttempts = 8
	}
	if cfg.Detector == nil {
		cfg.Detector = screen.NewDetector()
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Pipeline{db: db, mb: mb, blobs: mb.Blobs(), cfg: cfg, log: log, now: time.Now, work: make(chan queueRow, 1024),
		store: make(chan prepared, maxStoreBatch)}
	p.spool = make(chan spoolReq)
	return p
}

var _ smtpserver.Backend = (*Pipeline)(nil)

// recipient is a local inbox an address resolves to.
type recipient struct {
	InboxID, OrgID, Address, MailDomain string
}

// resolve finds the inbox of an address; "user+tag@domain" falls back to
// "user@domain" (subaddressing, RFC 5233).
func (p *Pipeline) resolve(ctx context.Context, q store.Querier, addr string) (recipient, bool, error) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	candidates := []string{addr}
	if local, domain, ok := strings.Cut(addr, "@"); ok {
		if base, _, plus := strings.Cut(local, "+"); plus && base != "" {
			candidates = append(candidates, base+"@"+domain)
		}
	}
	for _, a := range candidates {
		var r recipient
		err := q.QueryRowContext(ctx, `SELECT i.id, i.org_id, i.address, o.mail_domain FROM inboxes i JOIN organizations o ON o.id = i.org_id
			WHERE i.address = $1`, a).Scan(&r.InboxID, &r.OrgID, &r.Address, &r.MailDomain)
		if err == nil {
			return r, true, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return r, false, fmt.Errorf("resolve recipient: %w", err)
		}
	}
	return recipient{}, false, nil
}

// CheckRecipient implements smtpserver.Backend: a local inbox is accepted
// unless its organization is over quota; an unknown address on one of the
// organizations' mail domains is 550 5.1.1; any other domain is relay
// denied (550 5.7.1).
func (p *Pipeline) CheckRecipient(ctx context.Context, rcpt string) error {
	r, ok, err := p.resolve(ctx, p.db, rcpt)
	if err != nil {
		return err
	}
	if ok {
		if err := mailbox.CheckInboundQuota(ctx, p.db, r.OrgID, 0, p.now()); err != nil {
			return overQuota(err)
		}
		return nil
	}
	_, domain, _ := strings.Cut(strings.ToLower(rcpt), "@")
	var one int
	err = p.db.QueryRowContext(ctx, `SELECT 1 FROM organizations WHERE mail_domain = $1 LIMIT 1`, domain).Scan(&one)
	switch {
	case err == nil:
		return smtpserver.ErrUnknownRecipient
	case errors.Is(err, sql.ErrNoRows):
		return smtpserver.ErrRelayDenied
	default:
		return fmt.Errorf("local domain: %w", err)
	}
}

// overQuota turns a quota refusal into the SMTP adapter's over-quota error
// (452: the sender keeps the message and retries later).
func overQuota(err error) error {
	if e := apierr.From(err); e.Code == apierr.CodeQuotaExceeded {
		return fmt.Errorf("%w: %s", smtpserver.ErrOverQuota, e.Message)
	}
	return err
}

// Deliver implements smtpserver.Backend: the raw message becomes a row of
// blob_data and a queue row, committed before it returns (and so before
// 250) in a transaction shared with the other sessions delivering now.
func (p *Pipeline) Deliver(ctx context.Context, env smtpserver.Envelope, raw []byte) error {
	// orgs counts the recipient inboxes of each organization: the message
	// is stored once per inbox, and each copy counts against the quota.
	// Both quotas (count and storage, with this message's size) are checked
	// where the count is taken, in the spool transaction (spoolAll); RCPT
	// already turned away most mail for an organization over quota.
	orgs := map[string]int64{}
	inboxes := map[string]bool{}
	for _, rcpt := range env.Recipients {
		r, ok, err := p.resolve(ctx, p.db, rcpt)
		if err != nil {
			return err
		}
		if ok {
			if !inboxes[r.InboxID] {
				inboxes[r.InboxID] = true
				orgs[r.OrgID]++
			}
		}
	}
	now := p.now().UTC()
	id := ids.New("inq")
	sum := sha256.Sum256(raw)
	rcpts, _ := json.Marshal(env.Recipients)
	ip := ""
	if env.RemoteIP != nil {
		ip = env.RemoteIP.String()
	}
	row := queueRow{ID: id, BlobPath: mailbox.DBPrefix + path.Join("inbound", now.Format("2006/01/02"), id+".eml"),
		Size: int64(len(raw)), SHA256: hex.EncodeToString(sum[:]), RemoteIP: ip, Helo: storable(env.Helo),
		MailFrom: storable(env.MailFrom), Recipients: string(rcpts), TLS: env.TLS, ReceivedAt: store.Micros(env.ReceivedAt),
		ClaimedUntil: store.Micros(now.Add(p.cfg.Lease)), QuotaCounted: true, orgs: orgs}
	if row.ReceivedAt == 0 {
		row.ReceivedAt = store.Micros(now)
	}
	if err := p.spoolInsert(ctx, row, raw); err != nil {
		return err
	}
	// Durable now. Hand the row to a worker, with the bytes while the
	// messages held in memory stay small (else the worker reads them back);
	// when the workers are all busy the SMTP client waits here a little
	// (back-pressure), and if the server is stopping the row is simply left
	// for the next start.
	if p.inMemory.Add(int64(len(raw))) <= maxInMemory {
		row.raw = raw
	} else {
		p.inMemory.Add(-int64(len(raw)))
	}
	select {
	case p.work <- row:
	case <-ctx.Done():
		p.release(&row)
	}
	return nil
}

// storable makes an envelope value a client sent (HELO name, MAIL FROM)
// fit a text column: go-smtp passes any bytes through, and PostgreSQL
// refuses NUL and invalid UTF-8, which would turn a sender's typo into a
// temporary failure on our side.
func storable(s string) string {
	return strings.ReplaceAll(strings.ToValidUTF8(s, "\uFFFD"), "\x00", "")
}

// maxInMemory bounds the raw bytes handed to workers in memory; beyond it a
// worker reads the message back from the database.
const maxInMemory = 64 << 20

// release forgets the in-memory bytes of row.
func (p *Pipeline) release(row *queueRow) {
	if row.raw != nil {
		p.inMemory.Add(-int64(len(row.raw)))
		row.raw = nil
	}
}

// queueRow is an inbound_queue row.
type queueRow struct {
	ID, BlobPath, SHA256, RemoteIP, Helo, MailFrom, Recipients string
	Size                                                       int64
	TLS                                                        bool
	ReceivedAt, ClaimedUntil                                   int64
	Attempts                                                   int
	// QuotaCounted: the message was counted against the inbound quota
	// when it was spooled (rows of earlier versions were not).
	QuotaCounted bool
	// raw is the message as received, when Deliver handed it over in
	// memory; nil means read it from BlobPath.
	raw []byte
	// orgs is the number of recipient inboxes per organization, to count
	// against their quotas when the row is spooled (Deliver only).
	orgs map[string]int64
}

// Run processes spooled messages until ctx ends: the workers take rows
// handed over by Deliver, and a sweeper takes back rows whose lease lapsed
// (a crashed node's, or failed ones due for a retry).
func (p *Pipeline) Run(ctx context.Context) {
	if p.db.Dialect() == store.SQLite {
		// One process owns a SQLite database: rows leased before a restart
		// belong to nobody now.
		if _, err := p.db.ExecContext(ctx, `UPDATE inbound_queue SET claimed_until = 0 WHERE attempts < $1`, p.cfg.MaxAttempts); err != nil {
			p.log.Error("inbound: reset leases", "err", err)
		}
	}
	var wg sync.WaitGroup
	for range p.cfg.Workers {
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case row := <-p.work:
					p.process(ctx, row)
				}
			}
		})
	}
	wg.Go(func() { p.runWriters(ctx) })
	wg.Go(func() { p.sweep(ctx) })
	wg.Wait()
}

// sweep claims rows nobody owns and feeds them to the workers.
func (p *Pipeline) sweep(ctx context.Context) {
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		n, err := p.claimExpired(ctx, 64)
		if err != nil && ctx.Err() == nil {
			p.log.Warn("inbound: sweep", "err", err)
		}
		if n == 64 {
			continue // more waiting
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func (p *Pipeline) claimExpired(ctx context.Context, limit int) (int, error) {
	now := p.now()
	var claimed []queueRow
	err := p.db.InTx(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+queueCols+` FROM inbound_queue WHERE claimed_until < $1 ORDER BY claimed_until, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
			store.Micros(now), limit)
		if err != nil {
			return err
		}
		if claimed, err = store.ScanAll(rows, scanRow); err != nil {
			return err
		}
		for _, r := range claimed {
			if _, err := tx.ExecContext(ctx, `UPDATE inbound_queue SET claimed_until = $2 WHERE id = $1`, r.ID, store.Micros(now.Add(p.cfg.Lease))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	for _, r := range claimed {
		select {
		case p.work <- r:
		case <-ctx.Done():
			return len(claimed), nil
		}
	}
	return len(claimed), nil
}

// process prepares one spooled message (parse, authenticate, screen) and
// hands it to the storer. Failures are recorded on the row and retried with
// backoff; a panic in a parser is one too.
func (p *Pipeline) process(ctx context.Context, row queueRow) {
	defer p.release(&row)
	var prep prepared
	err := func() (err error) {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		prep, err = p.prepare(ctx, row)
		return err
	}()
	if err != nil {
		p.fail(ctx, row.ID, err)
		return
	}
	select {
	case p.store <- prep:
	case <-ctx.Done():
		// Left on the queue for the next start.
	}
}

// fail records a failed attempt on the queue row: it is retried later.
func (p *Pipeline) fail(ctx context.Context, id string, err error) {
	if err == nil || ctx.Err() != nil || errors.Is(err, errAlreadyDone) {
		return
	}
	p.log.Error("inbound: processing failed; will retry", "queue_id", id, "err", err)
	var attempts int
	_ = p.db.QueryRowContext(ctx, `SELECT attempts FROM inbound_queue WHERE id = $1`, id).Scan(&attempts)
	backoff := min(time.Duration(1<<min(attempts, 12))*time.Second, time.Hour)
	msg := err.Error()
	if len(msg) > 2000 {
		msg = msg[:2000]
	}
	if _, uerr := p.db.ExecContext(ctx, `UPDATE inbound_queue SET attempts = attempts + 1, last_error = $2, claimed_until = $3 WHERE id = $1`,
		id, msg, store.Micros(p.now().Add(backoff))); uerr != nil {
		p.log.Error("inbound: record failure", "queue_id", id, "err", uerr)
	}
}

const queueCols = `id, blob_path, size, sha256, remote_ip, helo, mail_from, recipients, tls, received_at, claimed_until, attempts, quota_counted`

func scanRow(s interface{ Scan(...any) error }) (queueRow, error) {
	var r queueRow
	err := s.Scan(&r.ID, &r.BlobPath, &r.Size, &r.SHA256, &r.RemoteIP, &r.Helo, &r.MailFrom, &r.Recipients,
		&r.TLS, &r.ReceivedAt, &r.ClaimedUntil, &r.Attempts, &r.QuotaCounted)
	return r, err
}

// delivery is what the pipeline decided for one recipient inbox.
type delivery struct {
	rcpt recipient
	// msg rendered outside the writer's transaction.
	msg *mailbox.Rendered
}

// prepared is a spooled message ready to store: everything decided, nothing
// written yet.
type prepared struct {
	row        queueRow
	deliveries []delivery
}

// prepare parses, authenticates and screens one spooled message. It reads
// the database (recipients, rules, correspondents) but writes nothing.
func (p *Pipeline) prepare(ctx context.Context, row queueRow) (prepared, error) {
	raw := row.raw
	if raw == nil {
		var err error
		if raw, err = p.blobs.ReadContext(ctx, row.BlobPath); err != nil {
			return prepared{}, err
		}
	}
	parsed, err := content.Parse(raw)
	if err != nil {
		// Only an empty input fails to parse; keep it as an empty message
		// rather than drop what was acknowledged.
		parsed = &content.Parsed{Warnings: []string{"empty message"}, Attachments: []content.Attachment{}}
	}
	var rcpts []string
	if err := json.Unmarshal([]byte(row.Recipients), &rcpts); err != nil {
		return prepared{}, fmt.Errorf("queue row recipients: %w", err)
	}

	var res senderauth.Results
	if p.cfg.Checker != nil {
		res = p.cfg.Checker.Check(ctx, senderauth.Input{RemoteIP: net.ParseIP(row.RemoteIP), Helo: row.Helo, MailFrom: row.MailFrom, Raw: raw})
	} else {
		res = senderauth.Results{SPF: senderauth.None, DKIM: senderauth.None, DMARC: senderauth.None}
	}
	authn := mailbox.Authentication{SPF: res.SPF, DKIM: res.DKIM, DMARC: res.DMARC, DMARCPolicy: res.DMARCPolicy, Results: res.AuthenticationResults}
	// An allow rule trusts the From address; it must not trust one that
	// authentication shows to be forged (see decide).
	authFailure := res.AuthorFailure(parsed.From.Address)
	var screenMsg *screen.Message
	// The HTML is sanitized once for all recipient inboxes: the policy
	// pass depends only on the message (see content.SafeHTML).
	var safeHTML *content.SafeHTML

	out := prepared{row: row}
	seen := map[string]bool{}
	for _, a := range rcpts {
		r, ok, err := p.resolve(ctx, p.db, a)
		if err != nil {
			return prepared{}, err
		}
		if !ok || seen[r.InboxID] {
			if !ok {
				p.log.Warn("inbound: recipient no longer exists; skipped", "queue_id", row.ID, "rcpt", a)
			}
			continue
		}
		seen[r.InboxID] = true
		verdict, err := p.decide(ctx, r, parsed, authn, authFailure, row.MailFrom, &screenMsg)
		if err != nil {
			return prepared{}, err
		}
		if safeHTML == nil && parsed.HTML != "" {
			s := content.Sanitize(parsed.HTML)
			safeHTML = &s
		}
		nm := newMessage(r, row, parsed, verdict, authn)
		nm.SanitizedHTML = safeHTML
		msg, err := mailbox.Render(nm)
		if err != nil {
			return prepared{}, err
		}
		out.deliveries = append(out.deliveries, delivery{rcpt: r, msg: msg})
	}
	return out, nil
}

// newMessage is what is stored in the inbox of r.
func newMessage(r recipient, row queueRow, parsed *content.Parsed, verdict mailbox.Screening, authn mailbox.Authentication) mailbox.NewMessage {
	return mailbox.NewMessage{
		OrgID: r.OrgID, InboxID: r.InboxID, InboxAddress: r.Address, Direction: mailbox.Inbound, Parsed: parsed,
		Screening: verdict, Auth: authn, Quarantined: verdict.Verdict == string(screen.VerdictBlocked),
		Size: row.Size, SHA256: row.SHA256, BlobPath: row.BlobPath, ReceivedAt: store.Time(row.ReceivedAt),
		InboundCounted: row.QuotaCounted,
	}
}

// storeAll writes the messages of batch (for each recipient inbox) and
// deletes their queue rows, in the caller's transaction.
func (p *Pipeline) storeAll(ctx context.Context, tx *store.Tx, batch []prepared) error {
	var mb mailbox.Batch
	ids := make([]string, 0, len(batch))
	for _, b := range batch {
		for _, d := range b.deliveries {
			st, err := mb.Insert(ctx, tx, d.msg)
			if err != nil {
				return err
			}
			p.log.Debug("inbound: stored", "queue_id", b.row.ID, "message_id", st.Message.ID, "inbox_id", d.rcpt.InboxID,
				"verdict", st.Message.Screening.Verdict, "duplicate", st.Duplicate)
		}
		ids = append(ids, b.row.ID)
	}
	if err := mb.Flush(ctx, tx); err != nil {
		return err
	}
	if err := dequeue(ctx, tx, ids); err != nil {
		return err
	}
	// What the rows reserved of the storage quota at spool time is now in
	// stored_bytes (Flush added it), or was for a recipient that is gone.
	return mailbox.SettleReservations(ctx, tx, ids)
}

// dequeue deletes the queue rows ids (distinct) in one statement, or fails
// with errAlreadyDone when one of them is gone: another worker or node
// stored that message.
func dequeue(ctx context.Context, tx *store.Tx, ids []string) error {
	in, args := store.InList(ids)
	res, err := tx.ExecContext(ctx, `DELETE FROM inbound_queue WHERE id IN (`+in+`)`, args...)
	if err != nil {
		return fmt.Errorf("dequeue: %w", err)
	}
	if n, _ := res.RowsAffected(); n < int64(len(ids)) {
		return errAlreadyDone
	}
	return nil
}

var errAlreadyDone = errors.New("inbound: queue row processed by another worker")

// decide applies the inbox's sender rules, then screening: a block rule
// matching any From address quarantines with sender_blocked, an allow rule
// for the (first) From address skips content screening.
// An allow rule names a sender, and anyone can write that sender into From:
// when authentication shows the From address forged (authFailure, from
// senderauth.Results.AuthorFailure), the rule is not honoured, the message
// is screened like any other, and a sender_allow_ignored finding says why.
func (p *Pipeline) decide(ctx context.Context, r recipient, parsed *content.Parsed, authn mailbox.Authentication, authFailure, mailFrom string, cached **screen.Message) (mailbox.Screening, error) {
	rules, err := mailbox.RulesFor(ctx, p.db, r.InboxID)
	if err != nil {
		return mailbox.Screening{}, err
	}
	// A block rule for any author blocks: From may list several, and
	// several From fields arrive too.
	if rule := mailbox.BlockRule(rules, fromAddresses(parsed)); rule != nil {
		return toScreening(screen.SenderBlocked(rule.Pattern)), nil
	}
	var ignored *mailbox.Finding
	// An allow rule is judged on the first address, the one shown as the
	// sender; when From is ambiguous (several fields or domains),
	// authFailure says so and the rule is not honoured.
	if rule := mailbox.MatchRule(rules, parsed.From.Address); rule != nil && rule.Kind == mailbox.RuleAllow {
		if authFailure == "" {
			return mailbox.Screening{Verdict: string(screen.VerdictClean), Reasons: []string{},
				Findings: []mailbox.Finding{{Reason: "sender_allowed", Detail: "allowed by the sender rule " + rule.Pattern + "; content not screened"}}}, nil
		}
		ignored = &mailbox.Finding{Reason: "sender_allow_ignored",
			Detail: "the allow rule " + rule.Pattern + " was not applied because sender authentication failed (" + authFailure + "); screened as usual"}
	}
	known, err := mailbox.KnownCorrespondents(ctx, p.db, r.InboxID)
	if err != nil {
		return mailbox.Screening{}, err
	}
	if *cached == nil {
		m := screenMessage(parsed, authn, mailFrom)
		*cached = &m
	}
	verdict := toScreening(p.cfg.Detector.Screen(**cached, screen.Context{OrgDomains: []string{r.MailDomain}, KnownCorrespondents: known}))
	if ignored != nil {
		// A finding, not a reason code: the verdict is screening's, as for
		// mail no rule names (the failures themselves are reasons there:
		// spf_fail, dkim_fail, dmarc_fail).
		verdict.Findings = append([]mailbox.Finding{*ignored}, verdict.Findings...)
	}
	return verdict, nil
}

// fromAddresses returns every author address of the message: the one
// content.Parse read, then each address of each From field, read the way
// content.Parse reads the first (RFC 2047 words decoded, comments read
// past, and in a field that does not parse the addresses in angle brackets,
// else address-like words). Sender rules that block must see them all.
func fromAddresses(p *content.Parsed) []string {
	var out []string
	if p.From.Address != "" {
		out = append(out, p.From.Address)
	}
	for _, v := range p.Header.Values("From") {
		for _, a := range content.ReadAddressList(v) {
			out = append(out, a.Address)
		}
	}
	return out
}

func toScreening(r screen.Result) mailbox.Screening {
	s := mailbox.Screening{Verdict: string(r.Verdict), Reasons: make([]string, 0, len(r.Reasons))}
	for _, reason := range r.Reasons {
		s.Reasons = append(s.Reasons, string(reason))
	}
	for _, f := range r.Findings {
		s.Findings = append(s.Findings, mailbox.Finding{Reason: string(f.Reason), Detail: f.Detail})
	}
	return s
}

// attachmentTextLimits keep screening cheap: injection hides in attachment
// text, but a message must not stall the pipeline.
var attachmentTextLimits = content.Limits{MaxInput: 2 << 20, MaxOutput: 64 << 10, Timeout: 2 * time.Second}

func screenMessage(p *content.Parsed, a mailbox.Authentication, mailFrom string) screen.Message {
	m := screen.Message{
		From: screen.Address{Name: p.From.Name, Address: p.From.Address}, ReturnPath: mailFrom, Subject: p.Subject, Text: p.Text, HTML: p.HTML,
		Auth: screen.AuthResults{SPF: a.SPF, DKIM: a.DKIM, DMARC: a.DMARC}, Headers: map[string][]string(p.Header),
		AttachmentsUnlisted: p.AttachmentsUnlisted,
	}
	for _, r := range p.ReplyTo {
		m.ReplyTo = append(m.ReplyTo, screen.Address{Name: r.Name, Address: r.Address})
	}
	for _, r := range p.To {
		m.To = append(m.To, screen.Address{Name: r.Name, Address: r.Address})
	}
	for _, att := range p.Attachments {
		// The detector sees names and types, not bytes: what it needs of the
		// bytes (their executable format, the names inside archives) is
		// read here.
		sa := screen.Attachment{Filename: att.Filename, ContentType: att.ContentType, Size: int64(att.Size), Executable: screen.ExecutableFormat(att.Data)}
		if text, err := content.ExtractText(att.ContentType, att.Filename, att.Data, attachmentTextLimits); err == nil {
			sa.Text = text
		}
		if ct := strings.ToLower(att.ContentType); ct == "application/zip" || ct == "application/x-zip-compressed" || strings.HasSuffix(strings.ToLower(att.Filename), ".zip") {
			sa.ArchiveEntries, sa.ArchiveExecutables = screen.InspectArchive(att.Data)
		}
		m.Attachments = append(m.Attachments, sa)
	}
	return m
}
