package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// Scanner is what *sql.Row and *sql.Rows share, so one scan function reads
// a row of either. An alias: functions taking the same interface literal
// pass as they are.
type Scanner = interface{ Scan(dest ...any) error }

// ScanAll reads every row of rows with scan, closes them, and reports an
// error met while iterating (rows.Err), which a hand-written loop easily
// forgets. The result is never nil, so an empty list encodes as [].
func ScanAll[T any](rows *sql.Rows, scan func(Scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// Strings runs a query of one text column on a database or a transaction
// and returns the values in order.
func Strings(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, query string, args ...any) ([]string, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	return ScanAll(rows, func(r Scanner) (string, error) {
		var s string
		err := r.Scan(&s)
		return s, err
	})
}

// InList returns the placeholders ("$1, $2, …") and arguments of an IN list
// of ids (at least one), padded by repeating the last id to 1, 4, 16 or 64
// entries (and on by fours): SQLite's statement cache then holds a few
// shapes of a statement rather than one per list length. Repeated ids do
// not change what IN matches.
func InList(ids []string) (string, []any) {
	size := 1
	for size < len(ids) {
		size *= 4
	}
	args := make([]any, size)
	ph := make([]string, size)
	for i := range size {
		args[i] = ids[min(i, len(ids)-1)]
		ph[i] = "$" + strconv.Itoa(i+1)
	}
	return strings.Join(ph, ", "), args
}
