package mailbox

import (
	"context"
	"log/slog"
	"sync"

	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
)

// hubBatch is the most events the hub reads per wake-up; beyond it, waiters
// are woken without events and read the log themselves.
const hubBatch = 1000

// Hub wakes long-polls when events are appended. It holds ONE store
// subscription to events.Topic (PostgreSQL LISTEN/NOTIFY across nodes; in
// process on SQLite) and fans out in memory: on a notification for an
// organization it reads the new events once and hands each waiter the events
// of its inbox, so ten thousand waiting long-polls cost one query per
// message, not ten thousand.
//
// A notification is only a hint. Correctness comes from the order waiters
// use: register, then read the database, then wait; an event that commits
// after that read is announced after the registration, so it is either
// handed over by the hub or makes the waiter read again.
type Hub struct {
	db  *store.DB
	log *slog.Logger

	mu    sync.Mutex
	orgs  map[string]*orgWaiters
	dirty map[string]bool
	reset bool
	kick  chan struct{}
}

type orgWaiters struct {
	lastSeq int64
	waiters map[*Waiter]struct{}
}

// Waiter is one registered long-poll.
type Waiter struct {
	org, inbox string
	// C receives the new events of the inbox (oldest first), or nil when
	// the waiter must re-read the log itself (after a listener reconnect or
	// a burst larger than one batch). It has room for one wake-up; later
	// ones are dropped since the waiter re-reads by cursor anyway.
	C chan []events.Event
}

// NewHub makes a hub; Run delivers its wake-ups.
func NewHub(db *store.DB, log *slog.Logger) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Hub{db: db, log: log, orgs: map[string]*orgWaiters{}, dirty: map[string]bool{}, kick: make(chan struct{}, 1)}
}

// Run subscribes to the event log's notifications and wakes waiters until
// ctx ends.
func (h *Hub) Run(ctx context.Context) {
	unsub := h.db.Subscribe(events.Topic, h.notified)
	defer unsub()
	for {
		select {
		case <-ctx.Done():
			h.mu.Lock()
			for _, ow := range h.orgs {
				for w := range ow.waiters {
					wake(w, nil)
				}
			}
			h.mu.Unlock()
			return
		case <-h.kick:
		}
		h.mu.Lock()
		reset := h.reset
		dirty := h.dirty
		h.reset, h.dirty = false, map[string]bool{}
		h.mu.Unlock()
		if reset {
			h.wakeAll()
			continue
		}
		for org := range dirty {
			h.dispatch(ctx, org)
		}
	}
}

// notified runs on the store's notifier goroutine: it must not block.
func (h *Hub) notified(payload string) {
	h.mu.Lock()
	if payload == store.ResetPayload {
		h.reset = true
	} else if _, ok := h.orgs[payload]; ok {
		h.dirty[payload] = true
	} else {
		h.mu.Unlock()
		return // nobody waits on this organization
	}
	h.mu.Unlock()
	select {
	case h.kick <- struct{}{}:
	default:
	}
}

func wake(w *Waiter, evs []events.Event) {
	select {
	case w.C <- evs:
	default:
	}
}

func (h *Hub) wakeAll() {
	h.mu.Lock()
	defer h.mu.Unlock()
	for org, ow := range h.orgs {
		for w := range ow.waiters {
			wake(w, nil)
		}
		if seq, err := events.Head(context.Background(), h.db, org); err == nil {
			ow.lastSeq = seq
		}
	}
}

// dispatch reads an organization's new events once and hands them out.
func (h *Hub) dispatch(ctx context.Context, org string) {
	h.mu.Lock()
	ow, ok := h.orgs[org]
	if !ok {
		h.mu.Unlock()
		return
	}
	from := ow.lastSeq
	h.mu.Unlock()

	evs, err := events.ListAfter(ctx, h.db, org, "", from, hubBatch)
	if err != nil {
		h.log.Warn("long-poll hub: read events", "org", org, "err", err)
		h.mu.Lock()
		for w := range ow.waiters {
			wake(w, nil)
		}
		h.mu.Unlock()
		return
	}
	if len(evs) == 0 {
		return
	}
	byInbox := map[string][]events.Event{}
	for _, e := range evs {
		byInbox[e.InboxID] = append(byInbox[e.InboxID], e)
	}
	full := len(evs) == hubBatch
	h.mu.Lock()
	defer h.mu.Unlock()
	if ow.lastSeq < evs[len(evs)-1].Seq {
		ow.lastSeq = evs[len(evs)-1].Seq
	}
	for w := range ow.waiters {
		switch {
		case full:
			wake(w, nil)
		case byInbox[w.inbox] != nil:
			wake(w, byInbox[w.inbox])
		}
	}
	if full {
		h.dirty[org] = true
		select {
		case h.kick <- struct{}{}:
		default:
		}
	}
}

// Register adds a waiter for an inbox's events. Call it BEFORE reading the
// database, then wait on C, and Unregister when done.
func (h *Hub) Register(ctx context.Context, org, inbox string) (*Waiter, error) {
	w := &Waiter{org: org, inbox: inbox, C: make(chan []events.Event, 1)}
	h.mu.Lock()
	ow, ok := h.orgs[org]
	if ok {
		ow.waiters[w] = struct{}{}
		h.mu.Unlock()
		return w, nil
	}
	h.mu.Unlock()
	// First waiter of the organization: start reading its log from the
	// head, which every later read by the waiter itself will cover.
	head, err := events.Head(ctx, h.db, org)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	ow, ok = h.orgs[org]
	if !ok {
		ow = &orgWaiters{lastSeq: head, waiters: map[*Waiter]struct{}{}}
		h.orgs[org] = ow
	}
	ow.waiters[w] = struct{}{}
	return w, nil
}

// Unregister removes a waiter.
func (h *Hub) Unregister(w *Waiter) {
	h.mu.Lock()
	defer h.mu.Unlock()
	ow, ok := h.orgs[w.org]
	if !ok {
		return
	}
	delete(ow.waiters, w)
	if len(ow.waiters) == 0 {
		delete(h.orgs, w.org)
	}
}

// Waiting reports how many long-polls are registered (for tests and
// benchmarks).
func (h *Hub) Waiting() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, ow := range h.orgs {
		n += len(ow.waiters)
	}
	return n
}

// Waiting reports how many long-polls wait on the service's hub.
func (s *Service) Waiting() int {
	if s.hub == nil {
		return 0
	}
	return s.hub.Waiting()
}
