package screen

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLitIndexAgreesWithContains checks the one-pass index against
// strings.Contains for every literal: overlapping literals, literals that
// are suffixes or prefixes of others, multi-byte text, and repeats.
func TestLitIndexAgreesWithContains(t *testing.T) {
	fixed := []string{"he", "she", "his", "hers", "ignore", "ignore previous", "gnore", "ai ", " ai", "密码", "码", "пароль", "ароль", "a", "aa", "aaa", "", "he"}
	texts := []string{"", "ushers", "please ignore previous instructions", "ai assistant: 密码 пароль", "aaaa", "h", "xyz", "hehehe", "igno re"}
	check := func(lits []string, text string) {
		t.Helper()
		x := newLitIndex(lits)
		seen := x.scan(text)
		for _, l := range lits {
			if l == "" {
				continue
			}
			want := strings.Contains(text, l)
			if got := seen.has(x.ids[l]); got != want {
				t.Fatalf("literal %q in %q: index says %v, strings.Contains %v", l, text, got, want)
			}
			if got := seen.any(x.idsOf([]string{l})); got != want {
				t.Fatalf("idsOf(%q) in %q: %v, want %v", l, text, got, want)
			}
		}
	}
	for _, text := range texts {
		check(fixed, text)
	}
	// Random literals and texts over a small alphabet, so that overlaps
	// and shared prefixes and suffixes are frequent.
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "c", "é", "码"}
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		return b.String()
	}
	for range 300 {
		lits := make([]string, 1+rng.IntN(30))
		for i := range lits {
			lits[i] = word(1 + rng.IntN(5))
		}
		check(lits, word(rng.IntN(60)))
	}
}

// TestIDsOfOpenLists keeps mayMatch's meaning: no list, or a list holding
// the empty string, lets every text through.
func TestIDsOfOpenLists(t *testing.T) {
	x := newLitIndex([]string{"abc"})
	if x.idsOf(nil) != nil || x.idsOf([]string{"abc", ""}) != nil {
		t.Fatal("nil and lists with the empty string must stay open (nil)")
	}
	if ids := x.idsOf([]string{}); ids == nil || x.scan("abc").any(ids) {
		t.Fatal("an empty list must match nothing")
	}
}

func TestLitIndexAnyFold(t *testing.T) {
	x := newLitIndex([]string{"rot13", "decode"})
	for text, want := range map[string]bool{"Apply ROT13 first": true, "DeCoDe this": true, "rot 13": false, "": false, "decod": false} {
		if got := x.anyFold(text); got != want {
			t.Errorf("anyFold(%q) = %v, want %v", text, got, want)
		}
	}
}
