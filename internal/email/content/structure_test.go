package content

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

// unclosedNesting is a message with depth multiparts, each opened by its
// parent's delimiter and none ever closed, and a text part at the bottom:
// 3.5 KB at depth 60 (the inbound end-to-end test builds the same shape).
func unclosedNesting(depth int) []byte {
	var b strings.Builder
	b.WriteString("From: a@example.org\r\nTo: b@example.org\r\nSubject: deep\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B0\"\r\n\r\n")
	for i := range depth {
		fmt.Fprintf(&b, "--B%d\r\nContent-Type: multipart/mixed; boundary=\"B%d\"\r\n\r\n", i, i+1)
	}
	fmt.Fprintf(&b, "--B%d\r\nContent-Type: text/plain\r\n\r\ndeep body\r\n", depth)
	return []byte(b.String())
}

// TestParseUnclosedNestingIsFast: each unclosed level used to make Parse
// take about 1.8 times longer (depth 25: a minute), so a few such messages
// held every ingest worker for good. The bound is generous: the point is
// exponential against not (depth 60 now takes milliseconds).
func TestParseUnclosedNestingIsFast(t *testing.T) {
	for _, depth := range []int{20, 60, 1000} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			var p *Parsed
			var err error
			start := time.Now()
			within(t, 5*time.Second, func() { p, err = Parse(unclosedNesting(depth)) })
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("depth %d parsed in %v", depth, time.Since(start))
			// Shown as best it can be: the body is in the text either way.
			if !strings.Contains(p.Text, "deep body") {
				t.Errorf("text %.200q does not hold the body", p.Text)
			}
			if depth < maxMIMEDepth {
				if p.AttachmentsUnlisted != "" || strings.TrimSpace(p.Text) != "deep body" {
					t.Errorf("below the depth limit: text %q, unlisted %q; want the body parsed and every part listed", p.Text, p.AttachmentsUnlisted)
				}
				return
			}
			if want := "MIME parts nested more than 32 levels deep"; p.AttachmentsUnlisted != want {
				t.Errorf("AttachmentsUnlisted = %q, want %q", p.AttachmentsUnlisted, want)
			}
			if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, "nested more than 32 levels deep") }) {
				t.Errorf("no warning about the nesting: %q", p.Warnings)
			}
		})
	}
}

// TestParseTooManyPartsUnlisted: over maxMIMEParts the fallback lists no
// attachment, and says so, so that screening does not call the mail clean.
func TestParseTooManyPartsUnlisted(t *testing.T) {
	p, err := Parse(manyParts(maxMIMEParts + 100))
	if err != nil {
		t.Fatal(err)
	}
	if want := "more than 500 MIME parts"; p.AttachmentsUnlisted != want {
		t.Errorf("AttachmentsUnlisted = %q, want %q", p.AttachmentsUnlisted, want)
	}
	p, err = Parse(manyParts(20))
	if err != nil {
		t.Fatal(err)
	}
	if p.AttachmentsUnlisted != "" {
		t.Errorf("20 parts: AttachmentsUnlisted = %q, want empty", p.AttachmentsUnlisted)
	}
}

// TestParseListsEachPartOnce: enmime puts an inline application/octet-stream
// part in both its Attachments and its Inlines; it was listed (and stored)
// twice.
func TestParseListsEachPartOnce(t *testing.T) {
	raw := crlf(`
From: vendor@supplier.example
To: a@agents.example
Subject: parts
MIME-Version: 1.0
Content-Type: multipart/mixed; boundary=BB

--BB
Content-Type: text/plain

body text here
--BB
Content-Type: application/octet-stream
Content-Disposition: inline
Content-Transfer-Encoding: base64

AAEC
--BB
Content-Type: application/pdf
Content-Disposition: attachment; filename="doc.pdf"

%PDF-1.4
--BB
Content-Type: application/octet-stream; name="a.exe"
Content-Disposition: inline; filename="a.exe"

MZ
--BB
Content-Type: image/png
Content-ID: <logo@x>

png
--BB--
`)
	p, err := Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, a := range p.Attachments {
		got = append(got, a.PartID+" "+a.Filename)
	}
	want := []string{"2 attachment-1.bin", "3 doc.pdf", "4 a.exe", "5 attachment-4.png"}
	if !slices.Equal(got, want) {
		t.Errorf("attachments %q, want %q (each part once, in the mail's order)", got, want)
	}
	if p.Text != "body text here" {
		t.Errorf("text %q", p.Text)
	}
}

// TestParseBoundaryNeverAppears: a multipart whose declared boundary is not
// in the body used to give no text, no HTML and no warning.
func TestParseBoundaryNeverAppears(t *testing.T) {
	const head = "From: a@example.org\r\nSubject: wrong boundary\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n"
	tests := []struct {
		name, body, wantText, wantUnlisted string
	}{
		{"parts under another boundary", "--BB\r\nContent-Type: text/plain\r\n\r\nbody under wrong boundary\r\n--BB--\r\n",
			"body under wrong boundary", "multipart body whose parts could not be read"},
		{"plain text", "just words, no parts\r\n", "just words, no parts", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse([]byte(head + tt.body))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(p.Text, tt.wantText) {
				t.Errorf("text %q, want it to hold %q", p.Text, tt.wantText)
			}
			if !slices.ContainsFunc(p.Warnings, func(w string) bool { return strings.Contains(w, `boundary "XX"`) }) {
				t.Errorf("no warning naming the boundary: %q", p.Warnings)
			}
			if p.AttachmentsUnlisted != tt.wantUnlisted {
				t.Errorf("AttachmentsUnlisted = %q, want %q", p.AttachmentsUnlisted, tt.wantUnlisted)
			}
		})
	}
	// A multipart with no parts at all (only the close delimiter) has
	// nothing to show and nothing to warn about.
	p, err := Parse([]byte(strings.Replace(head, "XX", "BB", 1) + "--BB--\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Text != "" || len(p.Warnings) != 0 || p.AttachmentsUnlisted != "" {
		t.Errorf("empty multipart: text %q, warnings %q, unlisted %q", p.Text, p.Warnings, p.AttachmentsUnlisted)
	}
}

// TestParseHeaderTextCleaned: bidi overrides make "exe.doc" show as
// "cod.exe" in a subject or display name, as they do in file names; a display
// name that decodes to CR/LF is kept, with spaces for the line break.
func TestParseHeaderTextCleaned(t *testing.T) {
	b := func(s string) string { return "=?utf-8?b?" + base64.StdEncoding.EncodeToString([]byte(s)) + "?=" }
	tests := []struct {
		name, from, subject string
		wantFrom            Address
		wantSubject         string
	}{
		{"RLO in subject and name", b("Bob \u202dx\u202e") + " <b@example.org>", b("bidi 340e \u202ecod.exe"),
			Address{Name: "Bob x", Address: "b@example.org"}, "bidi 340e cod.exe"},
		{"CR/LF in a B-encoded name", b("Evil\r\nBcc: x@y") + " <a@example.org>", "x",
			Address{Name: "Evil  Bcc: x@y", Address: "a@example.org"}, "x"},
		// A raw ":" and "@" in the encoded word make the header fail to
		// parse as an address list; the loose reading keeps the name too.
		{"CR/LF in a Q-encoded name with specials", "=?utf-8?q?Evil=0D=0ABcc:_x@y?= <a@example.org>", "x",
			Address{Name: "Evil  Bcc: x@y", Address: "a@example.org"}, "x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse([]byte("From: " + tt.from + "\r\nTo: c@example.org\r\nSubject: " + tt.subject + "\r\n\r\nbody\r\n"))
			if err != nil {
				t.Fatal(err)
			}
			if p.From != tt.wantFrom {
				t.Errorf("From = %+v, want %+v", p.From, tt.wantFrom)
			}
			if p.Subject != tt.wantSubject {
				t.Errorf("Subject = %q, want %q", p.Subject, tt.wantSubject)
			}
		})
	}
}

// TestParseDropsLeadingBOM: a UTF-16 body (and a UTF-8 one written with a
// BOM) kept U+FEFF at the start of text and snippet.
func TestParseDropsLeadingBOM(t *testing.T) {
	utf16le := []byte{0xff, 0xfe}
	for _, u := range utf16.Encode([]rune("UTF16 body ünïcode")) {
		utf16le = append(utf16le, byte(u), byte(u>>8))
	}
	tests := []struct{ name, charset, cte, body string }{
		{"utf-16", "utf-16", "base64", base64.StdEncoding.EncodeToString(utf16le)},
		{"utf-8 with BOM", "utf-8", "8bit", "\ufeffUTF16 body ünïcode"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw := "From: a@example.org\r\nSubject: bom\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=\"" + tt.charset +
				"\"\r\nContent-Transfer-Encoding: " + tt.cte + "\r\n\r\n" + tt.body + "\r\n"
			p, err := Parse([]byte(raw))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(p.Text, "UTF16 body ünïcode") {
				t.Errorf("text %q, want it to start with the words", p.Text)
			}
			if s := p.Snippet(100); s != "UTF16 body ünïcode" {
				t.Errorf("snippet %q", s)
			}
		})
	}
}
