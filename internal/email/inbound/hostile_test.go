package inbound_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// TestHostileBytesStored sends mail with NUL bytes and bytes that are not
// UTF-8 in the body, the headers and the envelope. Each got 250, so each must
// be stored and readable, on SQLite and on PostgreSQL (whose text columns
// refuse NUL and invalid UTF-8).
func TestHostileBytesStored(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("hostile", auth.EmailRead)
		hdr := "From: a@example.com\r\nTo: " + a.Address + "\r\n"
		cases := []struct{ name, helo, from, raw string }{
			{"NUL in text", "client.test", "a@example.com", hdr + "Subject: nul text\r\n\r\nbody with \x00 nul \x00 bytes\r\n"},
			{"NUL in HTML", "client.test", "a@example.com", hdr + "Subject: nul html\r\nContent-Type: text/html\r\n\r\n<p>a\x00b</p>\r\n"},
			{"NUL in headers", "client.test", "a@example.com", "From: \"N\x00me\" <a@example.com>\r\nTo: \"B\x00b\" <" + a.Address + ">\r\n" +
				"Subject: nul headers\r\nMessage-ID: <x\x00y@example.com>\r\nIn-Reply-To: <p\x00q@example.com>\r\nReferences: <r\x00s@example.com>\r\n" +
				"MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=bb\r\n\r\n--bb\r\nContent-Type: text/plain\r\n\r\nhi\r\n" +
				"--bb\r\nContent-Type: text/plain; name=\"f\x00.txt\"\r\nContent-Disposition: attachment; filename=\"f\x00.txt\"\r\nContent-ID: <c\x00id@x>\r\n\r\ndata\x00\r\n--bb--\r\n"},
			{"bad UTF-8 in headers", "client.test", "a@example.com", "From: J\xf6rg <a@example.com>\r\nTo: " + a.Address + "\r\nSubject: latin1 \xdcberraschung\r\n" +
				"Message-ID: <\xff@example.com>\r\n\r\nbody \xff\xfe\r\n"},
			{"bad bytes in HELO", "cl\xffient\x00.test", "a@example.com", hdr + "Subject: helo bytes\r\n\r\nhello\r\n"},
			{"bad bytes in MAIL FROM", "client.test", "b\xff\x00@example.com", hdr + "Subject: mail from bytes\r\n\r\nhello\r\n"},
		}
		for _, c := range cases {
			if err := sendRaw(env.SMTPAddr(), c.helo, c.from, a.Address, c.raw); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		data := waitStored(t, env, a, len(cases))
		for _, m := range data {
			id := m.(map[string]any)["id"].(string)
			r := env.Do("GET", "/api/v1/messages/"+id, a.Token, nil)
			if r.Status != 200 {
				t.Errorf("GET %s: %d %s", id, r.Status, r.Body)
				continue
			}
			if strings.ContainsRune(string(r.Body), 0) || strings.Contains(string(r.Body), `\u0000`) {
				t.Errorf("message %s shows a NUL: %s", id, r.Body)
			}
		}
	})
}

// sendRaw sends raw (CRLF line endings) with the given HELO name and
// envelope sender.
func sendRaw(addr, helo, from, to, raw string) error {
	return apptest.SendMailsAs(addr, helo, from, []string{to}, []string{raw})
}

// TestAttachmentsInMailOrder checks that attachments are listed in the order
// of the mail's parts (twelve, so that part 10 must follow part 9).
func TestAttachmentsInMailOrder(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("order", auth.EmailRead)
		var b strings.Builder
		b.WriteString("From: a@example.com\r\nTo: " + a.Address + "\r\nSubject: twelve files\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/mixed; boundary=bb\r\n\r\n--bb\r\nContent-Type: text/plain\r\n\r\nsee the files\r\n")
		var want []string
		for i := 1; i <= 12; i++ {
			name := fmt.Sprintf("%d.txt", i)
			want = append(want, name)
			b.WriteString("--bb\r\nContent-Type: text/plain\r\nContent-Disposition: attachment; filename=" + name + "\r\n\r\nfile " + name + "\r\n")
		}
		b.WriteString("--bb--\r\n")
		if err := sendRaw(env.SMTPAddr(), "client.test", "a@example.com", a.Address, b.String()); err != nil {
			t.Fatal(err)
		}
		id := waitStored(t, env, a, 1)[0].(map[string]any)["id"].(string)
		var got []string
		for _, att := range env.Must(200, env.Do("GET", "/api/v1/messages/"+id, a.Token, nil)).JSON()["attachments"].([]any) {
			got = append(got, att.(map[string]any)["filename"].(string))
		}
		if !slices.Equal(got, want) {
			t.Errorf("attachments in order %v, want %v", got, want)
		}
	})
}
