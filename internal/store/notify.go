package store

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
)

// Notifications wake other parts of the service (long-polls, caches, workers)
// when something committed. On SQLite there is one server process, so they are
// delivered in process after the commit. On PostgreSQL they go through
// NOTIFY, which PostgreSQL delivers on commit to every node, this one included,
// so several servers behind a load balancer wake each other.
//
// A notification is a hint, never the data: a subscriber re-reads the
// database. ResetPayload tells subscribers that notifications may have been
// missed (the listener reconnected) and everything should be re-read.
const ResetPayload = "*"

const pgChannel = "agentsvc"

type notification struct{ topic, payload string }

type notifier struct {
	db *DB

	mu   sync.RWMutex
	subs map[string]map[int]func(string)
	next int

	startOnce sync.Once
	ctx       context.Context
	cancel    context.CancelFunc
	done      chan struct{}
}

func newNotifier(db *DB) *notifier {
	ctx, cancel := context.WithCancel(context.Background())
	return &notifier{db: db, subs: map[string]map[int]func(string){}, ctx: ctx, cancel: cancel, done: make(chan struct{})}
}

// Subscribe calls fn (on a notifier goroutine; it must not block) for every
// notification on topic, until the returned function is called.
func (db *DB) Subscribe(topic string, fn func(payload string)) (unsubscribe func()) {
	n := db.notify
	if db.dialect == Postgres {
		n.startOnce.Do(func() { go n.listen() })
	}
	n.mu.Lock()
	id := n.next
	n.next++
	if n.subs[topic] == nil {
		n.subs[topic] = map[int]func(string){}
	}
	n.subs[topic][id] = fn
	n.mu.Unlock()
	return func() {
		n.mu.Lock()
		delete(n.subs[topic], id)
		n.mu.Unlock()
	}
}

// Notify queues a notification that is sent when the transaction commits and
// dropped if it rolls back.
func (tx *Tx) Notify(ctx context.Context, topic, payload string) error {
	if tx.db.dialect == Postgres {
		_, err := tx.tx.ExecContext(ctx, "SELECT pg_notify($1, $2)", pgChannel, topic+"\t"+payload)
		return err
	}
	tx.pending = append(tx.pending, notification{topic, payload})
	return nil
}

// Notify sends a notification outside a transaction.
func (db *DB) Notify(ctx context.Context, topic, payload string) error {
	if db.dialect == Postgres {
		_, err := db.w.ExecContext(ctx, "SELECT pg_notify($1, $2)", pgChannel, topic+"\t"+payload)
		return err
	}
	db.notify.deliver(topic, payload)
	return nil
}

func (n *notifier) afterCommit(pending []notification) {
	for _, p := range pending {
		n.deliver(p.topic, p.payload)
	}
}

func (n *notifier) deliver(topic, payload string) {
	n.mu.RLock()
	defer n.mu.RUnlock()
	for _, fn := range n.subs[topic] {
		fn(payload)
	}
}

func (n *notifier) resetAll() {
	n.mu.RLock()
	defer n.mu.RUnlock()
	for _, subs := range n.subs {
		for _, fn := range subs {
			fn(ResetPayload)
		}
	}
}

// listen holds one PostgreSQL connection in LISTEN, reconnecting with backoff.
// After a reconnect every subscriber gets ResetPayload, since anything sent
// while the connection was down is lost.
func (n *notifier) listen() {
	defer close(n.done)
	backoff := 100 * time.Millisecond
	first := true
	for n.ctx.Err() == nil {
		conn, err := pgx.Connect(n.ctx, n.db.url)
		if err == nil {
			_, err = conn.Exec(n.ctx, "LISTEN "+pgChannel)
		}
		if err != nil {
			if conn != nil {
				conn.Close(context.Background())
			}
			n.db.log.Warn("notification listener cannot connect", "err", err)
			select {
			case <-n.ctx.Done():
				return
			case <-time.After(backoff):
			}
			backoff = min(backoff*2, 5*time.Second)
			continue
		}
		backoff = 100 * time.Millisecond
		if !first {
			n.resetAll()
		}
		first = false
		for {
			msg, err := conn.WaitForNotification(n.ctx)
			if err != nil {
				break
			}
			topic, payload, _ := strings.Cut(msg.Payload, "\t")
			n.deliver(topic, payload)
		}
		conn.Close(context.Background())
	}
}

func (n *notifier) close() {
	n.cancel()
	n.startOnce.Do(func() { close(n.done) }) // never started: nothing to wait for
	select {
	case <-n.done:
	case <-time.After(2 * time.Second):
	}
}
