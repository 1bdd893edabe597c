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

// TestHostilePDFAttachments mails PDFs that made the PDF library loop
// forever, recurse until the process died or allocate until it died (see
// internal/email/content/pdfguard.go). Ingest extracts attachment text for
// screening and GET /attachments/{id}/text extracts it again: both must
// answer quickly and the server must keep serving. Before the fix the text
// request took the whole 10 s timeout (leaving a goroutine looping) or the
// server process died.
func TestHostilePDFAttachments(t *testing.T) {
	files, err := filepath.Glob("../content/testdata/hostile/*.pdf")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("pdf-reader", auth.EmailRead)
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := filepath.Base(f)
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
			want := 422
			if name == "huge-count.pdf" { // readable once /Count is not trusted: one empty page
				want = 200
			}
			if r.Status != want {
				t.Errorf("%s: text status %d, want %d: %s", name, r.Status, want, r.Body)
			}
			if want == 422 && r.JSON()["error"].(map[string]any)["code"] != "unreadable_content" {
				t.Errorf("%s: %s", name, r.Body)
			}
			if took > 3*time.Second {
				t.Errorf("%s: text request took %s", name, took)
			}
		}
	})
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
