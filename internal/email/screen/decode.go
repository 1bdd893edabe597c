package screen

import (
	"encoding/base64"
	"encoding/hex"
	"net/url"
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
	for _, m := range r.base64Run.FindAllString(text, maxDecoded) {
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
	for _, m := range r.hexRun.FindAllString(text, maxDecoded) {
		compact := strings.NewReplacer(" ", "", ":", "").Replace(m)
		if b, err := hex.DecodeString(compact); err == nil {
			keep(string(b))
		}
	}
	for _, m := range r.urlEnc.FindAllString(text, maxDecoded) {
		if s, err := url.QueryUnescape(m); err == nil {
			keep(s)
		}
	}
	for _, m := range r.uniEsc.FindAllString(text, maxDecoded) {
		if s, err := strconv.Unquote(`"` + strings.ReplaceAll(m, `"`, `\"`) + `"`); err == nil {
			keep(s)
		}
	}
	if r.rotHint.MatchString(strings.ToLower(text)) {
		out = append(out, rot13(text))
	}
	return out
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
