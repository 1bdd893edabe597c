package store

import (
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestSyncWaitsForASyncThatStartedAfterIt checks the group-commit rule: a
// sync already running when a committer arrives may have started before its
// COMMIT wrote its frames, so the committer must wait for the next one.
func TestSyncWaitsForASyncThatStartedAfterIt(t *testing.T) {
	s := newWALSyncer(filepath.Join(t.TempDir(), "db"))
	started := make(chan int, 10)
	release := make(chan struct{})
	var mu sync.Mutex
	n := 0
	s.flush = func() error {
		mu.Lock()
		n++
		i := n
		mu.Unlock()
		started <- i
		<-release
		return nil
	}
	first := make(chan error, 1)
	go func() { first <- s.sync() }()
	if i := <-started; i != 1 {
		t.Fatalf("first flush numbered %d", i)
	}
	// The second committer arrives while flush 1 runs.
	second := make(chan error, 1)
	go func() { second <- s.sync() }()
	time.Sleep(20 * time.Millisecond) // let it reach the wait
	release <- struct{}{}             // flush 1 ends
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	select {
	case <-second:
		t.Fatal("second committer returned on a sync that started before it")
	case i := <-started:
		if i != 2 {
			t.Fatalf("second flush numbered %d", i)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no second flush")
	}
	release <- struct{}{}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
}

// TestSyncSharesOneFlushAndReportsItsError: committers waiting together
// share the next flush and all get its error.
func TestSyncSharesOneFlushAndReportsItsError(t *testing.T) {
	s := newWALSyncer(filepath.Join(t.TempDir(), "db"))
	boom := errors.New("disk on fire")
	gate := make(chan struct{})
	calls := 0
	s.flush = func() error {
		calls++ // flushes run one at a time
		<-gate
		return boom
	}
	go func() { _ = s.sync() }() // flush 1 holds the gate
	for s.count() == 0 && !s.isRunning() {
		time.Sleep(time.Millisecond)
	}
	const waiters = 5
	errs := make(chan error, waiters)
	for range waiters {
		go func() { errs <- s.sync() }()
	}
	time.Sleep(20 * time.Millisecond)
	close(gate)
	for range waiters {
		if err := <-errs; !errors.Is(err, boom) {
			t.Fatalf("err = %v, want %v", err, boom)
		}
	}
	if calls != 2 {
		t.Fatalf("%d flushes for one running and %d waiting committers, want 2", calls, waiters)
	}
}

// TestFlushFollowsTheLogFile: SQLite deletes the log when its last
// connection closes and creates a new one later; the syncer must sync the
// new file, not the deleted one it still holds open, and with no log at all
// sync the database file (which then holds every commit).
func TestFlushFollowsTheLogFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "db")
	for _, p := range []string{db, db + "-wal"} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s := newWALSyncer(db)
	defer s.close()
	if err := s.sync(); err != nil {
		t.Fatal(err)
	}
	first := s.walIno
	if first == 0 {
		t.Fatal("log not opened")
	}
	if err := os.Remove(db + "-wal"); err != nil {
		t.Fatal(err)
	}
	if err := s.sync(); err != nil {
		t.Fatalf("sync without a log: %v", err)
	}
	if err := os.WriteFile(db+"-wal", []byte("y"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := s.sync(); err != nil {
		t.Fatal(err)
	}
	if s.walIno == first {
		t.Fatal("still syncing the deleted log")
	}
	if err := os.Remove(db); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(db + "-wal"); err != nil {
		t.Fatal(err)
	}
	if err := s.sync(); err == nil {
		t.Fatal("no error with neither the log nor the database there")
	}
}

func (s *walSyncer) isRunning() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}
