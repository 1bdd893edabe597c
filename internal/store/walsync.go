package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// walSyncer makes SQLite commits durable outside the write lock.
//
// With synchronous=FULL, SQLite syncs the write-ahead log inside COMMIT, while
// it holds the one write lock: every writer queues behind each sync, so the
// disk's flush latency, not the CPU, bounds how many transactions commit per
// second. The writer connection therefore runs with synchronous=NORMAL
// (COMMIT writes the log's frames with write(2), which a process crash cannot
// lose, and releases the lock), and a committer then waits here for a sync
// of the log that started after its COMMIT returned. Committers that arrive
// while a sync is running share the next one (group commit), and the next
// transaction runs while the disk flushes the previous one.
//
// Why this is as durable as FULL: the log is only ever appended to (or
// rewritten from its start after a checkpoint has copied all of it into the
// database, which NORMAL syncs first); recovery replays every frame up to the
// last commit whose frames are intact, so once a sync that started after a
// COMMIT has finished, that transaction survives a power cut. The difference
// is only in what other connections can see: a reader may see a transaction
// for the duration of the sync before it is durable, as with PostgreSQL's
// synchronous_commit=off. InTx, its notifications and its AfterCommit
// functions still return or run only once it is durable; InTxSyncWithin is
// for the records that may wait for the disk in the background.
type walSyncer struct {
	dbPath string
	// flush syncs the log (flushWAL; tests replace it). One runs at a time.
	flush func() error

	mu      sync.Mutex
	cond    *sync.Cond
	started uint64 // syncs started
	done    uint64 // syncs finished (they run one at a time, in order); done <= started
	running bool
	// scheduled: a sync is due (syncWithin) on timer; later calls need not
	// ask again
	scheduled bool
	timer     *time.Timer
	closed    bool
	lastErr   error // of the sync numbered done

	// wal is the log file, opened lazily (SQLite creates it); walIno is its
	// inode, to notice SQLite deleting and recreating it.
	wal    *os.File
	walIno uint64
}

func newWALSyncer(dbPath string) *walSyncer {
	s := &walSyncer{dbPath: dbPath}
	s.flush = s.flushWAL
	s.cond = sync.NewCond(&s.mu)
	return s
}

// sync returns once a sync of the log that started after the call began has
// finished, with its error. One caller at a time runs the sync; the others
// wait for it and share the result.
func (s *walSyncer) sync() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	// A sync already running may have started before our COMMIT wrote its
	// frames, so it does not count: we need the one after it.
	target := s.started + 1
	for s.done < target {
		if s.running {
			s.cond.Wait()
			continue
		}
		s.running = true
		s.started++
		n := s.started
		s.mu.Unlock()
		err := s.flush()
		s.mu.Lock()
		s.running = false
		s.done, s.lastErr = n, err
		s.cond.Broadcast()
	}
	return s.lastErr
}

// syncWithin makes sure a sync starts within d, without waiting for it: the
// commits before the call are durable at most d plus one sync later. Calls
// within the same d share one sync. Its error is logged, not returned.
func (s *walSyncer) syncWithin(d time.Duration, onErr func(error)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.scheduled || s.closed {
		return
	}
	s.scheduled = true
	s.timer = time.AfterFunc(d, func() {
		s.mu.Lock()
		s.scheduled = false
		closed := s.closed
		s.mu.Unlock()
		if closed {
			return // close synced
		}
		if err := s.sync(); err != nil && onErr != nil {
			onErr(err)
		}
	})
}

// flushWAL syncs the log, reopening it if SQLite replaced it. Runs without
// mu, one at a time (running).
func (s *walSyncer) flushWAL() error {
	path := s.dbPath + "-wal"
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		// No log: the last connection closed and checkpointed everything
		// into the database file, so that file holds the commit.
		return syncPath(s.dbPath)
	}
	if err != nil {
		return fmt.Errorf("stat write-ahead log: %w", err)
	}
	ino := inode(fi)
	if s.wal == nil || ino != s.walIno {
		if s.wal != nil {
			s.wal.Close()
			s.wal = nil
		}
		f, err := os.Open(path)
		if err != nil {
			return fmt.Errorf("open write-ahead log: %w", err)
		}
		// The log's directory entry must be durable too (SQLite syncs the
		// directory after creating a file, under FULL).
		if err := syncPath(filepath.Dir(path)); err != nil {
			f.Close()
			return err
		}
		s.wal, s.walIno = f, ino
	}
	if err := syscall.Fdatasync(int(s.wal.Fd())); err != nil {
		return fmt.Errorf("sync write-ahead log: %w", err)
	}
	return nil
}

// close stops a scheduled sync; the caller syncs before it closes the
// database.
func (s *walSyncer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.timer != nil {
		s.timer.Stop()
	}
	for s.running {
		s.cond.Wait()
	}
	if s.wal != nil {
		s.wal.Close()
		s.wal = nil
	}
}

// count is the number of syncs performed so far.
func (s *walSyncer) count() uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.done
}

func syncPath(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", path, err)
	}
	return nil
}

func inode(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ino
	}
	return 0
}

// LogSyncs is the number of syncs of the SQLite write-ahead log so far (0
// on PostgreSQL): with Tx counts, how many commits shared each sync.
func (db *DB) LogSyncs() uint64 {
	if db.wal == nil {
		return 0
	}
	return db.wal.count()
}
