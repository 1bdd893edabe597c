// Package store opens the database (SQLite by default, PostgreSQL for scale),
// applies the embedded migrations, and hides the few differences between the
// two dialects, so domain packages write one set of portable SQL.
//
// Queries are written with PostgreSQL placeholders ($1, $2, …); on SQLite they
// are rewritten to ?1, ?2, … which SQLite binds by number, so argument order
// means the same on both.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" database/sql driver
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/agentsvc/agentsvc/internal/apierr"
)

// Dialect says which database engine is behind a DB.
type Dialect int

const (
	SQLite Dialect = iota
	Postgres
)

func (d Dialect) String() string {
	if d == Postgres {
		return "postgres"
	}
	return "sqlite"
}

// ErrNotFound is returned (wrapped) when a lookup finds no row.
var ErrNotFound = apierr.ErrNotFound

// Config says where the database is.
type Config struct {
	// URL is a postgres:// URL; empty means SQLite at Path.
	URL string
	// Path of the SQLite file.
	Path   string
	Logger *slog.Logger
}

// DB is the service's handle on its database.
type DB struct {
	dialect Dialect
	// w takes every write. On SQLite it holds one connection, so writers queue
	// in Go instead of fighting over the file lock; BEGIN IMMEDIATE makes a
	// transaction take the write lock at its start, not at its first write.
	w *sql.DB
	// r serves reads outside transactions; on SQLite (WAL) many readers run
	// beside the one writer.
	r *sql.DB

	url    string
	log    *slog.Logger
	rebind sync.Map // query text -> rewritten text (SQLite)
	// Prepared read statements by query text (SQLite only: parsing a
	// statement costs more than running a point query; pgx caches its
	// prepared statements per connection by itself). Writes are not cached:
	// preparing on the one-connection writer pool while a transaction holds
	// that connection would wait forever.
	rStmts sync.Map
	// Prepared write statements (SQLite): parsing costs about as much as
	// running a small insert, and the one writer runs every write of the
	// service. A statement is prepared on the writer pool after the first
	// transaction that used it ended (preparing while a transaction holds
	// the one connection would wait forever) and used inside later
	// transactions through Tx.StmtContext, which reuses the connection's
	// prepared statement.
	wStmts sync.Map
	wCount atomic.Int64
	// wSeen holds write texts run once: a text is prepared only when it
	// comes again, so statements built with literals (one-off texts) do
	// not fill the bounded cache and keep later statements out of it.
	wSeen     sync.Map
	wSeenSize atomic.Int64
	notify    *notifier
	// wal makes SQLite commits durable (nil on PostgreSQL, whose COMMIT
	// returns once its log is flushed).
	wal *walSyncer
}

// maxWriteStmts bounds the cache of prepared writes (queries built with a
// variable number of placeholders make a few variants each); maxWriteSeen
// bounds the texts remembered as run once.
const (
	maxWriteStmts = 1000
	maxWriteSeen  = 10000
)

// Open connects and checks the connection. It does not migrate.
func Open(ctx context.Context, cfg Config) (*DB, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	db := &DB{url: cfg.URL, log: log}
	if cfg.URL != "" {
		if !strings.HasPrefix(cfg.URL, "postgres://") && !strings.HasPrefix(cfg.URL, "postgresql://") {
			return nil, fmt.Errorf("database url must start with postgres://")
		}
		pool, err := sql.Open("pgx", cfg.URL)
		if err != nil {
			return nil, fmt.Errorf("open postgres: %w", err)
		}
		pool.SetMaxOpenConns(32)
		pool.SetMaxIdleConns(32)
		pool.SetConnMaxIdleTime(5 * time.Minute)
		db.dialect, db.w, db.r = Postgres, pool, pool
	} else {
		if cfg.Path == "" {
			return nil, errors.New("sqlite path is empty")
		}
		if err := os.MkdirAll(filepath.Dir(cfg.Path), 0o700); err != nil {
			return nil, fmt.Errorf("create database directory: %w", err)
		}
		common := "file:" + url.PathEscape(cfg.Path) +
			"?_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)&_pragma=journal_mode(WAL)"
		// A write is on disk before InTx returns, so "250 OK" or "201
		// Created" means the row survives a power cut, not only a process
		// crash. The writer commits with synchronous(NORMAL) and InTx then
		// waits for a group sync of the log outside the write lock
		// (walSyncer says why that is as durable as FULL).
		// temp_store(memory): savepoint sub-journals (group commit runs each
		// unit in a savepoint) and statement journals stay in memory instead
		// of temporary files written per statement.
		w, err := sql.Open("sqlite", common+"&_txlock=immediate&_pragma=synchronous(NORMAL)&_pragma=temp_store(memory)")
		if err != nil {
			return nil, fmt.Errorf("open sqlite: %w", err)
		}
		w.SetMaxOpenConns(1)
		w.SetMaxIdleConns(1)
		w.SetConnMaxLifetime(0)
		r, err := sql.Open("sqlite", common+"&_pragma=synchronous(FULL)&_pragma=query_only(1)")
		if err != nil {
			w.Close()
			return nil, fmt.Errorf("open sqlite: %w", err)
		}
		r.SetMaxOpenConns(8)
		r.SetMaxIdleConns(8)
		db.dialect, db.w, db.r = SQLite, w, r
		db.wal = newWALSyncer(cfg.Path)
		// Create the file and switch it to WAL before readers (query_only)
		// touch it.
		if _, err := w.ExecContext(ctx, "SELECT 1"); err != nil {
			db.Close()
			return nil, fmt.Errorf("open sqlite %s: %w", cfg.Path, err)
		}
	}
	if err := db.w.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("connect to %s: %w", db.dialect, err)
	}
	db.notify = newNotifier(db)
	return db, nil
}

// Close releases the connections and stops listening for notifications.
func (db *DB) Close() error {
	if db.notify != nil {
		db.notify.close()
	}
	var err error
	if db.wal != nil {
		// commits waiting for a background sync (InTxSyncWithin)
		err = db.syncLog()
		db.wal.close()
	}
	err = errors.Join(err, db.w.Close())
	if db.r != db.w {
		err = errors.Join(err, db.r.Close())
	}
	return err
}

// Dialect tells which engine this is.
func (db *DB) Dialect() Dialect { return db.dialect }

// Ping checks that the database answers (for /readyz).
func (db *DB) Ping(ctx context.Context) error { return db.r.PingContext(ctx) }

var placeholder = regexp.MustCompile(`\$(\d+)`)

// q rewrites a portable query for the dialect.
func (db *DB) q(query string) string {
	if db.dialect == Postgres {
		return query
	}
	if v, ok := db.rebind.Load(query); ok {
		return v.(string)
	}
	out := placeholder.ReplaceAllString(query, "?$1")
	out = strings.ReplaceAll(out, " FOR UPDATE SKIP LOCKED", "")
	db.rebind.Store(query, out)
	return out
}

// Querier is what both DB (reads outside a transaction) and Tx offer, so a
// read helper can run either way.
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	Dialect() Dialect
}

func (db *DB) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := db.prepared(ctx, db.r, &db.rStmts, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return db.r.QueryContext(ctx, db.q(query), args...)
}

func (db *DB) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := db.prepared(ctx, db.r, &db.rStmts, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return db.r.QueryRowContext(ctx, db.q(query), args...)
}

// prepared returns a cached prepared statement on SQLite, or nil (PostgreSQL,
// or preparing failed: the caller then runs the query unprepared and gets
// the error there).
func (db *DB) prepared(ctx context.Context, pool *sql.DB, cache *sync.Map, query string) *sql.Stmt {
	if db.dialect != SQLite {
		return nil
	}
	if v, ok := cache.Load(query); ok {
		return v.(*sql.Stmt)
	}
	st, err := pool.PrepareContext(context.WithoutCancel(ctx), db.q(query))
	if err != nil {
		return nil
	}
	if prev, loaded := cache.LoadOrStore(query, st); loaded {
		st.Close()
		return prev.(*sql.Stmt)
	}
	return st
}

// ExecContext runs a single write outside an explicit transaction and
// returns once it is durable.
func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	res, err := db.w.ExecContext(ctx, db.q(query), args...)
	if err != nil {
		return nil, err
	}
	if err := db.syncLog(); err != nil {
		return nil, err
	}
	return res, nil
}

// syncLog waits until every commit that returned before the call is durable
// (SQLite; PostgreSQL's COMMIT already is).
func (db *DB) syncLog() error {
	if db.wal == nil {
		return nil
	}
	if err := db.wal.sync(); err != nil {
		db.logSyncError(err)
		return err
	}
	return nil
}

func (db *DB) logSyncError(err error) {
	db.log.Error("database log sync failed: recent commits may be lost on a power cut", "err", err)
}

// Tx is a write transaction.
type Tx struct {
	tx      *sql.Tx
	db      *DB
	pending []notification
	// unprepared are write-pool queries this transaction ran unprepared.
	unprepared []string
	// after runs once the transaction committed (AfterCommit).
	after      []func()
	savepoints int
}

// AfterCommit registers fn to run after the transaction commits (in the
// committing goroutine, after notifications; it must not block). It is
// dropped if the transaction, or the savepoint it was registered in, rolls
// back: a worker can be handed data that exists only once committed.
func (tx *Tx) AfterCommit(fn func()) { tx.after = append(tx.after, fn) }

// Savepoint runs fn inside a SAVEPOINT: when fn fails, its writes, its
// notifications and its AfterCommit functions are undone and the rest of
// the transaction goes on (group commit: one failing unit of work must not
// fail the others sharing the transaction). fn's error is returned.
func (tx *Tx) Savepoint(ctx context.Context, fn func() error) error {
	tx.savepoints++
	name := fmt.Sprintf("sp%d", tx.savepoints)
	ctx = context.WithoutCancel(ctx) // the undo must run even if ctx ended
	if _, err := tx.tx.ExecContext(ctx, "SAVEPOINT "+name); err != nil {
		return fmt.Errorf("savepoint: %w", err)
	}
	pending, after := len(tx.pending), len(tx.after)
	if err := fn(); err != nil {
		if _, rerr := tx.tx.ExecContext(ctx, "ROLLBACK TO SAVEPOINT "+name); rerr != nil {
			return errors.Join(err, fmt.Errorf("rollback to savepoint: %w", rerr))
		}
		tx.pending, tx.after = tx.pending[:pending], tx.after[:after]
		if _, rerr := tx.tx.ExecContext(ctx, "RELEASE SAVEPOINT "+name); rerr != nil {
			return errors.Join(err, fmt.Errorf("release savepoint: %w", rerr))
		}
		return err
	}
	if _, err := tx.tx.ExecContext(ctx, "RELEASE SAVEPOINT "+name); err != nil {
		return fmt.Errorf("release savepoint: %w", err)
	}
	return nil
}

func (tx *Tx) Dialect() Dialect { return tx.db.dialect }

func (tx *Tx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := tx.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return tx.tx.QueryContext(ctx, tx.db.q(query), args...)
}

func (tx *Tx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := tx.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return tx.tx.QueryRowContext(ctx, tx.db.q(query), args...)
}

func (tx *Tx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := tx.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return tx.tx.ExecContext(ctx, tx.db.q(query), args...)
}

// stmt returns the cached prepared statement for query bound to this
// transaction, or nil (PostgreSQL, where pgx caches by itself; not prepared
// yet, which InTx does after this transaction).
func (tx *Tx) stmt(ctx context.Context, query string) *sql.Stmt {
	if tx.db.dialect != SQLite {
		return nil
	}
	if v, ok := tx.db.wStmts.Load(query); ok {
		return tx.tx.StmtContext(ctx, v.(*sql.Stmt))
	}
	if tx.db.wCount.Load() < maxWriteStmts && !strings.Contains(strings.TrimRight(query, " \t\n;"), ";") {
		if _, again := tx.db.wSeen.Load(query); again {
			tx.unprepared = append(tx.unprepared, query)
		} else if tx.db.wSeenSize.Load() < maxWriteSeen {
			if _, loaded := tx.db.wSeen.LoadOrStore(query, struct{}{}); !loaded {
				tx.db.wSeenSize.Add(1)
			}
		}
	}
	return nil
}

// prepareWrites caches prepared statements for queries a transaction ran
// unprepared, once the writer connection is free again.
func (db *DB) prepareWrites(queries []string) {
	for _, query := range queries {
		if _, ok := db.wStmts.Load(query); ok || db.wCount.Load() >= maxWriteStmts {
			continue
		}
		st, err := db.w.PrepareContext(context.Background(), db.q(query))
		if err != nil {
			continue // it runs unprepared, where its error shows
		}
		if _, loaded := db.wStmts.LoadOrStore(query, st); loaded {
			st.Close()
			continue
		}
		db.wCount.Add(1)
	}
}

// InTx runs fn in a write transaction, committing when fn returns nil, and
// returns once the commit is durable. Notifications queued with Tx.Notify
// are sent, and AfterCommit functions run, only then.
func (db *DB) InTx(ctx context.Context, fn func(tx *Tx) error) error {
	return db.InTxSyncWithin(ctx, 0, fn)
}

// InTxSyncWithin is InTx for records where losing the last moments of them
// to a power cut is an acceptable price for not waiting on the disk: with
// d > 0 on SQLite it returns once the transaction has committed, before it is
// durable. The commit then survives a crash of this process at once (its log
// frames are written to the operating system), and a power cut or a crash of
// the host once the sync that starts within d has finished; one sync serves
// every such commit within d. Notifications are sent and AfterCommit
// functions run at once. d <= 0, and PostgreSQL (whose COMMIT waits for its
// own log flush), behave as InTx.
func (db *DB) InTxSyncWithin(ctx context.Context, d time.Duration, fn func(tx *Tx) error) error {
	sqlTx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	tx := &Tx{tx: sqlTx, db: db}
	if err := fn(tx); err != nil {
		_ = sqlTx.Rollback()
		db.prepareWrites(tx.unprepared)
		return err
	}
	if err := sqlTx.Commit(); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	db.prepareWrites(tx.unprepared)
	if db.wal != nil {
		if d > 0 {
			db.wal.syncWithin(d, func(err error) { db.logSyncError(err) })
		} else if err := db.syncLog(); err != nil {
			return fmt.Errorf("commit: %w", err)
		}
	}
	db.notify.afterCommit(tx.pending)
	for _, fn := range tx.after {
		fn()
	}
	return nil
}

// IsUniqueViolation reports whether err is a unique-constraint failure.
func IsUniqueViolation(err error) bool {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code == "23505"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// Micros converts a time to the integer microseconds stored in *_at columns.
// Integers compare and sort the same on both engines, unlike time types.
func Micros(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMicro()
}

// Time converts stored microseconds back to a UTC time; 0 is the zero time.
func Time(us int64) time.Time {
	if us == 0 {
		return time.Time{}
	}
	return time.UnixMicro(us).UTC()
}

// NullTime converts a nullable column.
func NullTime(v sql.NullInt64) *time.Time {
	if !v.Valid || v.Int64 == 0 {
		return nil
	}
	t := Time(v.Int64)
	return &t
}

// Lock serializes transactions that call it with the same key until this one
// ends. SQLite has one writer, so it is already serial there; PostgreSQL takes
// a transaction-scoped advisory lock. The event log uses it so that, within an
// organization, sequence order is commit order and a reader following the log
// never skips an event that commits late.
func (tx *Tx) Lock(ctx context.Context, key string) error {
	if tx.db.dialect != Postgres {
		return nil
	}
	_, err := tx.tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext($1))", key)
	return err
}
