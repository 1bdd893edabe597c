package vault

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/org"
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

// visibility caches, for a few seconds, the credential rows that reads of
// values and codes look up (the hot paths; every such read still writes its
// audit entry). A change to a credential or its equipment, and an agent's
// deletion, clear the whole cache: on this node when the change commits,
// before it is answered, and on other nodes through NOTIFY (PostgreSQL).
// So an unequipped or deleted credential is refused on the next read. A
// generation counter keeps a lookup that raced a change from caching what
// it read. Only found credentials are cached.
type visibility struct {
	db      *store.DB
	entries sync.Map // principal org|agent|credential -> *seen
	gen     atomic.Uint64
}

type seen struct {
	c       Credential
	expires time.Time
}

const visibilityTTL = 5 * time.Second

func newVisibility(db *store.DB) *visibility {
	v := &visibility{db: db}
	db.Subscribe(changedTopic, func(string) { v.clearAll() })
	db.Subscribe(org.AgentChangedTopic, func(string) { v.clearAll() })
	return v
}

func (v *visibility) clearAll() {
	v.gen.Add(1)
	v.entries.Clear()
}

func (v *visibility) visible(ctx context.Context, p *auth.Principal, id string) (Credential, error) {
	key := p.OrgID + "|" + p.AgentID + "|" + string(p.Kind) + "|" + id
	now := time.Now()
	if e, ok := v.entries.Load(key); ok {
		if s := e.(*seen); now.Before(s.expires) {
			return s.c, nil
		}
	}
	gen := v.gen.Load()
	c, err := visible(ctx, v.db, p, id)
	if err == nil && v.gen.Load() == gen {
		v.entries.Store(key, &seen{c: c, expires: now.Add(visibilityTTL)})
	}
	return c, err
}
