package smtpserver

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"
	"time"
)

// Shutdown ends idle sessions at once, refuses new connections, and lets a
// message in flight finish with 250 before it returns.
func TestShutdownGraceful(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	b.gate = make(chan struct{})
	b.entered = make(chan struct{}, 1)
	s := startServer(t, Config{}, b)

	idle := dialRaw(t, s)
	idle.reply()
	idle.cmd("EHLO idle.example")

	busy := dial(t, s)
	sent := make(chan error, 1)
	go func() { sent <- send(busy, "alice@example.org", []string{"agent@agentsvc.test"}, testMessage) }()
	<-b.entered

	stopped := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		stopped <- s.Shutdown(ctx)
	}()

	if r := idle.reply(); !strings.HasPrefix(r, "421 ") {
		t.Fatalf("idle session got %q, want 421", r)
	}
	// The listener is closed: a new client cannot start a session.
	if c, err := net.DialTimeout("tcp", s.Addr().String(), time.Second); err == nil {
		_ = c.SetReadDeadline(time.Now().Add(2 * time.Second))
		buf := make([]byte, 64)
		n, _ := c.Read(buf)
		c.Close()
		if strings.HasPrefix(string(buf[:n]), "220") {
			t.Fatal("new connection greeted during shutdown")
		}
	}
	select {
	case err := <-stopped:
		t.Fatalf("Shutdown returned (%v) while a message was in flight", err)
	case <-time.After(100 * time.Millisecond):
	}

	close(b.gate)
	if err := <-sent; err != nil {
		t.Fatalf("in-flight message: %v", err)
	}
	if err := <-stopped; err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	if len(b.messages()) != 1 {
		t.Fatal("in-flight message not stored")
	}
}

// At the deadline Shutdown cuts the rest off; the client gets no 250 and the
// backend's context is cancelled.
func TestShutdownDeadline(t *testing.T) {
	b := newMemBackend("agent@agentsvc.test")
	b.gate = make(chan struct{}) // never opened
	b.entered = make(chan struct{}, 1)
	s := startServer(t, Config{}, b)
	c := dial(t, s)
	sent := make(chan error, 1)
	go func() { sent <- send(c, "alice@example.org", []string{"agent@agentsvc.test"}, testMessage) }()
	<-b.entered

	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if err := s.Shutdown(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Shutdown = %v, want deadline exceeded", err)
	}
	select {
	case err := <-sent:
		if err == nil {
			t.Fatal("client got 250 for a message that was never stored")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("client connection not closed after the shutdown deadline")
	}
	if len(b.messages()) != 0 {
		t.Fatal("message stored")
	}
}
