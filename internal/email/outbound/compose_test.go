package outbound

import (
	"bytes"
	"io"
	"mime"
	"net/mail"
	"strings"
	"testing"
	"time"

	"github.com/jhillyerd/enmime/v2"
)

func TestParseAddress(t *testing.T) {
	tests := []struct {
		in, name, addr string
		ok             bool
	}{
		{"ada@example.com", "", "ada@example.com", true},
		{"  Ada@Example.COM ", "", "Ada@example.com", true}, // domain lowercased, local part kept
		{"Ada Lovelace <ada@example.com>", "Ada Lovelace", "ada@example.com", true},
		{`"Lovelace, Ada" <ada@example.com>`, "Lovelace, Ada", "ada@example.com", true},
		{"=?utf-8?q?M=C3=BCller?= <m@example.com>", "Müller", "m@example.com", true},
		{"Bob Müller <bob@example.com>", "Bob Müller", "bob@example.com", true},
		{"", "", "", false},
		{"ada", "", "", false},
		{"ada@localhost", "", "", false}, // no dot: not a domain we send to
		{"ada@-bad.com", "", "", false},
		{"ada@exa_mple.com", "", "", false},
		{"a@b.com, c@d.com", "", "", false},
		{"Ada <ada@example.com>\r\nBcc: x@evil.com", "", "", false},
		{"ada@example.com\nBcc: x@evil.com", "", "", false},
		{"=?utf-8?q?Ada=0D=0ABcc:_x@evil.com?= <ada@example.com>", "", "", false}, // CR LF hidden in an encoded word
		{`"a b"@example.com`, "", "", false},
		{strings.Repeat("a", 65) + "@example.com", "", "", false},
		{"x@" + strings.Repeat("a", 250) + ".com", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			a, err := parseAddress("to", tt.in)
			if (err == nil) != tt.ok {
				t.Fatalf("parseAddress(%q) = %v, %v; want ok=%v", tt.in, a, err, tt.ok)
			}
			if tt.ok && (a.Name != tt.name || a.Address != tt.addr) {
				t.Errorf("parseAddress(%q) = %q <%s>, want %q <%s>", tt.in, a.Name, a.Address, tt.name, tt.addr)
			}
		})
	}
}

func TestParseAddressesDropsDuplicates(t *testing.T) {
	got, err := parseAddresses("to", []string{"a@example.com", "A <A@EXAMPLE.com>", "b@example.com"})
	if err != nil {
		t.Fatal(err)
	}
	// Local parts are case-sensitive in principle, but no one sends twice to
	// the same mailbox by changing case.
	if len(got) != 2 || got[0].Address != "a@example.com" || got[1].Address != "b@example.com" {
		t.Errorf("got %v", got)
	}
}

func TestCheckHeaderText(t *testing.T) {
	tests := []struct {
		in string
		ok bool
	}{
		{"Hello", true},
		{"Grüße\tund mehr", true},
		{"Line\r\nBcc: x@evil.com", false},
		{"bare\nLF", false},
		{"bare\rCR", false},
		{"nul\x00", false},
		{"del\x7f", false},
		{"bad utf8 \xff", false},
		{strings.Repeat("é", 999), false},
	}
	for _, tt := range tests {
		if err := checkHeaderText("subject", tt.in, maxSubjectRunes); (err == nil) != tt.ok {
			t.Errorf("checkHeaderText(%q) = %v, want ok=%v", tt.in, err, tt.ok)
		}
	}
}

// headerNames lists the header field names of a composed message, in order.
func headerNames(t testing.TB, raw []byte) []string {
	t.Helper()
	head, _, ok := bytes.Cut(raw, []byte("\r\n\r\n"))
	if !ok {
		t.Fatalf("no end of header:\n%s", raw)
	}
	var names []string
	for _, line := range strings.Split(string(head), "\r\n") {
		if line == "" || line[0] == ' ' || line[0] == '\t' {
			continue // continuation
		}
		name, _, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("header line without a colon: %q", line)
		}
		names = append(names, strings.ToLower(name))
	}
	return names
}

func TestComposeStructure(t *testing.T) {
	date := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	base := letter{From: mail.Address{Name: "Agent Ann", Address: "ann@agentsvc.localhost"},
		To: []mail.Address{{Name: "Bob Müller", Address: "bob@example.com"}}, Subject: "Grüße — plan",
		MessageID: "abc@agentsvc.localhost", Date: date}
	tests := []struct {
		name     string
		edit     func(*letter)
		wantType string
		check    func(t *testing.T, env *enmime.Envelope, raw []byte)
	}{
		{"text only", func(l *letter) { l.Text = "Hello Bob" }, "text/plain", func(t *testing.T, env *enmime.Envelope, _ []byte) {
			if strings.TrimSpace(env.Text) != "Hello Bob" {
				t.Errorf("text %q", env.Text)
			}
		}},
		{"html only derives text", func(l *letter) { l.HTML = "<p>Hi <b>there</b></p>" }, "multipart/alternative",
			func(t *testing.T, env *enmime.Envelope, _ []byte) {
				if !strings.Contains(env.Text, "Hi") || !strings.Contains(env.HTML, "<b>there</b>") {
					t.Errorf("text %q html %q", env.Text, env.HTML)
				}
			}},
		{"attachment", func(l *letter) {
			l.Text = "see file"
			l.Files = []file{{Filename: "report é.pdf", ContentType: "application/pdf", Data: []byte("%PDF-1.4 \x00\x01 binary")}}
		}, "multipart/mixed", func(t *testing.T, env *enmime.Envelope, _ []byte) {
			if len(env.Attachments) != 1 || env.Attachments[0].FileName != "report é.pdf" ||
				!bytes.Equal(env.Attachments[0].Content, []byte("%PDF-1.4 \x00\x01 binary")) {
				t.Errorf("attachments %+v", env.Attachments)
			}
		}},
		{"reply threading", func(l *letter) {
			l.Text = "re"
			l.InReplyTo = "orig@example.com"
			l.References = []string{"first@example.com", "orig@example.com"}
			l.Cc = []mail.Address{{Address: "cc@example.com"}}
		}, "text/plain", func(t *testing.T, env *enmime.Envelope, _ []byte) {
			if env.GetHeader("In-Reply-To") != "<orig@example.com>" ||
				env.GetHeader("References") != "<first@example.com> <orig@example.com>" || env.GetHeader("Cc") != "<cc@example.com>" {
				t.Errorf("in-reply-to %q references %q cc %q", env.GetHeader("In-Reply-To"), env.GetHeader("References"), env.GetHeader("Cc"))
			}
		}},
		{"long non-ASCII text is encoded", func(l *letter) { l.Text = strings.Repeat("Grüße aus Köln. ", 200) }, "text/plain",
			func(t *testing.T, env *enmime.Envelope, raw []byte) {
				for _, line := range strings.Split(string(raw), "\r\n") {
					if len(line) > 998 {
						t.Fatalf("line of %d bytes", len(line))
					}
				}
				if !strings.Contains(env.Text, "Grüße aus Köln.") {
					t.Error("text lost")
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := base
			tt.edit(&l)
			raw, err := compose(l)
			if err != nil {
				t.Fatal(err)
			}
			env, err := enmime.ReadEnvelope(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			m, err := mail.ReadMessage(bytes.NewReader(raw))
			if err != nil {
				t.Fatal(err)
			}
			if mt, _, _ := mime.ParseMediaType(m.Header.Get("Content-Type")); mt != tt.wantType {
				t.Errorf("content type %s, want %s", mt, tt.wantType)
			}
			dec := mime.WordDecoder{}
			if subj, _ := dec.DecodeHeader(m.Header.Get("Subject")); subj != "Grüße — plan" {
				t.Errorf("subject %q", subj)
			}
			if m.Header.Get("Message-Id") != "<abc@agentsvc.localhost>" || m.Header.Get("Mime-Version") != "1.0" {
				t.Errorf("message-id %q mime-version %q", m.Header.Get("Message-Id"), m.Header.Get("Mime-Version"))
			}
			if d, err := m.Header.Date(); err != nil || !d.Equal(date) {
				t.Errorf("date %v %v", d, err)
			}
			to, err := m.Header.AddressList("To")
			if err != nil || len(to) != 1 || to[0].Name != "Bob Müller" || to[0].Address != "bob@example.com" {
				t.Errorf("to %v %v", to, err)
			}
			if bytes.ContainsAny(raw, "\x00") && tt.name != "attachment" {
				t.Error("NUL in message")
			}
			tt.check(t, env, raw)
		})
	}
}

// FuzzHeaderInjection feeds arbitrary names, addresses and subjects through
// the same validation and composition a send uses: whatever passes must
// compose into a message with exactly the headers we wrote, the recipient
// we parsed and the subject we were given.
func FuzzHeaderInjection(f *testing.F) {
	for _, seed := range [][2]string{
		{"Ada <ada@example.com>", "Hello"},
		{"ada@example.com", "Grüße"},
		{"Eve <eve@example.com>\r\nBcc: x@evil.com", "hi\r\nBcc: x@evil.com"},
		{"=?utf-8?q?E=0D=0ABcc:_x@evil.com?= <e@example.com>", "=?utf-8?q?a=0D=0Ab?="},
		{`"Bcc: x@evil.com" <e@example.com>`, "Subject: twice"},
		{"\"a\\\"b\" <e@example.com>", strings.Repeat("long ", 300)},
	} {
		f.Add(seed[0], seed[1])
	}
	want := []string{"content-transfer-encoding", "content-type", "date", "from", "message-id", "mime-version", "subject", "to"}
	f.Fuzz(func(t *testing.T, to, subject string) {
		addr, err := parseAddress("to", to)
		if err != nil {
			return
		}
		if checkHeaderText("subject", subject, maxSubjectRunes) != nil {
			return
		}
		raw, err := compose(letter{From: mail.Address{Address: "a@agentsvc.localhost"}, To: []mail.Address{addr}, Subject: subject,
			Text: "body", MessageID: "x@agentsvc.localhost", Date: time.Unix(0, 0)})
		if err != nil {
			return // refusing is fine; what must not happen is a wrong message
		}
		names := headerNames(t, raw)
		got := map[string]int{}
		for _, n := range names {
			got[n]++
		}
		for _, n := range names {
			if got[n] != 1 {
				t.Fatalf("header %q appears %d times for to=%q subject=%q:\n%s", n, got[n], to, subject, raw)
			}
			if !contains(want, n) {
				t.Fatalf("unexpected header %q for to=%q subject=%q:\n%s", n, to, subject, raw)
			}
		}
		m, err := mail.ReadMessage(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("composed message unreadable: %v\n%s", err, raw)
		}
		list, err := m.Header.AddressList("To")
		if err != nil || len(list) != 1 || list[0].Address != addr.Address {
			t.Fatalf("To %v (%v), want only %s; input %q:\n%s", list, err, addr.Address, to, raw)
		}
		dec := mime.WordDecoder{}
		if s, err := dec.DecodeHeader(m.Header.Get("Subject")); err == nil && normSpace(s) != normSpace(subject) {
			t.Fatalf("subject %q, want %q", s, subject)
		}
		if _, err := io.Copy(io.Discard, m.Body); err != nil {
			t.Fatal(err)
		}
	})
}

// normSpace compares text as header folding may change its white space.
func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
