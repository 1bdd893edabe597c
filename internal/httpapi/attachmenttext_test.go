package httpapi_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// mailWithAttachment builds a message carrying one base64 attachment.
func mailWithAttachment(from, to, subject, contentType, filename string, data []byte) string {
	enc := base64.StdEncoding.EncodeToString(data)
	var lines strings.Builder
	for len(enc) > 76 {
		lines.WriteString(enc[:76] + "\r\n")
		enc = enc[76:]
	}
	lines.WriteString(enc + "\r\n")
	return strings.ReplaceAll(fmt.Sprintf("From: %s\nTo: %s\nSubject: %s\nDate: %s\nMessage-ID: <%d@att.test>\n"+
		"MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/plain\n\nsee attached\n"+
		"--b\nContent-Type: %s\nContent-Disposition: attachment; filename=%s\nContent-Transfer-Encoding: base64\n\n",
		from, to, subject, time.Now().Format(time.RFC1123Z), time.Now().UnixNano(), contentType, filename), "\n", "\r\n") +
		lines.String() + "--b--\r\n"
}

// TestAttachmentTextErrors checks the error answers of GET
// /api/v1/attachments/{id}/text that the READMEs and the OpenAPI document
// describe: 415 unsupported_media_type, 413 payload_too_large and 422
// unreadable_content, each declared on the operation.
func TestAttachmentTextErrors(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		var doc struct {
			Paths map[string]map[string]struct {
				Responses map[string]json.RawMessage `json:"responses"`
			} `json:"paths"`
		}
		env.Must(200, env.Do("GET", "/api/v1/openapi.json", "", nil)).Decode(t, &doc)
		declared := doc.Paths["/api/v1/attachments/{id}/text"]["get"].Responses

		a := env.NewAgent("textreader", auth.EmailRead)
		cases := []struct {
			contentType, filename string
			data                  []byte
			status                int
			code                  string
		}{
			{"image/png", "logo.png", []byte("\x89PNG\r\n\x1a\nnot really"), 415, "unsupported_media_type"},
			{"application/pdf", "broken.pdf", []byte("%PDF-1.4\nthis is not a PDF body at all\n"), 422, "unreadable_content"},
			{"text/csv", "big.csv", bytes.Repeat([]byte("a,b,c,d,e,f,g,h\n"), (10<<20)/16+1), 413, "payload_too_large"},
		}
		for i, c := range cases {
			raw := mailWithAttachment("files@att.example", a.Address, "file "+c.filename, c.contentType, c.filename, c.data)
			if err := apptest.SendMail(env.SMTPAddr(), "files@att.example", []string{a.Address}, raw); err != nil {
				t.Fatal(err)
			}
			msg := storedMessages(t, env, a, i+1)[0]
			atts := msg["attachments"].([]any)
			if len(atts) != 1 {
				t.Fatalf("%s: attachments %v", c.filename, atts)
			}
			r := env.Do("GET", "/api/v1/attachments/"+atts[0].(map[string]any)["id"].(string)+"/text", a.Token, nil)
			if r.Status != c.status || r.ErrorCode() != c.code {
				t.Errorf("%s: %d %s, want %d %s", c.filename, r.Status, r.Body, c.status, c.code)
			}
			if _, ok := declared[strconv.Itoa(r.Status)]; !ok {
				t.Errorf("%s: answered %d, which the OpenAPI document does not declare", c.filename, r.Status)
			}
		}
	})
}

// TestAttachmentTextTruncated: text over the 1 MB output limit is cut at a
// character boundary and says so in the Text-Truncated header; a text that
// fits carries no such header.
func TestAttachmentTextTruncated(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("longtext", auth.EmailRead)
		long := bytes.Repeat([]byte("é line of text\n"), (2<<20)/16) // 2 MB, two-byte characters throughout
		files := []struct {
			name      string
			data      []byte
			truncated bool
		}{
			{"long.txt", long, true},
			{"short.txt", []byte("all of it\n"), false},
		}
		for i, f := range files {
			raw := mailWithAttachment("files@att.example", a.Address, "file "+f.name, "text/plain; charset=utf-8", f.name, f.data)
			if err := apptest.SendMail(env.SMTPAddr(), "files@att.example", []string{a.Address}, raw); err != nil {
				t.Fatal(err)
			}
			msg := storedMessages(t, env, a, i+1)[0]
			id := msg["attachments"].([]any)[0].(map[string]any)["id"].(string)
			r := env.Must(200, env.Do("GET", "/api/v1/attachments/"+id+"/text", a.Token, nil))
			if got := r.Header.Get("Text-Truncated") == "true"; got != f.truncated {
				t.Errorf("%s: Text-Truncated %q, want truncated=%v", f.name, r.Header.Get("Text-Truncated"), f.truncated)
			}
			if f.truncated {
				if len(r.Body) > 1<<20 || len(r.Body) < 1<<20-4 || !utf8.Valid(r.Body) {
					t.Errorf("%s: %d bytes (valid UTF-8: %v), want just under 1 MiB of whole characters", f.name, len(r.Body), utf8.Valid(r.Body))
				}
			} else if string(r.Body) != string(f.data) {
				t.Errorf("%s: body %q", f.name, r.Body)
			}
		}
	})
}
