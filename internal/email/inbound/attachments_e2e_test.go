package inbound_test

import (
	"archive/zip"
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestExecutablesBehindNamesQuarantined sends, over SMTP, executables that
// a check of the last extension alone lets through: a ZIP inside a ZIP
// holding setup.scr, a trailing dot, an NTFS alternate-stream suffix, and
// PE / ELF bytes called invoice.pdf or without an extension. Each is held
// in quarantine as dangerous_attachment; a real PDF and a ZIP of text stay
// clean.
func TestExecutablesBehindNamesQuarantined(t *testing.T) {
	pe := make([]byte, 0x200)
	copy(pe, "MZ\x90\x00\x03")
	binary.LittleEndian.PutUint32(pe[0x3c:], 0x80)
	copy(pe[0x80:], "PE\x00\x00\x4c\x01")
	elf := append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 120)...)
	zipOf := func(name string, data []byte) []byte {
		var buf bytes.Buffer
		zw := zip.NewWriter(&buf)
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
		if err := zw.Close(); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	nested := zipOf("inner.zip", zipOf("setup.scr", pe))

	cases := []struct {
		subject, filename, ctype string
		data                     []byte
		blocked                  bool
	}{
		{"zip in zip", "docs2.zip", "application/zip", nested, true},
		{"trailing dot", "setup.exe.", "application/octet-stream", pe, true},
		{"alternate stream", "setup.exe::$DATA", "application/octet-stream", pe, true},
		{"pe named pdf", "invoice.pdf", "application/pdf", pe, true},
		{"elf without extension", "document", "application/octet-stream", elf, true},
		{"real pdf", "invoice.pdf", "application/pdf", []byte("%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"), false},
		{"zip of text", "notes.zip", "application/zip", zipOf("inner.zip", zipOf("notes.txt", []byte("hello"))), false},
	}
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("exeguard", auth.EmailRead, auth.EmailSend)
		for _, c := range cases {
			raw := fmt.Sprintf("From: vendor@supplier.example\nTo: %s\nSubject: %s\nMIME-Version: 1.0\n"+
				"Content-Type: multipart/mixed; boundary=bb\n\n--bb\nContent-Type: text/plain\n\nsee attached\n"+
				"--bb\nContent-Type: %s\nContent-Disposition: attachment; filename=%q\nContent-Transfer-Encoding: base64\n\n%s\n--bb--\n",
				a.Address, c.subject, c.ctype, c.filename, base64.StdEncoding.EncodeToString(c.data))
			mustSend(t, env, "vendor@supplier.example", []string{a.Address}, raw)
		}
		by := storedBySubject(t, env, a, len(cases))
		for _, c := range cases {
			m := by[c.subject]
			if m == nil {
				t.Errorf("%s: not stored", c.subject)
				continue
			}
			s := m["screening"].(map[string]any)
			reasons := fmt.Sprint(s["reasons"])
			if !c.blocked {
				if strings.Contains(reasons, "dangerous_attachment") || m["quarantined"] == true {
					t.Errorf("%s (%s): flagged %v", c.subject, c.filename, s)
				}
				continue
			}
			if s["verdict"] != "blocked" || !strings.Contains(reasons, "dangerous_attachment") || m["quarantined"] != true {
				t.Errorf("%s (%s): %v, quarantined %v; want blocked with dangerous_attachment", c.subject, c.filename, s, m["quarantined"])
				continue
			}
			// Held: in the quarantine folder, its attachment not served.
			th := env.Must(200, env.Do("GET", "/api/v1/threads/"+m["thread_id"].(string), a.Token, nil)).JSON()
			if th["folder"] != "quarantine" {
				t.Errorf("%s: thread folder %v, want quarantine", c.subject, th["folder"])
			}
			msg := env.Must(200, env.Do("GET", "/api/v1/messages/"+m["id"].(string), a.Token, nil)).JSON()
			atts, _ := msg["attachments"].([]any)
			if len(atts) != 1 {
				t.Errorf("%s: attachments %v", c.subject, msg["attachments"])
				continue
			}
			if r := env.Do("GET", "/api/v1/attachments/"+atts[0].(map[string]any)["id"].(string), a.Token, nil); r.Status != 409 {
				t.Errorf("%s: held attachment served: %d", c.subject, r.Status)
			}
		}
	})
}
