package seal

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// KeySize is the size of master keys and data keys: AES-256.
const KeySize = 32

// MasterKey is one key of the master keyring. It never enters the database;
// only its ID does, next to the data keys it wrapped.
type MasterKey struct {
	ID  string
	key []byte
}

// NewMasterKey makes a fresh random master key.
func NewMasterKey() (MasterKey, error) {
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		return MasterKey{}, fmt.Errorf("random master key: %w", err)
	}
	return MasterKey{ID: keyID(k), key: k}, nil
}

// MasterKeyFromBase64 decodes a 32-byte key given in standard or URL-safe
// base64, with or without padding.
func MasterKeyFromBase64(s string) (MasterKey, error) {
	s = strings.TrimSpace(s)
	var raw []byte
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if raw, err = enc.DecodeString(s); err == nil {
			break
		}
	}
	if err != nil {
		return MasterKey{}, errors.New("master key is not base64")
	}
	if len(raw) != KeySize {
		return MasterKey{}, fmt.Errorf("master key must be %d bytes, not %d", KeySize, len(raw))
	}
	return MasterKey{ID: keyID(raw), key: raw}, nil
}

// Base64 is the key in standard base64, as the key file and
// AGENTSVC_MASTER_KEY hold it.
func (m MasterKey) Base64() string { return base64.StdEncoding.EncodeToString(m.key) }

// keyID derives the id from the key, so the same key has the same id whether
// it comes from a file or the environment, and a file whose id and key
// disagree is caught as corrupt. A truncated SHA-256 of a random 256-bit key
// reveals nothing usable about it.
func keyID(k []byte) string {
	h := sha256.Sum256(append([]byte("agentsvc/seal master key id\x00"), k...))
	return "mk_" + hex.EncodeToString(h[:8])
}

// ParseMasterKeys reads the AGENTSVC_MASTER_KEY form: base64 keys separated
// by commas, newest first.
func ParseMasterKeys(value string) ([]MasterKey, error) {
	var out []MasterKey
	for i, part := range strings.Split(value, ",") {
		if strings.TrimSpace(part) == "" {
			continue
		}
		k, err := MasterKeyFromBase64(part)
		if err != nil {
			return nil, fmt.Errorf("master key %d: %w", i+1, err)
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, errors.New("no master key given")
	}
	return out, nil
}

// ReadKeyFile reads a master key file: one key per line as "<id> <base64>",
// newest first; blank lines and lines starting with # are ignored.
func ReadKeyFile(path string) ([]MasterKey, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("master key file: %w", err)
	}
	return parseKeyFile(path, raw)
}

func parseKeyFile(path string, raw []byte) ([]MasterKey, error) {
	var out []MasterKey
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want \"<id> <base64 key>\"", path, n)
		}
		k, err := MasterKeyFromBase64(fields[1])
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if k.ID != fields[0] {
			return nil, fmt.Errorf("%s:%d: id %s does not match its key (expected %s); the file is damaged", path, n, fields[0], k.ID)
		}
		out = append(out, k)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: holds no master key", path)
	}
	return out, nil
}

// WriteKeyFile replaces the key file atomically (a temporary file in the
// same directory, synced, then renamed) with mode 0600, so a crash never
// leaves a half-written keyring behind.
func WriteKeyFile(path string, keys []MasterKey) error {
	if len(keys) == 0 {
		return errors.New("refusing to write an empty master key file")
	}
	var b strings.Builder
	b.WriteString("# agentsvc master keys, newest first: <id> <base64 32-byte key>.\n")
	b.WriteString("# Keep this file secret and backed up: without it nothing sealed in the database can be read.\n")
	for _, k := range keys {
		b.WriteString(k.ID + " " + k.Base64() + "\n")
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("master key directory: %w", err)
	}
	f, err := os.CreateTemp(dir, ".master.key-*")
	if err != nil {
		return fmt.Errorf("master key file: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after the rename
	if err := f.Chmod(0o600); err != nil {
		f.Close()
		return fmt.Errorf("master key file: %w", err)
	}
	if _, err := f.WriteString(b.String()); err != nil {
		f.Close()
		return fmt.Errorf("master key file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("master key file: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("master key file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("master key file: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync() // make the rename durable where the platform allows
		d.Close()
	}
	return nil
}
