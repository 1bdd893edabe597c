package content

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// The fuzz targets run only their seeds in a normal `go test`; run one for
// real with, for example:
//
//	go test ./internal/email/content -run '^$' -fuzz FuzzSanitizeHTML -fuzztime 60s

func FuzzParse(f *testing.F) {
	f.Add(crlf(fullMessage))
	f.Add(benchMessage())
	f.Add([]byte("Subject: x\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/html\r\n\r\n<p>x\r\n"))
	f.Add([]byte("From: =?utf-8?b?!!!?= <a@b>\r\nReferences: <a> <b\r\nDate: 99 Foo 2025\r\n\r\n\xff\xfe"))
	f.Add([]byte("Content-Type: text/plain\r\nContent-Transfer-Encoding: base64\r\n\r\n!!!!"))
	// Unclosed nested multiparts: each level once made Parse about 1.8
	// times slower; mutations probe the depth limit and the reads at EOF.
	f.Add(unclosedNesting(40))
	f.Add(unclosedNesting(maxMIMEDepth))
	// A boundary that never appears, an inline octet-stream part (once
	// listed twice). (Too many parts is left to TestParseTooManyPartsUnlisted:
	// a 20 KB seed makes minimizing every new input take minutes.)
	f.Add([]byte("Content-Type: multipart/mixed; boundary=XX\r\n\r\n--BB\r\nContent-Type: text/plain\r\n\r\nx\r\n--BB--\r\n"))
	f.Add([]byte("Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: application/octet-stream\r\nContent-Disposition: inline\r\n\r\nx\r\n--b--\r\n"))
	f.Fuzz(func(t *testing.T, raw []byte) {
		var p *Parsed
		var err error
		within(t, 10*time.Second, func() { p, err = Parse(raw) })
		if err != nil {
			if !errors.Is(err, ErrEmpty) {
				t.Fatalf("Parse error %v on non-empty input", err)
			}
			return
		}
		if !utf8.ValidString(p.Subject) || !utf8.ValidString(p.Text) {
			t.Errorf("invalid UTF-8 in subject or text")
		}
		_ = p.Snippet(200)
		ids := map[string]bool{}
		for _, a := range p.Attachments {
			if a.Size != len(a.Data) || strings.ContainsAny(a.Filename, "/\\\x00") {
				t.Errorf("bad attachment %+v", a)
			}
			if ids[a.PartID] {
				t.Errorf("part %s listed twice", a.PartID)
			}
			ids[a.PartID] = true
		}
	})
}

func FuzzSanitizeHTML(f *testing.F) {
	for _, s := range []string{
		`<a href="javascript:alert(1)" onclick=x>x</a>`,
		`<img src="cid:logo@example.com"><img src="https://t.example/p.gif">`,
		`<div style="background:url(x);color:red">x</div>`,
		`<svg><script>alert(1)</script></svg><math><style><img src=x onerror=1>`,
		`<table><tr><td style="padding:4px">x</td></tr></table>`,
		`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var out string
		within(t, 10*time.Second, func() { out = SanitizeHTML(in, testCIDURL) })
		if p := unsafeHTML(out); p != "" {
			t.Fatalf("SanitizeHTML(%q) = %q: %s", in, out, p)
		}
	})
}

func FuzzExtractText(f *testing.F) {
	f.Add("application/pdf", "a.pdf", buildPDF(f, []string{"Hello"}, true))
	f.Add("application/pdf", "a.pdf", []byte("%PDF-1.4\n1 0 obj\n<< /Length 5 >>\nstream\nBT ET\nendstream\nendobj\n"))
	f.Add("application/pdf", "objstm.pdf", goodObjStreamPDF(f))
	// Files that made the PDF library loop, recurse or allocate without
	// bound; mutations of them probe the same code.
	for _, h := range hostilePDFs(f) {
		f.Add("application/pdf", "hostile.pdf", h.data)
	}
	f.Add("text/csv; charset=iso-8859-1", "a.csv", []byte("a;b\n\xfc;\"x\"\"y\"\n"))
	f.Add("application/json", "a.json", []byte(`{"a":[1,{"b":null}]}`))
	f.Add("text/html", "a.html", []byte(`<p>x<script>y</script>`))
	f.Add("text/plain; charset=shift_jis", "a.txt", []byte("\x82\xa0"))
	limits := Limits{MaxInput: 1 << 20, MaxOutput: 64 << 10, Timeout: time.Second} // the looping seeds each take all of it
	f.Fuzz(func(t *testing.T, contentType, filename string, data []byte) {
		var out string
		var err error
		within(t, 5*time.Second, func() { out, err = ExtractText(contentType, filename, data, limits) })
		if err != nil {
			for _, want := range []error{ErrUnsupported, ErrMalformed, ErrTimeout, ErrTooLarge} {
				if errors.Is(err, want) {
					return
				}
			}
			t.Fatalf("unexpected error kind: %v", err)
		}
		if len(out) > limits.MaxOutput || !utf8.ValidString(out) {
			t.Fatalf("output %d bytes, valid UTF-8 %v", len(out), utf8.ValidString(out))
		}
	})
}

// within fails the fuzz input if fn does not return in time, so a hang is
// reported (and saved as a failing input) instead of stalling the fuzzer.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("no result after %s", d)
	}
}

func FuzzExtractCode(f *testing.F) {
	f.Add("Your code", "Your verification code is 482913.", "")
	f.Add("G-1234 code", "code:\n\n123 456\n", `<a href="https://x.example/verify">Verify</a>`)
	f.Add("", "Order #123, PIN 4455#, +1 800 555 1234, $1,249.00, CA 94107", `<td>Code</td><td>AB12-CD34</td>`)
	f.Fuzz(func(t *testing.T, subject, text, h string) {
		code, link := ExtractCode(subject, text, h)
		if code != "" && !containsIgnoringSeparators(subject+"\n"+text+"\n"+HTMLToText(h), code) {
			t.Fatalf("code %q is not in the message", code)
		}
		if link != "" && !strings.HasPrefix(strings.ToLower(link), "http") {
			t.Fatalf("link %q is not http(s)", link)
		}
	})
}
