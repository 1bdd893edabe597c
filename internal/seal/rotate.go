package seal

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/agentsvc/agentsvc/internal/store"
)

// Rotation reports what RotateMasterKey did.
type Rotation struct {
	NewKeyID   string   `json:"new_master_key_id"`
	RetiredIDs []string `json:"retired_master_key_ids"`
	Rewrapped  int      `json:"rewrapped_data_keys"`
}

// RotateMasterKey replaces the master key in keyFile without downtime:
//
//  1. generate a new key and write the file as [new, old…] (atomically), so
//     from now on every node that re-reads it knows both;
//  2. re-wrap every data key under the new key, in batches, each batch in a
//     transaction holding the data-key lock that key creation also takes;
//  3. write the file as [new] alone;
//  4. re-wrap once more anything still under a retired key (a node that
//     created a data key from a stale keyring), with the old keys still in
//     memory here.
//
// Running servers keep their cached data keys (which do not change) and
// re-read the file when they meet a data key under a master key id they do
// not know. The sealed secrets themselves are never touched. When the file
// does not exist and the database holds no data keys, the file is created.
//
// With several nodes, every node must read the same file (a shared secret
// mount); for AGENTSVC_MASTER_KEY see RewrapAll.
func RotateMasterKey(ctx context.Context, db *store.DB, keyFile string) (Rotation, error) {
	old, err := ReadKeyFile(keyFile)
	if errors.Is(err, os.ErrNotExist) {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM org_data_keys`).Scan(&n); err != nil {
			return Rotation{}, fmt.Errorf("count data keys: %w", err)
		}
		if n > 0 {
			return Rotation{}, fmt.Errorf("%s does not exist but the database holds %d data keys: restore the key file first", keyFile, n)
		}
		old = nil
	} else if err != nil {
		return Rotation{}, err
	}
	fresh, err := NewMasterKey()
	if err != nil {
		return Rotation{}, err
	}
	all := append([]MasterKey{fresh}, old...)
	if err := WriteKeyFile(keyFile, all); err != nil {
		return Rotation{}, err
	}
	n, err := RewrapAll(ctx, db, all)
	if err != nil {
		return Rotation{}, fmt.Errorf("re-wrap (the key file keeps both keys; run the rotation again): %w", err)
	}
	if err := WriteKeyFile(keyFile, []MasterKey{fresh}); err != nil {
		return Rotation{}, err
	}
	m, err := RewrapAll(ctx, db, all)
	if err != nil {
		return Rotation{}, fmt.Errorf("final re-wrap: %w", err)
	}
	r := Rotation{NewKeyID: fresh.ID, Rewrapped: n + m, RetiredIDs: []string{}}
	for _, k := range old {
		r.RetiredIDs = append(r.RetiredIDs, k.ID)
	}
	return r, nil
}

// RewrapAll re-wraps every data key that is not under keys[0] (the newest)
// with keys[0], unwrapping with whichever of keys wrapped it. It returns how
// many it re-wrapped. Use it directly when master keys come from
// AGENTSVC_MASTER_KEY: set "new,old" on every node, run RewrapAll, then set
// "new" alone.
func RewrapAll(ctx context.Context, db *store.DB, keys []MasterKey) (int, error) {
	if len(keys) == 0 {
		return 0, errors.New("no master keys")
	}
	byID := map[string]MasterKey{}
	for _, k := range keys {
		byID[k.ID] = k
	}
	target := keys[0]
	total := 0
	for {
		n := 0
		err := db.InTx(ctx, func(tx *store.Tx) error {
			n = 0
			if err := tx.Lock(ctx, lockKey); err != nil {
				return fmt.Errorf("lock data keys: %w", err)
			}
			rows, err := tx.QueryContext(ctx, `SELECT org_id, master_key_id, wrapped FROM org_data_keys WHERE master_key_id <> $1 ORDER BY org_id LIMIT 200`, target.ID)
			if err != nil {
				return fmt.Errorf("read data keys: %w", err)
			}
			type row struct {
				org, master string
				wrapped     []byte
			}
			var batch []row
			for rows.Next() {
				var r row
				if err := rows.Scan(&r.org, &r.master, &r.wrapped); err != nil {
					rows.Close()
					return err
				}
				batch = append(batch, r)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			now := store.Micros(time.Now())
			for _, r := range batch {
				m, ok := byID[r.master]
				if !ok {
					return fmt.Errorf("data key of %s: %w %s", r.org, ErrUnknownMasterKey, r.master)
				}
				dk, err := unwrap(m, r.org, r.wrapped)
				if err != nil {
					return err
				}
				w, err := wrap(target, r.org, dk)
				if err != nil {
					return err
				}
				if _, err := tx.ExecContext(ctx, `UPDATE org_data_keys SET master_key_id = $1, wrapped = $2, rewrapped_at = $3 WHERE org_id = $4 AND master_key_id = $5`,
					target.ID, w, now, r.org, r.master); err != nil {
					return fmt.Errorf("re-wrap data key of %s: %w", r.org, err)
				}
			}
			n = len(batch)
			return nil
		})
		if err != nil {
			return total, err
		}
		total += n
		if n == 0 {
			return total, nil
		}
	}
}
