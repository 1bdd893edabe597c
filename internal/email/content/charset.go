package content

import (
	"fmt"
	"io"
	"mime"
	"strings"

	"golang.org/x/net/html/charset"
)

// decodeCharset converts b from the named charset to UTF-8. Names are the
// WHATWG labels (which cover the MIME names seen in mail, e.g. iso-8859-1,
// windows-1252, shift_jis, koi8-r, gb2312).
func decodeCharset(name string, b []byte) (string, error) {
	name = strings.ToLower(strings.TrimSpace(name))
	switch name {
	case "", "utf-8", "utf8", "us-ascii", "ascii":
		return strings.ToValidUTF8(string(b), "\uFFFD"), nil
	}
	enc, _ := charset.Lookup(name)
	if enc == nil {
		return "", fmt.Errorf("unknown charset %q", name)
	}
	out, err := enc.NewDecoder().Bytes(b)
	if err != nil {
		return "", fmt.Errorf("decode %s: %w", name, err)
	}
	return strings.ToValidUTF8(string(out), "\uFFFD"), nil
}

// mimeWordDecoder decodes RFC 2047 encoded words in any charset decodeCharset
// knows, for the fallback path where enmime could not read the message.
type mimeWordDecoder struct{ mime.WordDecoder }

// DecodeHeader decodes all encoded words in v.
func (d *mimeWordDecoder) DecodeHeader(v string) (string, error) {
	d.CharsetReader = func(name string, r io.Reader) (io.Reader, error) {
		b, err := io.ReadAll(r)
		if err != nil {
			return nil, err
		}
		s, err := decodeCharset(name, b)
		if err != nil {
			return nil, err
		}
		return strings.NewReader(s), nil
	}
	return d.WordDecoder.DecodeHeader(v)
}
