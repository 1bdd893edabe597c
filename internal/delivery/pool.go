package delivery

import (
	"net"
	"sync"
	"time"

	"github.com/emersion/go-smtp"
)

// Connection reuse (RFC 5321 section 3.3 allows many transactions per
// session): opening a connection costs a TCP handshake, a greeting, EHLO,
// often STARTTLS and AUTH; a busy destination gets the next message on an
// idle session instead.
const (
	// maxIdle is how long an idle connection is kept. Servers drop idle
	// clients after a few minutes (RFC 5321 section 4.5.3.2.7 suggests 5);
	// closing well before keeps a destination from holding our sockets.
	maxIdle = 15 * time.Second
	// maxMessagesPerConn stays under the common per-session limits
	// (Postfix smtpd and this service's own server allow 100).
	maxMessagesPerConn = 90
)

// poolKey names a destination: one address and the name it was reached by
// (TLS server name, relay or MX).
type poolKey struct {
	addr, host string
	relay      bool
}

// pooledConn is an SMTP session between transactions.
type pooledConn struct {
	c     *smtp.Client
	conn  net.Conn
	name  string
	uses  int
	since time.Time // idle since
}

func (p *pooledConn) close() { _ = p.c.Close() }

// quit ends the session politely, without waiting long for the answer.
func (p *pooledConn) quit() {
	_ = p.conn.SetDeadline(time.Now().Add(2 * time.Second))
	_ = p.c.Quit()
	_ = p.c.Close()
}

// connPool keeps idle sessions per destination, at most perKey each (one
// per worker is the most that can be busy at once).
type connPool struct {
	perKey int
	mu     sync.Mutex
	idle   map[poolKey][]*pooledConn
	closed bool
}

func newConnPool(perKey int) *connPool {
	return &connPool{perKey: max(perKey, 1), idle: map[poolKey][]*pooledConn{}}
}

// get takes the most recently used idle session to k that is not too old.
func (p *connPool) get(k poolKey, now time.Time) *pooledConn {
	p.mu.Lock()
	defer p.mu.Unlock()
	for list := p.idle[k]; len(list) > 0; list = p.idle[k] {
		pc := list[len(list)-1]
		p.idle[k] = list[:len(list)-1]
		if now.Sub(pc.since) < maxIdle {
			return pc
		}
		go pc.quit()
	}
	return nil
}

// put keeps pc for reuse; false means the caller must close it.
func (p *connPool) put(k poolKey, pc *pooledConn, now time.Time) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed || len(p.idle[k]) >= p.perKey {
		return false
	}
	pc.since = now
	p.idle[k] = append(p.idle[k], pc)
	return true
}

// closeIdle ends sessions idle longer than maxIdle.
func (p *connPool) closeIdle(now time.Time) {
	var old []*pooledConn
	p.mu.Lock()
	for k, list := range p.idle {
		keep := list[:0]
		for _, pc := range list {
			if now.Sub(pc.since) >= maxIdle {
				old = append(old, pc)
			} else {
				keep = append(keep, pc)
			}
		}
		if len(keep) == 0 {
			delete(p.idle, k)
		} else {
			p.idle[k] = keep
		}
	}
	p.mu.Unlock()
	for _, pc := range old {
		pc.quit()
	}
}

// closeAll ends every idle session; later puts are refused.
func (p *connPool) closeAll() {
	p.mu.Lock()
	all := p.idle
	p.idle, p.closed = map[poolKey][]*pooledConn{}, true
	p.mu.Unlock()
	for _, list := range all {
		for _, pc := range list {
			pc.quit()
		}
	}
}
