package screen

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxDecoded bounds how many payloads one text may yield, so a message
// full of base64 cannot make screening slow.
const maxDecoded = 8

// decodePayloads returns readable text hidden in encoded chunks: base64,
// hex, URL-encoding, \u escapes, and ROT13 when the text hints at a cipher.
// Only results that decode to mostly printable prose are kept, so binary
// blobs (keys, images, signatures) are ignored.
func (r *injectionRules) decodePayloads(text string) []string {
	var out []string
	keep := func(s string) {
		if len(out) < maxDecoded && looksLikeProse(s) {
			out = append(out, s)
		}
	}
	for _, m := range r.runs(text, &base64Bytes, 16, r.base64Run) {
		compact := strings.Join(strings.Fields(m), "")
		if len(compact) < 24 {
			continue
		}
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding} {
			if b, err := enc.DecodeString(compact); err == nil {
				keep(string(b))
				break
			}
		}
	}
	for _, m := range r.runs(text, &hexSpaced, 32, r.hexRun) {
		compact := strings.NewReplacer(" ", "", ":", "").Replace(m)
		if b, err := hex.DecodeString(compact); err == nil {
			keep(string(b))
		}
	}
	if strings.Count(text, "%") >= 6 {
		for _, m := range r.urlEnc.FindAllString(text, maxDecoded) {
			if s, err := url.QueryUnescape(m); err == nil {
				keep(s)
			}
		}
	}
	if strings.Contains(text, `\u`) || strings.Contains(text, `\U`) {
		for _, m := range r.uniEsc.FindAllString(text, maxDecoded) {
			if s, err := strconv.Unquote(`"` + strings.ReplaceAll(m, `"`, `\"`) + `"`); err == nil {
				keep(s)
			}
		}
	}
	if t := tagText(text); t != "" {
		keep(t)
	}
	if t := invisiblySplit(text); t != "" {
		keep(t)
	}
	if r.rotHint.anyFold(text) {
		out = append(out, rot13(text))
	}
	// Text written backwards, with a note to read it so ("lisez-le à
	// l'envers", "prečítajte pozpátku"): the whole text reversed, so each
	// of its lines reads forwards. Ordinary text reversed scores nothing.
	if r.reverseHint.anyFold(text) {
		out = append(out, reverseRunes(text))
	}
	return out
}

// reverseRunes returns s with its characters in reverse order.
func reverseRunes(s string) string {
	rs := []rune(s)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return string(rs)
}

// reverseHints are the words that say a text is written backwards, in the
// languages of the word tables. Words as common as "naopak" or "umgekehrt"
// ("on the contrary") are left out: they would make every such mail pay
// for a second reading.
var reverseHints = []string{
	"backwards", "backward", "in reverse", "reversed text", "reverse order", "right to left", "mirror-written",
	"rückwärts", "von rechts nach links", "à l'envers", "a l'envers", "de droite à gauche", "à rebours",
	"al revés", "al reves", "de derecha a izquierda", "ao contrário", "de trás para frente", "de tras para a frente",
	"al rovescio", "a ritroso", "da destra a sinistra", "achterstevoren", "van rechts naar links", "achterwaarts",
	"od tyłu", "wspak", "pozpátku", "odzadu", "zprava doleva", "sprava doľava",
	"задом наперёд", "задом наперед", "в обратном порядке", "справа налево", "у зворотному порядку", "справа наліво",
	"tersten oku", "sağdan sola", "baklänges", "bakvänt", "bagfra", "baglæns", "baklengs", "takaperin", "oikealta vasemmalle",
	"tagurpidi", "visszafelé", "ανάποδα", "αντίστροφα", "逆から", "逆順", "倒着", "倒过来", "倒過來", "反向阅读", "거꾸로",
	"ย้อนกลับ", "อ่านกลับหลัง", "بالعكس", "معكوس", "من اليسار إلى اليمين", "הפוך", "מהסוף להתחלה", "उल्टा", "उलटा",
	"terbalik", "baliktad", "ngược",
}

// base64Bytes and hexSpaced are the alphabets that runs looks for, as
// tables: runs tests every byte of every message.
// hexSpaced allows the separators of "41 50 20 61" and "41:50:20", which
// hexRun reads too.
var base64Bytes, hexSpaced = byteTable("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="),
	byteTable("0123456789abcdefABCDEF :")

func byteTable(alphabet string) (t [256]bool) {
	for i := 0; i < len(alphabet); i++ {
		t[alphabet[i]] = true
	}
	return t
}

// runs returns the matches of re, but only runs the regular expression
// when a byte loop has found a long enough run of the alphabet: almost no
// mail carries encoded blobs, and the loop is far cheaper than the regexp.
func (r *injectionRules) runs(text string, in *[256]bool, minRun int, re *regexp.Regexp) []string {
	n := 0
	for i := 0; i < len(text); i++ {
		if !in[text[i]] {
			n = 0
			continue
		}
		if n++; n >= minRun {
			return re.FindAllString(text, maxDecoded)
		}
	}
	return nil
}

func rot13(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z':
			return 'a' + (r-'a'+13)%26
		case r >= 'A' && r <= 'Z':
			return 'A' + (r-'A'+13)%26
		}
		return r
	}, s)
}

// looksLikeProse accepts valid UTF-8 that is mostly letters and spaces and
// contains several words.
func looksLikeProse(s string) bool {
	if len(s) < 16 || !utf8.ValidString(s) {
		return false
	}
	// Vowel signs and viramas (Devanagari, Malayalam, Thai …) are marks,
	// not letters, but are as much a part of words; digits are common in
	// an order to pay ("CHF 14'300 to IBAN CH37 …"). Binary decodes to
	// invalid UTF-8 or control characters and is refused above and below.
	var letters, digits, spaces, other int
	for _, r := range s {
		switch {
		case unicode.IsLetter(r) || unicode.IsMark(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case r == ' ' || r == '\n':
			spaces++
		case unicode.IsControl(r) && r != '\t' && r != '\r':
			return false
		default:
			other++
		}
	}
	total := letters + digits + spaces + other
	return spaces >= 3 && letters >= 12 && float64(letters+digits+spaces)/float64(total) > 0.75
}
