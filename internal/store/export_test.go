package store

import "context"

// PreparedWrites is the number of cached prepared write statements (tests).
func (db *DB) PreparedWrites() int { return int(db.wCount.Load()) }

// MigrateUpTo applies the migrations up to version v (tests of a migration
// on rows written before it).
func (db *DB) MigrateUpTo(ctx context.Context, v int64) error {
	p, err := db.migrations()
	if err != nil {
		return err
	}
	_, err = p.UpTo(ctx, v)
	return err
}
