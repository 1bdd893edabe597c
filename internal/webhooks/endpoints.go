package webhooks

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/store"
)

// DueTopic is the notification that new deliveries are due (payload: the
// organization id); every node's workers wake on it.
const DueTopic = "webhooks.due"

// Service manages endpoints and deliveries and runs the dispatcher and the
// delivery workers.
type Service struct {
	db     *store.DB
	keys   *seal.Keyring
	cfg    Config
	log    *slog.Logger
	client *http.Client
	wake   chan struct{}
	fanout chan string

	// Organizations whose log the delivery pump fans out in its next turn
	// (in the transaction that claims, so new deliveries are sent without
	// a commit of their own), and the pump's wake-up for them.
	fanMu      sync.Mutex
	fanPending map[string]bool
	fanKick    chan struct{}

	opened openedSecrets
}

// New wires the service; Run starts its background work.
func New(db *store.DB, keys *seal.Keyring, cfg Config) *Service {
	if cfg.AttemptTimeout <= 0 {
		cfg.AttemptTimeout = DefaultTimeout
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Notifier == nil {
		cfg.Notifier = AuditNotifier{DB: db, Logger: cfg.Logger}
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 64
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, keys: keys, cfg: cfg, log: cfg.Logger, client: newClient(cfg),
		wake: make(chan struct{}, 1), fanout: make(chan string, 1024), fanPending: map[string]bool{}, fanKick: make(chan struct{}, 1)}
}

func (s *Service) now() time.Time { return s.cfg.Now().UTC() }

// newClient is the HTTP client of deliveries: no proxy (a proxy would dial
// for us, past the address check), the address check at connect time,
// redirects returned as the answer (a 3xx is a failed attempt), and the
// attempt timeout over the whole exchange.
func newClient(cfg Config) *http.Client {
	d := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second, Control: dialControl(cfg.Dev)}
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   cfg.Workers,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: cfg.AttemptTimeout,
	}
	return &http.Client{Transport: tr, Timeout: cfg.AttemptTimeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
}

// NewEndpoint is the body of a create.
type NewEndpoint struct {
	URL         string
	Description string
	EventTypes  []string
	InboxID     string
}

// EndpointPatch is the body of a PATCH; nil fields stay.
type EndpointPatch struct {
	URL         *string
	Description *string
	EventTypes  *[]string
	// InboxID "" clears the filter.
	InboxID *string
	Status  *string
}

func newSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // never fails on supported platforms
	return "whsec_" + base64.RawURLEncoding.EncodeToString(b)
}

func secretAAD(id, field string) []byte { return []byte(id + "|" + field) }

func normalizeTypes(in []string) ([]string, error) {
	out := []string{}
	for _, t := range in {
		t = strings.TrimSpace(t)
		if !known(t) {
			return nil, apierr.Invalid("event_types", "%q is not an event type", t).
				WithHint("allowed: " + strings.Join(AllTypes(), ", "))
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out, nil
}

func checkDescription(d string) error {
	if len(d) > 500 {
		return apierr.Invalid("description", "must be at most 500 characters")
	}
	return nil
}

func checkInbox(ctx context.Context, q store.Querier, orgID, inboxID string) error {
	if inboxID == "" {
		return nil
	}
	var one int
	err := q.QueryRowContext(ctx, `SELECT 1 FROM inboxes WHERE id = $1 AND org_id = $2`, inboxID, orgID).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return apierr.Invalid("inbox_id", "is not an inbox of this organization")
	}
	return err
}

// Create adds an endpoint for p's organization and returns it with its
// secret. The endpoint receives events appended after it was created.
func (s *Service) Create(ctx context.Context, p *auth.Principal, n NewEndpoint) (WebhookWithSecret, error) {
	u, err := checkURL(ctx, n.URL, s.cfg.Dev, s.cfg.Resolver)
	if err != nil {
		return WebhookWithSecret{}, err
	}
	if err := checkDescription(n.Description); err != nil {
		return WebhookWithSecret{}, err
	}
	types, err := normalizeTypes(n.EventTypes)
	if err != nil {
		return WebhookWithSecret{}, err
	}
	now := s.now()
	secret := newSecret()
	id := ids.New("whe")
	var out WebhookWithSecret
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		if err := tx.Lock(ctx, "webhooks:"+p.OrgID); err != nil {
			return err
		}
		if err := checkInbox(ctx, tx, p.OrgID, n.InboxID); err != nil {
			return err
		}
		var count int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM webhook_endpoints WHERE org_id = $1`, p.OrgID).Scan(&count); err != nil {
			return err
		}
		if count >= MaxEndpoints {
			return apierr.Conflict(apierr.CodeConflict, "an organization has at most %d webhook endpoints", MaxEndpoints).
				WithHint("delete an endpoint you no longer use, or widen an existing one's event_types")
		}
		sealed, err := s.keys.SealTx(ctx, tx, p.OrgID, []byte(secret), secretAAD(id, "secret"))
		if err != nil {
			return err
		}
		head, err := events.Head(ctx, tx, p.OrgID)
		if err != nil {
			return err
		}
		creator := "org_key"
		if p.Kind == auth.KindMember {
			creator = "member"
		}
		rawTypes, _ := json.Marshal(types)
		_, err = tx.ExecContext(ctx, `INSERT INTO webhook_endpoints (id, org_id, url, description, event_types, inbox_id, status,
			secret_sealed, previous_sealed, previous_expires_at, creator_type, creator_id, can_sms, can_social, start_seq,
			failing_since, failed_attempts, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, 'active', $7, NULL, 0, $8, $9, $10, $11, $12, 0, 0, $13, $13)`,
			id, p.OrgID, u, n.Description, string(rawTypes), n.InboxID, sealed, creator, p.ActorID(),
			p.Has(auth.PhoneManage), p.Has(auth.SocialManage), head, store.Micros(now))
		if err != nil {
			return fmt.Errorf("insert endpoint: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO webhook_cursors (org_id, last_seq) VALUES ($1, $2) ON CONFLICT (org_id) DO NOTHING`,
			p.OrgID, head); err != nil {
			return fmt.Errorf("create cursor: %w", err)
		}
		if err := audit.Record(ctx, tx, p.OrgID, p, "webhook.create", audit.Target{Type: "webhook_endpoint", ID: id},
			map[string]any{"url": u, "event_types": types}); err != nil {
			return err
		}
		ep, err := getEndpoint(ctx, tx, p.OrgID, id)
		out = WebhookWithSecret{WebhookEndpoint: ep, Secret: secret}
		return err
	})
	return out, err
}

const endpointCols = `id, org_id, url, description, event_types, inbox_id, status, secret_sealed, previous_sealed,
	previous_expires_at, creator_type, can_sms, can_social, start_seq, failing_since, failed_attempts, created_at, updated_at`

func scanEndpoint(sc interface{ Scan(...any) error }) (WebhookEndpoint, error) {
	var (
		e                WebhookEndpoint
		types, inbox     string
		created, updated int64
	)
	err := sc.Scan(&e.ID, &e.orgID, &e.URL, &e.Description, &types, &inbox, &e.Status, &e.secretSealed, &e.prevSealed,
		&e.prevExpires, &e.creatorType, &e.canSMS, &e.canSocial, &e.startSeq, &e.failingSince, &e.failed, &created, &updated)
	if err != nil {
		return WebhookEndpoint{}, err
	}
	_ = json.Unmarshal([]byte(types), &e.EventTypes)
	if e.EventTypes == nil {
		e.EventTypes = []string{}
	}
	if inbox != "" {
		e.InboxID = &inbox
	}
	e.CreatedAt, e.UpdatedAt = store.Time(created), store.Time(updated)
	if e.failingSince != 0 {
		t := store.Time(e.failingSince)
		e.FailingSince = &t
	}
	if e.prevExpires != 0 {
		t := store.Time(e.prevExpires)
		e.PreviousSecretExpiresAt = &t
	}
	return e, nil
}

func getEndpoint(ctx context.Context, q store.Querier, orgID, id string) (WebhookEndpoint, error) {
	e, err := scanEndpoint(q.QueryRowContext(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints WHERE id = $1 AND org_id = $2`, id, orgID))
	if errors.Is(err, sql.ErrNoRows) {
		return WebhookEndpoint{}, apierr.NotFound("webhook endpoint")
	}
	return e, err
}

func listEndpoints(ctx context.Context, q store.Querier, orgID string) ([]WebhookEndpoint, error) {
	rows, err := q.QueryContext(ctx, `SELECT `+endpointCols+` FROM webhook_endpoints WHERE org_id = $1 ORDER BY id DESC`, orgID)
	if err != nil {
		return nil, err
	}
	return store.ScanAll(rows, scanEndpoint)
}

// List returns the organization's endpoints, newest first (at most 20, so
// one page).
func (s *Service) List(ctx context.Context, p *auth.Principal) ([]WebhookEndpoint, error) {
	return listEndpoints(ctx, s.db, p.OrgID)
}

// Get returns one endpoint of p's organization.
func (s *Service) Get(ctx context.Context, p *auth.Principal, id string) (WebhookEndpoint, error) {
	return getEndpoint(ctx, s.db, p.OrgID, id)
}

// Update applies a PATCH. Activating a paused or disabled endpoint resets
// its failure count.
func (s *Service) Update(ctx context.Context, p *auth.Principal, id string, patch EndpointPatch) (WebhookEndpoint, error) {
	var u string
	if patch.URL != nil {
		var err error
		if u, err = checkURL(ctx, *patch.URL, s.cfg.Dev, s.cfg.Resolver); err != nil {
			return WebhookEndpoint{}, err
		}
	}
	if patch.Description != nil {
		if err := checkDescription(*patch.Description); err != nil {
			return WebhookEndpoint{}, err
		}
	}
	var types []string
	if patch.EventTypes != nil {
		var err error
		if types, err = normalizeTypes(*patch.EventTypes); err != nil {
			return WebhookEndpoint{}, err
		}
	}
	if patch.Status != nil && *patch.Status != EndpointActive && *patch.Status != EndpointPaused {
		return WebhookEndpoint{}, apierr.Invalid("status", "must be active or paused")
	}
	var out WebhookEndpoint
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		e, err := getEndpoint(ctx, tx, p.OrgID, id)
		if err != nil {
			return err
		}
		changed := map[string]any{}
		if patch.URL != nil {
			e.URL, changed["url"] = u, u
		}
		if patch.Description != nil {
			e.Description, changed["description"] = *patch.Description, *patch.Description
		}
		if patch.EventTypes != nil {
			e.EventTypes, changed["event_types"] = types, types
		}
		inbox := ""
		if e.InboxID != nil {
			inbox = *e.InboxID
		}
		if patch.InboxID != nil {
			if err := checkInbox(ctx, tx, p.OrgID, *patch.InboxID); err != nil {
				return err
			}
			inbox, changed["inbox_id"] = *patch.InboxID, *patch.InboxID
		}
		if patch.Status != nil && *patch.Status != e.Status {
			if *patch.Status == EndpointActive {
				e.failingSince, e.failed = 0, 0
			}
			e.Status, changed["status"] = *patch.Status, *patch.Status
		}
		rawTypes, _ := json.Marshal(e.EventTypes)
		_, err = tx.ExecContext(ctx, `UPDATE webhook_endpoints SET url = $1, description = $2, event_types = $3, inbox_id = $4,
			status = $5, failing_since = $6, failed_attempts = $7, updated_at = $8 WHERE id = $9`,
			e.URL, e.Description, string(rawTypes), inbox, e.Status, e.failingSince, e.failed, store.Micros(s.now()), id)
		if err != nil {
			return fmt.Errorf("update endpoint: %w", err)
		}
		if err := audit.Record(ctx, tx, p.OrgID, p, "webhook.update", audit.Target{Type: "webhook_endpoint", ID: id}, changed); err != nil {
			return err
		}
		if out, err = getEndpoint(ctx, tx, p.OrgID, id); err != nil {
			return err
		}
		if e.Status == EndpointActive {
			// Pending deliveries are due again on this endpoint's new terms.
			return tx.Notify(ctx, DueTopic, p.OrgID)
		}
		return nil
	})
	return out, err
}

// Delete removes an endpoint and its deliveries.
func (s *Service) Delete(ctx context.Context, p *auth.Principal, id string) error {
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM webhook_endpoints WHERE id = $1 AND org_id = $2`, id, p.OrgID)
		if err != nil {
			return fmt.Errorf("delete endpoint: %w", err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return apierr.NotFound("webhook endpoint")
		}
		return audit.Record(ctx, tx, p.OrgID, p, "webhook.delete", audit.Target{Type: "webhook_endpoint", ID: id}, nil)
	})
}

// Rotate replaces the secret. The replaced secret keeps signing (in
// X-Service-Signature-Previous) for 24 hours; a second rotation within
// those hours makes the just-replaced secret the previous one, so the older
// overlap ends at once.
func (s *Service) Rotate(ctx context.Context, p *auth.Principal, id string) (RotatedSecret, error) {
	now := s.now()
	secret := newSecret()
	var out RotatedSecret
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		e, err := getEndpoint(ctx, tx, p.OrgID, id)
		if err != nil {
			return err
		}
		cur, err := s.keys.Open(ctx, p.OrgID, e.secretSealed, secretAAD(id, "secret"))
		if err != nil {
			return fmt.Errorf("open secret: %w", err)
		}
		sealed, err := s.keys.SealTx(ctx, tx, p.OrgID, []byte(secret), secretAAD(id, "secret"))
		if err != nil {
			return err
		}
		prev, err := s.keys.SealTx(ctx, tx, p.OrgID, cur, secretAAD(id, "previous"))
		if err != nil {
			return err
		}
		expires := now.Add(RotationOverlap)
		if _, err := tx.ExecContext(ctx, `UPDATE webhook_endpoints SET secret_sealed = $1, previous_sealed = $2,
			previous_expires_at = $3, updated_at = $4 WHERE id = $5`, sealed, prev, store.Micros(expires), store.Micros(now), id); err != nil {
			return fmt.Errorf("rotate: %w", err)
		}
		out = RotatedSecret{Secret: secret, PreviousSecretExpiresAt: expires}
		return audit.Record(ctx, tx, p.OrgID, p, "webhook.rotate", audit.Target{Type: "webhook_endpoint", ID: id}, nil)
	})
	return out, err
}

// secrets opens an endpoint's current secret and, within its overlap, the
// previous one ("" otherwise).
func (s *Service) secrets(ctx context.Context, e WebhookEndpoint, now time.Time) (cur, prev string, err error) {
	cur, err = s.opened.open(ctx, s.keys, e, e.secretSealed, "secret")
	if err != nil {
		return "", "", fmt.Errorf("open webhook secret: %w", err)
	}
	if len(e.prevSealed) > 0 && e.prevExpires > store.Micros(now) {
		prev, err = s.opened.open(ctx, s.keys, e, e.prevSealed, "previous")
		if err != nil {
			return "", "", fmt.Errorf("open previous webhook secret: %w", err)
		}
	}
	return cur, prev, nil
}

// maxOpenedSecrets bounds the cache of opened secrets (20 endpoints per
// organization, two secrets each during a rotation's overlap).
const maxOpenedSecrets = 4096

// openedSecrets caches opened signing secrets, so an attempt signs without
// decrypting the sealed secret again. The key is the sealed blob itself: a
// rotation seals a new one, so a stale entry is never found again (it goes
// with the next reset of the cache), and nothing needs invalidating.
type openedSecrets struct {
	mu sync.Mutex
	m  map[string]string
}

func (c *openedSecrets) open(ctx context.Context, keys *seal.Keyring, e WebhookEndpoint, sealed []byte, role string) (string, error) {
	key := e.ID + "\x00" + role + "\x00" + string(sealed)
	c.mu.Lock()
	v, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return v, nil
	}
	plain, err := keys.Open(ctx, e.orgID, sealed, secretAAD(e.ID, role))
	if err != nil {
		return "", err
	}
	c.mu.Lock()
	if c.m == nil || len(c.m) >= maxOpenedSecrets {
		c.m = make(map[string]string)
	}
	c.m[key] = string(plain)
	c.mu.Unlock()
	return string(plain), nil
}
