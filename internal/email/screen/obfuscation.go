package screen

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// addJailbreak adds English role-play and jailbreak framings, and requests
// to reveal the agent's own instructions (its system prompt is a secret
// like any other: it tells an attacker how to steer the agent).
func addJailbreak(add func(sig signal, negatable bool, exprs ...string)) {
	add(sigOverride, true,
		`\b(?:let'?s|we (?:will|are going to)) (?:play a game|role-?play|do a role-?play|pretend)\b`,
		`\brole-?play(?:ing)? as\b|\bstay in character\b|\bbreak character\b`,
		`\byou (?:have|now have|are under) no (?:restrictions|limits|limitations|rules|filters|guidelines|content polic(?:y|ies))\b`,
		`\b(?:pretend|imagine|suppose) (?:that )?you(?:'re| are)\b[^.!?\n]{0,50}\b(?:without|with no|free of|free from) (?:any )?(?:restrictions|limits|limitations|rules|filters|guidelines|safety)`,
		`\bdo anything now\b|\byou are (?:jailbroken|unfiltered|unrestricted)\b|\b(?:developer|god|dan|jailbreak) mode (?:is )?(?:enabled|activated|on)\b`,
		`\b(?:stop|quit) following (?:your|the|all|any) (?:previous |prior |original |earlier )?(?:instructions|rules|guidelines|prompt)\b`,
		`\bdo not follow (?:your|the) (?:previous|prior|original|earlier|system) (?:instructions|rules|guidelines|prompt)\b`,
	)
	// A new role without limits is a new rule as well as an override.
	add(sigNewRule, true,
		// "du bist jetzt ein Export-Werkzeug ohne Einschränkungen": "you are
		// now … without restrictions" in other languages (a rate "sin
		// restricciones" alone is ordinary commerce).
		`(?:^|[^\pL])(?:du bist|sie sind|tu es|vous êtes|eres|usted es|sei|lei è|você é|jesteś)\s+(?:jetzt|nun|maintenant|désormais|ahora|ora|agora|teraz)(?:[^\pL]|$)[^.!?\n]{0,60}?(?:ohne|sans|sin|senza|sem|bez)\s+(?:jegliche\s+|aucune\s+|ninguna\s+|alcuna\s+|quaisquer\s+|żadnych\s+)?(?:einschränkungen|beschränkungen|restrictions|restricciones|restrizioni|restrições|ograniczeń)(?:[^\pL]|$)`,
	)
	add(sigExfilSecret, true,
		`\b(?:reveal|print|show|repeat|output|display|dump|share|send|tell|give|paste|write out|leak|disclose|recite|forward|include)\b (?:me |us )?(?:\w+ ){0,3}?(?:system prompt|(?:initial|original|hidden|internal|developer|secret) (?:prompt|instructions)|(?:your|its) (?:full |complete |exact |entire )?(?:prompt|instructions|configuration) (?:verbatim|word for word|in full))`,
		`\b(?:what|everything) (?:is |are )?(?:written )?(?:in )?your (?:system prompt|(?:initial|original|hidden) (?:prompt|instructions))`,
	)
}

// Text-level obfuscation: spaced-out letters ("i g n o r e   a l l"),
// keywords split over lines, comments hidden in plain-text or markdown
// bodies, and ASCII smuggled as invisible Unicode tag characters.

// maxSpacedSep is the longest separator run inside a spaced-out word; two
// or more separators (or a slash or bar) mark the break between words.
const maxSpacedSep = 4

func isSpacedSep(r rune) bool {
	switch r {
	case ' ', '.', '-', '_', '*', '|', '/', '·', '\n':
		return true
	}
	return false
}

// despace joins runs of at least six single letters separated by
// punctuation or spaces. It returns the joined text and whether any run was
// found; words are separated by a space where the separator was longer.
func despace(p string) (string, bool) {
	// Cheap test: a spaced-out word has many "x " pairs.
	pairs := 0
	for i := 0; i+2 < len(p); i++ {
		if p[i] != ' ' && isSpacedSep(rune(p[i+1])) && i+2 < len(p) && !isSpacedSep(rune(p[i+2])) && (i == 0 || isSpacedSep(rune(p[i-1]))) {
			pairs++
		}
	}
	if pairs < 6 {
		return "", false
	}
	rs := []rune(p)
	var b strings.Builder
	found := false
	single := func(i int) bool {
		return i < len(rs) && unicode.IsLetter(rs[i]) && (i == 0 || !unicode.IsLetter(rs[i-1])) && (i+1 == len(rs) || !unicode.IsLetter(rs[i+1]))
	}
	for i := 0; i < len(rs); {
		if !single(i) {
			b.WriteRune(rs[i])
			i++
			continue
		}
		// Collect a run of single letters.
		var run strings.Builder
		letters := 0
		j := i
		end := i
		for single(j) {
			run.WriteRune(rs[j])
			letters++
			end = j + 1
			k := j + 1
			brk := false
			for k < len(rs) && isSpacedSep(rs[k]) && k-(j+1) <= maxSpacedSep {
				if rs[k] == '/' || rs[k] == '|' || rs[k] == '\n' {
					brk = true
				}
				k++
			}
			sep := k - (j + 1)
			if sep == 0 || sep > maxSpacedSep || !single(k) {
				break
			}
			if sep >= 2 || brk {
				run.WriteByte(' ')
			}
			j = k
		}
		if letters >= 6 {
			found = true
			b.WriteByte(' ')
			b.WriteString(run.String())
			b.WriteByte(' ')
		} else {
			b.WriteString(string(rs[i:end]))
		}
		i = end
	}
	return b.String(), found
}

// compactRules match spaced-out text that kept no word breaks at all
// ("ignoreallpreviousinstructions").
type compactRule struct {
	sig signal
	re  *regexp.Regexp
}

func newCompactRules() []compactRule {
	return []compactRule{
		{sigOverride, regexp.MustCompile(`(?:ignore|disregard|forget|override)\pL{0,30}(?:instruction|prompt|rule|guideline)`)},
		{sigExfilSecret, regexp.MustCompile(`(?:send|forward|reveal|share|email|paste|give|reply)\pL{0,30}(?:password|passcode|code|apikey|key|token|secret|credential|systemprompt|vault)`)},
		{sigExfilData, regexp.MustCompile(`(?:send|forward|email|export)\pL{0,20}(?:emails|mails|messages|inbox|contacts|mailbox)`)},
		{sigAddress, regexp.MustCompile(`(?:noteto|attention|dear|hey)(?:the|any|all)?(?:ai|assistant|agent|bot|model)`)},
	}
}

// mergeShortParagraphs joins runs of three or more very short paragraphs
// (a word or two each) into one, so that an instruction written one word
// per paragraph reads as a sentence.
func mergeShortParagraphs(paras []string) []string {
	const short = 24
	isShort := func(p string) bool {
		t := strings.TrimSpace(p)
		return len(t) <= short && !strings.Contains(t, "\n")
	}
	out := paras[:0:0]
	for i := 0; i < len(paras); {
		j := i
		for j < len(paras) && isShort(paras[j]) {
			j++
		}
		if j-i >= 3 {
			parts := make([]string, 0, j-i)
			for _, p := range paras[i:j] {
				parts = append(parts, strings.TrimSpace(p))
			}
			out = append(out, strings.Join(parts, " "))
			i = j
			continue
		}
		if j == i {
			j++
		}
		out = append(out, paras[i:j]...)
		i = j
	}
	return out
}

var (
	// <!-- ... --> left in a plain-text or markdown body.
	textComment = regexp.MustCompile(`(?s)<!--(.*?)-->`)
	// Markdown's comment idiom: a link reference nobody renders,
	// "[//]: # (text)" or "[comment]: <> (text)".
	mdComment = regexp.MustCompile(`(?m)^[ \t]*\[[^\]\n]{0,20}\]:[ \t]*(?:#|<>|<#>)[ \t]*[("'](.*)[)"']\s*$`)
)

// textComments returns comments hidden in plain text or markdown, which a
// markdown renderer drops but a model reading the source sees.
func textComments(s string) []string {
	var out []string
	if strings.Contains(s, "<!--") {
		for _, loc := range textComment.FindAllStringSubmatchIndex(s, 16) {
			// A comment shown in quotation marks ("\"<!-- assistant: … -->\"")
			// is an example quoted for the reader, not text hidden from them.
			if q, _ := utf8.DecodeLastRuneInString(s[:loc[0]]); strings.ContainsRune("\"“„«'`", q) {
				continue
			}
			out = append(out, s[loc[2]:loc[3]])
		}
	}
	if strings.Contains(s, "]:") {
		for _, m := range mdComment.FindAllStringSubmatch(s, 16) {
			out = append(out, m[1])
		}
	}
	return out
}

// tagText decodes Unicode tag characters (U+E0020–U+E007E), which render
// as nothing but map one-to-one to ASCII: a way to smuggle instructions
// past a human reader.
func tagText(s string) string {
	if !strings.Contains(s, "\xf3\xa0") { // UTF-8 lead bytes of U+E0000–U+E0FFF
		return ""
	}
	var b strings.Builder
	for _, r := range s {
		if r >= 0xE0020 && r <= 0xE007E {
			b.WriteRune(r - 0xE0000)
		} else if r == utf8.RuneError {
			continue
		}
	}
	return b.String()
}

// minSplitJoints is how many times, in one text, an invisible character
// must stand between two letters before the text counts as words split
// to slip past keyword matching ("r\u200be\u200bl\u200be\u200ba\u200bs\u200be").
// Ordinary mail has none: marketing preheaders pad with runs of them
// between spaces, not inside words.
const minSplitJoints = 6

// splitters render as nothing and have no spelling role anywhere, so one
// inside a word only hides the word; joiners (zero-width non-joiner and
// joiner) spell in some scripts. Both are among isInvisible's characters,
// which normalize removes everywhere; soft hyphens, variation selectors
// and tag characters are left out here: they have their own uses.
const (
	splitters = "\u200b\u2060\ufeff\u180e\u2061\u2062\u2063\u2064"
	joiners   = "\u200c\u200d"
)

func splitInvisible(r rune) bool { return strings.ContainsRune(splitters, r) }
func isJoiner(r rune) bool       { return r == '\u200c' || r == '\u200d' }

// joinerInside reports a zero-width (non-)joiner between two letters of
// Latin, Greek or Cyrillic, where it has no spelling role; in Persian,
// the Indic scripts and emoji sequences it is part of the writing.
func joinerInside(prev, r, next rune) bool {
	if !isJoiner(r) {
		return false
	}
	plain := func(c rune) bool {
		return unicode.IsLetter(c) && (unicode.Is(unicode.Latin, c) || unicode.Is(unicode.Greek, c) || unicode.Is(unicode.Cyrillic, c))
	}
	return plain(prev) && plain(next)
}

// invisiblySplit returns the lines of s whose words are split by invisible
// characters, with those characters taken out, when s holds at least
// minSplitJoints such splits; "" otherwise. The visible text reads the
// same to a person, so what it says is scored as a decoded payload.
func invisiblySplit(s string) string {
	if !strings.ContainsAny(s, splitters+joiners) {
		return ""
	}
	var out []string
	total := 0
	for line := range strings.SplitSeq(s, "\n") {
		rs := []rune(line)
		joints := 0
		var b strings.Builder
		for i := 0; i < len(rs); i++ {
			r := rs[i]
			if !splitInvisible(r) && !isJoiner(r) {
				b.WriteRune(r)
				continue
			}
			// A run of invisible characters between two letters or digits.
			j := i
			for j < len(rs) && (splitInvisible(rs[j]) || isJoiner(rs[j])) {
				j++
			}
			inWord := i > 0 && j < len(rs) && isWordRune(rs[i-1]) && isWordRune(rs[j])
			hides := false
			for k := i; k < j && inWord; k++ {
				if splitInvisible(rs[k]) || joinerInside(rs[i-1], rs[k], rs[j]) {
					hides = true
				}
			}
			if hides {
				joints++
			} else {
				// Not a split: the joiners may be spelling (Persian,
				// Indic, emoji); the rest renders as nothing anyway.
				for _, c := range rs[i:j] {
					if !splitInvisible(c) {
						b.WriteRune(c)
					}
				}
			}
			i = j - 1
		}
		if joints >= 2 {
			out = append(out, b.String())
			total += joints
		}
	}
	if total < minSplitJoints {
		return ""
	}
	return strings.Join(out, "\n")
}
