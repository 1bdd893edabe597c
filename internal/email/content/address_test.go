package content

import (
	"strings"
	"testing"
)

// TestParseFromWithComments checks that the From address is read the way
// mail programs (and DMARC) read it when the header carries RFC 5322
// comments or white space around "@", and that a display name never becomes
// the address when an angle-addr is there.
func TestParseFromWithComments(t *testing.T) {
	tests := []struct{ from, want string }{
		{"x(comment)@evil.example", "x@evil.example"},
		{"(lead)x@evil.example", "x@evil.example"},
		{"x@(note)evil.example", "x@evil.example"},
		{"x@evil.example (trailing)", "x@evil.example"},
		{"x (a (nested \\) one)) @ evil.example", "x@evil.example"},
		{"Mallory (the boss) <m(c)@(c) evil.example>", "m@evil.example"},
		{`"quoted (not a comment)" <q@evil.example>`, "q@evil.example"},
		{"support @ bank.example <x@evil.example>", "x@evil.example"},
		{"Alice @ Work <alice@example.net>", "alice@example.net"},
		{"x @ evil.example", "x@evil.example"},
		{"plain@example.com", "plain@example.com"},
	}
	for _, tt := range tests {
		t.Run(tt.from, func(t *testing.T) {
			p, err := Parse(crlf("From: " + tt.from + "\nTo: a@b.example\nSubject: s\n\nbody\n"))
			if err != nil {
				t.Fatal(err)
			}
			if p.From.Address != tt.want {
				t.Errorf("From %q read as %+v, want %s", tt.from, p.From, tt.want)
			}
		})
	}
}

func TestWithoutComments(t *testing.T) {
	tests := []struct{ in, want string }{
		{"x(c)@y.example", "x@y.example"},
		{`"a(b)" <c@d.example>`, `"a(b)" <c@d.example>`},
		{`"a\"(b)" <c@d.example>`, `"a\"(b)" <c@d.example>`},
		{"<x@[1.2.3.4]>(c)", "<x@[1.2.3.4]> "},
		{"N (x) <a @ (y) b.example>", "N   <a@b.example>"},
		{"n @ m <a@b.example>", "n @ m <a@b.example>"},
		{"unclosed (comment x@y.example", "unclosed "},
		{"no specials", "no specials"},
	}
	for _, tt := range tests {
		if got := WithoutComments(tt.in); got != tt.want {
			t.Errorf("WithoutComments(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func FuzzWithoutComments(f *testing.F) {
	for _, s := range []string{"x(c)@y.example", `"a(b)\"" <c @ (d) e.example>`, "((((", `\`, "a@@@ @ b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := WithoutComments(s)
		if len(out) > len(s) {
			t.Errorf("grew: %q -> %q", s, out)
		}
		if !strings.ContainsRune(s, '(') && strings.Count(out, "@") != strings.Count(s, "@") {
			t.Errorf("lost an @: %q -> %q", s, out)
		}
	})
}
