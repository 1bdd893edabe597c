package auth

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/store"
)

// invalidateTopic carries the id of a token, key or agent whose credentials
// must be forgotten by every node's cache.
const invalidateTopic = "auth.invalidate"

// Authenticator turns a bearer secret into a Principal.
//
// Checking a token costs a database read, so valid tokens are cached for a
// minute. Revocation must still act on the very next request: the revoking
// node forgets the token before it answers, and a notification (PostgreSQL
// NOTIFY across nodes) makes every other node forget it within milliseconds.
// A generation counter keeps a lookup that raced a revocation from putting the
// revoked token back into the cache.
type Authenticator struct {
	db  *store.DB
	log *slog.Logger
	ttl time.Duration
	now func() time.Time

	cache sync.Map // secret hash -> *cacheEntry
	gen   atomic.Uint64

	mu      sync.Mutex
	touched map[string]touch // credential id -> last use, flushed in batches

	unsubscribe func()
}

type cacheEntry struct {
	p       *Principal
	expires time.Time
}

type touch struct {
	table string
	at    time.Time
}

// NewAuthenticator makes an Authenticator and subscribes it to invalidations.
func NewAuthenticator(db *store.DB, log *slog.Logger) *Authenticator {
	a := &Authenticator{db: db, log: log, ttl: time.Minute, now: time.Now, touched: map[string]touch{}}
	a.unsubscribe = db.Subscribe(invalidateTopic, func(id string) {
		if id == store.ResetPayload {
			a.forgetAll()
			return
		}
		a.Forget(id)
	})
	return a
}

// Authenticate checks a bearer secret.
func (a *Authenticator) Authenticate(ctx context.Context, secret string) (*Principal, error) {
	if !LooksLikeSecret(secret) {
		return nil, apierr.Unauthorized("malformed bearer token",
			"use an agent token (ast_…) or an organization key (osk_…) as the bearer token")
	}
	hash := HashSecret(secret)
	now := a.now()
	if v, ok := a.cache.Load(hash); ok {
		e := v.(*cacheEntry)
		if now.Before(e.expires) {
			a.noteUse(e.p, now)
			return e.p, nil
		}
		a.cache.Delete(hash)
	}
	gen := a.gen.Load()
	p, err := a.lookup(ctx, secret, hash)
	if err != nil {
		return nil, err
	}
	if a.gen.Load() == gen {
		a.cache.Store(hash, &cacheEntry{p: p, expires: now.Add(a.ttl)})
	}
	a.noteUse(p, now)
	return p, nil
}

func (a *Authenticator) lookup(ctx context.Context, secret, hash string) (*Principal, error) {
	var (
		p       Principal
		capsRaw string
		revoked sql.NullInt64
		err     error
	)
	if strings.HasPrefix(secret, AgentTokenPrefix) {
		p.Kind = KindAgent
		err = a.db.QueryRowContext(ctx, `SELECT id, org_id, agent_id, name, capabilities, revoked_at FROM agent_tokens WHERE token_hash = $1`, hash).
			Scan(&p.CredentialID, &p.OrgID, &p.AgentID, &p.Name, &capsRaw, &revoked)
	} else {
		p.Kind = KindOrgKey
		err = a.db.QueryRowContext(ctx, `SELECT id, org_id, name, capabilities, revoked_at FROM org_keys WHERE token_hash = $1`, hash).
			Scan(&p.CredentialID, &p.OrgID, &p.Name, &capsRaw, &revoked)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return nil, apierr.Unauthorized("unknown bearer token", "the token does not exist or its agent was deleted")
	}
	if err != nil {
		return nil, fmt.Errorf("look up token: %w", err)
	}
	if revoked.Valid {
		return nil, apierr.Unauthorized("bearer token revoked", "ask the organization for a new token")
	}
	if err := json.Unmarshal([]byte(capsRaw), &p.caps); err != nil {
		return nil, fmt.Errorf("token capabilities: %w", err)
	}
	return &p, nil
}

// Forget drops every cached credential whose id, or whose agent's id, is id.
// Call it on the revoking node after the revoking transaction committed.
func (a *Authenticator) Forget(id string) {
	a.gen.Add(1)
	a.cache.Range(func(k, v any) bool {
		p := v.(*cacheEntry).p
		if p.CredentialID == id || p.AgentID == id || p.OrgID == id {
			a.cache.Delete(k)
		}
		return true
	})
}

func (a *Authenticator) forgetAll() {
	a.gen.Add(1)
	a.cache.Clear()
}

// Invalidate queues, in tx, the notification that makes every node forget the
// credentials of id (a token, key, agent or organization id) once tx commits.
func Invalidate(ctx context.Context, tx *store.Tx, id string) error {
	return tx.Notify(ctx, invalidateTopic, id)
}

func (a *Authenticator) noteUse(p *Principal, at time.Time) {
	table := "agent_tokens"
	if p.Kind == KindOrgKey {
		table = "org_keys"
	}
	a.mu.Lock()
	a.touched[p.CredentialID] = touch{table: table, at: at}
	a.mu.Unlock()
}

// Run writes last-used times in batches until ctx ends, so that using a
// token does not cost a write per request. It flushes once more on the way out.
func (a *Authenticator) Run(ctx context.Context) {
	t := time.NewTicker(5 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			flushCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			a.Flush(flushCtx)
			cancel()
			a.unsubscribe()
			return
		case <-t.C:
			a.Flush(ctx)
		}
	}
}

// Flush writes pending last-used times now.
func (a *Authenticator) Flush(ctx context.Context) {
	a.mu.Lock()
	batch := a.touched
	a.touched = map[string]touch{}
	a.mu.Unlock()
	if len(batch) == 0 {
		return
	}
	err := a.db.InTx(ctx, func(tx *store.Tx) error {
		for id, t := range batch {
			// Table names come from a fixed pair above, never from input.
			q := "UPDATE " + t.table + " SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $1)"
			if _, err := tx.ExecContext(ctx, q, store.Micros(t.at), id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		a.log.Warn("could not record token use", "err", err)
	}
}
