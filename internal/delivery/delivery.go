package delivery

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/smtpserver"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Row states.
const (
	StateQueued    = "queued"
	StateDelivered = "delivered"
	StateBounced   = "bounced"
	StateFailed    = "failed"
)

// Topic is the store notification that wakes the dispatcher.
const Topic = "outbound.queued"

// Resolver is the DNS access direct delivery needs (a subset of
// *net.Resolver and of senderauth.Resolver).
type Resolver interface {
	LookupMX(ctx context.Context, name string) ([]*net.MX, error)
	LookupIPAddr(ctx context.Context, host string) ([]net.IPAddr, error)
}

// Local is the service's own mail receiver: the inbound pipeline (wrapped
// by Service.Backend). A recipient it accepts is delivered through it.
type Local interface {
	CheckRecipient(ctx context.Context, rcpt string) error
	Deliver(ctx context.Context, env smtpserver.Envelope, raw []byte) error
}

// Config tunes delivery.
type Config struct {
	// Hostname is the EHLO name.
	Hostname string
	// Relay ("host:port") sends all outside mail through a smarthost.
	Relay string
	// RelayUsername and RelayPassword enable AUTH PLAIN, which is only
	// attempted over TLS (STARTTLS) or to a loopback relay.
	RelayUsername, RelayPassword string
	// RelayTLS verifies the relay's certificate (nil: system roots,
	// ServerName from Relay).
	RelayTLS *tls.Config
	// Capture keeps outside mail in outbound_captures instead of sending
	// it (dev mode without a relay).
	Capture bool
	// Port of direct delivery (default 25; tests point it at a sink).
	Port int
	// Resolver for MX and address lookups (default net.DefaultResolver).
	Resolver Resolver
	// Workers deliver in parallel (default 8).
	Workers int
	// Lease is how long a worker owns a claimed row (default 5 minutes).
	Lease time.Duration
	// RetryFor bounds retries after temporary failures (default 48 h);
	// past it a row fails (message.failed).
	RetryFor time.Duration
	// Backoff gives the wait before attempt n+1 (default 1 min · 2^n, at most 1 h).
	Backoff func(attempts int) time.Duration
	// Timeout bounds one SMTP conversation (default 5 minutes).
	Timeout time.Duration
}

// Service is the outbound queue and its workers.
type Service struct {
	db    *store.DB
	blobs mailbox.Blobs
	local Local
	cfg   Config
	log   *slog.Logger
	now   func() time.Time
	queue *rowQueue
	wake  chan struct{}
	pool  *connPool
	// running is true while Run's workers take rows (Service.Enqueue
	// leases fresh rows to them only then).
	running atomic.Bool
	// deferred is true when the dispatcher skipped a claim because the
	// backlog was long: the backlog running empty wakes it then.
	deferred atomic.Bool
}

// New builds the delivery service; Run starts its workers. local may be set
// later with SetLocal (the app builds the SMTP backend around this service).
func New(db *store.DB, blobs mailbox.Blobs, cfg Config, log *slog.Logger) *Service {
	if cfg.Port == 0 {
		cfg.Port = 25
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 8
	}
	if cfg.Lease <= 0 {
		cfg.Lease = 5 * time.Minute
	}
	if cfg.RetryFor <= 0 {
		cfg.RetryFor = 48 * time.Hour
	}
	if cfg.Backoff == nil {
		cfg.Backoff = func(n int) time.Duration { return min(time.Minute<<min(n, 10), time.Hour) }
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 5 * time.Minute
	}
	if cfg.Hostname == "" {
		cfg.Hostname = "localhost"
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	s := &Service{db: db, blobs: blobs, cfg: cfg, log: log, now: time.Now, wake: make(chan struct{}, 1), pool: newConnPool(cfg.Workers)}
	s.queue = newRowQueue(func() {
		if s.deferred.Swap(false) {
			s.poke()
		}
	})
	return s
}

// SetLocal sets the receiver of mail for this service's own inboxes.
func (s *Service) SetLocal(l Local) { s.local = l }

// Job is one message to queue.
type Job struct {
	OrgID, InboxID, MessageID, ThreadID string
	// Domain is the return-path domain: bounces+<row id>@Domain.
	Domain string
	// BlobPath is the signed raw message (mailbox blobs).
	BlobPath   string
	Recipients []string
}

// Recipient is the delivery status of one recipient.
type Recipient struct {
	ID        string    `json:"id"`
	Address   string    `json:"address"`
	Status    string    `json:"status" enum:"queued,delivered,bounced,failed"`
	Attempts  int       `json:"attempts"`
	Code      int       `json:"smtp_code,omitempty" doc:"Last SMTP reply code."`
	Detail    string    `json:"detail,omitempty" doc:"Last SMTP reply or error, as received."`
	UpdatedAt time.Time `json:"updated_at"`
}

// Enqueue writes one queue row per recipient in tx and wakes the dispatcher
// when tx commits.
func Enqueue(ctx context.Context, tx *store.Tx, j Job) ([]Recipient, error) {
	now := store.Micros(time.Now())
	out := make([]Recipient, 0, len(j.Recipients))
	for _, rcpt := range j.Recipients {
		id := ids.New("dlv")
		_, err := tx.ExecContext(ctx, `INSERT INTO outbound_queue (id, org_id, inbox_id, message_id, thread_id, mail_from, rcpt, blob_path,
			state, leased, attempts, next_attempt_at, last_code, last_error, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', FALSE, 0, $9, 0, '', $9, $9)`,
			id, j.OrgID, j.InboxID, j.MessageID, j.ThreadID, ReturnPath(id, j.Domain), rcpt, j.BlobPath, now)
		if err != nil {
			return nil, fmt.Errorf("enqueue: %w", err)
		}
		out = append(out, Recipient{ID: id, Address: rcpt, Status: StateQueued, UpdatedAt: store.Time(now)})
	}
	if err := tx.Notify(ctx, Topic, ""); err != nil {
		return nil, err
	}
	return out, nil
}

// ReturnPath is the envelope sender of one queue row: replies to it are
// reports about that row (VERP).
func ReturnPath(rowID, domain string) string { return "bounces+" + rowID + "@" + domain }

// Statuses returns the recipients of a message with their status.
func Statuses(ctx context.Context, q store.Querier, messageID string) ([]Recipient, error) {
	rows, err := q.QueryContext(ctx, `SELECT id, rcpt, state, attempts, last_code, last_error, updated_at FROM outbound_queue
		WHERE message_id = $1 ORDER BY id`, messageID)
	if err != nil {
		return nil, fmt.Errorf("statuses: %w", err)
	}
	defer rows.Close()
	out := []Recipient{}
	for rows.Next() {
		var r Recipient
		var at int64
		if err := rows.Scan(&r.ID, &r.Address, &r.Status, &r.Attempts, &r.Code, &r.Detail, &at); err != nil {
			return nil, err
		}
		r.UpdatedAt = store.Time(at)
		out = append(out, r)
	}
	return out, rows.Err()
}

// Run delivers until ctx ends.
//
// The pipeline: one dispatcher claims due rows in batches (one transaction
// per batch), Workers goroutines make the attempts (reusing SMTP
// connections per destination), and one recorder commits their outcomes in
// batches (one transaction for all outcomes that are ready), so a message
// costs a fraction of a commit on the delivery side instead of two.
func (s *Service) Run(ctx context.Context) {
	if s.db.Dialect() == store.SQLite {
		// One process owns a SQLite database: rows leased before a restart
		// belong to nobody now (the worker holding them died with it).
		if _, err := s.db.ExecContext(ctx, `UPDATE outbound_queue SET leased = FALSE, next_attempt_at = $1 WHERE state = 'queued' AND leased`,
			store.Micros(s.now())); err != nil {
			s.log.Error("delivery: reset leases", "err", err)
		}
	}
	unsub := s.db.Subscribe(Topic, func(string) { s.poke() })
	defer unsub()
	results := make(chan result, 4*s.cfg.Workers)
	recorded := make(chan struct{})
	go func() {
		defer close(recorded)
		s.recorder(context.WithoutCancel(ctx), results)
	}()
	var wg sync.WaitGroup
	for range s.cfg.Workers {
		wg.Go(func() {
			for {
				r, ok := s.queue.pop(ctx)
				if !ok {
					return
				}
				if o, ok := s.attempt(ctx, r); ok {
					results <- result{r, o}
				}
			}
		})
	}
	s.running.Store(true)
	wg.Go(func() { s.dispatch(ctx) })
	wg.Wait()
	s.running.Store(false)
	// Outcomes already known (a 250 above all) are committed before Run
	// returns; rows still waiting in memory are given back to the queue.
	close(results)
	<-recorded
	s.releaseUnattempted(ctx)
	s.pool.closeAll()
}

func (s *Service) poke() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// claimBatch is how many due rows one claim transaction takes.
const claimBatch = 64

// dispatch claims due rows and hands them to the workers; it wakes on a
// notification, when the workers' backlog ran empty, and at least every
// second (retries coming due). It claims only while the backlog is short,
// so claimed rows wait in memory for a moment, not for their lease.
func (s *Service) dispatch(ctx context.Context) {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		n := 0
		if s.queue.len() >= claimBatch {
			s.deferred.Store(true)
		} else {
			var err error
			n, err = s.claim(ctx, claimBatch)
			if err != nil && ctx.Err() == nil {
				s.log.Warn("delivery: claim", "err", err)
			}
		}
		if n == claimBatch {
			continue
		}
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-t.C:
			s.pool.closeIdle(s.now())
		}
	}
}

const rowColumns = `id, org_id, inbox_id, message_id, thread_id, mail_from, rcpt, blob_path, state, attempts, created_at`

func scanRow(sc interface{ Scan(...any) error }) (row, error) {
	var r row
	err := sc.Scan(&r.ID, &r.OrgID, &r.InboxID, &r.MessageID, &r.ThreadID, &r.MailFrom, &r.Rcpt, &r.BlobPath, &r.State, &r.Attempts, &r.CreatedAt)
	return r, err
}

// claim leases up to limit due rows in one transaction and queues them for
// the workers.
func (s *Service) claim(ctx context.Context, limit int) (int, error) {
	now := s.now()
	var claimed []row
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT `+rowColumns+` FROM outbound_queue WHERE state = 'queued' AND next_attempt_at <= $1
			ORDER BY next_attempt_at, id LIMIT $2 FOR UPDATE SKIP LOCKED`, store.Micros(now), limit)
		if err != nil {
			return err
		}
		if claimed, err = store.ScanAll(rows, scanRow); err != nil {
			return err
		}
		if len(claimed) == 0 {
			return nil
		}
		// One statement for the whole batch.
		args := make([]any, 0, len(claimed)+1)
		args = append(args, store.Micros(now.Add(s.cfg.Lease)))
		var in strings.Builder
		for i, r := range claimed {
			if i > 0 {
				in.WriteString(", ")
			}
			fmt.Fprintf(&in, "$%d", i+2)
			args = append(args, r.ID)
		}
		_, err = tx.ExecContext(ctx, `UPDATE outbound_queue SET leased = TRUE, next_attempt_at = $1 WHERE id IN (`+in.String()+`)`, args...)
		return err
	})
	if err != nil {
		return 0, err
	}
	s.queue.push(claimed...)
	return len(claimed), nil
}

// row is an outbound_queue row as a worker needs it.
type row struct {
	ID, OrgID, InboxID, MessageID, ThreadID, MailFrom, Rcpt, BlobPath, State string
	Attempts                                                                 int
	CreatedAt                                                                int64
	// raw is the message, when handed over with the row (fresh rows).
	raw []byte
}

func readRow(ctx context.Context, q store.Querier, id string) (row, error) {
	return scanRow(q.QueryRowContext(ctx, `SELECT `+rowColumns+` FROM outbound_queue WHERE id = $1`, id))
}

// outcome is the result of one attempt.
type outcome struct {
	code      int
	detail    string
	permanent bool // 5xx: bounce
	ok        bool
	captured  bool
	local     bool
}

// result is an attempt's outcome waiting to be recorded.
type result struct {
	r row
	o outcome
}

// attempt makes one delivery attempt for a row; false means there is
// nothing to record (shutting down before an answer).
func (s *Service) attempt(ctx context.Context, r row) (outcome, bool) {
	raw, err := r.raw, error(nil)
	if raw == nil {
		raw, err = s.blobs.ReadContext(ctx, r.BlobPath)
	}
	var o outcome
	if err != nil {
		o = outcome{detail: "message file unreadable: " + err.Error()}
	} else {
		o = s.deliver(ctx, r, raw)
	}
	if ctx.Err() != nil && !o.ok {
		return o, false // shutting down: the row is taken again after the restart
	}
	return o, true
}

// recordBatch bounds the outcomes committed in one transaction.
const recordBatch = 256

// recordPause is the least time between two outcome commits under load.
// The one SQLite writer also commits the sends; an outcome commit per
// handful of messages would take it from them, while the outcomes can
// wait a few milliseconds (the at-least-once window grows by as much).
const recordPause = 25 * time.Millisecond

// recorder commits outcomes as they come, all that are waiting in one
// transaction: the delivered state is on disk one commit after the 250
// (after an idle moment at once, under load within recordPause of the
// previous commit), and under load one commit serves many messages.
func (s *Service) recorder(ctx context.Context, results <-chan result) {
	batch := make([]result, 0, recordBatch)
	var last time.Time
	for first := range results {
		batch = append(batch[:0], first)
		var pause <-chan time.Time
		if wait := time.Until(last.Add(recordPause)); wait > 0 {
			pause = time.After(wait) // collected once fired or dropped (Go 1.23 timers)
		}
	more:
		for len(batch) < recordBatch {
			if pause == nil {
				select {
				case r, ok := <-results:
					if !ok {
						break more
					}
					batch = append(batch, r)
				default:
					break more
				}
				continue
			}
			select {
			case r, ok := <-results:
				if !ok {
					break more
				}
				batch = append(batch, r)
			case <-pause:
				pause = nil
			}
		}
		if err := s.record(ctx, batch); err != nil {
			// One bad row must not cost the others their record: retry
			// them one by one. A row that still fails stays leased and is
			// attempted again when its lease lapses.
			s.log.Warn("delivery: record batch", "rows", len(batch), "err", err)
			for _, r := range batch {
				if err := s.record(ctx, []result{r}); err != nil {
					s.log.Error("delivery: record outcome", "id", r.r.ID, "err", err)
				}
			}
		}
		last = time.Now()
	}
}

// deliver routes one row: local inbox, capture, relay or MX.
func (s *Service) deliver(ctx context.Context, r row, raw []byte) outcome {
	if s.local != nil {
		err := s.local.CheckRecipient(ctx, r.Rcpt)
		switch {
		case err == nil:
			env := smtpserver.Envelope{ID: r.ID, RemoteIP: net.IPv4(127, 0, 0, 1), Helo: s.cfg.Hostname, MailFrom: r.MailFrom,
				Recipients: []string{r.Rcpt}, TLS: true, ReceivedAt: s.now()}
			if err := s.local.Deliver(ctx, env, raw); err != nil {
				return localFailure(err)
			}
			return outcome{ok: true, local: true, code: 250, detail: "delivered to a local inbox"}
		case errors.Is(err, smtpserver.ErrRelayDenied):
			// not ours: deliver outside
		default:
			return localFailure(err)
		}
	}
	if s.cfg.Capture {
		if err := s.capture(ctx, r, raw); err != nil {
			return outcome{detail: "capture: " + err.Error()}
		}
		return outcome{ok: true, captured: true, code: 250, detail: "captured (dev mode, no relay configured)"}
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	if s.cfg.Relay != "" {
		host, port, _ := net.SplitHostPort(s.cfg.Relay)
		return s.sendVia(ctx, []string{host}, port, true, r, raw)
	}
	_, domain, _ := strings.Cut(r.Rcpt, "@")
	hosts, o := s.mxHosts(ctx, domain)
	if hosts == nil {
		return o
	}
	return s.sendVia(ctx, hosts, fmt.Sprint(s.cfg.Port), false, r, raw)
}

func localFailure(err error) outcome {
	switch {
	case errors.Is(err, smtpserver.ErrUnknownRecipient):
		return outcome{permanent: true, code: 550, detail: "5.1.1 no such mailbox"}
	case errors.Is(err, smtpserver.ErrOverQuota):
		return outcome{code: 452, detail: "4.2.2 mailbox over quota"}
	}
	return outcome{code: 451, detail: "local delivery: " + err.Error()}
}

// mxHosts lists the hosts to try for domain, best first (RFC 5321 section
// 5.1): its MX records, or the domain itself when it has none. A null MX
// (RFC 7505) is a permanent failure.
func (s *Service) mxHosts(ctx context.Context, domain string) ([]string, outcome) {
	mxs, err := s.cfg.Resolver.LookupMX(ctx, domain)
	var dnsErr *net.DNSError
	if err != nil && !(errors.As(err, &dnsErr) && dnsErr.IsNotFound) && len(mxs) == 0 {
		return nil, outcome{code: 451, detail: "4.4.3 MX lookup for " + domain + ": " + err.Error()}
	}
	if len(mxs) == 0 {
		return []string{domain}, outcome{}
	}
	if len(mxs) == 1 && (mxs[0].Host == "." || mxs[0].Host == "") {
		return nil, outcome{permanent: true, code: 556, detail: "5.1.10 " + domain + " accepts no mail (null MX)"}
	}
	hosts := make([]string, 0, len(mxs))
	for _, mx := range mxs { // net sorts by preference already
		hosts = append(hosts, strings.TrimSuffix(mx.Host, "."))
	}
	return hosts, outcome{}
}

// record stores attempts' outcomes and their events in one transaction.
func (s *Service) record(ctx context.Context, batch []result) error {
	now := s.now()
	type change struct {
		r          result
		state, typ string
		next       int64
		detail     string
	}
	changes := make([]change, 0, len(batch))
	for _, b := range batch {
		r, o := b.r, b.o
		c := change{r: b, state: StateQueued}
		switch {
		case o.ok:
			c.state, c.typ = StateDelivered, events.MessageDelivered
		case o.permanent:
			c.state, c.typ = StateBounced, events.MessageBounced
		case now.Sub(store.Time(r.CreatedAt)) >= s.cfg.RetryFor:
			c.state, c.typ = StateFailed, events.MessageFailed
		default:
			c.typ = events.MessageDeliveryDelayed
			c.next = store.Micros(now.Add(s.cfg.Backoff(r.Attempts)))
		}
		if o.ok {
			s.log.Info("delivery: delivered", "id", r.ID, "rcpt", r.Rcpt, "local", o.local, "captured", o.captured)
		} else {
			s.log.Warn("delivery: attempt failed", "id", r.ID, "rcpt", r.Rcpt, "code", o.code, "detail", o.detail, "state", c.state)
		}
		c.detail = o.detail
		if len(c.detail) > 1000 {
			c.detail = c.detail[:1000]
		}
		changes = append(changes, c)
	}
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		for _, c := range changes {
			r, o := c.r.r, c.r.o
			res, err := tx.ExecContext(ctx, `UPDATE outbound_queue SET state = $2, leased = FALSE, attempts = attempts + 1, next_attempt_at = $3,
				last_code = $4, last_error = $5, updated_at = $6 WHERE id = $1 AND state = 'queued'`,
				r.ID, c.state, c.next, o.code, c.detail, store.Micros(now))
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				continue // a report arrived meanwhile and settled it
			}
			data := map[string]any{"attempt": r.Attempts + 1, "smtp_code": o.code, "detail": c.detail}
			if c.typ == events.MessageDeliveryDelayed {
				data["next_attempt_at"] = store.Time(c.next).UTC()
			}
			if o.captured {
				data["captured"] = true
			}
			if err := appendEvent(ctx, tx, r, c.typ, data); err != nil {
				return err
			}
		}
		return nil
	})
}

// appendEvent logs a per-recipient delivery event. Rows without a message
// (confirmation mail of verified recipients) have no inbox and no event.
func appendEvent(ctx context.Context, tx *store.Tx, r row, typ string, data map[string]any) error {
	if r.MessageID == "" {
		return nil
	}
	data["message_id"] = r.MessageID
	data["thread_id"] = r.ThreadID
	data["inbox_id"] = r.InboxID
	data["recipient"] = r.Rcpt
	data["delivery_id"] = r.ID
	_, err := events.Append(ctx, tx, r.OrgID, r.InboxID, typ, data)
	return err
}
