package httpapi_test

import (
	"context"
	"fmt"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/store"
)

// stored names the resources of one message made for the auth matrix.
type stored struct{ msg, thread, att string }

const matrixMail = "From: sender@matrix.example\r\nTo: %s\r\nSubject: matrix %d\r\nMessage-ID: <m%d@matrix.example>\r\n" +
	"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\nhello\r\n" +
	"--b\r\nContent-Type: text/csv\r\nContent-Disposition: attachment; filename=a.csv\r\n\r\nx,y\r\n1,2\r\n--b--\r\n"

// mail stores a message with a CSV attachment in a's inbox, as the inbound
// pipeline would, optionally held in quarantine or moved to folder.
func (f *fixture) mail(a apptest.Agent, quarantined bool, folder string) stored {
	f.n++
	ctx := context.Background()
	raw := []byte(fmt.Sprintf(matrixMail, a.Address, f.n, time.Now().UnixNano()))
	blob := fmt.Sprintf("matrix/%d-%d.eml", time.Now().UnixNano(), f.n)
	if err := f.env.App.Mailbox.Blobs().Write(blob, raw); err != nil {
		f.env.T.Fatal(err)
	}
	p, err := content.Parse(raw)
	if err != nil {
		f.env.T.Fatal(err)
	}
	var orgID string
	if err := f.env.App.DB.QueryRowContext(ctx, `SELECT org_id FROM inboxes WHERE id = $1`, a.InboxID).Scan(&orgID); err != nil {
		f.env.T.Fatal(err)
	}
	verdict := "clean"
	if quarantined {
		verdict = "blocked"
	}
	var s stored
	err = f.env.App.DB.InTx(ctx, func(tx *store.Tx) error {
		st, err := mailbox.InsertMessage(ctx, tx, mailbox.NewMessage{OrgID: orgID, InboxID: a.InboxID, InboxAddress: a.Address,
			Direction: mailbox.Inbound, Parsed: p, Screening: mailbox.Screening{Verdict: verdict, Reasons: []string{}},
			Quarantined: quarantined, Size: int64(len(raw)), BlobPath: blob})
		if err != nil {
			return err
		}
		s = stored{msg: st.Message.ID, thread: st.Message.ThreadID, att: st.Message.Attachments[0].ID}
		if folder != "" {
			_, err = tx.ExecContext(ctx, `UPDATE threads SET folder = $2 WHERE id = $1`, s.thread, folder)
		}
		return err
	})
	if err != nil {
		f.env.T.Fatal(err)
	}
	return s
}

// rule makes a sender rule in a's inbox through the API.
func (f *fixture) rule(a apptest.Agent) string {
	r := f.env.Must(201, f.env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/sender-rules", a.Token,
		map[string]any{"kind": "block", "pattern": "@" + f.unique("blocked") + ".example"}))
	return r.JSON()["id"].(string)
}

func inboxRoute(suffix string, body string) func(*fixture) target {
	return func(f *fixture) target {
		return target{path: "/api/v1/inboxes/" + f.agent.InboxID + suffix, body: body, foreignPath: "/api/v1/inboxes/" + f.other.InboxID + suffix}
	}
}
