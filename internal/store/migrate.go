package store

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"

	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"
)

//go:embed migrations/*.sql
var migrations embed.FS

// Migrate applies every pending migration. Several servers starting at once on
// PostgreSQL take turns through an advisory lock.
func (db *DB) Migrate(ctx context.Context) error {
	p, err := db.migrations()
	if err != nil {
		return err
	}
	start := time.Now()
	res, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate %s: %w", db.dialect, err)
	}
	if err := db.syncLog(); err != nil {
		return fmt.Errorf("migrate %s: %w", db.dialect, err)
	}
	if len(res) > 0 {
		db.log.Info("database migrated", "dialect", db.dialect.String(), "applied", len(res), "took", time.Since(start))
	}
	return nil
}

// migrations is the goose provider of this database's dialect.
func (db *DB) migrations() (*goose.Provider, error) {
	sub, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return nil, err
	}
	fsys := dialectFS{fsys: sub, dialect: db.dialect}
	dialect := goose.DialectSQLite3
	// Features own migration number ranges (platform 1-9, email in 10-19, email
	// out 20-29, webhooks 30-39, vault 40-49, machines 50-59), so a database
	// migrated by a build with a later range can still take an earlier one.
	opts := []goose.ProviderOption{goose.WithAllowOutofOrder(true)}
	if db.dialect == Postgres {
		dialect = goose.DialectPostgres
		locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
		if err != nil {
			return nil, err
		}
		opts = append(opts, goose.WithSessionLocker(locker))
	}
	p, err := goose.NewProvider(dialect, db.w, fsys, opts...)
	if err != nil {
		return nil, fmt.Errorf("migrations: %w", err)
	}
	return p, nil
}

// dialectFS shows goose the migrations of one dialect: NAME.sql files for
// both, NAME.sqlite.sql or NAME.postgres.sql for one, with the few portable
// spellings rewritten for SQLite.
type dialectFS struct {
	fsys    fs.FS
	dialect Dialect
}

func (d dialectFS) other() string {
	if d.dialect == Postgres {
		return ".sqlite.sql"
	}
	return ".postgres.sql"
}

func (d dialectFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, d.other()) {
		return nil, fs.ErrNotExist
	}
	f, err := d.fsys.Open(name)
	if err != nil || d.dialect == Postgres || !strings.HasSuffix(name, ".sql") {
		return f, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, err
	}
	return &memFile{Reader: bytes.NewReader(sqliteSpelling(b)), name: name}, nil
}

func (d dialectFS) ReadDir(name string) ([]fs.DirEntry, error) {
	entries, err := fs.ReadDir(d.fsys, name)
	if err != nil {
		return nil, err
	}
	out := entries[:0]
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), d.other()) {
			out = append(out, e)
		}
	}
	return out, nil
}

func (d dialectFS) Glob(pattern string) ([]string, error) {
	names, err := fs.Glob(d.fsys, pattern)
	if err != nil {
		return nil, err
	}
	out := names[:0]
	for _, n := range names {
		if !strings.HasSuffix(n, d.other()) {
			out = append(out, n)
		}
	}
	return out, nil
}

func sqliteSpelling(b []byte) []byte {
	s := string(b)
	s = strings.ReplaceAll(s, "BIGSERIAL PRIMARY KEY", "INTEGER PRIMARY KEY AUTOINCREMENT")
	s = strings.ReplaceAll(s, "BYTEA", "BLOB")
	return []byte(s)
}

type memFile struct {
	*bytes.Reader
	name string
}

func (m *memFile) Stat() (fs.FileInfo, error) { return memInfo{m}, nil }
func (m *memFile) Close() error               { return nil }

type memInfo struct{ f *memFile }

func (i memInfo) Name() string       { return i.f.name }
func (i memInfo) Size() int64        { return i.f.Size() }
func (i memInfo) Mode() fs.FileMode  { return 0o444 }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return false }
func (i memInfo) Sys() any           { return nil }
