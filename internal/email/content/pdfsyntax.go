package content

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// A small reader of PDF object syntax, used only by the pre-checks in
// pdfguard.go. It mirrors the tokenizer of github.com/ledongthuc/pdf (lex.go)
// in the mode the library uses for the file itself (end of input is an
// error), so that the checks see the cross-reference sections and stream
// headers exactly as the library will. Where it cannot follow the file it
// returns an error and the PDF is refused: refusing an odd file is safe,
// misreading a hostile one is not.

var errPDFSyntax = errors.New("pdf syntax")

type (
	pdfName    string
	pdfKeyword string
	pdfDict    map[pdfName]any
	pdfArray   []any
	pdfRef     struct {
		num uint32
		gen uint16
	}
	// pdfObjDef is "N G obj ... endobj"; for a stream, obj is a pdfStream.
	pdfObjDef struct {
		ref pdfRef
		obj any
	}
	pdfStream struct {
		hdr     pdfDict
		dataOff int64 // offset of the first byte after "stream" and its end of line
	}
)

// pdfLexer reads tokens from data starting at pos. Values are int64,
// float64, bool, string (PDF string), pdfName, pdfKeyword.
type pdfLexer struct {
	data   []byte
	pos    int
	depth  int
	unread []any
}

// maxSyntaxDepth matches the library's maxObjectDepth (lex.go).
const maxSyntaxDepth = 1000

func (l *pdfLexer) fail(format string, args ...any) error {
	return fmt.Errorf("%w at offset %d: %s", errPDFSyntax, l.pos, fmt.Sprintf(format, args...))
}

func pdfIsSpace(c byte) bool {
	switch c {
	case '\x00', '\t', '\n', '\f', '\r', ' ':
		return true
	}
	return false
}

func pdfIsDelim(c byte) bool {
	switch c {
	case '<', '>', '(', ')', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func pdfUnhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

func (l *pdfLexer) byte() (byte, bool) {
	if l.pos >= len(l.data) {
		return 0, false
	}
	c := l.data[l.pos]
	l.pos++
	return c, true
}

func (l *pdfLexer) token() (any, error) {
	if n := len(l.unread); n > 0 {
		t := l.unread[n-1]
		l.unread = l.unread[:n-1]
		return t, nil
	}
	var c byte
	for {
		var ok bool
		if c, ok = l.byte(); !ok {
			return nil, l.fail("unexpected end of file")
		}
		if pdfIsSpace(c) {
			continue
		}
		if c == '%' {
			for c != '\r' && c != '\n' {
				if c, ok = l.byte(); !ok {
					return nil, l.fail("unexpected end of file in comment")
				}
			}
			continue
		}
		break
	}
	switch c {
	case '<':
		if n, ok := l.byte(); ok && n == '<' {
			return pdfKeyword("<<"), nil
		}
		l.pos--
		return l.hexString()
	case '(':
		return l.literalString()
	case '[', ']', '{', '}':
		return pdfKeyword(string(c)), nil
	case '/':
		return l.name()
	case '>':
		if n, ok := l.byte(); ok && n == '>' {
			return pdfKeyword(">>"), nil
		}
		return nil, l.fail("unexpected delimiter >")
	}
	if pdfIsDelim(c) {
		return nil, l.fail("unexpected delimiter %q", c)
	}
	l.pos--
	return l.keyword()
}

func (l *pdfLexer) hexString() (any, error) {
	var b []byte
	for {
		c, ok := l.nonSpace()
		if !ok {
			return nil, l.fail("unterminated hex string")
		}
		if c == '>' {
			return string(b), nil
		}
		c2, ok := l.nonSpace()
		if !ok {
			return nil, l.fail("unterminated hex string")
		}
		x := pdfUnhex(c)<<4 | pdfUnhex(c2)
		if x < 0 {
			return nil, l.fail("malformed hex string")
		}
		b = append(b, byte(x))
	}
}

func (l *pdfLexer) nonSpace() (byte, bool) {
	for {
		c, ok := l.byte()
		if !ok || !pdfIsSpace(c) {
			return c, ok
		}
	}
}

func (l *pdfLexer) literalString() (any, error) {
	var b []byte
	depth := 1
	for {
		c, ok := l.byte()
		if !ok {
			return nil, l.fail("unterminated string")
		}
		switch c {
		default:
			b = append(b, c)
		case '(':
			depth++
			b = append(b, c)
		case ')':
			if depth--; depth == 0 {
				return string(b), nil
			}
			b = append(b, c)
		case '\\':
			if c, ok = l.byte(); !ok {
				return nil, l.fail("unterminated string")
			}
			switch c {
			default:
				return nil, l.fail("invalid escape sequence")
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 'b':
				b = append(b, '\b')
			case 't':
				b = append(b, '\t')
			case 'f':
				b = append(b, '\f')
			case '(', ')', '\\':
				b = append(b, c)
			case '\r':
				if n, ok := l.byte(); ok && n != '\n' {
					l.pos--
				}
			case '\n':
			case '0', '1', '2', '3', '4', '5', '6', '7':
				x := int(c - '0')
				for i := 0; i < 2; i++ {
					n, ok := l.byte()
					if !ok {
						break
					}
					if n < '0' || n > '7' {
						l.pos--
						break
					}
					x = x*8 + int(n-'0')
				}
				if x > 255 {
					return nil, l.fail("invalid octal escape")
				}
				b = append(b, byte(x))
			}
		}
	}
}

func (l *pdfLexer) name() (any, error) {
	var b []byte
	for {
		c, ok := l.byte()
		if !ok {
			return nil, l.fail("unexpected end of file in name")
		}
		if pdfIsDelim(c) || pdfIsSpace(c) {
			l.pos--
			return pdfName(b), nil
		}
		if c == '#' {
			h, ok1 := l.byte()
			lo, ok2 := l.byte()
			x := pdfUnhex(h)<<4 | pdfUnhex(lo)
			if !ok1 || !ok2 || x < 0 {
				return nil, l.fail("malformed name")
			}
			b = append(b, byte(x))
			continue
		}
		b = append(b, c)
	}
}

func (l *pdfLexer) keyword() (any, error) {
	start := l.pos
	for {
		c, ok := l.byte()
		if !ok {
			return nil, l.fail("unexpected end of file in keyword")
		}
		if pdfIsDelim(c) || pdfIsSpace(c) {
			l.pos--
			break
		}
	}
	s := string(l.data[start:l.pos])
	switch {
	case s == "true":
		return true, nil
	case s == "false":
		return false, nil
	case pdfIsInteger(s):
		x, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, l.fail("invalid integer %s", s)
		}
		return x, nil
	case pdfIsReal(s):
		x, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return nil, l.fail("invalid real %s", s)
		}
		return x, nil
	}
	return pdfKeyword(s), nil
}

func pdfIsInteger[T string | []byte](s T) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || '9' < s[i] {
			return false
		}
	}
	return true
}

func pdfIsReal[T string | []byte](s T) bool {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		s = s[1:]
	}
	if len(s) == 0 {
		return false
	}
	dots := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			dots++
			continue
		}
		if s[i] < '0' || '9' < s[i] {
			return false
		}
	}
	return dots == 1
}

// object reads one object as the library's readObject does, including its
// oddities (a stray ">>" or "]" reads as null).
func (l *pdfLexer) object() (any, error) {
	l.depth++
	defer func() { l.depth-- }()
	if l.depth > maxSyntaxDepth {
		return nil, l.fail("objects nested too deeply")
	}
	tok, err := l.token()
	if err != nil {
		return nil, err
	}
	if kw, ok := tok.(pdfKeyword); ok {
		switch kw {
		case "null", ">>", "]":
			return nil, nil
		case "<<":
			return l.dict()
		case "[":
			return l.array()
		}
		return nil, l.fail("unexpected keyword %q", kw)
	}
	t1, ok := tok.(int64)
	if !ok || int64(uint32(t1)) != t1 {
		return tok, nil
	}
	tok2, err := l.token()
	if err != nil {
		return nil, err
	}
	if t2, ok := tok2.(int64); ok && int64(uint16(t2)) == t2 {
		tok3, err := l.token()
		if err != nil {
			return nil, err
		}
		switch tok3 {
		case pdfKeyword("R"):
			return pdfRef{uint32(t1), uint16(t2)}, nil
		case pdfKeyword("obj"):
			obj, err := l.object()
			if err != nil {
				return nil, err
			}
			if _, isStream := obj.(pdfStream); !isStream {
				end, err := l.token()
				if err != nil {
					return nil, err
				}
				if end != pdfKeyword("endobj") {
					return nil, l.fail("missing endobj")
				}
			}
			return pdfObjDef{pdfRef{uint32(t1), uint16(t2)}, obj}, nil
		}
		l.unread = append(l.unread, tok3)
	}
	l.unread = append(l.unread, tok2)
	return tok, nil
}

func (l *pdfLexer) array() (any, error) {
	var a pdfArray
	for {
		tok, err := l.token()
		if err != nil {
			return nil, err
		}
		if tok == pdfKeyword("]") {
			return a, nil
		}
		l.unread = append(l.unread, tok)
		v, err := l.object()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
	}
}

func (l *pdfLexer) dict() (any, error) {
	d := pdfDict{}
	for {
		tok, err := l.token()
		if err != nil {
			return nil, err
		}
		if tok == pdfKeyword(">>") {
			break
		}
		n, ok := tok.(pdfName)
		if !ok {
			return nil, l.fail("dictionary key is not a name")
		}
		if d[n], err = l.object(); err != nil {
			return nil, err
		}
	}
	tok, err := l.token()
	if err != nil || tok != pdfKeyword("stream") {
		// The library reads on (and at the end of the file fails); here a
		// dictionary at the very end is only ever a trailer, which is
		// followed by startxref, so an error cannot hide a stream.
		if err == nil {
			l.unread = append(l.unread, tok)
		}
		return d, nil
	}
	c, ok := l.byte()
	switch {
	case ok && c == '\r':
		if n, ok := l.byte(); ok && n != '\n' {
			l.pos--
		}
	case ok && c == '\n':
	default:
		return nil, l.fail("stream keyword not followed by newline")
	}
	return pdfStream{hdr: d, dataOff: int64(l.pos)}, nil
}

// objectAt reads the indirect object defined at offset.
func objectAt(data []byte, offset int64) (pdfObjDef, error) {
	if offset < 0 || offset >= int64(len(data)) {
		return pdfObjDef{}, fmt.Errorf("%w: object offset %d outside the file", errPDFSyntax, offset)
	}
	l := &pdfLexer{data: data, pos: int(offset)}
	obj, err := l.object()
	if err != nil {
		return pdfObjDef{}, err
	}
	def, ok := obj.(pdfObjDef)
	if !ok {
		return pdfObjDef{}, fmt.Errorf("%w: no object definition at offset %d", errPDFSyntax, offset)
	}
	return def, nil
}

// writePDFObject serializes a value read by pdfLexer back to PDF syntax, so
// that trailer entries can be copied into a synthetic file.
func writePDFObject(b *strings.Builder, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		s := strconv.FormatFloat(v, 'f', -1, 64)
		if !strings.Contains(s, ".") {
			s += ".0"
		}
		b.WriteString(s)
	case string:
		fmt.Fprintf(b, "<%x>", v)
	case pdfName:
		b.WriteByte('/')
		for i := 0; i < len(v); i++ {
			c := v[i]
			if c <= ' ' || c >= 0x7f || c == '#' || pdfIsDelim(c) {
				fmt.Fprintf(b, "#%02x", c)
			} else {
				b.WriteByte(c)
			}
		}
	case pdfRef:
		fmt.Fprintf(b, "%d %d R", v.num, v.gen)
	case pdfArray:
		b.WriteByte('[')
		for _, e := range v {
			writePDFObject(b, e)
			b.WriteByte(' ')
		}
		b.WriteByte(']')
	case pdfDict:
		b.WriteString("<<")
		for k, e := range v {
			writePDFObject(b, k)
			b.WriteByte(' ')
			writePDFObject(b, e)
			b.WriteByte(' ')
		}
		b.WriteString(">>")
	default:
		b.WriteString("null")
	}
}
