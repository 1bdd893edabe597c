package mailbox

import (
	"strings"
	"testing"
	"time"
)

func TestNormalizeSubject(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Invoice 42", "invoice 42"},
		{"Re: Invoice 42", "invoice 42"},
		{"RE: re: Fwd: Invoice  42", "invoice 42"},
		{"AW: SV: VS: WG: TR: Invoice 42", "invoice 42"},
		{"Re[2]: Invoice 42", "invoice 42"},
		{"Re(3): Invoice 42", "invoice 42"},
		{"Antw: Odp: RIF: Invoice 42", "invoice 42"},
		{"Re：Invoice 42", "invoice 42"},
		{"回复: Invoice 42", "invoice 42"},
		{"回复：答复：转发：Invoice 42", "invoice 42"},
		{"轉寄: 回覆: Invoice 42", "invoice 42"},
		{"Ответ: Invoice 42", "invoice 42"},
		{"Отв: Пересл: Invoice 42", "invoice 42"},
		{"ΑΠ: ΣΧΕΤ: Invoice 42", "invoice 42"},
		{"회신: 전달: Invoice 42", "invoice 42"},
		{"השב: Invoice 42", "invoice 42"},
		{"RV: VL: Vá: İlt: Balas: Invoice 42", "invoice 42"},
		{"Resumen: soup", "resumen: soup"},
		{"Balasan: soup", "balasan: soup"},
		{"[team] Re: Invoice 42", "invoice 42"},
		{"[team] Invoice 42", "[team] invoice 42"},
		{"Recipe: soup", "recipe: soup"},
		{"Reply needed", "reply needed"},
		{"", ""},
		{"Re:", ""},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if got := NormalizeSubject(tt.in); got != tt.want {
				t.Errorf("NormalizeSubject(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMatchRule(t *testing.T) {
	rules := []SenderRule{
		{ID: "1", Kind: RuleBlock, Pattern: "@example.com"},
		{ID: "2", Kind: RuleAllow, Pattern: "boss@example.com"},
		{ID: "3", Kind: RuleAllow, Pattern: "@news.example.com"},
		{ID: "4", Kind: RuleBlock, Pattern: "@evil.test"},
		{ID: "5", Kind: RuleBlock, Pattern: "@xn--bcher-kva.example"},
		// Stored in U-labels by an earlier version.
		{ID: "6", Kind: RuleBlock, Pattern: "@münchen.example"},
	}
	tests := []struct{ from, want string }{
		{"boss@example.com", "2"},
		{"BOSS@Example.COM", "2"},
		{"intern@example.com", "1"},
		{"daily@news.example.com", "3"},
		{"x@mail.news.example.com", "3"},
		{"x@notexample.com", ""},
		{"x@evil.test", "4"},
		{"x@evil.test.org", ""},
		{"no-at-sign", ""},
		{"x@evil.test.", "4"},
		{"x@EVIL.TEST.", "4"},
		{"p@bücher.example", "5"},
		{"p@BÜCHER.example", "5"},
		{"p@xn--bcher-kva.example", "5"},
		{"p@mail.bücher.example.", "5"},
		{"p@bucher.example", ""},
		{"m@xn--mnchen-3ya.example", "6"},
		{"m@münchen.example", "6"},
		{"x@evil。test", "4"}, // ideographic full stop, mapped by IDNA
	}
	for _, tt := range tests {
		got := ""
		if r := MatchRule(rules, tt.from); r != nil {
			got = r.ID
		}
		if got != tt.want {
			t.Errorf("MatchRule(%q) = %q, want %q", tt.from, got, tt.want)
		}
	}
}

// TestBlockRule: every address is decided by its own most specific rule,
// as MatchRule decides it, and one blocked address blocks.
func TestBlockRule(t *testing.T) {
	rules := []SenderRule{
		{ID: "1", Kind: RuleBlock, Pattern: "@example.com"},
		{ID: "2", Kind: RuleAllow, Pattern: "boss@example.com"},
		{ID: "3", Kind: RuleAllow, Pattern: "@news.example.com"},
		{ID: "4", Kind: RuleBlock, Pattern: "@evil.test"},
		{ID: "5", Kind: RuleBlock, Pattern: "@xn--bcher-kva.example"},
		{ID: "6", Kind: RuleBlock, Pattern: "@münchen.example"},
		{ID: "7", Kind: RuleBlock, Pattern: "ceo@partner.test"},
	}
	single := []string{"boss@example.com", "BOSS@Example.COM", "intern@example.com", "daily@news.example.com",
		"x@mail.news.example.com", "x@notexample.com", "x@evil.test", "x@evil.test.org", "no-at-sign", "x@EVIL.TEST.",
		"p@BÜCHER.example", "p@mail.bücher.example.", "m@xn--mnchen-3ya.example", "x@evil。test", "CEO@partner.test", "cfo@partner.test", ""}
	for _, a := range single {
		want := ""
		if r := MatchRule(rules, a); r != nil && r.Kind == RuleBlock {
			want = r.ID
		}
		got := ""
		if r := BlockRule(rules, []string{a}); r != nil {
			got = r.ID
		}
		if got != want {
			t.Errorf("BlockRule(%q) = %q, MatchRule gives block rule %q", a, got, want)
		}
	}
	tests := []struct {
		from []string
		want string
	}{
		{[]string{"ok@other.test", "x@evil.test"}, "4"},
		{[]string{"boss@example.com", "daily@news.example.com"}, ""},
		{[]string{"boss@example.com", "intern@example.com"}, "1"},
		{[]string{"a@b.test", "c@d.test", "e@f.test", "ceo@partner.test"}, "7"},
		{nil, ""},
	}
	for _, tt := range tests {
		got := ""
		if r := BlockRule(rules, tt.from); r != nil {
			got = r.ID
		}
		if got != tt.want {
			t.Errorf("BlockRule(%q) = %q, want %q", tt.from, got, tt.want)
		}
	}
	if BlockRule(nil, []string{"x@evil.test"}) != nil {
		t.Error("BlockRule without rules")
	}
}

func TestNormalizePattern(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"@Example.com", "@example.com", true},
		{" alice@example.com ", "alice@example.com", true},
		{"@sub.example.co.uk", "@sub.example.co.uk", true},
		{"@localhost", "", false},
		{"example.com", "", false},
		{"Alice <alice@example.com>", "", false},
		{"@exa mple.com", "", false},
		{"@.com", "", false},
		{"@Bücher.example", "@xn--bcher-kva.example", true},
		{"@xn--bcher-kva.example", "@xn--bcher-kva.example", true},
		{"P@BÜCHER.example.", "p@xn--bcher-kva.example", true},
		{"@evil.example.", "@evil.example", true},
		{"@evil..example", "", false},
		{"@xn--zz.example", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, err := NormalizePattern(tt.in)
		if (err == nil) != tt.ok || got != tt.want {
			t.Errorf("NormalizePattern(%q) = %q, %v; want %q ok=%v", tt.in, got, err, tt.want, tt.ok)
		}
	}
}

var timeZero = time.Now()

func TestMailQueryMatches(t *testing.T) {
	tests := []struct {
		from, addr string
		want       bool
	}{
		{"", "a@b.example", true},
		{"b.example", "a@b.example", true},
		{"@b.example", "a@mail.b.example", true},
		{"b.example", "a@xb.example", false},
		{"a@b.example", "A@B.example", true},
		{"a@b.example", "c@b.example", false},
	}
	for _, tt := range tests {
		q := MailQuery{From: tt.from}
		if err := q.normalize(timeZero); err != nil {
			t.Fatalf("%q: %v", tt.from, err)
		}
		if got := q.matches(tt.addr); got != tt.want {
			t.Errorf("from %q matches %q = %v, want %v", tt.from, tt.addr, got, tt.want)
		}
	}
}

func FuzzNormalizeSubject(f *testing.F) {
	for _, s := range []string{"Re: x", "[a] Fwd: RE[2]: y", "Re：", "\xff\xfeRe:"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := NormalizeSubject(s)
		if NormalizeSubject(n) != NormalizeSubject(NormalizeSubject(n)) {
			t.Errorf("not stable: %q", s)
		}
		if len(n) > len(s)+3*len(s) {
			t.Errorf("grew: %q -> %q", s, n)
		}
	})
}

func FuzzMatchRule(f *testing.F) {
	f.Add("@example.com", "a@example.com")
	f.Add("a@b.c", "A@B.C")
	f.Add("@Bücher.example.", "p@xn--bcher-kva.example")
	f.Fuzz(func(t *testing.T, pattern, from string) {
		p, err := NormalizePattern(pattern)
		if err != nil {
			return
		}
		r := MatchRule([]SenderRule{{Pattern: p}}, from)
		if r != nil && p[0] != '@' && r.Pattern != p {
			t.Errorf("wrong rule")
		}
		// Any spelling NormalizePattern accepts for a domain names it.
		if p[0] == '@' {
			if MatchRule([]SenderRule{{Pattern: p}}, "x"+strings.TrimSpace(pattern)) == nil {
				t.Errorf("pattern %q (stored %q) does not match mail from x%s", pattern, p, pattern)
			}
			if q, err := NormalizePattern(p); err != nil || q != p {
				t.Errorf("not stable: %q -> %q -> %q, %v", pattern, p, q, err)
			}
		}
	})
}
