package mailbox_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/store/storetest"
)

// Blobs written in a transaction exist only if it commits; reads and
// removals take either kind of path.
func TestBlobsInTheDatabase(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		b := mailbox.Blobs{Dir: t.TempDir(), DB: db}
		data := []byte("From: a@example.test\r\n\r\nHello.\r\n")
		abort := errors.New("abort")
		var lost string
		err := db.InTx(ctx, func(tx *store.Tx) error {
			var err error
			if lost, err = b.WriteTx(ctx, tx, "outbound/lost.eml", data); err != nil {
				return err
			}
			return abort
		})
		if !errors.Is(err, abort) {
			t.Fatal(err)
		}
		if _, err := b.ReadContext(ctx, lost); err == nil {
			t.Error("a blob of a rolled-back transaction is readable")
		}
		var kept string
		if err := db.InTx(ctx, func(tx *store.Tx) error {
			var err error
			kept, err = b.WriteTx(ctx, tx, "outbound/kept.eml", data)
			return err
		}); err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(kept, mailbox.DBPrefix) {
			t.Errorf("path %q lacks %q", kept, mailbox.DBPrefix)
		}
		if err := b.Write("inbound/file.eml", data); err != nil {
			t.Fatal(err)
		}
		for _, p := range []string{kept, "inbound/file.eml"} {
			got, err := b.ReadContext(ctx, p)
			if err != nil || !bytes.Equal(got, data) {
				t.Errorf("ReadContext(%s) = %q, %v", p, got, err)
			}
			if err := b.RemoveContext(ctx, p); err != nil {
				t.Errorf("RemoveContext(%s): %v", p, err)
			}
			if _, err := b.ReadContext(ctx, p); err == nil {
				t.Errorf("%s readable after removal", p)
			}
			if err := b.RemoveContext(ctx, p); err != nil {
				t.Errorf("removing %s twice: %v", p, err)
			}
		}
	})
}
