// Package seal encrypts secrets at rest (vault values, TOTP secrets, webhook
// secrets, DKIM and OIDC keys) with envelope encryption:
//
//   - a master key (or several, during a rotation) lives outside the database:
//     a file (DATA_DIR/master.key in dev mode, created 0600 on first start) or
//     the AGENTSVC_MASTER_KEY environment value;
//   - each organization has a random 32-byte data key, stored in the table
//     org_data_keys only wrapped with AES-256-GCM under a master key, next to
//     that master key's id;
//   - a secret is sealed with AES-256-GCM under its organization's data key,
//     with the caller's additional data (the record id and field) bound in,
//     so a ciphertext copied to another record, field or organization fails
//     to open instead of decrypting there.
//
// Unwrapped data keys are cached in memory: a read costs one AES-GCM
// operation, no query. Rotating the master key (RotateMasterKey) re-wraps
// only the small data keys, never the sealed secrets, and running servers
// keep working throughout: their cached data keys do not change, and a server
// that meets a data key wrapped under a master key id it does not know
// re-reads its key source once before failing.
package seal

import (
	"context"
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/store"
)

// Errors callers may test for with errors.Is.
var (
	// ErrUnknownMasterKey: a data key is wrapped under a master key that is in
	// neither the loaded keyring nor the key source re-read just now.
	ErrUnknownMasterKey = errors.New("data key wrapped under an unknown master key")
	// ErrNoDataKey: Open was asked for an organization that never sealed anything.
	ErrNoDataKey = errors.New("organization has no data key")
	// ErrCorrupt: a ciphertext failed authentication (tampered, truncated,
	// or moved to another record).
	ErrCorrupt = errors.New("sealed data failed authentication")
)

const (
	formatV1 = 1
	nonceLen = 12
	// lockKey serializes data key creation with rotation (see createDataKey).
	lockKey = "seal:org_data_keys"
)

// Config says where the master keys come from.
type Config struct {
	// Value is the AGENTSVC_MASTER_KEY form: base64 32-byte keys separated by
	// commas, newest first. When set, File is not used.
	Value string
	// File is the master key file (see ReadKeyFile).
	File string
	// Create writes File with a fresh key when it does not exist yet.
	Create bool
	Logger *slog.Logger
}

// Keyring seals and opens secrets for every organization.
type Keyring struct {
	db  *store.DB
	cfg Config
	log *slog.Logger

	mu      sync.RWMutex
	masters []MasterKey // newest first
	data    map[string]cipher.AEAD

	reloadMu sync.Mutex
}

// New loads the master keys (creating the file if asked and absent) and
// checks that every data key in the database is wrapped under one of them,
// so a node started with the wrong key file fails at once, not on the first
// read of a secret.
func New(ctx context.Context, db *store.DB, cfg Config) (*Keyring, error) {
	log := cfg.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	k := &Keyring{db: db, cfg: cfg, log: log, data: map[string]cipher.AEAD{}}
	if cfg.Value == "" && cfg.File != "" && cfg.Create {
		if _, err := os.Stat(cfg.File); errors.Is(err, os.ErrNotExist) {
			mk, err := NewMasterKey()
			if err != nil {
				return nil, err
			}
			if err := WriteKeyFile(cfg.File, []MasterKey{mk}); err != nil {
				return nil, err
			}
			log.Info("created master key file", "path", cfg.File, "master_key_id", mk.ID)
		}
	}
	if err := k.Reload(); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("%w; with a shared database every node needs the same master key: create the file once with "+
				"`agentsvc vault rotate-master-key --master-key-file %s` and give it to every node, or set AGENTSVC_MASTER_KEY", err, cfg.File)
		}
		return nil, err
	}
	rows, err := db.QueryContext(ctx, `SELECT DISTINCT master_key_id FROM org_data_keys`)
	if err != nil {
		return nil, fmt.Errorf("read data keys: %w", err)
	}
	defer rows.Close()
	var unknown []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		if _, ok := k.master(id); !ok {
			unknown = append(unknown, id)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("%w: the database holds data keys wrapped under %v, which %s does not hold; start with the master key the data was written with",
			ErrUnknownMasterKey, unknown, k.source())
	}
	return k, nil
}

func (k *Keyring) source() string {
	if k.cfg.Value != "" {
		return "AGENTSVC_MASTER_KEY"
	}
	return "the master key file " + k.cfg.File
}

// Reload re-reads the master keys from their source.
func (k *Keyring) Reload() error {
	var keys []MasterKey
	var err error
	switch {
	case k.cfg.Value != "":
		keys, err = ParseMasterKeys(k.cfg.Value)
	case k.cfg.File != "":
		keys, err = ReadKeyFile(k.cfg.File)
	default:
		err = errors.New("no master key configured: set AGENTSVC_MASTER_KEY or a master key file")
	}
	if err != nil {
		return err
	}
	k.mu.Lock()
	k.masters = keys
	k.mu.Unlock()
	return nil
}

// MasterKeyIDs lists the loaded master key ids, newest first.
func (k *Keyring) MasterKeyIDs() []string {
	k.mu.RLock()
	defer k.mu.RUnlock()
	out := make([]string, len(k.masters))
	for i, m := range k.masters {
		out[i] = m.ID
	}
	return out
}

func (k *Keyring) master(id string) (MasterKey, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	for _, m := range k.masters {
		if m.ID == id {
			return m, true
		}
	}
	return MasterKey{}, false
}

func (k *Keyring) newest() MasterKey {
	k.mu.RLock()
	defer k.mu.RUnlock()
	return k.masters[0]
}

// Seal encrypts plaintext for the organization, binding aad (say, the
// record id and field name) to the result. It may create the organization's
// data key in a transaction of its own, so on SQLite (one writer) it must not
// be called while the caller holds a transaction: use SealTx there.
func (k *Keyring) Seal(ctx context.Context, orgID string, plaintext, aad []byte) ([]byte, error) {
	aead, err := k.dataKey(ctx, orgID, nil)
	if err != nil {
		return nil, err
	}
	return sealWith(aead, orgID, plaintext, aad)
}

// SealTx is Seal inside the caller's transaction: a data key it has to create
// is written in tx, and is cached only once it can be read back committed.
func (k *Keyring) SealTx(ctx context.Context, tx *store.Tx, orgID string, plaintext, aad []byte) ([]byte, error) {
	aead, err := k.dataKey(ctx, orgID, tx)
	if err != nil {
		return nil, err
	}
	return sealWith(aead, orgID, plaintext, aad)
}

// Open decrypts what Seal returned for the same organization and aad.
func (k *Keyring) Open(ctx context.Context, orgID string, sealed, aad []byte) ([]byte, error) {
	aead, err := k.cachedOrStored(ctx, orgID)
	if err != nil {
		return nil, err
	}
	if aead == nil {
		return nil, fmt.Errorf("open for %s: %w", orgID, ErrNoDataKey)
	}
	if len(sealed) < 1+nonceLen+aead.Overhead() || sealed[0] != formatV1 {
		return nil, ErrCorrupt
	}
	out, err := aead.Open(nil, sealed[1:1+nonceLen], sealed[1+nonceLen:], bindAAD("seal/v1", orgID, aad))
	if err != nil {
		return nil, ErrCorrupt
	}
	return out, nil
}

func sealWith(aead cipher.AEAD, orgID string, plaintext, aad []byte) ([]byte, error) {
	out := make([]byte, 1+nonceLen, 1+nonceLen+len(plaintext)+aead.Overhead())
	out[0] = formatV1
	if _, err := rand.Read(out[1 : 1+nonceLen]); err != nil {
		return nil, fmt.Errorf("nonce: %w", err)
	}
	return aead.Seal(out, out[1:1+nonceLen], plaintext, bindAAD("seal/v1", orgID, aad)), nil
}

// bindAAD prefixes the caller's additional data with a purpose and the
// organization, length-delimited so no two inputs produce the same bytes.
func bindAAD(purpose, orgID string, aad []byte) []byte {
	b := make([]byte, 0, len(purpose)+len(orgID)+len(aad)+24)
	b = append(b, "agentsvc/"...)
	b = append(b, purpose...)
	b = append(b, 0)
	b = fmt.Appendf(b, "%d:", len(orgID))
	b = append(b, orgID...)
	return append(b, aad...)
}

func newAEAD(key []byte) (cipher.AEAD, error) {
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(block)
}

func wrap(m MasterKey, orgID string, dataKey []byte) ([]byte, error) {
	aead, err := newAEAD(m.key)
	if err != nil {
		return nil, err
	}
	return sealWith(aead, orgID, dataKey, []byte("data key under "+m.ID))
}

func unwrap(m MasterKey, orgID string, wrapped []byte) ([]byte, error) {
	aead, err := newAEAD(m.key)
	if err != nil {
		return nil, err
	}
	if len(wrapped) < 1+nonceLen+aead.Overhead() || wrapped[0] != formatV1 {
		return nil, ErrCorrupt
	}
	dk, err := aead.Open(nil, wrapped[1:1+nonceLen], wrapped[1+nonceLen:], bindAAD("seal/v1", orgID, []byte("data key under "+m.ID)))
	if err != nil {
		return nil, fmt.Errorf("data key of %s under %s: %w", orgID, m.ID, ErrCorrupt)
	}
	return dk, nil
}

// cachedOrStored returns the organization's data key from the cache or the
// database (committed rows only), or nil when it has none.
func (k *Keyring) cachedOrStored(ctx context.Context, orgID string) (cipher.AEAD, error) {
	k.mu.RLock()
	aead := k.data[orgID]
	k.mu.RUnlock()
	if aead != nil {
		return aead, nil
	}
	var masterID string
	var wrapped []byte
	err := k.db.QueryRowContext(ctx, `SELECT master_key_id, wrapped FROM org_data_keys WHERE org_id = $1`, orgID).Scan(&masterID, &wrapped)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read data key: %w", err)
	}
	aead, err = k.unwrapRow(orgID, masterID, wrapped)
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	k.data[orgID] = aead
	k.mu.Unlock()
	return aead, nil
}

// unwrapRow opens a stored data key, re-reading the key source once when the
// master key id is unknown: another process may have rotated the key file.
func (k *Keyring) unwrapRow(orgID, masterID string, wrapped []byte) (cipher.AEAD, error) {
	m, ok := k.master(masterID)
	if !ok {
		k.reloadMu.Lock()
		if m, ok = k.master(masterID); !ok {
			if err := k.Reload(); err != nil {
				k.reloadMu.Unlock()
				return nil, fmt.Errorf("re-read master keys: %w", err)
			}
			m, ok = k.master(masterID)
			if ok {
				k.log.Info("master keys re-read", "master_key_ids", k.MasterKeyIDs())
			}
		}
		k.reloadMu.Unlock()
		if !ok {
			return nil, fmt.Errorf("%w %s (organization %s); %s holds %v", ErrUnknownMasterKey, masterID, orgID, k.source(), k.MasterKeyIDs())
		}
	}
	dk, err := unwrap(m, orgID, wrapped)
	if err != nil {
		return nil, err
	}
	return newAEAD(dk)
}

// dataKey returns the organization's data key, creating it when missing:
// in tx when given (not cached until committed), else in its own transaction.
func (k *Keyring) dataKey(ctx context.Context, orgID string, tx *store.Tx) (cipher.AEAD, error) {
	aead, err := k.cachedOrStored(ctx, orgID)
	if err != nil || aead != nil {
		return aead, err
	}
	if tx != nil {
		return k.createDataKey(ctx, tx, orgID)
	}
	err = k.db.InTx(ctx, func(tx *store.Tx) error {
		aead, err = k.createDataKey(ctx, tx, orgID)
		return err
	})
	if err != nil {
		return nil, err
	}
	k.mu.Lock()
	if cached := k.data[orgID]; cached != nil {
		aead = cached
	} else {
		k.data[orgID] = aead
	}
	k.mu.Unlock()
	return aead, nil
}

// createDataKey makes and stores a data key, unless another node did first.
// It takes the rotation lock and re-reads the master keys inside it, so a
// key created while RotateMasterKey runs is wrapped under the new master key
// or is re-wrapped by the rotation: never left under a retired one.
func (k *Keyring) createDataKey(ctx context.Context, tx *store.Tx, orgID string) (cipher.AEAD, error) {
	if err := tx.Lock(ctx, lockKey); err != nil {
		return nil, fmt.Errorf("lock data keys: %w", err)
	}
	var masterID string
	var wrapped []byte
	err := tx.QueryRowContext(ctx, `SELECT master_key_id, wrapped FROM org_data_keys WHERE org_id = $1`, orgID).Scan(&masterID, &wrapped)
	if err == nil {
		return k.unwrapRow(orgID, masterID, wrapped)
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("read data key: %w", err)
	}
	if err := k.Reload(); err != nil {
		return nil, fmt.Errorf("re-read master keys: %w", err)
	}
	dk := make([]byte, KeySize)
	if _, err := rand.Read(dk); err != nil {
		return nil, fmt.Errorf("random data key: %w", err)
	}
	m := k.newest()
	w, err := wrap(m, orgID, dk)
	if err != nil {
		return nil, err
	}
	now := store.Micros(time.Now())
	if _, err := tx.ExecContext(ctx, `INSERT INTO org_data_keys (org_id, master_key_id, wrapped, created_at, rewrapped_at) VALUES ($1, $2, $3, $4, $4)`,
		orgID, m.ID, w, now); err != nil {
		return nil, fmt.Errorf("store data key: %w", err)
	}
	return newAEAD(dk)
}

// forget drops cached data keys (tests use it to force a database read).
func (k *Keyring) forget() {
	k.mu.Lock()
	k.data = map[string]cipher.AEAD{}
	k.mu.Unlock()
}
