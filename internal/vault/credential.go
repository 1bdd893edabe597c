package vault

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sethvargo/go-password/password"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Kinds of credential.
const (
	KindLogin  = "login"   // username + password, optionally a TOTP secret
	KindAPIKey = "api_key" // a key
	KindTOTP   = "totp"    // a TOTP secret only
)

// Audit actions, all under the "vault." prefix that the history endpoint filters on.
const (
	ActionCreate     = "vault.create"
	ActionUpdate     = "vault.update"
	ActionDelete     = "vault.delete"
	ActionRead       = "vault.read"        // value returned to an agent
	ActionReadDenied = "vault.read_denied" // value asked for a non-readable credential
	ActionTOTP       = "vault.totp"        // a one-time code returned
	ActionInject     = "vault.inject"      // value handed to the machines service
	ActionEquip      = "vault.equip"
	ActionUnequip    = "vault.unequip"
)

// Limits.
const (
	maxName       = 200
	maxUsername   = 512
	maxValue      = 16 << 10
	maxOrigins    = 20
	maxOriginLen  = 300
	defaultLength = 32
	defaultDigits = 6
	defaultSymbol = 6
	minGenLength  = 12
	maxGenLength  = 128
)

// Credential is what any caller may see of a credential: never a value or a
// secret.
type Credential struct {
	ID             string    `json:"id"`
	Name           string    `json:"name"`
	Kind           string    `json:"kind" enum:"login,api_key,totp"`
	Username       string    `json:"username,omitempty" doc:"Present for kind login."`
	AgentReadable  bool      `json:"agent_readable" doc:"Whether an agent can read the value with GET /api/v1/vault/{id}."`
	AllowedOrigins []string  `json:"allowed_origins" doc:"Origins where the local connector may use the credential."`
	HasValue       bool      `json:"has_value" doc:"A password (login) or key (api_key) is stored."`
	HasTOTP        bool      `json:"has_totp" doc:"A TOTP secret is stored; GET /api/v1/vault/{id}/totp returns codes."`
	CreatedBy      string    `json:"created_by" doc:"The agent or organization key that created it."`
	AgentIDs       []string  `json:"agent_ids,omitempty" doc:"Agents it is equipped on (organization views only)."`
	CreatedAt      time.Time `json:"created_at"`
	UpdatedAt      time.Time `json:"updated_at"`

	valueSealed, totpSealed []byte
	totp                    TOTPParams
	orgID                   string
}

// WithSecret is a credential with a value shown once: the generated
// password of a create or rotation, or the value an agent read.
type WithSecret struct {
	Credential
	Value string `json:"value,omitempty" doc:"The password (login) or key (api_key). On create and PATCH only when generate was true: shown this once."`
}

// PasswordOptions shape a generated password (github.com/sethvargo/go-password).
type PasswordOptions struct {
	Length  int  // 12-128, default 32
	Digits  *int // default 6
	Symbols *int // default 6; 0 for sites that refuse symbols
	NoUpper bool
}

// NewCredential is the body of a create.
type NewCredential struct {
	Name           string
	Kind           string
	Username       string
	AgentReadable  *bool
	Password       *string
	Generate       bool
	PasswordOpts   PasswordOptions
	AllowedOrigins []string
	Secret         *string
	TOTP           TOTPOptions
}

// Update changes a credential; nil fields keep their value.
type Update struct {
	Name           *string
	Username       *string
	AgentReadable  *bool
	AllowedOrigins *[]string
	// Password rotates the value; Generate rotates it to a generated one
	// (returned once).
	Password     *string
	Generate     bool
	PasswordOpts PasswordOptions
	// Secret adds or replaces the TOTP secret.
	Secret *string
	TOTP   TOTPOptions
}

// Service is the vault.
type Service struct {
	db   *store.DB
	keys *seal.Keyring
	log  *slog.Logger
	now  func() time.Time
	// reads records value and code reads with group commit.
	reads *recorder
	// seen caches what visible found for Read and TOTP, the hot paths.
	seen *visibility
}

// Options tunes the vault.
type Options struct {
	// ReadAuditSync bounds how long the audit entry of a value or code read
	// may wait for the disk after the value is returned (SQLite). The entry
	// is committed before the value is returned either way, so no crash of
	// agentsvc can hide a read; only a power cut or a crash of the host
	// within ReadAuditSync of a read can lose its entry. 0 makes every read
	// wait for the disk, which costs throughput under load (the README has
	// the figures). PostgreSQL always waits for its own log flush.
	ReadAuditSync time.Duration
}

// DefaultReadAuditSync is the default Options.ReadAuditSync: what a power
// cut may lose is the reads of the last 10 ms, in exchange for one disk sync
// per 10 ms instead of one per commit.
const DefaultReadAuditSync = 10 * time.Millisecond

// NewService wires the vault.
func NewService(db *store.DB, keys *seal.Keyring, log *slog.Logger, opts Options) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	reads := &recorder{db: db, linger: defaultLinger, syncWithin: max(opts.ReadAuditSync, 0)}
	return &Service{db: db, keys: keys, log: log, now: time.Now, reads: reads, seen: newVisibility(db)}
}

func aad(id, field string) []byte { return []byte(id + "|" + field) }

// ValidOrigin normalizes an origin: scheme://host[:port], lower case,
// default port dropped, no path, query, fragment or user info.
func ValidOrigin(field, s string) (string, error) {
	if len(s) > maxOriginLen {
		return "", apierr.Invalid(field, "is longer than %d characters", maxOriginLen)
	}
	u, err := url.Parse(strings.TrimSpace(s))
	if err != nil || u.Scheme == "" || u.Host == "" || u.Opaque != "" {
		return "", apierr.Invalid(field, "%q is not an origin such as https://example.com", s)
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "https" && scheme != "http" {
		return "", apierr.Invalid(field, "%q: the scheme must be https or http", s)
	}
	if u.User != nil || (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.ForceQuery || u.Fragment != "" {
		return "", apierr.Invalid(field, "%q must be an origin (scheme, host and port) without path, query or user info", s)
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" || strings.ContainsAny(host, " _%") {
		return "", apierr.Invalid(field, "%q has no valid host", s)
	}
	if port != "" {
		if (scheme == "https" && port == "443") || (scheme == "http" && port == "80") {
			port = ""
		}
	}
	if port != "" {
		return scheme + "://" + net.JoinHostPort(host, port), nil
	}
	if strings.Contains(host, ":") {
		return scheme + "://[" + host + "]", nil
	}
	return scheme + "://" + host, nil
}

func validOrigins(in []string) ([]string, error) {
	if len(in) > maxOrigins {
		return nil, apierr.Invalid("allowed_origins", "at most %d origins", maxOrigins)
	}
	out := []string{}
	seen := map[string]bool{}
	for i, o := range in {
		n, err := ValidOrigin(fmt.Sprintf("allowed_origins[%d]", i), o)
		if err != nil {
			return nil, err
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out, nil
}

func validName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return "", apierr.Invalid("name", "is required")
	}
	if utf8.RuneCountInString(name) > maxName {
		return "", apierr.Invalid("name", "must be at most %d characters", maxName)
	}
	return name, nil
}

// Generate makes a password with the options, strong by default: 32
// characters of upper and lower case letters, 6 digits and 6 symbols.
func Generate(o PasswordOptions) (string, error) {
	length, digits, symbols := defaultLength, defaultDigits, defaultSymbol
	if o.Length != 0 {
		length = o.Length
	}
	if o.Digits != nil {
		digits = *o.Digits
	}
	if o.Symbols != nil {
		symbols = *o.Symbols
	}
	if length < minGenLength || length > maxGenLength {
		return "", apierr.Invalid("generate_length", "must be between %d and %d", minGenLength, maxGenLength)
	}
	if digits < 0 || symbols < 0 {
		return "", apierr.Invalid("generate_digits", "digits and symbols must not be negative")
	}
	if digits+symbols > length-4 {
		return "", apierr.Invalid("generate_digits", "digits + symbols (%d) must leave at least 4 letters in %d characters", digits+symbols, length)
	}
	p, err := password.Generate(length, digits, symbols, o.NoUpper, true)
	if err != nil {
		return "", fmt.Errorf("generate password: %w", err)
	}
	return p, nil
}

// newValue resolves password vs generate into the value to store; generated
// reports whether it must be shown once.
func newValue(kind string, pw *string, generate bool, opts PasswordOptions) (value string, generated bool, err error) {
	switch {
	case pw != nil && generate:
		return "", false, apierr.Invalid("password", "and generate are mutually exclusive").
			WithHint("send a password, or generate: true to have one made, not both")
	case generate:
		if kind != KindLogin {
			return "", false, apierr.Invalid("generate", "is only for kind login")
		}
		v, err := Generate(opts)
		return v, true, err
	case pw != nil:
		if kind == KindTOTP {
			return "", false, apierr.Invalid("password", "a totp credential holds only a secret")
		}
		if *pw == "" {
			return "", false, apierr.Invalid("password", "must not be empty")
		}
		if len(*pw) > maxValue {
			return "", false, apierr.Invalid("password", "must be at most %d bytes", maxValue)
		}
		return *pw, false, nil
	}
	if opts.Length != 0 || opts.Digits != nil || opts.Symbols != nil || opts.NoUpper {
		return "", false, apierr.Invalid("generate", "generate_* options need generate: true")
	}
	return "", false, nil
}

// Create stores a credential. An agent's credential is equipped on that
// agent; an organization key's is equipped on nobody (see Equip).
func (s *Service) Create(ctx context.Context, p *auth.Principal, n NewCredential) (WithSecret, error) {
	name, err := validName(n.Name)
	if err != nil {
		return WithSecret{}, err
	}
	kind := n.Kind
	if kind == "" {
		kind = KindLogin
	}
	if kind != KindLogin && kind != KindAPIKey && kind != KindTOTP {
		return WithSecret{}, apierr.Invalid("kind", "must be login, api_key or totp")
	}
	if n.Username != "" && kind != KindLogin {
		return WithSecret{}, apierr.Invalid("username", "is only for kind login")
	}
	if len(n.Username) > maxUsername {
		return WithSecret{}, apierr.Invalid("username", "must be at most %d bytes", maxUsername)
	}
	origins, err := validOrigins(n.AllowedOrigins)
	if err != nil {
		return WithSecret{}, err
	}
	value, generated, err := newValue(kind, n.Password, n.Generate, n.PasswordOpts)
	if err != nil {
		return WithSecret{}, err
	}
	if value == "" && kind != KindTOTP {
		return WithSecret{}, apierr.Invalid("password", "is required for kind %s (or generate: true for a login)", kind)
	}
	var ts *TOTPSecret
	switch {
	case n.Secret != nil:
		if kind == KindAPIKey {
			return WithSecret{}, apierr.Invalid("secret", "a TOTP secret belongs to kind totp or login")
		}
		t, err := ParseTOTPSecret(*n.Secret, n.TOTP)
		if err != nil {
			return WithSecret{}, err
		}
		ts = &t
	case kind == KindTOTP:
		return WithSecret{}, apierr.Invalid("secret", "is required for kind totp")
	case n.TOTP != (TOTPOptions{}):
		return WithSecret{}, apierr.Invalid("totp_algorithm", "totp_* options need a secret")
	}
	readable := true
	if n.AgentReadable != nil {
		readable = *n.AgentReadable
	}

	now := s.now()
	c := Credential{ID: ids.New("crd"), Name: name, Kind: kind, Username: n.Username, AgentReadable: readable,
		AllowedOrigins: origins, CreatedBy: p.ActorID(), CreatedAt: now.UTC(), UpdatedAt: now.UTC(), orgID: p.OrgID}
	if err := s.sealInto(ctx, &c, value, ts); err != nil {
		return WithSecret{}, err
	}
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		if p.Kind == auth.KindAgent {
			// the agent must still exist (it may be deleted while its token is cached)
			if _, err := org.GetAgent(ctx, tx, p.OrgID, p.AgentID); err != nil {
				return err
			}
		}
		if err := insertCredential(ctx, tx, c); err != nil {
			return err
		}
		if p.Kind == auth.KindAgent {
			if err := equip(ctx, tx, p.OrgID, c.ID, p.AgentID, now); err != nil {
				return err
			}
		}
		return audit.Record(ctx, tx, p.OrgID, p, ActionCreate, target(c.ID), details(p, c, map[string]any{"generated": generated, "has_totp": ts != nil}))
	})
	if err != nil {
		return WithSecret{}, err
	}
	out := WithSecret{Credential: c}
	if generated {
		out.Value = value
	}
	return out, nil
}

// sealInto seals a new value and TOTP secret into c (before any
// transaction: sealing may create the organization's data key).
func (s *Service) sealInto(ctx context.Context, c *Credential, value string, ts *TOTPSecret) error {
	if value != "" {
		v, err := s.keys.Seal(ctx, c.orgID, []byte(value), aad(c.ID, "value"))
		if err != nil {
			return fmt.Errorf("seal value: %w", err)
		}
		c.valueSealed, c.HasValue = v, true
	}
	if ts != nil {
		v, err := s.keys.Seal(ctx, c.orgID, ts.Key, aad(c.ID, "totp"))
		if err != nil {
			return fmt.Errorf("seal totp secret: %w", err)
		}
		c.totpSealed, c.HasTOTP, c.totp = v, true, ts.TOTPParams
	}
	return nil
}

func target(id string) audit.Target { return audit.Target{Type: "credential", ID: id} }

// details are the audit details: the agent and token (or key) that acted,
// the credential's name and kind. Never a value.
func details(p *auth.Principal, c Credential, extra map[string]any) map[string]any {
	d := map[string]any{"credential_name": c.Name, "kind": c.Kind}
	if p.Kind == auth.KindAgent {
		d["agent_id"], d["token_id"] = p.AgentID, p.CredentialID
	} else {
		d["key_id"] = p.CredentialID
	}
	for k, v := range extra {
		d[k] = v
	}
	return d
}

// readDetails are details(p, c, nil) encoded by hand for the read paths,
// where a map and json.Marshal per read showed in profiles.
func readDetails(p *auth.Principal, c Credential) string {
	if p.Kind == auth.KindAgent {
		return audit.DetailsObject("agent_id", p.AgentID, "credential_name", c.Name, "kind", c.Kind, "token_id", p.CredentialID)
	}
	return audit.DetailsObject("credential_name", c.Name, "key_id", p.CredentialID, "kind", c.Kind)
}

func insertCredential(ctx context.Context, tx *store.Tx, c Credential) error {
	origins, _ := json.Marshal(c.AllowedOrigins)
	_, err := tx.ExecContext(ctx, `INSERT INTO vault_credentials (id, org_id, name, kind, username, agent_readable, allowed_origins,
		value_sealed, totp_sealed, totp_algorithm, totp_digits, totp_period, created_by, created_at, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		c.ID, c.orgID, c.Name, c.Kind, c.Username, c.AgentReadable, string(origins), c.valueSealed, c.totpSealed,
		c.totp.Algorithm, c.totp.Digits, c.totp.Period, c.CreatedBy, store.Micros(c.CreatedAt), store.Micros(c.UpdatedAt))
	if err != nil {
		return fmt.Errorf("insert credential: %w", err)
	}
	return nil
}

func equip(ctx context.Context, tx *store.Tx, orgID, credID, agentID string, now time.Time) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO vault_equipment (credential_id, agent_id, org_id, equipped_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (credential_id, agent_id) DO NOTHING`, credID, agentID, orgID, store.Micros(now))
	if err != nil {
		return fmt.Errorf("equip credential: %w", err)
	}
	return nil
}

const credentialColumns = `c.id, c.org_id, c.name, c.kind, c.username, c.agent_readable, c.allowed_origins, c.value_sealed, c.totp_sealed,
	c.totp_algorithm, c.totp_digits, c.totp_period, c.created_by, c.created_at, c.updated_at`

func scanCredential(r store.Scanner) (Credential, error) {
	var c Credential
	var origins string
	var created, updated int64
	if err := r.Scan(&c.ID, &c.orgID, &c.Name, &c.Kind, &c.Username, &c.AgentReadable, &origins, &c.valueSealed, &c.totpSealed,
		&c.totp.Algorithm, &c.totp.Digits, &c.totp.Period, &c.CreatedBy, &created, &updated); err != nil {
		return Credential{}, err
	}
	_ = json.Unmarshal([]byte(origins), &c.AllowedOrigins)
	if c.AllowedOrigins == nil {
		c.AllowedOrigins = []string{}
	}
	c.HasValue, c.HasTOTP = len(c.valueSealed) > 0, len(c.totpSealed) > 0
	c.CreatedAt, c.UpdatedAt = store.Time(created), store.Time(updated)
	return c, nil
}

// visible loads a credential the principal may see: for an agent, only one
// equipped on it; for a key or member, any of the organization. Anything
// else is 404, so ids of others leak nothing.
func visible(ctx context.Context, q store.Querier, p *auth.Principal, id string) (Credential, error) {
	if !ids.Valid("crd", id) {
		return Credential{}, apierr.NotFound("credential")
	}
	agentID := ""
	if p.Kind == auth.KindAgent {
		agentID = p.AgentID
	}
	c, err := scanCredential(q.QueryRowContext(ctx, `SELECT `+credentialColumns+` FROM vault_credentials c
		WHERE c.org_id = $1 AND c.id = $2 AND ($3 = '' OR EXISTS (SELECT 1 FROM vault_equipment e WHERE e.credential_id = c.id AND e.agent_id = $3))`,
		p.OrgID, id, agentID))
	if errors.Is(err, sql.ErrNoRows) {
		return Credential{}, apierr.NotFound("credential")
	}
	if err != nil {
		return Credential{}, fmt.Errorf("read credential: %w", err)
	}
	return c, nil
}

// List returns the credentials the principal sees, newest first: an
// agent's equipped ones, or (key, member) all of the organization with the
// agents each is equipped on.
func (s *Service) List(ctx context.Context, p *auth.Principal, limit int, after string) ([]Credential, error) {
	agentID := ""
	if p.Kind == auth.KindAgent {
		agentID = p.AgentID
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+credentialColumns+` FROM vault_credentials c
		WHERE c.org_id = $1 AND ($2 = '' OR EXISTS (SELECT 1 FROM vault_equipment e WHERE e.credential_id = c.id AND e.agent_id = $2))
		AND ($3 = '' OR c.id < $3) ORDER BY c.id DESC LIMIT $4`, p.OrgID, agentID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list credentials: %w", err)
	}
	out, err := store.ScanAll(rows, scanCredential)
	if err != nil {
		return nil, err
	}
	if p.Kind != auth.KindAgent {
		for i := range out {
			if out[i].AgentIDs, err = equippedOn(ctx, s.db, out[i].ID); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func equippedOn(ctx context.Context, q store.Querier, credID string) ([]string, error) {
	out, err := store.Strings(ctx, q, `SELECT agent_id FROM vault_equipment WHERE credential_id = $1 ORDER BY agent_id`, credID)
	if err != nil {
		return nil, fmt.Errorf("list equipment: %w", err)
	}
	return out, nil
}

// Read returns a credential with its value to an agent, after the read's
// audit entry is committed (group commit, see recorder). A credential that is not agent-readable is 403 (the agent sees it
// in its list, so 404 would be a lie), and the refused attempt is recorded.
// A totp-only credential has no value: 409 invalid_state.
func (s *Service) Read(ctx context.Context, p *auth.Principal, id string) (WithSecret, error) {
	e, err := s.seen.visible(ctx, p, id)
	if err != nil {
		return WithSecret{}, err
	}
	c := e.c
	if !c.HasValue {
		return WithSecret{}, apierr.Conflict(apierr.CodeInvalidState, "credential %s holds no value, only a TOTP secret", c.ID).
			WithHint("read a code with GET /api/v1/vault/" + c.ID + "/totp")
	}
	if !c.AgentReadable {
		if err := s.reads.record(ctx, p.OrgID, p, ActionReadDenied, target(c.ID), readDetails(p, c)); err != nil {
			return WithSecret{}, err
		}
		return WithSecret{}, apierr.Forbidden("credential "+c.ID+" is not agent-readable: its value is never returned",
			"an agent can still get TOTP codes from it; an organization key can make it readable")
	}
	// the entry is committed before the value is returned (opened on the
	// first read, then kept with the cache entry: see visibility)
	if err := s.reads.record(ctx, p.OrgID, p, ActionRead, target(c.ID), readDetails(p, c)); err != nil {
		return WithSecret{}, err
	}
	v, err := e.openValue(ctx, s.keys)
	if err != nil {
		return WithSecret{}, err
	}
	return WithSecret{Credential: c, Value: v}, nil
}

// TOTP returns the current code of a credential's TOTP secret (also for a
// credential that is not agent-readable: the code is not the secret), and
// records it in the audit history.
func (s *Service) TOTP(ctx context.Context, p *auth.Principal, id string) (TOTPCode, error) {
	e, err := s.seen.visible(ctx, p, id)
	if err != nil {
		return TOTPCode{}, err
	}
	c := e.c
	if !c.HasTOTP {
		return TOTPCode{}, apierr.Conflict(apierr.CodeInvalidState, "credential %s has no TOTP secret", c.ID).
			WithHint("add one with PATCH /api/v1/vault/" + c.ID + " and the field secret")
	}
	if err := s.reads.record(ctx, p.OrgID, p, ActionTOTP, target(c.ID), readDetails(p, c)); err != nil {
		return TOTPCode{}, err
	}
	return e.totpCode(ctx, s.keys, s.now())
}

// mayChange says whether p may change or delete c: an agent only what it
// created itself (a credential the organization equipped on it is shared and
// managed by the organization), a key or member anything.
func mayChange(p *auth.Principal, c Credential) error {
	if p.Kind == auth.KindAgent && c.CreatedBy != p.AgentID {
		return apierr.Forbidden("credential "+c.ID+" was equipped by the organization; an agent changes only credentials it created",
			"ask for the change to be made with an organization key holding vault:manage")
	}
	return nil
}

// Update renames, rotates the password (password, or generate: true — the
// new one returned once), adds or replaces the TOTP secret (secret), or
// changes the other metadata.
func (s *Service) Update(ctx context.Context, p *auth.Principal, id string, u Update) (WithSecret, error) {
	if u.Name != nil {
		n, err := validName(*u.Name)
		if err != nil {
			return WithSecret{}, err
		}
		u.Name = &n
	}
	var origins []string
	if u.AllowedOrigins != nil {
		var err error
		if origins, err = validOrigins(*u.AllowedOrigins); err != nil {
			return WithSecret{}, err
		}
	}
	if u.Username != nil && len(*u.Username) > maxUsername {
		return WithSecret{}, apierr.Invalid("username", "must be at most %d bytes", maxUsername)
	}
	var ts *TOTPSecret
	if u.Secret != nil {
		t, err := ParseTOTPSecret(*u.Secret, u.TOTP)
		if err != nil {
			return WithSecret{}, err
		}
		ts = &t
	} else if u.TOTP != (TOTPOptions{}) {
		return WithSecret{}, apierr.Invalid("totp_algorithm", "totp_* options need a secret")
	}
	// Check visibility and kind rules first (a read), seal outside the write
	// transaction, then re-check and write in one.
	cur, err := visible(ctx, s.db, p, id)
	if err != nil {
		return WithSecret{}, err
	}
	if err := mayChange(p, cur); err != nil {
		return WithSecret{}, err
	}
	value, generated, err := newValue(cur.Kind, u.Password, u.Generate, u.PasswordOpts)
	if err != nil {
		return WithSecret{}, err
	}
	if u.Username != nil && *u.Username != "" && cur.Kind != KindLogin {
		return WithSecret{}, apierr.Invalid("username", "is only for kind login")
	}
	if ts != nil && cur.Kind == KindAPIKey {
		return WithSecret{}, apierr.Invalid("secret", "a TOTP secret belongs to kind totp or login")
	}
	fresh := Credential{ID: cur.ID, orgID: cur.orgID}
	if err := s.sealInto(ctx, &fresh, value, ts); err != nil {
		return WithSecret{}, err
	}
	var c Credential
	var changed []string
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		var err error
		if c, err = visible(ctx, tx, p, id); err != nil {
			return err
		}
		if u.Name != nil {
			c.Name, changed = *u.Name, append(changed, "name")
		}
		if u.Username != nil {
			c.Username, changed = *u.Username, append(changed, "username")
		}
		if u.AgentReadable != nil {
			c.AgentReadable, changed = *u.AgentReadable, append(changed, "agent_readable")
		}
		if u.AllowedOrigins != nil {
			c.AllowedOrigins, changed = origins, append(changed, "allowed_origins")
		}
		if fresh.HasValue {
			c.valueSealed, c.HasValue, changed = fresh.valueSealed, true, append(changed, "password")
		}
		if fresh.HasTOTP {
			c.totpSealed, c.HasTOTP, c.totp, changed = fresh.totpSealed, true, fresh.totp, append(changed, "secret")
		}
		c.UpdatedAt = s.now().UTC()
		originsJSON, _ := json.Marshal(c.AllowedOrigins)
		if _, err := tx.ExecContext(ctx, `UPDATE vault_credentials SET name = $1, username = $2, agent_readable = $3, allowed_origins = $4,
			value_sealed = $5, totp_sealed = $6, totp_algorithm = $7, totp_digits = $8, totp_period = $9, updated_at = $10
			WHERE id = $11 AND org_id = $12`,
			c.Name, c.Username, c.AgentReadable, string(originsJSON), c.valueSealed, c.totpSealed, c.totp.Algorithm, c.totp.Digits, c.totp.Period,
			store.Micros(c.UpdatedAt), c.ID, p.OrgID); err != nil {
			return fmt.Errorf("update credential: %w", err)
		}
		if changed == nil {
			changed = []string{}
		}
		if err := s.changedCredential(ctx, tx, c.ID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, ActionUpdate, target(c.ID), details(p, c, map[string]any{"changed": changed, "generated": generated}))
	})
	if err != nil {
		return WithSecret{}, err
	}
	if p.Kind != auth.KindAgent {
		if c.AgentIDs, err = equippedOn(ctx, s.db, c.ID); err != nil {
			return WithSecret{}, err
		}
	}
	out := WithSecret{Credential: c}
	if generated {
		out.Value = value
	}
	return out, nil
}

// Delete removes a credential (and its equipment) for good.
func (s *Service) Delete(ctx context.Context, p *auth.Principal, id string) error {
	return s.db.InTx(ctx, func(tx *store.Tx) error {
		c, err := visible(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if err := mayChange(p, c); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM vault_equipment WHERE credential_id = $1`, c.ID); err != nil {
			return fmt.Errorf("delete equipment: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM vault_credentials WHERE id = $1 AND org_id = $2`, c.ID, p.OrgID); err != nil {
			return fmt.Errorf("delete credential: %w", err)
		}
		if err := s.changedCredential(ctx, tx, c.ID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, ActionDelete, target(c.ID), details(p, c, nil))
	})
}

// Equip makes a credential visible to an agent of the organization (an
// organization key operation). Equipping twice is not an error.
func (s *Service) Equip(ctx context.Context, p *auth.Principal, agentID, credID string) (Credential, error) {
	return s.setEquipped(ctx, p, agentID, credID, true)
}

// Unequip hides a credential from an agent again. Unequipping a credential
// that is not equipped is not an error.
func (s *Service) Unequip(ctx context.Context, p *auth.Principal, agentID, credID string) (Credential, error) {
	return s.setEquipped(ctx, p, agentID, credID, false)
}

func (s *Service) setEquipped(ctx context.Context, p *auth.Principal, agentID, credID string, on bool) (Credential, error) {
	var c Credential
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		if !ids.Valid("agt", agentID) {
			return apierr.NotFound("agent")
		}
		if _, err := org.GetAgent(ctx, tx, p.OrgID, agentID); err != nil {
			return err
		}
		var err error
		if c, err = visible(ctx, tx, p, credID); err != nil {
			return err
		}
		action := ActionEquip
		if on {
			err = equip(ctx, tx, p.OrgID, c.ID, agentID, s.now())
		} else {
			action = ActionUnequip
			_, err = tx.ExecContext(ctx, `DELETE FROM vault_equipment WHERE credential_id = $1 AND agent_id = $2`, c.ID, agentID)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", action, err)
		}
		if err := s.changedCredential(ctx, tx, c.ID); err != nil {
			return err
		}
		if c.AgentIDs, err = equippedOn(ctx, tx, c.ID); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, action, target(c.ID), details(p, c, map[string]any{"agent_id": agentID}))
	})
	return c, err
}

// HistoryFilter narrows the vault's audit history.
type HistoryFilter struct {
	CredentialID string
	AgentID      string
	Since, Until time.Time
}

// History lists the vault entries of the organization's audit history
// (every action under "vault."), newest first.
func (s *Service) History(ctx context.Context, p *auth.Principal, f HistoryFilter, limit int, after string) ([]audit.Entry, error) {
	return audit.List(ctx, s.db, p.OrgID, audit.Filter{TargetID: f.CredentialID, ActorID: f.AgentID, ActionPrefix: "vault.",
		Since: f.Since, Until: f.Until}, limit, after)
}

// Injection is a credential's value handed to the machines service.
type Injection struct {
	CredentialID string
	Name         string
	Kind         string
	Username     string
	Value        []byte
}

// ValueForMachine hands a credential's value to the machines service for
// inject_credential_ids, recording vault.inject with the machine id. Never
// for an API response. The same rules as Read apply, since whoever controls
// the machine can read the file: an agent needs vault:use and the credential
// equipped on it (else 404), and the credential must be agent-readable
// (else 403).
func (s *Service) ValueForMachine(ctx context.Context, p *auth.Principal, credentialID, machineID string) (Injection, error) {
	if p.Kind == auth.KindAgent && !p.Has(auth.VaultUse) {
		return Injection{}, apierr.Forbidden("injecting a credential needs the scope "+auth.VaultUse, "issue a token that includes "+auth.VaultUse)
	}
	var c Credential
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		var err error
		if c, err = visible(ctx, tx, p, credentialID); err != nil {
			return err
		}
		if !c.AgentReadable {
			return apierr.Forbidden("credential "+c.ID+" is not agent-readable, so it cannot be placed on a machine", "")
		}
		if !c.HasValue {
			return apierr.Invalid("inject_credential_ids", "credential %s holds no value, only a TOTP secret", c.ID)
		}
		return audit.Record(ctx, tx, p.OrgID, p, ActionInject, target(c.ID), details(p, c, map[string]any{"machine_id": machineID}))
	})
	if err != nil {
		return Injection{}, err
	}
	v, err := s.keys.Open(ctx, p.OrgID, c.valueSealed, aad(c.ID, "value"))
	if err != nil {
		return Injection{}, fmt.Errorf("open credential %s: %w", c.ID, err)
	}
	return Injection{CredentialID: c.ID, Name: c.Name, Kind: c.Kind, Username: c.Username, Value: v}, nil
}
