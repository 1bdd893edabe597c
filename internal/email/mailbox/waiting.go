package mailbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
)

// MaxWait is the longest long-poll (the reference's 0-25 seconds).
const MaxWait = 25 * time.Second

// EventTypes are the types the inbox events API returns (the reference's
// Events API: new inbound mail and thread changes). Held mail is announced
// as message.quarantined to webhooks only; agents learn of it when released.
var EventTypes = []string{events.MessageReceived, events.ThreadUpdated}

// forAgent says whether the inbox events API shows e: one of EventTypes,
// and nothing about mail held in quarantine ("Mail held in quarantine
// produces no event for agents"). A label or read flag set on a thread in
// quarantine appends thread.updated for webhooks, but the agent cannot act
// on held mail, and the event would carry its subject; release appends
// thread.updated with folder inbox, which the agent sees.
func forAgent(e events.Event) bool {
	if !slices.Contains(EventTypes, e.Type) {
		return false
	}
	return e.Type != events.ThreadUpdated || e.Data["folder"] != FolderQuarantine
}

const eventPage = 100

// EventsResult is one answer of the events API.
type EventsResult struct {
	Events []events.Event
	// Next is the log sequence to continue after.
	Next int64
}

// Events returns the inbox's events after the sequence cursor (nil: from now
// on), waiting up to wait for the first one.
func (s *Service) Events(ctx context.Context, p *auth.Principal, inboxID string, cursor *int64, wait time.Duration) (EventsResult, error) {
	if wait < 0 || wait > MaxWait {
		return EventsResult{}, apierr.Invalid("wait", "must be 0 to 25 seconds")
	}
	in, err := visibleInbox(ctx, s.db, p, inboxID)
	if err != nil {
		return EventsResult{}, err
	}
	var w *Waiter
	if wait > 0 && s.hub != nil {
		if w, err = s.hub.Register(ctx, in.OrgID, in.ID); err != nil {
			return EventsResult{}, err
		}
		defer s.hub.Unregister(w)
	}
	var after int64
	if cursor != nil {
		after = *cursor
	} else if after, err = events.Head(ctx, s.db, in.OrgID); err != nil {
		return EventsResult{}, err
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	res := EventsResult{Events: []events.Event{}, Next: after}
	for {
		evs, err := events.ListAfter(ctx, s.db, in.OrgID, in.ID, res.Next, eventPage)
		if err != nil {
			return res, err
		}
		for len(evs) > 0 {
			res.Next = evs[len(evs)-1].Seq
			for _, e := range evs {
				if forAgent(e) {
					res.Events = append(res.Events, e)
				}
			}
			if len(res.Events) > 0 || len(evs) < eventPage {
				break
			}
			if evs, err = events.ListAfter(ctx, s.db, in.OrgID, in.ID, res.Next, eventPage); err != nil {
				return res, err
			}
		}
		if len(res.Events) > 0 || w == nil {
			return res, nil
		}
		select {
		case <-ctx.Done():
			return res, nil
		case <-deadline.C:
			return res, nil
		case got := <-w.C:
			if got == nil {
				continue // re-read the log
			}
			for _, e := range got {
				if e.Seq > res.Next && forAgent(e) {
					res.Events = append(res.Events, e)
				}
			}
			if len(res.Events) > 0 {
				res.Next = max(res.Next, got[len(got)-1].Seq)
				return res, nil
			}
			// Only events of other types: go on waiting from where the
			// handed batch ended, re-reading in case more committed.
		}
	}
}

// MailQuery is what wait and extract look for.
type MailQuery struct {
	// From is a full address or a domain (with or without "@"), matched
	// against the From address; a domain also matches its subdomains.
	// Empty matches any sender.
	From string
	// Since: only mail received after it. Zero means "from the call on".
	Since time.Time
	// Wait is how long to wait for a match (0-25 s).
	Wait time.Duration
}

func (q *MailQuery) normalize(now time.Time) error {
	if q.Wait < 0 || q.Wait > MaxWait {
		return apierr.Invalid("wait_seconds", "must be 0 to 25")
	}
	q.From = strings.ToLower(strings.TrimSpace(q.From))
	if q.From != "" {
		d := strings.TrimPrefix(q.From, "@")
		if at := strings.LastIndexByte(d, '@'); at >= 0 {
			d = d[at+1:]
		}
		if !validDomain(d) {
			return apierr.Invalid("from", "must be a full address or a domain")
		}
	}
	if q.Since.IsZero() {
		q.Since = now
	}
	return nil
}

func (q MailQuery) matches(addr string) bool {
	if q.From == "" {
		return true
	}
	addr = strings.ToLower(addr)
	if strings.Contains(strings.TrimPrefix(q.From, "@"), "@") {
		return addr == q.From
	}
	d := strings.TrimPrefix(q.From, "@")
	_, ad, _ := strings.Cut(addr, "@")
	return ad == d || strings.HasSuffix(ad, "."+d)
}

// CodeResult is the answer of extract/code.
type CodeResult struct {
	Code      *string         `json:"code" doc:"The one-time code copied from the mail, digit groups joined (\"123-456\" gives \"123456\"); null when it has none or nothing matched."`
	Link      *string         `json:"link" doc:"The confirmation or sign-in link copied from the mail; null when none."`
	Screening *Screening      `json:"screening" doc:"Screening of the matched message; null when nothing matched."`
	Message   *MessageSummary `json:"message" doc:"The matched message; null when nothing matched in time."`
}

// Wait returns the first inbound message matching q that arrived after
// q.Since (oldest first), waiting up to q.Wait; nil when none came in time.
// Quarantined mail does not count until it is released.
func (s *Service) Wait(ctx context.Context, p *auth.Principal, inboxID string, q MailQuery) (*MessageSummary, error) {
	m, err := s.waitFor(ctx, p, inboxID, q, false)
	if err != nil || m == nil {
		return nil, err
	}
	return &m.MessageSummary, nil
}

// ExtractCode waits like Wait for a matching message that carries a one-time
// code or a confirmation link and returns them with the message's screening.
// Codes are only ever copied from mail, and never from quarantined mail.
func (s *Service) ExtractCode(ctx context.Context, p *auth.Principal, inboxID string, q MailQuery) (CodeResult, error) {
	m, err := s.waitFor(ctx, p, inboxID, q, true)
	if err != nil || m == nil {
		return CodeResult{}, err
	}
	res := CodeResult{Screening: &m.Screening, Message: &m.MessageSummary}
	if m.code != "" {
		res.Code = &m.code
	}
	if m.link != "" {
		res.Link = &m.link
	}
	return res, nil
}

type matched struct {
	Message
	code, link string
}

func (s *Service) waitFor(ctx context.Context, p *auth.Principal, inboxID string, q MailQuery, needCode bool) (*matched, error) {
	if err := q.normalize(s.now()); err != nil {
		return nil, err
	}
	in, err := visibleInbox(ctx, s.db, p, inboxID)
	if err != nil {
		return nil, err
	}
	var w *Waiter
	if q.Wait > 0 && s.hub != nil {
		if w, err = s.hub.Register(ctx, in.OrgID, in.ID); err != nil {
			return nil, err
		}
		defer s.hub.Unregister(w)
	}
	deadline := time.NewTimer(q.Wait)
	defer deadline.Stop()
	for {
		m, err := s.findMail(ctx, in, q, needCode)
		if err != nil || m != nil || w == nil {
			return m, err
		}
		select {
		case <-ctx.Done():
			return nil, nil
		case <-deadline.C:
			return nil, nil
		case <-w.C:
		}
	}
}

// findMail returns the oldest matching inbound message received after
// q.Since that is not held in quarantine (and, for extract, carries a code
// or link). It reads the inbox in pages until one matches: the sender
// filter is applied here, so any number of other mail may come first.
func (s *Service) findMail(ctx context.Context, in inboxRow, q MailQuery, needCode bool) (*matched, error) {
	afterAt, afterID := store.Micros(q.Since), ""
	for {
		cands, more, err := s.mailPage(ctx, in, q, afterAt, afterID)
		if err != nil {
			return nil, err
		}
		m, err := s.firstMatch(ctx, in, cands, needCode)
		if err != nil || m != nil || more == nil {
			return m, err
		}
		afterAt, afterID = more.at, more.id
	}
}

// findMailPage is how many messages findMail reads at a time.
const findMailPage = 200

type candidate struct {
	id, blob   string
	code, link sql.NullString
}

type pagePos struct {
	at int64
	id string
}

// mailPage returns the candidates (sender filter applied) among the next
// page of inbound mail after (afterAt, afterID), and where the page ended
// when there may be more.
func (s *Service) mailPage(ctx context.Context, in inboxRow, q MailQuery, afterAt int64, afterID string) ([]candidate, *pagePos, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, received_at, from_address, code, link, blob_path FROM messages
		WHERE inbox_id = $1 AND direction = 'inbound' AND quarantined = FALSE
		AND (received_at > $2 OR (received_at = $2 AND id > $3))
		ORDER BY received_at, id LIMIT `+strconv.Itoa(findMailPage), in.ID, afterAt, afterID)
	if err != nil {
		return nil, nil, fmt.Errorf("find mail: %w", err)
	}
	defer rows.Close()
	var cands []candidate
	var last pagePos
	n := 0
	for rows.Next() {
		var c candidate
		var from string
		if err := rows.Scan(&c.id, &last.at, &from, &c.code, &c.link, &c.blob); err != nil {
			return nil, nil, err
		}
		last.id = c.id
		n++
		if q.matches(from) {
			cands = append(cands, c)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, nil, err
	}
	if n < findMailPage {
		return cands, nil, nil
	}
	return cands, &last, nil
}

// firstMatch returns the first of cands that is still there and, when
// needCode, carries a code or link.
func (s *Service) firstMatch(ctx context.Context, in inboxRow, cands []candidate, needCode bool) (*matched, error) {
	var err error
	for _, c := range cands {
		code, link := c.code.String, c.link.String
		if needCode {
			if !c.code.Valid {
				if code, link, err = s.extractStored(ctx, c.id, c.blob); err != nil {
					return nil, err
				}
			}
			if code == "" && link == "" {
				continue
			}
		}
		m, err := getMessage(ctx, s.db, in.OrgID, c.id)
		if err != nil {
			if errors.Is(err, sql.ErrNoRows) || apierr.From(err).Status == 404 {
				continue // deleted meanwhile
			}
			return nil, err
		}
		return &matched{Message: m, code: code, link: link}, nil
	}
	return nil, nil
}

// extractStored finds the code and link of a stored message in its raw
// form (the HTML as sent: text hidden from a reader is not searched) and
// remembers them on the row.
func (s *Service) extractStored(ctx context.Context, id, blob string) (string, string, error) {
	raw, err := s.blobs.ReadContext(ctx, blob)
	if err != nil {
		return "", "", err
	}
	p, err := content.Parse(raw)
	if err != nil {
		return "", "", nil
	}
	code, link := content.ExtractCode(p.Subject, p.Text, p.HTML)
	if _, err := s.db.ExecContext(ctx, `UPDATE messages SET code = $2, link = $3 WHERE id = $1`, id, code, link); err != nil {
		return "", "", fmt.Errorf("remember code: %w", err)
	}
	return code, link, nil
}
