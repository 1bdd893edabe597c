// Package storetest opens fresh, migrated databases for tests: SQLite always,
// and PostgreSQL too when AGENTSVC_TEST_POSTGRES holds a server URL. Each
// PostgreSQL test gets a database of its own, dropped afterwards.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentsvc/agentsvc/internal/store"
)

// EnvPostgres names the variable holding the PostgreSQL URL for tests.
const EnvPostgres = "AGENTSVC_TEST_POSTGRES"

// Dialects lists the engines this test run covers.
func Dialects() []store.Dialect {
	if os.Getenv(EnvPostgres) != "" {
		return []store.Dialect{store.SQLite, store.Postgres}
	}
	return []store.Dialect{store.SQLite}
}

// Each runs fn once per covered dialect, as a subtest named after it.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	for _, d := range Dialects() {
		t.Run(d.String(), func(t *testing.T) {
			fn(t, Open(t, d))
		})
	}
}

// Config returns a store config for a fresh empty database of the dialect;
// the database is removed when the test ends.
func Config(t testing.TB, d store.Dialect) store.Config {
	t.Helper()
	if d == store.SQLite {
		return store.Config{Path: filepath.Join(t.TempDir(), "agentsvc.db")}
	}
	base := os.Getenv(EnvPostgres)
	if base == "" {
		t.Skip(EnvPostgres + " is not set")
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s: %v", EnvPostgres, err)
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	name := "agentsvc_test_" + hex.EncodeToString(b[:])
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin.Exec("CREATE DATABASE " + name); err != nil {
		admin.Close()
		t.Fatalf("create test database: %v", err)
	}
	t.Cleanup(func() {
		_, _ = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		admin.Close()
	})
	u.Path = "/" + name
	return store.Config{URL: u.String()}
}

// Open returns a migrated database of the dialect, closed when the test ends.
func Open(t testing.TB, d store.Dialect) *store.DB {
	t.Helper()
	db, err := store.Open(context.Background(), Config(t, d))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Migrate(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}
