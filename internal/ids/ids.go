// Package ids makes the identifiers every resource carries: a type prefix and a
// time-ordered random part, so that sorting by id sorts by creation time and
// newest-first keyset pagination is an index scan.
package ids

import (
	"crypto/rand"
	"encoding/binary"
	"strings"
	"time"
)

// crockford is Crockford's base32 alphabet in lower case: no i, l, o, u, so an
// id read aloud or copied by hand is hard to get wrong, and byte order equals
// sort order.
const crockford = "0123456789abcdefghjkmnpqrstvwxyz"

// New returns prefix + "_" + 26 characters: 48 bits of milliseconds since the
// Unix epoch followed by 80 random bits.
func New(prefix string) string {
	return NewAt(prefix, time.Now())
}

// NewAt is New with an explicit time, for tests and imports.
func NewAt(prefix string, t time.Time) string {
	var b [16]byte
	ms := uint64(t.UnixMilli())
	binary.BigEndian.PutUint64(b[0:8], ms<<16)
	if _, err := rand.Read(b[6:]); err != nil {
		// crypto/rand never fails on supported platforms (Go 1.24+ crashes instead).
		panic(err)
	}
	var sb strings.Builder
	sb.Grow(len(prefix) + 1 + 26)
	sb.WriteString(prefix)
	sb.WriteByte('_')
	sb.WriteString(encode(b))
	return sb.String()
}

// encode writes 128 bits as 26 base32 digits, most significant first.
func encode(b [16]byte) string {
	hi := binary.BigEndian.Uint64(b[0:8])
	lo := binary.BigEndian.Uint64(b[8:16])
	var out [26]byte
	for i := 25; i >= 0; i-- {
		out[i] = crockford[lo&31]
		lo = lo>>5 | hi<<59
		hi >>= 5
	}
	return string(out[:])
}

// Valid reports whether s looks like an id with the given prefix. It guards
// path parameters before they reach a query.
func Valid(prefix, s string) bool {
	if len(s) != len(prefix)+27 || !strings.HasPrefix(s, prefix) || s[len(prefix)] != '_' {
		return false
	}
	for i := len(prefix) + 1; i < len(s); i++ {
		if strings.IndexByte(crockford, s[i]) < 0 {
			return false
		}
	}
	return true
}
