package inbound_test

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestHostilePDFAttachments mails PDFs that made the PDF library loop for
// ever (the audit's file: a /Pages node that lists itself) or allocate until
// the process died. Ingest extracts attachment text for screening and GET
// /attachments/{id}/text extracts it again: both must answer within their
// timeouts (2 s and 10 s) and the server must keep serving. Before, the text
// request left a goroutine looping, and the second file killed the server at
// ingest. The reader runs in a child process (content/pdfchild.go); the other
// hostile files are checked there. PDF reading does not touch the database,
// so this runs on SQLite only.
func TestHostilePDFAttachments(t *testing.T) {
	env := apptest.Start(t, 0)
	a := env.NewAgent("pdf-reader", auth.EmailRead)
	for _, name := range []string{"pages-node-lists-itself.pdf", "object-number-1500000000-in-xref-table.pdf"} {
		data, err := os.ReadFile(filepath.Join("../content/testdata/hostile", name))
		if err != nil {
			t.Fatal(err)
		}
		since := time.Now()
		mustSend(t, env, "scanner@office.example", []string{a.Address}, pdfMail(a.Address, name, data))
		sum := waitMessage(t, env, a, "office.example", since)
		var m struct {
			Attachments []struct{ ID, Filename string }
		}
		env.Must(200, env.Do("GET", "/api/v1/messages/"+sum["id"].(string), a.Token, nil)).Decode(t, &m)
		if len(m.Attachments) != 1 || m.Attachments[0].Filename != name {
			t.Fatalf("%s: attachments %+v", name, m.Attachments)
		}
		start := time.Now()
		r := env.Do("GET", "/api/v1/attachments/"+m.Attachments[0].ID+"/text", a.Token, nil)
		took := time.Since(start)
		if r.Status != 422 || r.JSON()["error"].(map[string]any)["code"] != "unreadable_content" {
			t.Errorf("%s: text %d %s, want 422 unreadable_content", name, r.Status, r.Body)
		}
		if took > 12*time.Second {
			t.Errorf("%s: text request took %s", name, took)
		}
		// Still serving.
		env.Must(200, env.Do("GET", "/api/v1/inboxes/"+a.InboxID+"/messages", a.Token, nil))
	}
}

func pdfMail(to, filename string, pdf []byte) string {
	return fmt.Sprintf(`From: Scanner <scanner@office.example>
To: %s
Subject: Scanned document %s
Date: %s
Message-ID: <%d@office.example>
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary="b"

--b
Content-Type: text/plain; charset=utf-8

The scan is attached.

--b
Content-Type: application/pdf
Content-Disposition: attachment; filename="%s"
Content-Transfer-Encoding: base64

%s
--b--
`, to, filename, time.Now().Format(time.RFC1123Z), time.Now().UnixNano(), filename, wrap76(base64.StdEncoding.EncodeToString(pdf)))
}

func wrap76(s string) string {
	var b strings.Builder
	for len(s) > 76 {
		b.WriteString(s[:76] + "\n")
		s = s[76:]
	}
	b.WriteString(s)
	return b.String()
}
