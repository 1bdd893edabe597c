package screen

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// Literal prefilters: most paragraphs of ordinary mail match none of the
// injection patterns, and running a backtracking regexp over every
// paragraph for ~80 patterns was most of the cost of screening. For each
// pattern we derive, from its syntax tree, a set of literals at least one
// of which every match must contain (the idea of RE2's prefilter); a
// paragraph containing none of them cannot match and the regexp is skipped.
// The derivation is conservative: when a part of the pattern could match
// without a literal, that part imposes nothing.

// maxPrefilterLits bounds a literal set; larger alternations are not worth
// checking one by one.
const maxPrefilterLits = 96

// requiredLiterals returns lower-cased literals one of which every match of
// expr contains, or nil when no such set was found. The patterns run on
// lower-cased text, so case-folded literals are lower-cased.
func requiredLiterals(expr string) []string {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	lits, ok := required(re.Simplify())
	if !ok {
		return nil
	}
	return lits
}

func required(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		if re.Flags&syntax.FoldCase != 0 {
			s = strings.ToLower(s)
		}
		return []string{s}, s != ""
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
		return nil, false
	case syntax.OpConcat:
		// Every part of a concatenation occurs in a match: any part's set
		// will do; take the most selective (longest shortest literal, not
		// counting white space, which every paragraph has). Runs of parts
		// that match only a few fixed strings are joined first, so that
		// "da(?:me|nos)" (how Simplify factors "dame|danos") yields "dame"
		// and "danos" rather than "da".
		var best []string
		bestLen := 0
		consider := func(lits []string) {
			if l := shortest(lits); l > bestLen || (l == bestLen && len(lits) < len(best)) {
				best, bestLen = lits, l
			}
		}
		var run []string // product of the current run of exact parts
		flush := func() {
			if len(run) > 0 && !slices.Contains(run, "") {
				consider(run)
			}
			run = nil
		}
		for _, sub := range re.Sub {
			if ex, ok := exact(sub); ok {
				if run == nil {
					run = ex
				} else if p, ok := product(run, ex); ok {
					run = p
				} else {
					flush()
					run = ex
				}
				continue
			}
			flush()
			if lits, ok := required(sub); ok {
				consider(lits)
			}
		}
		flush()
		return best, bestLen > 0
	case syntax.OpAlternate:
		// A match is a match of one branch: every branch must require
		// something, and the set is their union.
		var out []string
		for _, sub := range re.Sub {
			lits, ok := required(sub)
			if !ok {
				return nil, false
			}
			out = append(out, lits...)
			if len(out) > maxPrefilterLits {
				return nil, false
			}
		}
		return out, len(out) > 0
	case syntax.OpCharClass:
		// A small class of letters ("[sz]", "[ée]") becomes its letters.
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1]-re.Rune[i] > 3 {
				return nil, false
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				out = append(out, strings.ToLower(string(r)))
			}
		}
		if len(out) == 0 || len(out) > 4 {
			return nil, false
		}
		return out, true
	}
	return nil, false
}

func shortest(lits []string) int {
	n := -1
	for _, l := range lits {
		if k := len(strings.TrimSpace(l)); n < 0 || k < n {
			n = k
		}
	}
	return n
}

// mayMatch reports whether text contains one of lits (nil: no prefilter,
// always true).
func mayMatch(lits []string, text string) bool {
	if lits == nil {
		return true
	}
	for _, l := range lits {
		if strings.Contains(text, l) {
			return true
		}
	}
	return false
}

// filteredRe is a regexp behind its literal prefilter, for the helper
// expressions run over whole texts (quote prefixes, transcript lines,
// cipher hints).
type filteredRe struct {
	re   *regexp.Regexp
	need []string
}

func mustFiltered(expr string) filteredRe {
	return filteredRe{re: regexp.MustCompile(expr), need: requiredLiterals(expr)}
}

func (f filteredRe) MatchString(s string) bool { return mayMatch(f.need, s) && f.re.MatchString(s) }

func (f filteredRe) ReplaceAllString(s, repl string) string {
	if !mayMatch(f.need, s) {
		return s
	}
	return f.re.ReplaceAllString(s, repl)
}

// exact returns every string re matches when that is a small finite set
// (literals, small letter classes, alternations and optional parts of
// those), lower-cased like required's literals.
func exact(re *syntax.Regexp) ([]string, bool) {
	switch re.Op {
	case syntax.OpLiteral, syntax.OpCharClass:
		return required(re)
	case syntax.OpEmptyMatch:
		return []string{""}, true
	case syntax.OpCapture:
		return exact(re.Sub[0])
	case syntax.OpQuest:
		ex, ok := exact(re.Sub[0])
		if !ok {
			return nil, false
		}
		return append([]string{""}, ex...), true
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			ex, ok := exact(sub)
			if !ok {
				return nil, false
			}
			out = append(out, ex...)
		}
		return out, len(out) <= maxProductLits
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			ex, ok := exact(sub)
			if !ok {
				return nil, false
			}
			if out, ok = product(out, ex); !ok {
				return nil, false
			}
		}
		return out, true
	}
	return nil, false
}

// maxProductLits bounds the strings a joined run of parts may stand for:
// joining makes literals longer but more numerous, and a pattern's
// alternation of many such runs would exceed maxPrefilterLits.
const maxProductLits = 24

// product returns every a+b, or false when there would be too many.
func product(as, bs []string) ([]string, bool) {
	if len(as)*len(bs) > maxProductLits {
		return nil, false
	}
	out := make([]string, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, a+b)
		}
	}
	return out, true
}
