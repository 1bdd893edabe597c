package content

import "strings"

// WithoutComments returns an address header value with its RFC 5322
// comments removed (section 3.2.2: parenthesized text, nested, with
// quoted-pairs, allowed wherever CFWS is) and the white space around each
// "@" of an addr-spec dropped (CFWS may surround the local part and the
// domain, section 3.4.1). Quoted strings and domain literals are kept as
// they are. net/mail accepts a comment only after an address, so
// "x(note)@example.com" or "<x@(note)example.com>" would otherwise read as
// no address at all, though mail programs show x@example.com: a sender rule
// or a DMARC check would then judge a different sender than the reader sees.
//
// White space around "@" outside angle brackets is kept when the value has
// an angle-addr: there it belongs to a display name, and closing it up
// ("support @ bank.example <x@evil.example>") would make the display name
// read as an address of its own.
func WithoutComments(v string) string {
	if !strings.ContainsRune(v, '(') && !strings.ContainsRune(v, '@') {
		return v
	}
	hasAngle := strings.ContainsRune(v, '<')
	out := make([]byte, 0, len(v))
	depth := 0
	inQuote, inLiteral, inAngle, afterAt := false, false, false, false
	isSpace := func(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case depth > 0:
			switch c {
			case '\\':
				i++ // quoted-pair: the next byte is literal
			case '(':
				depth++
			case ')':
				depth--
				if depth == 0 && !afterAt {
					// A comment separates like white space does (and
					// like it, goes after an "@").
					out = append(out, ' ')
				}
			}
			continue
		case inQuote:
			out = append(out, c)
			if c == '\\' && i+1 < len(v) {
				i++
				out = append(out, v[i])
			} else if c == '"' {
				inQuote = false
			}
			continue
		case inLiteral:
			out = append(out, c)
			if c == '\\' && i+1 < len(v) {
				i++
				out = append(out, v[i])
			} else if c == ']' {
				inLiteral = false
			}
			continue
		}
		addrSpec := inAngle || !hasAngle
		switch {
		case c == '(':
			depth = 1
			continue
		case isSpace(c) && afterAt:
			continue
		case c == '@' && addrSpec:
			for len(out) > 0 && isSpace(out[len(out)-1]) {
				out = out[:len(out)-1]
			}
			out = append(out, '@')
			afterAt = true
			continue
		case c == '"':
			inQuote = true
		case c == '[':
			inLiteral = true
		case c == '<':
			inAngle = true
		case c == '>':
			inAngle = false
		}
		afterAt = false
		out = append(out, c)
	}
	return string(out)
}
