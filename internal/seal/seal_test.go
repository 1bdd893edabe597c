package seal

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

func newOrg(t *testing.T, db *store.DB, id string) {
	t.Helper()
	_, err := db.ExecContext(context.Background(), `INSERT INTO organizations (id, name, plan, mail_domain, created_at) VALUES ($1, $1, 'paid', 'x.test', $2)`,
		id, store.Micros(time.Now()))
	if err != nil {
		t.Fatal(err)
	}
}

func newKeyring(t *testing.T, db *store.DB, file string) *Keyring {
	t.Helper()
	k, err := New(context.Background(), db, Config{File: file, Create: true})
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustSeal(t *testing.T, k *Keyring, org, plain, aad string) []byte {
	t.Helper()
	c, err := k.Seal(context.Background(), org, []byte(plain), []byte(aad))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustOpen(t *testing.T, k *Keyring, org string, sealed []byte, aad, want string) {
	t.Helper()
	got, err := k.Open(context.Background(), org, sealed, []byte(aad))
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	if string(got) != want {
		t.Fatalf("opened %q, want %q", got, want)
	}
}

func TestSealOpenBindsOrgAndRecord(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		newOrg(t, db, "org_a")
		newOrg(t, db, "org_b")
		file := filepath.Join(t.TempDir(), "master.key")
		k := newKeyring(t, db, file)
		st, err := os.Stat(file)
		if err != nil {
			t.Fatal(err)
		}
		if st.Mode().Perm() != 0o600 {
			t.Fatalf("key file mode %v, want 0600", st.Mode().Perm())
		}
		a := mustSeal(t, k, "org_a", "hunter2", "cred_1|value")
		if bytes.Contains(a, []byte("hunter2")) {
			t.Fatal("ciphertext contains the plaintext")
		}
		mustOpen(t, k, "org_a", a, "cred_1|value", "hunter2")
		b := mustSeal(t, k, "org_b", "hunter2", "cred_1|value")

		tampered := bytes.Clone(a)
		tampered[len(tampered)-1] ^= 1
		for _, c := range []struct {
			name, org, aad string
			sealed         []byte
		}{
			{"other record", "org_a", "cred_2|value", a},
			{"other field", "org_a", "cred_1|totp", a},
			{"other organization", "org_b", "cred_1|value", a},
			{"org b's ciphertext under org a", "org_a", "cred_1|value", b},
			{"tampered", "org_a", "cred_1|value", tampered},
			{"truncated", "org_a", "cred_1|value", a[:10]},
		} {
			t.Run(c.name, func(t *testing.T) {
				if _, err := k.Open(ctx, c.org, c.sealed, []byte(c.aad)); !errors.Is(err, ErrCorrupt) {
					t.Fatalf("err = %v, want ErrCorrupt", err)
				}
			})
		}
		if _, err := k.Open(ctx, "org_none", a, nil); !errors.Is(err, ErrNoDataKey) {
			t.Fatalf("err = %v, want ErrNoDataKey", err)
		}

		// A second keyring on the same database and key file (another node)
		// reads the stored data key.
		k2 := newKeyring(t, db, file)
		mustOpen(t, k2, "org_a", a, "cred_1|value", "hunter2")

		// The stored data key is wrapped, not in the clear: a keyring with
		// another master key refuses to start.
		if _, err := New(ctx, db, Config{File: filepath.Join(t.TempDir(), "other.key"), Create: true}); !errors.Is(err, ErrUnknownMasterKey) {
			t.Fatalf("other master key: err = %v, want ErrUnknownMasterKey", err)
		}
	})
}

func TestSealTxRollbackDoesNotCacheKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		newOrg(t, db, "org_a")
		k := newKeyring(t, db, filepath.Join(t.TempDir(), "master.key"))
		rollback := errors.New("rollback")
		err := db.InTx(ctx, func(tx *store.Tx) error {
			if _, err := k.SealTx(ctx, tx, "org_a", []byte("x"), nil); err != nil {
				return err
			}
			return rollback
		})
		if !errors.Is(err, rollback) {
			t.Fatal(err)
		}
		var sealed []byte
		err = db.InTx(ctx, func(tx *store.Tx) error {
			var err error
			sealed, err = k.SealTx(ctx, tx, "org_a", []byte("kept"), []byte("r"))
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		// A fresh keyring sees only committed keys: it must open this.
		k2 := newKeyring(t, db, k.cfg.File)
		mustOpen(t, k2, "org_a", sealed, "r", "kept")
		mustOpen(t, k, "org_a", sealed, "r", "kept")
	})
}

func TestRotateMasterKeyKeepsEverythingReadable(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		file := filepath.Join(t.TempDir(), "master.key")
		k := newKeyring(t, db, file)
		oldID := k.MasterKeyIDs()[0]
		sealed := map[string][]byte{}
		for _, org := range []string{"org_a", "org_b", "org_c"} {
			newOrg(t, db, org)
			sealed[org] = mustSeal(t, k, org, "secret of "+org, "rec")
		}
		cold := newKeyring(t, db, file) // started before the rotation, nothing cached

		r, err := RotateMasterKey(ctx, db, file)
		if err != nil {
			t.Fatal(err)
		}
		if r.Rewrapped != 3 || len(r.RetiredIDs) != 1 || r.RetiredIDs[0] != oldID || r.NewKeyID == oldID {
			t.Fatalf("rotation = %+v", r)
		}
		keys, err := ReadKeyFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(keys) != 1 || keys[0].ID != r.NewKeyID {
			t.Fatalf("key file holds %v, want only %s", keys, r.NewKeyID)
		}
		var stale int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM org_data_keys WHERE master_key_id <> $1`, r.NewKeyID).Scan(&stale); err != nil {
			t.Fatal(err)
		}
		if stale != 0 {
			t.Fatalf("%d data keys still under the old master key", stale)
		}

		for org, c := range sealed {
			mustOpen(t, k, org, c, "rec", "secret of "+org) // cached data keys
			// a running node that knew only the old key re-reads the file
			mustOpen(t, cold, org, c, "rec", "secret of "+org)
			if got := cold.MasterKeyIDs(); len(got) != 1 || got[0] != r.NewKeyID {
				t.Fatalf("cold keyring did not re-read the key file: %v", got)
			}
		}
		k.forget()
		// a new organization's key on the node that cached the old keyring is
		// wrapped under the new key (it re-reads inside the lock)
		newOrg(t, db, "org_d")
		d := mustSeal(t, k, "org_d", "new", "rec")
		fresh := newKeyring(t, db, file)
		mustOpen(t, fresh, "org_d", d, "rec", "new")
		for org, c := range sealed {
			mustOpen(t, fresh, org, c, "rec", "secret of "+org)
		}
	})
}

func TestMasterKeySources(t *testing.T) {
	mk, err := NewMasterKey()
	if err != nil {
		t.Fatal(err)
	}
	mk2, _ := NewMasterKey()
	keys, err := ParseMasterKeys(mk.Base64() + ", " + mk2.Base64())
	if err != nil || len(keys) != 2 || keys[0].ID != mk.ID || keys[1].ID != mk2.ID {
		t.Fatalf("ParseMasterKeys = %v, %v", keys, err)
	}
	for _, bad := range []string{"", "not base64!", "c2hvcnQ="} {
		if _, err := ParseMasterKeys(bad); err == nil {
			t.Errorf("ParseMasterKeys(%q) accepted", bad)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "k")
	if err := WriteKeyFile(path, []MasterKey{mk, mk2}); err != nil {
		t.Fatal(err)
	}
	got, err := ReadKeyFile(path)
	if err != nil || len(got) != 2 || got[0].ID != mk.ID {
		t.Fatalf("ReadKeyFile = %v, %v", got, err)
	}
	raw, _ := os.ReadFile(path)
	damaged := strings.Replace(string(raw), mk.ID, "mk_0000000000000000", 1)
	if _, err := parseKeyFile(path, []byte(damaged)); err == nil || !strings.Contains(err.Error(), "does not match") {
		t.Fatalf("damaged id accepted: %v", err)
	}
}

func TestEnvironmentKey(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		mk, _ := NewMasterKey()
		newOrg(t, db, "org_a")
		k, err := New(context.Background(), db, Config{Value: mk.Base64()})
		if err != nil {
			t.Fatal(err)
		}
		c := mustSeal(t, k, "org_a", "v", "r")
		// the same key written to a file has the same id, so a file-based node
		// reads what an env-based one wrote
		path := filepath.Join(t.TempDir(), "k")
		if err := WriteKeyFile(path, []MasterKey{mk}); err != nil {
			t.Fatal(err)
		}
		mustOpen(t, newKeyring(t, db, path), "org_a", c, "r", "v")

		// env rotation: "new,old", re-wrap, then "new" alone
		mk2, _ := NewMasterKey()
		if n, err := RewrapAll(context.Background(), db, []MasterKey{mk2, mk}); err != nil || n != 1 {
			t.Fatalf("RewrapAll = %d, %v", n, err)
		}
		k2, err := New(context.Background(), db, Config{Value: mk2.Base64()})
		if err != nil {
			t.Fatal(err)
		}
		mustOpen(t, k2, "org_a", c, "r", "v")
	})
}
