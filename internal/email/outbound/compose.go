package outbound

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/mail"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/emersion/go-msgauth/dkim"
	"github.com/jhillyerd/enmime/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/email/content"
)

// file is an attachment to compose.
type file struct {
	Filename, ContentType string
	Data                  []byte
}

// letter is a message to compose.
type letter struct {
	From       mail.Address
	To, Cc     []mail.Address
	Subject    string
	Text, HTML string
	MessageID  string // without angle brackets
	InReplyTo  string
	References []string
	Date       time.Time
	Files      []file
}

// newMessageID makes a Message-ID on our domain (RFC 5322 section 3.6.4).
func newMessageID(domain string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:]) + "@" + domain
}

// compose builds the MIME message: text/plain, or multipart/alternative
// with HTML, inside multipart/mixed with attachments; enmime picks
// quoted-printable or base64 per part and RFC 2047-encodes non-ASCII header
// text. Header values come only from validated input (no CR or LF can
// reach here: see checkHeaderText and parseAddress), and enmime encodes
// names, so no input can start a header of its own.
func compose(l letter) ([]byte, error) {
	text := l.Text
	if text == "" && l.HTML != "" {
		text = content.HTMLToText(l.HTML)
	}
	b := enmime.Builder().From(l.From.Name, l.From.Address).ToAddrs(l.To).Subject(l.Subject).Date(l.Date).
		Header("Message-ID", "<"+l.MessageID+">").Text([]byte(text))
	if len(l.Cc) > 0 {
		b = b.CCAddrs(l.Cc)
	}
	if l.HTML != "" {
		b = b.HTML([]byte(l.HTML))
	}
	if l.InReplyTo != "" {
		b = b.Header("In-Reply-To", "<"+l.InReplyTo+">")
	}
	if len(l.References) > 0 {
		refs := make([]string, len(l.References))
		for i, r := range l.References {
			refs[i] = "<" + r + ">"
		}
		b = b.Header("References", strings.Join(refs, " "))
	}
	for _, f := range l.Files {
		b = b.AddAttachment(f.Data, f.ContentType, f.Filename)
	}
	root, err := b.Build()
	if err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	var buf bytes.Buffer
	if err := root.Encode(&buf); err != nil {
		return nil, fmt.Errorf("compose: %w", err)
	}
	return buf.Bytes(), nil
}

// sign prepends a DKIM-Signature (RFC 6376) made with the domain's key;
// relaxed canonicalization survives the re-wrapping relays do.
func sign(raw []byte, ds *domainSigner) ([]byte, error) {
	var out bytes.Buffer
	out.Grow(len(raw) + 600)
	err := dkim.Sign(&out, bytes.NewReader(raw), &dkim.SignOptions{
		Domain: ds.domain, Selector: ds.selector, Signer: ds.key,
		HeaderCanonicalization: dkim.CanonicalizationRelaxed, BodyCanonicalization: dkim.CanonicalizationRelaxed,
		HeaderKeys: []string{"From", "To", "Cc", "Subject", "Date", "Message-Id", "In-Reply-To", "References", "Mime-Version", "Content-Type"},
	})
	if err != nil {
		return nil, fmt.Errorf("dkim sign: %w", err)
	}
	return out.Bytes(), nil
}

// checkHeaderText refuses header text that could break out of its header:
// CR, LF and other control characters, or more than fits a header line.
func checkHeaderText(field, v string, maxRunes int) error {
	if !utf8.ValidString(v) {
		return apierr.Invalid(field, "must be valid UTF-8")
	}
	if strings.IndexFunc(v, func(r rune) bool { return unicode.IsControl(r) && r != '\t' }) >= 0 {
		return apierr.Invalid(field, "must not contain line breaks or control characters")
	}
	if utf8.RuneCountInString(v) > maxRunes {
		return apierr.Invalid(field, "must be at most %d characters", maxRunes)
	}
	return nil
}

// parseAddress reads a plain address or the RFC 5322 name-and-address
// form ("Ada <ada@example.com>"). Only single addresses with a dot-atom or
// quoted local part and a domain of letters, digits, hyphens and dots pass.
func parseAddress(field, v string) (mail.Address, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return mail.Address{}, apierr.Invalid(field, "an address is empty")
	}
	if strings.ContainsAny(v, "\r\n") || strings.IndexFunc(v, unicode.IsControl) >= 0 {
		return mail.Address{}, apierr.Invalid(field, "%q must not contain line breaks or control characters", v)
	}
	a, err := mail.ParseAddress(v)
	if err != nil {
		return mail.Address{}, apierr.Invalid(field, "%q is not an email address (%v)", v, err).
			WithHint("use name@example.com or \"Name <name@example.com>\"")
	}
	local, domain, ok := strings.Cut(a.Address, "@")
	if !ok || local == "" || !validDomain(domain) || len(a.Address) > 254 || len(local) > 64 {
		return mail.Address{}, apierr.Invalid(field, "%q is not an email address with a valid domain", v)
	}
	if strings.ContainsAny(local, " <>\"\\") {
		return mail.Address{}, apierr.Invalid(field, "%q has a local part this service does not send to", v)
	}
	if err := checkHeaderText(field, a.Name, 200); err != nil {
		return mail.Address{}, err
	}
	a.Address = local + "@" + strings.ToLower(domain)
	return *a, nil
}

func validDomain(d string) bool {
	d = strings.TrimSuffix(d, ".")
	if len(d) == 0 || len(d) > 253 || !strings.Contains(d, ".") {
		return false
	}
	for _, label := range strings.Split(d, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, r := range label {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-') {
				return false
			}
		}
	}
	return true
}

// parseAddresses parses a list, dropping duplicates.
func parseAddresses(field string, vs []string) ([]mail.Address, error) {
	out := make([]mail.Address, 0, len(vs))
	seen := map[string]bool{}
	for _, v := range vs {
		a, err := parseAddress(field, v)
		if err != nil {
			return nil, err
		}
		if k := strings.ToLower(a.Address); !seen[k] {
			seen[k] = true
			out = append(out, a)
		}
	}
	return out, nil
}
