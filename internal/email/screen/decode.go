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
	return out
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
	var letters, spaces, other int
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
		case r == ' ' || r == '\n':
			spaces++
		case unicode.IsControl(r) && r != '\t' && r != '\r':
			return false
		default:
			other++
		}
	}
	total := letters + spaces + other
	return spaces >= 3 && float64(letters+spaces)/float64(total) > 0.75
}
