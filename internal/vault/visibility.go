package vault

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/store"
)

// changedTopic announces (payload: a credential id) that a credential, or
// whom it is equipped on, changed.
const changedTopic = "vault.changed"

// changedCredential clears this node's visibility cache as soon as tx
// commits (before the change is answered) and queues the notification that
// clears every other node's.
func (s *Service) changedCredential(ctx context.Context, tx *store.Tx, credID string) error {
	tx.AfterCommit(s.seen.clearAll)
	return tx.Notify(ctx, changedTopic, credID)
}

// visibility caches, for a few seconds, what reads of values and codes (the
// hot paths; every such read still writes its audit entry) look up: the
// credential row the principal may see and, once a read has opened them,
// its value and TOTP secret in the clear and the current TOTP code. So a
// repeated read costs no query and no decryption, only its audit entry.
//
// A change to a credential or its equipment, and an agent's deletion, clear
// the whole cache: on this node when the change commits, before it is
// answered, and on other nodes through NOTIFY (PostgreSQL). So an
// unequipped, rotated or deleted credential is never served from the cache
// after its change was answered here. A generation counter keeps a lookup
// that raced a change from caching what it read. Only found credentials are
// cached. Expired entries are dropped by a sweep, so an opened value does
// not outlive its entry by more than about a TTL.
//
// Master-key rotation needs no invalidation: it re-wraps the data keys but
// never changes them or the sealed values, so what is cached stays right
// (see seal.RotateMasterKey).
type visibility struct {
	db      *store.DB
	entries sync.Map // seenKey -> *seen
	gen     atomic.Uint64
	// nextSweep is when (UnixNano) expired entries are next dropped.
	nextSweep atomic.Int64
	now       func() time.Time
}

// seenKey is what a cached lookup depends on: who asks (an agent sees only
// what is equipped on it) and which credential.
type seenKey struct {
	orgID, agentID string
	kind           auth.Kind
	credID         string
}

// seen is one cached lookup.
type seen struct {
	c       Credential
	expires time.Time

	mu sync.Mutex // guards what follows, filled by the first read needing it
	// value is the opened value (valueOK once opened).
	value   string
	valueOK bool
	// totp is the opened TOTP secret (nil until opened), code its code for
	// the time step codeStep (codeOK once computed).
	totp     *TOTPSecret
	code     TOTPCode
	codeStep int64
	codeOK   bool
}

const visibilityTTL = 5 * time.Second

func newVisibility(db *store.DB) *visibility {
	v := &visibility{db: db, now: time.Now}
	db.Subscribe(changedTopic, func(string) { v.clearAll() })
	db.Subscribe(org.AgentChangedTopic, func(string) { v.clearAll() })
	return v
}

func (v *visibility) clearAll() {
	v.gen.Add(1)
	v.entries.Clear()
}

// visible returns the cached lookup, or loads the credential (a 404 for
// what p may not see) and caches it.
func (v *visibility) visible(ctx context.Context, p *auth.Principal, id string) (*seen, error) {
	key := seenKey{orgID: p.OrgID, agentID: p.AgentID, kind: p.Kind, credID: id}
	now := v.now()
	if e, ok := v.entries.Load(key); ok {
		if s := e.(*seen); now.Before(s.expires) {
			return s, nil
		}
	}
	gen := v.gen.Load()
	c, err := visible(ctx, v.db, p, id)
	if err != nil {
		return nil, err
	}
	s := &seen{c: c, expires: now.Add(visibilityTTL)}
	if v.gen.Load() == gen {
		v.entries.Store(key, s)
		v.sweep(now)
	}
	return s, nil
}

// sweep drops expired entries, at most once per TTL.
func (v *visibility) sweep(now time.Time) {
	next := v.nextSweep.Load()
	if now.UnixNano() < next || !v.nextSweep.CompareAndSwap(next, now.Add(visibilityTTL).UnixNano()) {
		return
	}
	v.entries.Range(func(k, e any) bool {
		if !now.Before(e.(*seen).expires) {
			v.entries.CompareAndDelete(k, e)
		}
		return true
	})
}

// openValue returns the credential's value in the clear, opening it once
// per cache entry.
func (s *seen) openValue(ctx context.Context, keys *seal.Keyring) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.valueOK {
		v, err := keys.Open(ctx, s.c.orgID, s.c.valueSealed, aad(s.c.ID, "value"))
		if err != nil {
			return "", fmt.Errorf("open credential %s: %w", s.c.ID, err)
		}
		s.value, s.valueOK = string(v), true
	}
	return s.value, nil
}

// totpCode returns the code at t, opening the secret once per cache entry
// and computing the code once per time step (it is the same for the whole
// step).
func (s *seen) totpCode(ctx context.Context, keys *seal.Keyring, t time.Time) (TOTPCode, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.totp == nil {
		key, err := keys.Open(ctx, s.c.orgID, s.c.totpSealed, aad(s.c.ID, "totp"))
		if err != nil {
			return TOTPCode{}, fmt.Errorf("open totp secret of %s: %w", s.c.ID, err)
		}
		s.totp = &TOTPSecret{Key: key, TOTPParams: s.c.totp}
	}
	step := t.Unix() / int64(s.totp.Period)
	if !s.codeOK || s.codeStep != step {
		code, err := s.totp.Code(t)
		if err != nil {
			return TOTPCode{}, err
		}
		s.code, s.codeStep, s.codeOK = code, step, true
	}
	return s.code, nil
}
