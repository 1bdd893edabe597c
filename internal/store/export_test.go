package store

// PreparedWrites is the number of cached prepared write statements (tests).
func (db *DB) PreparedWrites() int { return int(db.wCount.Load()) }
