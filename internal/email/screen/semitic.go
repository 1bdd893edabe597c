package screen

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Hebrew and Arabic write short words — "and", "the", "to", "in", "that" —
// as letters joined to the front of the next word: "והסיכום" is "and the
// summary", "وللمساعد" "and to the assistant". A word table cannot list
// every combination for every word, so a word in these scripts is also
// looked up without them (withoutClitics). The forms only add lookups:
// the whole word is always looked up as well.

func isHebrew(r rune) bool { return r >= 0x05D0 && r <= 0x05EA }
func isArabic(r rune) bool { return r >= 0x0620 && r <= 0x064A }

// isSemitic reports a letter of the Hebrew or Arabic alphabet.
func isSemitic(r rune) bool { return isHebrew(r) || isArabic(r) }

// foldSemitic drops the vowel points and the elongation stroke people add
// or leave out at will, and writes the letters that are spelt either way
// (alef with or without hamza, final yeh or alef maksura, teh marbuta or
// heh) one way, so that "أرسِل" and "ارسل" are one word.
func foldSemitic(s string) string {
	if !hasSemitic(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r >= 0x0591 && r <= 0x05C7 && r != 0x05BE && r != 0x05C0 && r != 0x05C3 && r != 0x05C6:
			// Hebrew points and accents.
		case r >= 0x064B && r <= 0x065F, r == 0x0670, r == 0x0640:
			// Arabic harakat, superscript alef, tatweel.
		case r == 'أ' || r == 'إ' || r == 'آ' || r == 'ٱ':
			b.WriteRune('ا')
		case r == 'ى':
			b.WriteRune('ي')
		case r == 'ة':
			b.WriteRune('ه')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func hasSemitic(s string) bool {
	for _, r := range s {
		if isSemitic(r) || r >= 0x0591 && r <= 0x05C7 || r >= 0x064B && r <= 0x065F || r == 0x0670 || r == 0x0640 {
			return true
		}
	}
	return false
}

// minCliticStem is the fewest letters left after the clitics are taken
// off: shorter remainders are too often other words.
const minCliticStem = 3

// withoutClitics returns the forms of a folded Hebrew or Arabic word
// without the prefixes that may be joined to it; nil when it has none.
func withoutClitics(w string) []string {
	r, _ := utf8.DecodeRuneInString(w)
	switch {
	case isHebrew(r):
		return hebrewForms(w)
	case isArabic(r):
		return arabicForms(w)
	}
	return nil
}

// cliticForms collects the forms of word without its clitics: each at
// least minCliticStem letters long, none twice, never word itself.
type cliticForms struct {
	word  string
	forms []string
}

func (f *cliticForms) add(s string) {
	if utf8.RuneCountInString(s) >= minCliticStem && s != f.word && !slices.Contains(f.forms, s) {
		f.forms = append(f.forms, s)
	}
}

// hebrewForms strips, in this order, ו (and), ש or כש (that, when),
// one of ב ל מ כ ה (in, to, from, as, the), and ה after מ. After ב, ל
// and כ the article's ה is not written ("לסוכן" is "to the agent"), so
// the form with it is added too.
func hebrewForms(w string) []string {
	f := cliticForms{word: w}
	add := f.add
	rest := []string{w}
	if s, ok := strings.CutPrefix(w, "ו"); ok {
		rest = append(rest, s)
		add(s)
	}
	for _, r := range slices.Clone(rest) {
		for _, p := range []string{"כש", "ש"} {
			if s, ok := strings.CutPrefix(r, p); ok {
				rest = append(rest, s)
				add(s)
			}
		}
	}
	for _, r := range rest {
		for _, p := range []string{"ב", "ל", "כ", "מ", "ה"} {
			s, ok := strings.CutPrefix(r, p)
			if !ok {
				continue
			}
			add(s)
			switch p {
			case "ב", "ל", "כ":
				add("ה" + s)
			case "מ":
				if s2, ok := strings.CutPrefix(s, "ה"); ok {
					add(s2)
				}
			}
		}
	}
	return f.forms
}

// arabicForms strips و or ف (and, so), then one of ب ل ك س (with, to,
// like, will), then the article ال; "لل" is ل with the article, whose
// alef is not written, so the form with ال is added too.
func arabicForms(w string) []string {
	f := cliticForms{word: w}
	add := f.add
	stems := []string{w}
	for _, p := range []string{"و", "ف"} {
		if s, ok := strings.CutPrefix(w, p); ok {
			stems = append(stems, s)
			add(s)
		}
	}
	for _, st := range stems {
		if s, ok := strings.CutPrefix(st, "لل"); ok {
			add(s)
			add("ال" + s)
		}
		for _, p := range []string{"ب", "ل", "ك", "س"} {
			if s, ok := strings.CutPrefix(st, p); ok {
				add(s)
				if s2, ok := strings.CutPrefix(s, "ال"); ok {
					add(s2)
				}
			}
		}
		if s, ok := strings.CutPrefix(st, "ال"); ok {
			add(s)
		}
	}
	return f.forms
}
