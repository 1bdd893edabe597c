package webhooks

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
)

// leaseSlack is added to the attempt timeout for a worker's lease: time to
// record the outcome. A lease outliving its attempt by this much means the
// node died (or stalled), and another takes the delivery: a resend, which
// at-least-once allows, rather than a loss.
const leaseSlack = 5 * time.Second

// Kick wakes the workers and the dispatcher (tests call it after moving a
// fake clock forward).
func (s *Service) Kick() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
	select {
	case s.fanout <- "*":
	default:
	}
}

// Run fans out the log and sends deliveries until ctx ends. Attempts in
// flight at shutdown are abandoned; their leases expire and they are sent
// again (at least once).
func (s *Service) Run(ctx context.Context) {
	unsubEvents := s.db.Subscribe(events.Topic, func(org string) {
		select {
		case s.fanout <- org:
		default: // full: the poll catches up
		}
	})
	defer unsubEvents()
	unsubDue := s.db.Subscribe(DueTopic, func(string) {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	})
	defer unsubDue()
	var wg sync.WaitGroup
	wg.Go(func() { s.dispatchLoop(ctx) })
	wg.Go(func() { s.deliverLoop(ctx) })
	wg.Go(func() { s.sweepLoop(ctx) })
	wg.Wait()
}

// dispatchLoop finds organizations whose log is ahead of their cursor (on
// their notifications, and by polling) and hands them to the delivery
// pump, which fans them out in its next turn.
func (s *Service) dispatchLoop(ctx context.Context) {
	t := time.NewTicker(s.cfg.PollInterval)
	defer t.Stop()
	all := true // first pass: catch up with whatever was appended while down
	for {
		if all {
			orgs, err := s.behindOrgs(ctx)
			if err != nil && ctx.Err() == nil {
				s.log.Warn("webhook dispatcher", "err", err)
			}
			s.queueFanOut(orgs...)
		}
		all = false
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			all = true
		case org := <-s.fanout:
			if org == "*" || org == store.ResetPayload {
				all = true
				continue
			}
			// Most organizations have no endpoint: a read on the reader
			// pool spares them a turn on the one write connection, which
			// inbound mail and everything else share. An endpoint created
			// after this read is found by the poll (behindOrgs).
			if ok, err := s.hasCursor(ctx, org); ok || err != nil {
				s.queueFanOut(org)
			}
		}
	}
}

// hasCursor reports whether the organization has a fan-out cursor, i.e.
// has (or had) a webhook endpoint.
func (s *Service) hasCursor(ctx context.Context, org string) (bool, error) {
	var one int
	err := s.db.QueryRowContext(ctx, `SELECT 1 FROM webhook_cursors WHERE org_id = $1`, org).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// queueFanOut marks organizations for the pump's next turn and wakes it.
func (s *Service) queueFanOut(orgs ...string) {
	if len(orgs) == 0 {
		return
	}
	s.fanMu.Lock()
	for _, o := range orgs {
		s.fanPending[o] = true
	}
	s.fanMu.Unlock()
	select {
	case s.fanKick <- struct{}{}:
	default:
	}
}

// takeFanOut returns up to n organizations to fan out, removing them from
// the pending set.
func (s *Service) takeFanOut(n int) []string {
	s.fanMu.Lock()
	defer s.fanMu.Unlock()
	var out []string
	for o := range s.fanPending {
		if len(out) == n {
			break
		}
		out = append(out, o)
		delete(s.fanPending, o)
	}
	return out
}

// claimed is a delivery a worker holds, with what it needs to send it.
type claimed struct {
	id, orgID, eventID, payload string
	attempts                    int
	endpoint                    WebhookEndpoint
	// leasedUntil is when the lease ends: an attempt that could outlast it
	// is not started (another node may take the delivery by then).
	leasedUntil time.Time
}

// outcome is how one attempt went.
type outcome struct {
	d      claimed
	at     time.Time
	code   int
	errMsg string
	ok     bool
}

// maxBatch bounds how many outcomes one transaction records and how many
// deliveries one claim leases (statement size, transaction length).
const maxBatch = 256

// reserveDepth is how many deliveries of one endpoint a node may hold
// leased: PerEndpointInFlight being sent, the rest queued behind them or
// waiting for their outcome to be recorded, so when an attempt ends the next
// one starts at once instead of waiting for a database turn (a turn takes a
// few milliseconds, an attempt on a fast receiver less). 8 x: outcomes hold
// their place until a turn records them and a turn takes tens of
// deliveries, so with 4 x the node sat at its limit and every turn needed a
// claim. Only one node holds an endpoint's leases at a time (a claim skips
// endpoints with leases of another node), so at most PerEndpointInFlight
// requests reach an endpoint at once across all nodes.
const reserveDepth = 8 * PerEndpointInFlight

// pump is the node's delivery state: what it holds leased, what waits for
// a place and what is being sent, per endpoint. Attempts that end update it
// and start their successors themselves, while the loop is in a database
// turn.
type pump struct {
	s        *Service
	ctx      context.Context
	inflight sync.WaitGroup
	kick     chan struct{} // an outcome is waiting to be recorded

	mu      sync.Mutex
	mine    map[string]string    // leased by this node and not yet recorded: delivery id -> endpoint id
	holds   map[string]int       // len(mine) per endpoint
	queues  map[string][]claimed // leased, not started, per endpoint; oldest due first
	starved bool                 // a queued delivery waits for a worker, not for its endpoint
	sending map[string]int       // attempts in flight per endpoint
	busy    int                  // attempts in flight on this node
	done    []outcome            // finished, not yet recorded

	// With direct leasing (SQLite), the claim runs only when there may be
	// due deliveries in the database that the fan-out did not lease: scan
	// says any endpoint may have some (start, the poll, a notification, a
	// lease let go, a claim that filled its limit); backlog lists the
	// endpoints the fan-out left deliveries of unleased (their reserve was
	// full), whose fresh deliveries wait behind those (oldest first) until
	// a claim took all of them.
	scan    bool
	backlog map[string]bool
}

// requestScan asks the next turn for a claim of every endpoint.
func (p *pump) requestScan() {
	p.mu.Lock()
	p.scan = true
	p.mu.Unlock()
}

// hold and drop keep mine and holds together (under mu).
func (p *pump) hold(id, endpointID string) {
	if _, ok := p.mine[id]; ok {
		return
	}
	p.mine[id] = endpointID
	p.holds[endpointID]++
}

func (p *pump) drop(id string) {
	ep, ok := p.mine[id]
	if !ok {
		return
	}
	delete(p.mine, id)
	if p.holds[ep]--; p.holds[ep] <= 0 {
		delete(p.holds, ep) // endpoints come and go
	}
}

// startLocked sends queued deliveries while their endpoints and the node
// have places: at most PerEndpointInFlight per endpoint and Workers in all.
// With endpointID set (an attempt of it ended) it looks at that endpoint's
// queue only, and at the others only when some could not start for want of
// a worker: an attempt's end costs a few steps, not a pass over everything
// queued.
func (p *pump) startLocked(endpointID string) {
	if p.ctx.Err() != nil {
		return // shutting down: what is queued is given back
	}
	now := p.s.now()
	if endpointID != "" {
		p.startEndpoint(endpointID, now)
		if !p.starved {
			return
		}
	}
	p.starved = false
	for ep := range p.queues {
		p.startEndpoint(ep, now)
	}
}

// startEndpoint starts what the endpoint's and the node's places allow from
// the endpoint's queue.
func (p *pump) startEndpoint(endpointID string, now time.Time) {
	q := p.queues[endpointID]
	i := 0
	for ; i < len(q) && p.sending[endpointID] < PerEndpointInFlight; i++ {
		if p.busy >= p.s.cfg.Workers {
			p.starved = true
			break
		}
		d := q[i]
		if now.Add(p.s.cfg.AttemptTimeout).After(d.leasedUntil) {
			// Waited too long: the lease could end mid-attempt and another
			// node send it too. Let it go; it is claimed again once the
			// lease has ended.
			p.drop(d.id)
			p.scan = true
			continue
		}
		p.sending[endpointID]++
		p.busy++
		p.inflight.Go(func() { p.finished(p.s.attempt(p.ctx, d)) })
	}
	if i == len(q) {
		delete(p.queues, endpointID)
		return
	}
	clear(q[:i]) // the started ones are not kept alive by the queue
	p.queues[endpointID] = q[i:]
}

// finished takes an attempt's outcome and starts what its place allows.
func (p *pump) finished(o outcome) {
	p.mu.Lock()
	p.busy--
	if p.sending[o.d.endpoint.ID]--; p.sending[o.d.endpoint.ID] == 0 {
		delete(p.sending, o.d.endpoint.ID) // endpoints come and go
	}
	if p.ctx.Err() != nil {
		// Shutting down: the attempt may have been cut short by us, not
		// by the receiver. Record nothing; the lease expires and the
		// delivery is sent again.
		p.mu.Unlock()
		return
	}
	p.done = append(p.done, o)
	p.startLocked(o.d.endpoint.ID)
	p.mu.Unlock()
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// deliverLoop is the node's delivery pump. One write transaction per turn
// records the outcomes that came back since the last turn and leases due
// deliveries for the places they freed, so a delivery costs a share of one
// commit (one fsync on SQLite) rather than a claim and a recording commit of
// its own, and outcomes arriving while a turn commits are grouped into the
// next one. Meanwhile an attempt that ends starts the next delivery queued
// for its endpoint.
func (s *Service) deliverLoop(ctx context.Context) {
	p := &pump{s: s, ctx: ctx, kick: make(chan struct{}, 1), mine: map[string]string{}, holds: map[string]int{}, queues: map[string][]claimed{},
		sending: map[string]int{}, scan: true, backlog: map[string]bool{}}
	direct := s.db.Dialect() == store.SQLite
	defer func() {
		// Finished attempts are still recorded and queued deliveries given
		// back; attempts cut short record nothing (their leases expire and
		// they are sent again).
		p.inflight.Wait()
		var release []string
		for _, q := range p.queues {
			for _, d := range q {
				release = append(release, d.id)
			}
		}
		for len(p.done) > 0 || len(release) > 0 {
			n := min(len(p.done), maxBatch)
			r := min(len(release), maxBatch)
			if _, _, err := s.turn(context.WithoutCancel(ctx), p.done[:n], release[:r], nil, nil); err != nil {
				s.log.Warn("webhook outcomes not recorded", "n", n, "err", err)
			}
			p.done, release = p.done[n:], release[r:]
		}
	}()
	t := time.NewTicker(s.cfg.PollInterval)
	defer t.Stop()
	for ctx.Err() == nil {
		// Due retries and deliveries queued elsewhere (tests, replays)
		// are found by a claim of every endpoint, also when the loop has
		// been too busy to wait for these.
		select {
		case <-s.wake:
			p.requestScan()
		case <-t.C:
			p.requestScan()
		default:
		}
		p.mu.Lock()
		n := min(len(p.done), maxBatch)
		rec := slices.Clone(p.done[:n])
		p.done = slices.Delete(p.done, 0, n)
		for _, o := range rec {
			p.drop(o.d.id)
		}
		pl := &places{n: min(reserveDepth/PerEndpointInFlight*s.cfg.Workers-len(p.mine), maxBatch), direct: direct,
			room: make(map[string]int, len(p.holds)), backlog: p.backlog, overflow: map[string]bool{}}
		for ep, c := range p.holds {
			pl.room[ep] = reserveDepth - c
		}
		pl.claim = !direct || p.scan
		for ep := range p.backlog {
			pl.claim = pl.claim || pl.roomOf(ep) > 0
		}
		if !direct {
			pl.held = make([]string, 0, len(p.mine))
			for id := range p.mine {
				pl.held = append(pl.held, id)
			}
		}
		free := pl.n
		p.mu.Unlock()
		orgs := s.takeFanOut(fanOutPerTurn)
		batch, left, err := s.turn(ctx, rec, nil, orgs, pl)
		switch {
		case err != nil && len(orgs) > 0 && ctx.Err() == nil:
			// A fan-out must not hold the outcomes hostage: fan out on its
			// own (logging its error) and record them in the next turn.
			s.log.Warn("webhook turn failed", "n", len(rec), "orgs", len(orgs), "err", err)
			for _, org := range orgs {
				if _, err := s.FanOut(ctx, org); err != nil && ctx.Err() == nil {
					s.log.Warn("webhook fan-out failed", "org", org, "err", err)
				}
			}
			p.mu.Lock()
			for _, o := range rec {
				p.hold(o.d.id, o.d.endpoint.ID)
			}
			p.done = append(rec, p.done...)
			p.scan = true
			p.mu.Unlock()
			continue
		case err != nil && ctx.Err() == nil:
			// The outcomes are dropped with the transaction: their leases
			// expire and the deliveries are sent again (at least once).
			s.log.Warn("webhook outcomes not recorded or claim failed", "n", len(rec), "err", err)
		}
		s.queueFanOut(left...)
		p.mu.Lock()
		if err != nil {
			p.scan = true
		} else {
			pl.settle(p)
		}
		for _, d := range batch {
			p.hold(d.id, d.endpoint.ID)
		}
		for _, d := range batch {
			p.queues[d.endpoint.ID] = append(p.queues[d.endpoint.ID], d)
		}
		p.startLocked("")
		more := len(p.done) > 0
		p.mu.Unlock()
		if more || (free > 0 && len(batch) == free) {
			continue // more to record, or there may be more due
		}
		select {
		case <-ctx.Done():
		case <-p.kick:
		case <-s.fanKick:
		case <-s.wake:
			p.requestScan()
		case <-t.C:
			p.requestScan()
		}
	}
}

// places is what the pump can take in a turn and, after it, what the turn
// leased and left behind.
type places struct {
	n      int            // deliveries the node may still take
	room   map[string]int // places left in an endpoint's reserve (absent: reserveDepth)
	held   []string       // PostgreSQL: the deliveries the node holds (its claim skips other nodes' endpoints)
	direct bool           // SQLite: the fan-out leases fresh deliveries itself
	claim  bool           // run the claim

	backlog  map[string]bool // the pump's: endpoints with deliveries left unleased (read only here)
	now      time.Time       // the turn's time
	out      []claimed       // leased by the fan-out
	overflow map[string]bool // endpoints the fan-out left deliveries of unleased
	claimed  map[string]int  // per endpoint, how many the claim took, when it ran
	claimN   int             // the claim's limit
	claimRan bool
}

func (pl *places) roomOf(endpointID string) int {
	if r, ok := pl.room[endpointID]; ok {
		return r
	}
	return reserveDepth
}

// takeDirect says whether the fan-out leases a fresh pending delivery of
// the endpoint itself, and counts it: only with direct leasing, while the
// node and the endpoint's reserve have places, and when no older delivery
// of the endpoint waits unleased in the database (those go first). The
// lease it returns covers the wait behind the deliveries of the endpoint
// the node holds already (PerEndpointInFlight at a time) and the attempt,
// so after a crash the front of a queue is sent again sooner than the
// full reserve's lease would allow.
func (pl *places) takeDirect(endpointID string, timeout time.Duration) (time.Time, bool) {
	if pl == nil || !pl.direct {
		return time.Time{}, false
	}
	room := pl.roomOf(endpointID)
	if pl.backlog[endpointID] || pl.overflow[endpointID] || pl.n <= 0 || room <= 0 {
		pl.overflow[endpointID] = true
		return time.Time{}, false
	}
	pl.n--
	pl.room[endpointID] = room - 1
	ahead := reserveDepth - room
	return pl.now.Add(time.Duration(ahead/PerEndpointInFlight+1)*timeout + leaseSlack), true
}

// settle updates the pump's claim bookkeeping after a committed turn
// (under p.mu): endpoints the fan-out left deliveries of have a backlog
// until a claim takes fewer than their reserve allowed (it took all that
// were due); a claim that filled its limit may have left more anywhere.
// A claim that took fewer than the room the pump counted because the
// database also counts leases of a previous life clears the backlog too
// early; the poll's claim finds those deliveries within PollInterval.
func (pl *places) settle(p *pump) {
	for ep := range pl.overflow {
		p.backlog[ep] = true
	}
	if !pl.claimRan {
		return
	}
	p.scan = len(pl.claimed) > 0 && sum(pl.claimed) >= pl.claimN
	for ep, k := range pl.claimed {
		if k >= pl.roomOf(ep) {
			p.backlog[ep] = true
		}
	}
	for ep := range p.backlog {
		if pl.claimed[ep] < pl.roomOf(ep) {
			delete(p.backlog, ep)
		}
	}
}

func sum(m map[string]int) int {
	t := 0
	for _, v := range m {
		t += v
	}
	return t
}

// fanOutPerTurn bounds how many organizations one turn fans out.
const fanOutPerTurn = 8

// turn records outcomes, gives back leases of deliveries not sent, fans out
// the organizations' new log entries and then leases due deliveries within
// pl's places, in one transaction. Recording first frees the endpoints'
// places for the claim that follows. With direct leasing (SQLite) the
// fan-out leases fresh deliveries itself and the claim runs only when pl
// says so. more lists the organizations with log entries left to fan out.
// pl is nil when nothing is to be leased (shutdown).
func (s *Service) turn(ctx context.Context, outcomes []outcome, release, orgs []string, pl *places) (
	out []claimed, more []string, err error) {
	if len(outcomes) == 0 && len(release) == 0 && len(orgs) == 0 && (pl == nil || pl.n <= 0) {
		return nil, nil, nil
	}
	var off []disabled
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		out, off, more = nil, nil, nil
		var err error
		if len(outcomes) > 0 {
			if off, err = s.record(ctx, tx, outcomes); err != nil {
				return err
			}
		}
		if len(release) > 0 {
			if _, err := execForIDs(ctx, tx, `UPDATE webhook_deliveries SET leased_until = 0
				WHERE `+idsMarker+` AND status IN ('pending', 'failed')`, nil, release); err != nil {
				return fmt.Errorf("release deliveries: %w", err)
			}
		}
		if pl != nil {
			// A repeated attempt of the function starts afresh.
			pl.out, pl.claimRan, pl.claimed = nil, false, nil
			clear(pl.overflow)
			pl.now = s.now()
		}
		for _, org := range orgs {
			_, left, err := s.fanOutTx(ctx, tx, org, pl)
			if err != nil {
				return fmt.Errorf("fan out %s: %w", org, err)
			}
			if left {
				more = append(more, org)
			}
		}
		if pl == nil {
			return nil
		}
		out = pl.out
		if pl.claim && pl.n > 0 && ctx.Err() == nil {
			got, err := s.claim(ctx, tx, pl.n, pl.held)
			if err != nil {
				return err
			}
			pl.claimRan, pl.claimN, pl.claimed = true, pl.n, map[string]int{}
			for _, d := range got {
				pl.claimed[d.endpoint.ID]++
			}
			out = append(out, got...)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	for _, d := range off {
		s.notifyDisabled(ctx, d)
	}
	return out, more, nil
}

// leaseEnd is when a lease given now ends: it covers a wait behind the
// endpoint's attempts in flight (the reserve sends PerEndpointInFlight at a
// time) and the attempt itself.
func (s *Service) leaseEnd(now time.Time) time.Time {
	return now.Add(time.Duration(reserveDepth/PerEndpointInFlight)*s.cfg.AttemptTimeout + leaseSlack)
}

// inList is "$from, $from+1, …" for n values: the placeholders of an IN list
// or of a VALUES row.
func inList(from, n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(from + i))
	}
	return b.String()
}

// idsMarker stands for "id IN (…)" in the queries of execForIDs.
const idsMarker = "{ids}"

// execForIDs runs query for ids, its idsMarker standing for the ids'
// condition after the fixed arguments ($1…$len(fixed)). On PostgreSQL it is
// one statement with "id IN (…)" (one round trip). On SQLite it runs once
// per id with "id = $n": the text never changes, so the store's prepared
// statement is reused, where a new IN list would be parsed (parsing costs
// more than the update itself, and the database is in process). It returns
// how many rows changed.
func execForIDs(ctx context.Context, tx *store.Tx, query string, fixed []any, ids []string) (int64, error) {
	if len(ids) == 0 {
		return 0, nil
	}
	n := len(fixed) + 1
	if tx.Dialect() == store.SQLite {
		q := strings.Replace(query, idsMarker, "id = $"+strconv.Itoa(n), 1)
		args := append(slices.Clone(fixed), nil)
		var total int64
		for _, id := range ids {
			args[n-1] = id
			res, err := tx.ExecContext(ctx, q, args...)
			if err != nil {
				return total, err
			}
			c, err := res.RowsAffected()
			if err != nil {
				return total, err
			}
			total += c
		}
		return total, nil
	}
	res, err := tx.ExecContext(ctx, strings.Replace(query, idsMarker, "id IN ("+inList(n, len(ids))+")", 1),
		append(slices.Clone(fixed), anySlice(ids)...)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func anySlice(ids []string) []any {
	out := make([]any, len(ids))
	for i, id := range ids {
		out[i] = id
	}
	return out
}

// claim leases up to n due deliveries, oldest due first, of endpoints no
// other node holds leases of (held are this node's), up to reserveDepth
// leased per endpoint. Deliveries whose endpoint is no longer active become
// skipped, those whose type the endpoint no longer takes become dead. The
// lease covers a wait behind the endpoint's attempts in flight and the
// attempt itself.
func (s *Service) claim(ctx context.Context, tx *store.Tx, n int, held []string) ([]claimed, error) {
	now := s.now()
	nowUS := store.Micros(now)
	leaseEnd := s.leaseEnd(now)
	lease := store.Micros(leaseEnd)
	// Leases not in held are another node's (or of this node's previous
	// life): their endpoint is not claimed until they end. On SQLite one
	// process owns the database, so there is no other node whose attempts
	// could add to an endpoint's; leases of a previous life belong to a
	// process that is gone. Not checking keeps the text of the claim the
	// same from turn to turn (prepared once, not parsed each time).
	others := "COUNT(*)"
	if tx.Dialect() == store.SQLite {
		others, held = "0", nil
	} else if len(held) > 0 {
		others = "SUM(CASE WHEN id IN (" + inList(4, len(held)) + ") THEN 0 ELSE 1 END)"
	}
	args := append([]any{nowUS, reserveDepth, n}, anySlice(held)...)
	rows, err := tx.QueryContext(ctx, `SELECT d.id, d.org_id, d.event_id, d.event_type, d.payload, d.attempts, d.endpoint_id
		FROM webhook_deliveries d
		WHERE d.id IN (
			SELECT r.id FROM (
				SELECT id, endpoint_id, next_attempt_at,
					ROW_NUMBER() OVER (PARTITION BY endpoint_id ORDER BY next_attempt_at, id) AS rn
				FROM webhook_deliveries
				WHERE status IN ('pending', 'failed') AND next_attempt_at <= $1 AND leased_until <= $1
			) r
			LEFT JOIN (
				SELECT endpoint_id, COUNT(*) AS busy, `+others+` AS others FROM webhook_deliveries
				WHERE status IN ('pending', 'failed') AND leased_until > $1 GROUP BY endpoint_id
			) b ON b.endpoint_id = r.endpoint_id
			WHERE r.rn + COALESCE(b.busy, 0) <= $2 AND COALESCE(b.others, 0) = 0
			ORDER BY r.next_attempt_at LIMIT $3)
		AND d.status IN ('pending', 'failed') AND d.leased_until <= $1
		ORDER BY d.next_attempt_at, d.id FOR UPDATE SKIP LOCKED`, args...)
	if err != nil {
		return nil, fmt.Errorf("claim deliveries: %w", err)
	}
	type row struct {
		claimed
		typ, endpointID string
	}
	var got []row
	var epIDs []string
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.orgID, &r.eventID, &r.typ, &r.payload, &r.attempts, &r.endpointID); err != nil {
			rows.Close()
			return nil, err
		}
		r.leasedUntil = leaseEnd
		got = append(got, r)
		if !slices.Contains(epIDs, r.endpointID) {
			epIDs = append(epIDs, r.endpointID)
		}
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(got) == 0 {
		return nil, nil
	}
	eps, err := endpointsByID(ctx, tx, epIDs)
	if err != nil {
		return nil, fmt.Errorf("claim: read endpoints: %w", err)
	}
	var skipped, dead, leased []string
	var out []claimed
	for _, r := range got {
		ep, ok := eps[r.endpointID]
		switch {
		case !ok:
			continue // deleted with its deliveries meanwhile
		case ep.Status != EndpointActive:
			skipped = append(skipped, r.id)
		case !ep.takes(r.typ):
			dead = append(dead, r.id)
		default:
			leased = append(leased, r.id)
			r.endpoint = *ep
			out = append(out, r.claimed)
		}
	}
	if err := setFinal(ctx, tx, skipped, StatusSkipped, nowUS); err != nil {
		return nil, err
	}
	if err := setFinal(ctx, tx, dead, StatusDead, nowUS); err != nil {
		return nil, err
	}
	if _, err := execForIDs(ctx, tx, `UPDATE webhook_deliveries SET leased_until = $1 WHERE `+idsMarker, []any{lease}, leased); err != nil {
		return nil, fmt.Errorf("lease deliveries: %w", err)
	}
	return out, nil
}

// endpointsByID reads the endpoints with these ids (deleted ones are
// missing from the map): one query on PostgreSQL, one prepared point query
// each on SQLite (see execForIDs).
func endpointsByID(ctx context.Context, tx *store.Tx, epIDs []string) (map[string]*WebhookEndpoint, error) {
	eps := make(map[string]*WebhookEndpoint, len(epIDs))
	scan := func(query string, args ...any) error {
		rows, err := tx.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			e, err := scanEndpoint(rows)
			if err != nil {
				return err
			}
			eps[e.ID] = &e
		}
		return rows.Err()
	}
	if tx.Dialect() == store.SQLite {
		for _, id := range epIDs {
			if err := scan(`SELECT `+endpointCols+` FROM webhook_endpoints WHERE id = $1`, id); err != nil {
				return nil, err
			}
		}
		return eps, nil
	}
	if err := scan(`SELECT `+endpointCols+` FROM webhook_endpoints WHERE id IN (`+inList(1, len(epIDs))+`)`, anySlice(epIDs)...); err != nil {
		return nil, err
	}
	return eps, nil
}

func setFinal(ctx context.Context, tx *store.Tx, ids []string, status string, now int64) error {
	_, err := execForIDs(ctx, tx, `UPDATE webhook_deliveries SET status = $1, next_attempt_at = 0, leased_until = 0, updated_at = $2
		WHERE `+idsMarker, []any{status, now}, ids)
	if err != nil {
		return fmt.Errorf("set deliveries %s: %w", status, err)
	}
	return nil
}

// attempt sends one delivery, signed at the attempt's time.
func (s *Service) attempt(ctx context.Context, d claimed) outcome {
	at := s.now()
	o := outcome{d: d, at: at}
	cur, prev, err := s.secrets(ctx, d.endpoint, at)
	if err != nil {
		o.errMsg = "cannot open the signing secret"
		s.log.Error("webhook secret", "endpoint", d.endpoint.ID, "err", err)
		return o
	}
	body := []byte(d.payload)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, d.endpoint.URL, bytes.NewReader(body))
	if err != nil {
		o.errMsg = "bad url: " + err.Error()
		return o
	}
	ts := strconv.FormatInt(at.Unix(), 10)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "agentsvc-webhooks/1")
	req.Header.Set("X-Service-Timestamp", ts)
	req.Header.Set("X-Service-Signature", sign(cur, ts, body))
	if prev != "" {
		req.Header.Set("X-Service-Signature-Previous", sign(prev, ts, body))
	}
	req.Header.Set("X-Service-Event-Id", d.eventID)
	req.Header.Set("X-Service-Delivery-Id", d.id)
	resp, err := s.client.Do(req)
	if err != nil {
		switch {
		case isRefused(err):
			o.errMsg = "refused: the URL resolves to a non-public address"
		case errors.Is(err, context.DeadlineExceeded) || strings.Contains(err.Error(), "Client.Timeout"):
			o.errMsg = fmt.Sprintf("timeout: no answer within %s", s.cfg.AttemptTimeout)
		default:
			o.errMsg = "connection error: " + trimErr(err)
		}
		return o
	}
	// Drain a little so the connection can be reused; the body is not kept.
	_, _ = io.CopyN(io.Discard, resp.Body, 64<<10)
	resp.Body.Close()
	o.code = resp.StatusCode
	switch {
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		o.ok = true
	case resp.StatusCode >= 300 && resp.StatusCode < 400:
		o.errMsg = "redirect not followed: " + resp.Status
	default:
		o.errMsg = "non-2xx answer: " + resp.Status
	}
	return o
}

func trimErr(err error) string {
	m := err.Error()
	if len(m) > 300 {
		m = m[:300]
	}
	return m
}

// Backoff is the wait after failed attempt n (1-9) with jitter j in [0,1):
// the schedule's wait stretched by up to 10 %.
func Backoff(n int, j float64) time.Duration {
	base := Schedule[min(max(n, 1), len(Schedule))-1]
	return base + time.Duration(float64(base)*0.1*j)
}

type disabled struct{ orgID, endpointID, url string }

// result is what an outcome writes into its delivery row.
type result struct {
	id, status, errMsg string
	attempts, code     int
	next, at           int64
}

// resultOf applies the state machine to an outcome: succeeded, failed with
// the next attempt on the schedule, or dead after the last attempt.
func resultOf(o outcome) result {
	r := result{id: o.d.id, status: StatusSucceeded, errMsg: o.errMsg, attempts: o.d.attempts + 1, code: o.code, at: store.Micros(o.at)}
	if !o.ok {
		r.status = StatusFailed
		if r.attempts >= MaxAttempts {
			r.status = StatusDead
		} else {
			r.next = store.Micros(o.at.Add(Backoff(r.attempts, rand.Float64())))
		}
	}
	return r
}

// recordEach writes the results one prepared UPDATE each (SQLite: the text
// never changes, see execForIDs). Rows no longer pending or failed are
// left alone; it returns the ids it updated.
func recordEach(ctx context.Context, tx *store.Tx, results []result) (map[string]bool, error) {
	updated := make(map[string]bool, len(results))
	for _, r := range results {
		res, err := tx.ExecContext(ctx, `UPDATE webhook_deliveries SET status = $1, attempts = $2, next_attempt_at = $3,
			leased_until = 0, last_attempt_at = $4, last_status_code = $5, last_error = $6, updated_at = $4
			WHERE id = $7 AND status IN ('pending', 'failed')`, r.status, r.attempts, r.next, r.at, r.code, r.errMsg, r.id)
		if err != nil {
			return nil, fmt.Errorf("record outcome: %w", err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return nil, fmt.Errorf("record outcome: %w", err)
		} else if n > 0 {
			updated[r.id] = true
		}
	}
	return updated, nil
}

// recordBatch writes the results in one UPDATE … FROM (VALUES …) (one round
// trip on PostgreSQL). Rows no longer pending or failed are left alone; it
// returns the ids it updated.
func recordBatch(ctx context.Context, tx *store.Tx, results []result) (map[string]bool, error) {
	var q strings.Builder
	q.WriteString(`UPDATE webhook_deliveries SET status = v.column2, attempts = v.column3, next_attempt_at = v.column4,
		leased_until = 0, last_attempt_at = v.column5, last_status_code = v.column6, last_error = v.column7, updated_at = v.column5
		FROM (VALUES `)
	// Only the delivery id and an error text are bound; numbers and
	// statuses (our own constants) are written into the statement. The
	// casts type the columns for PostgreSQL.
	args := make([]any, 0, len(results))
	for i, r := range results {
		if i > 0 {
			q.WriteString(", ")
		}
		args = append(args, r.id)
		errText := "''"
		if r.errMsg != "" {
			args = append(args, r.errMsg)
			errText = "$" + strconv.Itoa(len(args))
		}
		fmt.Fprintf(&q, "($%d, '%s', CAST(%d AS INTEGER), CAST(%d AS BIGINT), CAST(%d AS BIGINT), CAST(%d AS INTEGER), CAST(%s AS TEXT))",
			len(args)-min(1, len(r.errMsg)), r.status, r.attempts, r.next, r.at, r.code, errText)
	}
	q.WriteString(`) AS v WHERE webhook_deliveries.id = v.column1 AND webhook_deliveries.status IN ('pending', 'failed')
		RETURNING webhook_deliveries.id`)
	rows, err := tx.QueryContext(ctx, q.String(), args...)
	if err != nil {
		return nil, fmt.Errorf("record outcomes: %w", err)
	}
	defer rows.Close()
	updated := make(map[string]bool, len(results))
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		updated[id] = true
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("record outcomes: %w", err)
	}
	return updated, nil
}

// record writes a batch of outcomes: the deliveries (one UPDATE on
// PostgreSQL, one prepared UPDATE each on SQLite; rows no longer pending or
// failed — deleted, or moved by a replay meanwhile — are left alone), the
// reset of the endpoints whose attempts all succeeded, and the
// failure bookkeeping, outcome by outcome, for endpoints with a failure. It
// returns the endpoints the batch disabled.
func (s *Service) record(ctx context.Context, tx *store.Tx, batch []outcome) ([]disabled, error) {
	// One lock order (by id) for every writer of delivery rows in batches.
	slices.SortFunc(batch, func(a, b outcome) int { return strings.Compare(a.d.id, b.d.id) })
	results := make([]result, len(batch))
	for i, o := range batch {
		results[i] = resultOf(o)
	}
	var updated map[string]bool
	var err error
	if tx.Dialect() == store.SQLite {
		updated, err = recordEach(ctx, tx, results)
	} else {
		updated, err = recordBatch(ctx, tx, results)
	}
	if err != nil {
		return nil, err
	}
	// Endpoints with a failed attempt in the batch keep the sequential
	// bookkeeping (count, auto-disable); the others only need their count
	// reset, which one statement does for all of them.
	failing := map[string]bool{}
	for _, o := range batch {
		if updated[o.d.id] && !o.ok {
			failing[o.d.endpoint.ID] = true
		}
	}
	var succeeded []string
	for _, o := range batch {
		if updated[o.d.id] && !failing[o.d.endpoint.ID] && !slices.Contains(succeeded, o.d.endpoint.ID) {
			succeeded = append(succeeded, o.d.endpoint.ID)
		}
	}
	slices.Sort(succeeded)
	if len(succeeded) > 0 {
		_, err := execForIDs(ctx, tx, `UPDATE webhook_endpoints SET failing_since = 0, failed_attempts = 0
			WHERE `+idsMarker+` AND (failing_since <> 0 OR failed_attempts <> 0)`, nil, succeeded)
		if err != nil {
			return nil, fmt.Errorf("reset endpoint failures: %w", err)
		}
	}
	var off []disabled
	for _, o := range batch {
		if !updated[o.d.id] || !failing[o.d.endpoint.ID] {
			continue
		}
		d, err := s.endpointOutcome(ctx, tx, o)
		if err != nil {
			return nil, err
		}
		if d != nil {
			off = append(off, *d)
		}
	}
	return off, nil
}

// endpointOutcome keeps the endpoint's failure count: a success resets it; a
// failure starts or extends the run and disables the endpoint after 3 days
// with at least 20 failed attempts.
func (s *Service) endpointOutcome(ctx context.Context, tx *store.Tx, o outcome) (*disabled, error) {
	at := store.Micros(o.at)
	if o.ok {
		_, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET failing_since = 0, failed_attempts = 0
			WHERE id = $1 AND (failing_since <> 0 OR failed_attempts <> 0)`, o.d.endpoint.ID)
		return nil, err
	}
	var since int64
	var failed int
	var status, url string
	err := tx.QueryRowContext(ctx, `UPDATE webhook_endpoints SET
			failing_since = CASE WHEN failing_since = 0 THEN $1 ELSE failing_since END,
			failed_attempts = failed_attempts + 1
		WHERE id = $2 RETURNING failing_since, failed_attempts, status, url`, at, o.d.endpoint.ID).Scan(&since, &failed, &status, &url)
	if err != nil {
		return nil, fmt.Errorf("count endpoint failure: %w", err)
	}
	if status != EndpointActive || at-since < DisableAfter.Microseconds() || failed < DisableMinFailures {
		return nil, nil
	}
	if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET status = 'disabled', updated_at = $1 WHERE id = $2`, at, o.d.endpoint.ID); err != nil {
		return nil, err
	}
	if err := audit.Record(ctx, tx, o.d.orgID, audit.System, "webhook.endpoint_disabled",
		audit.Target{Type: "webhook_endpoint", ID: o.d.endpoint.ID},
		map[string]any{"failing_since": store.Time(since), "failed_attempts": failed}); err != nil {
		return nil, err
	}
	return &disabled{orgID: o.d.orgID, endpointID: o.d.endpoint.ID, url: url}, nil
}

func (s *Service) notifyDisabled(ctx context.Context, d disabled) {
	subject := "Webhook endpoint disabled: " + d.url
	text := fmt.Sprintf("The webhook endpoint %s (%s) failed every delivery for 3 days (at least %d attempts) and has been disabled.\n"+
		"Fix the receiver, then set its status to active (PATCH /api/v1/webhooks/%s) and redeliver what it missed (POST /api/v1/webhooks/%s/redeliver).\n",
		d.endpointID, d.url, DisableMinFailures, d.endpointID, d.endpointID)
	if err := s.cfg.Notifier.NotifyOwners(context.WithoutCancel(ctx), d.orgID, subject, text); err != nil {
		s.log.Error("webhook disable notice not sent", "org", d.orgID, "endpoint", d.endpointID, "err", err)
	}
}
