package content

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/mail"
	"net/textproto"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/jhillyerd/enmime/v2"
)

// ErrEmpty is returned by Parse when there is nothing to parse at all. It is
// the only way Parse fails: every other input yields a best-effort result.
var ErrEmpty = errors.New("content: empty message")

// maxMIMEParts bounds the MIME tree. enmime's default (10,000) lets one small
// hostile message cost a lot of CPU on the ingest path; real mail has a few
// dozen parts at most. A message over the limit is still kept: Parse falls back
// to its headers and raw body.
const maxMIMEParts = 500

// maxMIMEDepth bounds how deeply multiparts nest. Each level puts another
// reader between every byte and the parser, so depth multiplies the cost of
// a message; real mail nests three or four levels. A deeper multipart is kept
// unparsed and its raw body shown as text (see unparsedDeepParts).
const maxMIMEDepth = 32

// Address is a mailbox from an address header.
type Address struct {
	Name    string `json:"name,omitempty"`
	Address string `json:"address"`
}

// String formats the address in the RFC 5322 name-and-address form.
func (a Address) String() string {
	if a.Name == "" {
		return a.Address
	}
	return (&mail.Address{Name: a.Name, Address: a.Address}).String()
}

// Attachment is a non-body MIME part: a file attached to the message or an
// inline part (usually an image the HTML refers to by cid:).
type Attachment struct {
	// PartID is the part's position in the MIME tree ("2", "1.3"). It is
	// stable for the same raw message, so callers can re-parse the stored raw
	// message and find the same part again.
	PartID string `json:"part_id"`
	// Filename is the decoded file name with any directory components and
	// control characters removed; a name is made up when the part has none.
	Filename string `json:"filename"`
	// ContentType is the lower-case media type without parameters.
	ContentType string `json:"content_type"`
	Size        int    `json:"size"`
	// Inline is true for parts meant to be shown inside the body rather than
	// offered as a download.
	Inline bool `json:"inline"`
	// ContentID is the Content-ID header without angle brackets; the HTML
	// refers to it as cid:ContentID.
	ContentID string `json:"content_id,omitempty"`
	// Data holds the decoded bytes (transfer encoding removed). enmime
	// converts text/* parts to UTF-8, which is why ContentType carries no
	// charset parameter: pass it to ExtractText as it is.
	Data []byte `json:"-"`
}

// Parsed is the readable form of one message.
type Parsed struct {
	From    Address   `json:"from"`
	To      []Address `json:"to"`
	Cc      []Address `json:"cc,omitempty"`
	ReplyTo []Address `json:"reply_to,omitempty"`
	Subject string    `json:"subject"`
	// Date is the Date header; zero when missing or unreadable.
	Date time.Time `json:"date"`
	// MessageID, InReplyTo and References hold message ids without angle
	// brackets, ready for threading.
	MessageID  string   `json:"message_id,omitempty"`
	InReplyTo  string   `json:"in_reply_to,omitempty"`
	References []string `json:"references,omitempty"`
	// Text is the plain-text body with LF line ends. When the message has
	// only HTML, Text is rendered from it and TextFromHTML is set.
	Text         string `json:"text"`
	TextFromHTML bool   `json:"text_from_html,omitempty"`
	// HTML is the HTML body as sent, NOT sanitized: pass it to SanitizeHTML
	// before showing it to anyone.
	HTML        string       `json:"html,omitempty"`
	Attachments []Attachment `json:"attachments"`
	// AttachmentsUnlisted says why some MIME parts could not be read, so
	// Attachments may miss files the message carries (for example "more than
	// 500 MIME parts"); empty when every part was read. Screening must not
	// call such a message clean: what it cannot list it cannot inspect,
	// while the raw message still holds every byte.
	AttachmentsUnlisted string `json:"attachments_unlisted,omitempty"`
	// Header is the top-level header as received (not decoded), for
	// components that need fields Parsed does not lift out.
	Header textproto.MIMEHeader `json:"-"`
	// Warnings lists what was malformed and how it was read anyway.
	Warnings []string `json:"warnings,omitempty"`
}

// Parse reads a raw RFC 5322 message. Malformed MIME is never fatal: the
// result holds whatever could be read and Warnings says what went wrong. Only
// an empty input is an error.
func Parse(raw []byte) (*Parsed, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, ErrEmpty
	}
	parser := enmime.NewParser(
		enmime.SkipMalformedParts(true),
		enmime.MultipartWOBoundaryAsSinglePart(true),
		enmime.SetReadPartErrorPolicy(enmime.AllowCorruptTextPartErrorPolicy),
		enmime.MaxMIMEParts(maxMIMEParts),
		enmime.MaxMIMEDepth(maxMIMEDepth),
		enmime.MaxStoredPartErrors(50),
		// We render HTML to text ourselves so hidden text is left out.
		enmime.DisableTextConversion(true),
		// Trust a declared charset instead of running statistical detection
		// on every text part: detection was over half of Parse's CPU time,
		// and a wrong declaration still ends up readable because invalid
		// UTF-8 is repaired afterwards (toValidText).
		enmime.DisableCharacterDetection(true),
	)
	env, err := parser.ReadEnvelope(bytes.NewReader(raw))
	if err != nil {
		p := parseFallback(raw, err)
		p.makeStorable()
		return p, nil
	}

	p := &Parsed{Header: textproto.MIMEHeader(env.Root.Header)}
	for _, e := range env.Errors {
		p.Warnings = append(p.Warnings, e.Error())
		// A severe "Malformed child part" means enmime skipped a part it
		// could not read (SkipMalformedParts): it may have been a file.
		if e.Name == enmime.ErrorMalformedChildPart && e.Severe && p.AttachmentsUnlisted == "" {
			p.AttachmentsUnlisted = "a MIME part could not be read"
		}
	}
	p.readHeaders(env.GetHeader, env.Root.Header.Get)

	// enmime passes bytes through when a part's charset is missing or wrong;
	// everything we hand on must be UTF-8.
	p.Text = toValidText([]byte(env.Text))
	p.HTML = env.HTML
	if !utf8.ValidString(p.HTML) {
		p.HTML = toValidText([]byte(p.HTML))
	}
	if strings.TrimSpace(p.Text) == "" && p.HTML != "" {
		p.Text = HTMLToText(p.HTML)
		p.TextFromHTML = true
	}

	// enmime's three lists overlap: an inline application/octet-stream part
	// is in Attachments (by type) and in Inlines (by disposition). Each part
	// is listed, and stored, once. Made-up names count in enmime's order, as
	// they always have, so a message parsed again gets the same names.
	seen := map[*enmime.Part]bool{}
	for _, list := range [][]*enmime.Part{env.Attachments, env.Inlines, env.OtherParts} {
		for _, part := range list {
			if !seen[part] {
				seen[part] = true
				p.Attachments = append(p.Attachments, newAttachment(part, len(seen)))
			}
		}
	}
	// In the mail's own order: enmime lists attachments, then inline parts,
	// then the rest.
	slices.SortStableFunc(p.Attachments, func(a, b Attachment) int { return ComparePartIDs(a.PartID, b.PartID) })
	p.unparsedDeepParts(env.Root)
	p.rootAsBody()
	p.bodyWithoutBoundary(env.Root, raw)
	if p.Attachments == nil {
		p.Attachments = []Attachment{}
	}
	p.makeStorable()
	return p, nil
}

// unparsedDeepParts shows the multiparts enmime kept unparsed below
// maxMIMEDepth: their raw bodies (boundaries and all) are added to the text,
// as parseFallback shows a message it cannot read, and the parts they hold
// are not listed.
func (p *Parsed) unparsedDeepParts(root *enmime.Part) {
	deep := root.DepthMatchAll(func(part *enmime.Part) bool {
		return slices.ContainsFunc(part.Errors, func(e *enmime.Error) bool { return e.Name == enmime.ErrorNestingTooDeep })
	})
	if len(deep) == 0 {
		return
	}
	p.AttachmentsUnlisted = fmt.Sprintf("MIME parts nested more than %d levels deep", maxMIMEDepth)
	for _, part := range deep {
		if p.Text != "" && !strings.HasSuffix(p.Text, "\n") {
			p.Text += "\n"
		}
		p.Text += toValidText(part.Content)
	}
	p.Warnings = append(p.Warnings, fmt.Sprintf("multipart nested more than %d levels deep shown as raw text", maxMIMEDepth))
}

// bodyWithoutBoundary shows a multipart body in which the declared boundary
// never appears: enmime finds no part in it and keeps nothing (the whole body
// reads as preamble). Shown as text, like a multipart without a boundary
// parameter (rootAsBody).
func (p *Parsed) bodyWithoutBoundary(root *enmime.Part, raw []byte) {
	if p.Text != "" || p.HTML != "" || len(p.Attachments) > 0 || root.FirstChild != nil ||
		root.Boundary == "" || !strings.HasPrefix(root.ContentType, "multipart/") {
		return
	}
	body := rawBody(raw)
	if bytes.Contains(body, []byte("--"+root.Boundary)) || len(bytes.TrimSpace(body)) == 0 {
		return // a multipart with no parts: nothing to show
	}
	p.Text = toValidText(body)
	p.Warnings = append(p.Warnings, fmt.Sprintf("boundary %q of the %s body never appears; body shown as text", root.Boundary, root.ContentType))
	p.unlistedIfPartsIn(p.Text)
}

// partDelimiter finds what looks like a MIME part in text that was not read
// as parts: a delimiter line ("--" and a boundary) followed by a header.
var partDelimiter = regexp.MustCompile(`(?m)^--[^\s]{1,70}[ \t]*\n[A-Za-z0-9-]+:`)

// unlistedIfPartsIn marks the attachments unlisted when a multipart body
// shown as text holds parts that were never read: one of them may be a file
// screening has not seen.
func (p *Parsed) unlistedIfPartsIn(text string) {
	if p.AttachmentsUnlisted == "" && partDelimiter.MatchString(text) {
		p.AttachmentsUnlisted = "multipart body whose parts could not be read"
	}
}

// rawBody returns what follows the header block of raw (empty when there is
// no blank line).
func rawBody(raw []byte) []byte {
	i, j := bytes.Index(raw, []byte("\r\n\r\n")), bytes.Index(raw, []byte("\n\n"))
	switch {
	case i >= 0 && (j < 0 || i < j):
		return raw[i+4:]
	case j >= 0:
		return raw[j+2:]
	}
	return nil
}

// bidiOverrides are the explicit left-to-right and right-to-left overrides
// (U+202D, U+202E): in a subject or a display name they make "exe.doc" show
// as "cod.exe". Attachment names lose every formatting character
// (cleanFilename); header text keeps the others (joiners are part of
// emoji and of many scripts).
var bidiOverrides = strings.NewReplacer("\u202d", "", "\u202e", "")

// withoutBOM drops a leading byte-order mark: enmime keeps the one a UTF-16
// (or UTF-8) body starts with, and it is not part of the text.
func withoutBOM(s string) string { return strings.TrimPrefix(s, "\uFEFF") }

// makeStorable leaves no NUL and no invalid UTF-8 in any string of p: a
// mail may carry both anywhere, and PostgreSQL's text columns refuse them
// (the message would get 250 and never be stored). The bodies are valid
// UTF-8 already (toValidText, HTMLToText) and only keep the place of a NUL
// as U+FFFD, as an HTML parser would; header values lose control
// characters (cleanHeaderText).
func (p *Parsed) makeStorable() {
	p.Text = withoutBOM(strings.ReplaceAll(p.Text, "\x00", "\uFFFD"))
	p.HTML = withoutBOM(strings.ReplaceAll(p.HTML, "\x00", "\uFFFD"))
	p.Subject = bidiOverrides.Replace(cleanHeaderText(p.Subject))
	p.MessageID, p.InReplyTo = cleanHeaderText(p.MessageID), cleanHeaderText(p.InReplyTo)
	for i := range p.References {
		p.References[i] = cleanHeaderText(p.References[i])
	}
	addr := func(a *Address) {
		a.Name, a.Address = bidiOverrides.Replace(cleanHeaderText(a.Name)), cleanHeaderText(a.Address)
	}
	addr(&p.From)
	for _, list := range [][]Address{p.To, p.Cc, p.ReplyTo} {
		for i := range list {
			addr(&list[i])
		}
	}
	for i := range p.Attachments {
		a := &p.Attachments[i]
		a.Filename, a.ContentType, a.ContentID = cleanHeaderText(a.Filename), cleanHeaderText(a.ContentType), cleanHeaderText(a.ContentID)
	}
	for i := range p.Warnings {
		p.Warnings[i] = cleanHeaderText(p.Warnings[i])
	}
}

// rootAsBody shows a message whose whole body enmime took for an attachment
// (a multipart type without a boundary, text with a binary-looking header) as
// its text, since that is what the sender meant to be read.
func (p *Parsed) rootAsBody() {
	if p.Text != "" || p.HTML != "" || len(p.Attachments) != 1 || p.Attachments[0].PartID != "0" {
		return
	}
	root := p.Attachments[0]
	switch {
	case root.ContentType == "text/html":
		p.HTML = toValidText(root.Data)
		p.Text = HTMLToText(p.HTML)
		p.TextFromHTML = true
	case strings.HasPrefix(root.ContentType, "multipart/") || strings.HasPrefix(root.ContentType, "text/"):
		p.Text = toValidText(root.Data)
	default:
		return
	}
	p.Attachments = p.Attachments[:0]
	p.Warnings = append(p.Warnings, "body of type "+root.ContentType+" shown as text")
	if strings.HasPrefix(root.ContentType, "multipart/") {
		p.unlistedIfPartsIn(p.Text)
	}
}

// parseFallback keeps a message enmime could not read at all (a broken header
// block, too many parts): headers as far as net/mail reads them, and the raw
// body as text, so the mail is still stored and shown.
func parseFallback(raw []byte, cause error) *Parsed {
	p := &Parsed{
		Warnings:    []string{fmt.Sprintf("mime parse failed, showing raw body: %v", cause)},
		Attachments: []Attachment{},
		To:          []Address{},
	}
	// No part was listed. For a multipart message that means its files
	// went unseen.
	var tooMany *enmime.TooManyPartsError
	if errors.As(cause, &tooMany) {
		p.AttachmentsUnlisted = fmt.Sprintf("more than %d MIME parts", tooMany.Limit)
	}
	msg, err := mail.ReadMessage(bufio.NewReader(bytes.NewReader(raw)))
	if err != nil {
		p.Text = toValidText(raw)
		if p.AttachmentsUnlisted == "" {
			p.unlistedIfPartsIn(p.Text)
		}
		return p
	}
	p.Header = textproto.MIMEHeader(msg.Header)
	body, _ := io.ReadAll(msg.Body)
	decode := func(name string) string { return decodeHeader(msg.Header.Get(name)) }
	p.readHeaders(decode, msg.Header.Get)

	// Undo a single-part transfer encoding as far as it goes.
	switch strings.ToLower(strings.TrimSpace(msg.Header.Get("Content-Transfer-Encoding"))) {
	case "base64":
		if dec, ok := lenientBase64(body); ok {
			body = dec
		}
	case "quoted-printable":
		dec, _ := io.ReadAll(quotedprintable.NewReader(bytes.NewReader(body)))
		if len(dec) > 0 {
			body = dec
		}
	}
	mt, params, _ := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if p.AttachmentsUnlisted == "" && strings.HasPrefix(strings.ToLower(strings.TrimSpace(msg.Header.Get("Content-Type"))), "multipart/") {
		p.AttachmentsUnlisted = "MIME structure could not be read"
	}
	text := toValidText(body)
	if cs := params["charset"]; cs != "" {
		if s, err := decodeCharset(cs, body); err == nil {
			text = normalizeNewlines(s)
		}
	}
	if mt == "text/html" {
		p.HTML = text
		p.Text = HTMLToText(text)
		p.TextFromHTML = true
		return p
	}
	p.Text = text
	return p
}

// lenientBase64 decodes base64 after dropping every byte outside the
// alphabet, the way mail clients read damaged parts.
func lenientBase64(b []byte) ([]byte, bool) {
	clean := make([]byte, 0, len(b))
	for _, c := range b {
		if c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' {
			clean = append(clean, c)
		}
	}
	out, err := base64.RawStdEncoding.DecodeString(string(trimBase64(clean)))
	if err != nil {
		return nil, false
	}
	return out, true
}

// trimBase64 drops a trailing partial quantum of one character, which cannot
// encode a byte.
func trimBase64(b []byte) []byte {
	if len(b)%4 == 1 {
		return b[:len(b)-1]
	}
	return b
}

// decodeHeader decodes RFC 2047 encoded words, leaving the input as it is
// when it does not decode.
func decodeHeader(v string) string {
	dec := new(mimeWordDecoder)
	s, err := dec.DecodeHeader(v)
	if err != nil {
		return v
	}
	return s
}

// readHeaders fills the header fields. decoded returns an RFC 2047 decoded
// value, raw the value as received (address and id headers are decoded by
// their own parsers).
func (p *Parsed) readHeaders(decoded, raw func(string) string) {
	decoded, raw = eightBitHeaders(decoded), eightBitHeaders(raw)
	p.Subject = cleanHeaderText(decoded("Subject"))
	if from := p.addresses(raw("From"), "From"); len(from) > 0 {
		p.From = from[0]
	}
	p.To = p.addresses(raw("To"), "To")
	if p.To == nil {
		p.To = []Address{}
	}
	p.Cc = p.addresses(raw("Cc"), "Cc")
	p.ReplyTo = p.addresses(raw("Reply-To"), "Reply-To")
	if d := strings.TrimSpace(raw("Date")); d != "" {
		t, err := mail.ParseDate(d)
		if err != nil {
			p.Warnings = append(p.Warnings, fmt.Sprintf("Date header %q not understood", truncateRunes(d, 80)))
		} else {
			p.Date = t.UTC()
		}
	}
	if ids := messageIDs(raw("Message-ID")); len(ids) > 0 {
		p.MessageID = ids[0]
	}
	if ids := messageIDs(raw("In-Reply-To")); len(ids) > 0 {
		p.InReplyTo = ids[0]
	}
	p.References = capReferences(messageIDs(raw("References")))
}

// eightBitHeaders reads header values sent as raw 8-bit bytes that are not
// UTF-8 (RFC 5322 wants RFC 2047 words, but old clients send Latin-1) the
// way bodies without a charset are read (toValidText): as Windows-1252,
// unless the value holds UTF-8 characters, so "From: J\xf6rg" keeps its
// name and the subject its "Ü" instead of U+FFFD.
func eightBitHeaders(get func(string) string) func(string) string {
	return func(key string) string {
		v := get(key)
		if utf8.ValidString(v) || hasMultibyteUTF8([]byte(v)) {
			return v
		}
		if s, err := decodeCharset("windows-1252", []byte(v)); err == nil {
			return s
		}
		return v
	}
}

// maxReferences bounds the References list. Threading needs the root (first)
// and the nearest ancestors (last); a hostile header can list thousands.
const maxReferences = 100

func capReferences(ids []string) []string {
	if len(ids) <= maxReferences {
		return ids
	}
	out := append([]string{ids[0]}, ids[len(ids)-(maxReferences-1):]...)
	return out
}

// looseAddress finds address-like tokens when a header does not parse as an
// address list at all.
var looseAddress = regexp.MustCompile(`[^\s<>,;:"()\[\]]+@[^\s<>,;:"()\[\]]+`)

// angleAddress finds the angle-addr parts of a header that does not parse.
var angleAddress = regexp.MustCompile(`<([^<>]*@[^<>]*)>`)

func (p *Parsed) addresses(v, name string) []Address {
	out, err := readAddresses(v, 20)
	if err != nil {
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s header not a valid address list, read loosely: %v", name, err))
	}
	return out
}

// ReadAddressList reads an address header value the way Parse reads From,
// To and the others, including its loose reading of a value that does not
// parse (at most 1000 addresses then). Callers that need every address of
// a header (all authors of a From, say) use it on each field.
func ReadAddressList(v string) []Address {
	out, _ := readAddresses(v, 1000)
	return out
}

// readAddresses is ReadAddressList; err is the parse error of a value read
// loosely, at most loose addresses then.
func readAddresses(v string, loose int) ([]Address, error) {
	if strings.TrimSpace(v) == "" {
		return nil, nil
	}
	list, err := enmime.ParseAddressList(v)
	if err != nil {
		// Comments inside an address (legal, and a way to hide the sender
		// from a parser that gives up on them) are read past first.
		if bare := WithoutComments(v); bare != v {
			if l, berr := enmime.ParseAddressList(bare); berr == nil {
				list, err = l, nil
			} else {
				v = bare
			}
		}
	}
	if err != nil {
		// An address in angle brackets is the address (RFC 5322 section
		// 3.4): "support@bank.example <x@evil.example>" is mail from
		// x@evil.example, as mail programs and DMARC read it, not from the
		// look-alike display name.
		var out []Address
		prev := 0
		for _, m := range angleAddress.FindAllStringSubmatchIndex(v, loose) {
			if a := looseAddress.FindString(v[m[2]:m[3]]); a != "" {
				out = append(out, Address{Name: looseDisplayName(v[prev:m[0]]), Address: a})
			}
			prev = m[1]
		}
		if len(out) > 0 {
			return out, err
		}
		for _, a := range looseAddress.FindAllString(v, loose) {
			out = append(out, Address{Address: a})
		}
		return out, err
	}
	out := make([]Address, 0, len(list))
	for _, a := range list {
		out = append(out, Address{Name: cleanHeaderText(a.Name), Address: strings.TrimSpace(a.Address)})
	}
	return out, nil
}

// looseDisplayName reads the display name before an angle address in a
// header that does not parse, for example an encoded word with a raw ":" in
// it: RFC 2047 words decoded, quotes dropped, and line breaks a decoded word
// carries turned into spaces (cleanHeaderText), so "Evil\r\nBcc: x@y" is
// kept and shown as what it is rather than dropped. Only what follows the
// last comma is the name (the rest belongs to the address before).
func looseDisplayName(s string) string {
	if i := strings.LastIndexByte(s, ','); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Trim(strings.TrimSpace(s), `"`)
	return cleanHeaderText(decodeHeader(s))
}

// messageIDs returns the ids in a Message-ID / In-Reply-To / References
// header without angle brackets. Headers without brackets (some mailers) are
// split on white space.
func messageIDs(v string) []string {
	v = strings.TrimSpace(v)
	if v == "" {
		return nil
	}
	var ids []string
	if strings.Contains(v, "<") {
		rest := v
		for {
			i := strings.IndexByte(rest, '<')
			if i < 0 {
				break
			}
			j := strings.IndexByte(rest[i:], '>')
			if j < 0 {
				break
			}
			if id := strings.TrimSpace(rest[i+1 : i+j]); id != "" && !strings.ContainsAny(id, " \t\r\n") {
				ids = append(ids, id)
			}
			rest = rest[i+j+1:]
		}
		return ids
	}
	for _, f := range strings.Fields(v) {
		if strings.Contains(f, "@") {
			ids = append(ids, f)
		}
	}
	return ids
}

func newAttachment(part *enmime.Part, n int) Attachment {
	ct := strings.ToLower(strings.TrimSpace(part.ContentType))
	if ct == "" {
		ct = "application/octet-stream"
	}
	disposition := strings.ToLower(part.Disposition)
	a := Attachment{
		PartID:      part.PartID,
		ContentType: ct,
		ContentID:   strings.Trim(strings.TrimSpace(part.ContentID), "<>"),
		Data:        part.Content,
		Size:        len(part.Content),
	}
	a.Inline = disposition == "inline" || (disposition == "" && a.ContentID != "")
	a.Filename = cleanFilename(part.FileName)
	if a.Filename == "" {
		a.Filename = "attachment-" + strconv.Itoa(n) + extensionFor(ct)
	}
	return a
}

// cleanFilename keeps only the last path element and drops control and
// formatting characters (for example right-to-left overrides that disguise
// "exe" as "pdf"), so the name is safe to show and to offer for download.
func cleanFilename(name string) string {
	name = strings.ToValidUTF8(name, "")
	if i := strings.LastIndexAny(name, `/\`); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if name == "." || name == ".." {
		return ""
	}
	return truncateBytes(name, 255)
}

func extensionFor(contentType string) string {
	switch contentType {
	case "application/pdf":
		return ".pdf"
	case "text/plain":
		return ".txt"
	case "text/html":
		return ".html"
	case "text/csv":
		return ".csv"
	case "text/calendar":
		return ".ics"
	case "application/json":
		return ".json"
	case "image/png":
		return ".png"
	case "image/jpeg":
		return ".jpg"
	case "image/gif":
		return ".gif"
	case "message/rfc822":
		return ".eml"
	}
	return ".bin"
}

// Snippet returns up to n characters (runes) of the message's visible text
// with white space collapsed and quoted reply lines ("> ...") left out, for
// lists and event payloads. A cut snippet ends with "…".
func (p *Parsed) Snippet(n int) string {
	if n <= 0 {
		return ""
	}
	text := p.Text
	if strings.TrimSpace(text) == "" && p.HTML != "" {
		text = HTMLToText(p.HTML)
	}
	var b strings.Builder
	for line := range strings.SplitSeq(text, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, ">") {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t)
		if b.Len() > 4*n+8 { // enough runes collected
			break
		}
	}
	return cutSnippet(strings.Join(strings.Fields(b.String()), " "), n)
}

func cutSnippet(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)[:n-1]
	cut := string(runes)
	// Prefer a word boundary when one is near the end.
	if i := strings.LastIndexByte(cut, ' '); i > 0 && utf8.RuneCountInString(cut[:i]) >= n*4/5 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ") + "…"
}

func normalizeNewlines(s string) string {
	if !strings.Contains(s, "\r") {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// toValidText makes raw bytes showable: text that is not UTF-8 at all is
// taken as Windows-1252 (what most unlabelled 8-bit mail is), UTF-8 with a few
// bad bytes keeps its characters and gets U+FFFD for the bad ones; line ends
// become LF.
func toValidText(b []byte) string {
	if utf8.Valid(b) {
		return normalizeNewlines(string(b))
	}
	if hasMultibyteUTF8(b) {
		// Mostly UTF-8 with some damage: keep the good characters.
		return normalizeNewlines(strings.ToValidUTF8(string(b), "\uFFFD"))
	}
	s, err := decodeCharset("windows-1252", b)
	if err != nil {
		s = strings.ToValidUTF8(string(b), "\uFFFD")
	}
	return normalizeNewlines(s)
}

func hasMultibyteUTF8(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r != utf8.RuneError && size > 1 {
			return true
		}
		b = b[size:]
	}
	return false
}

// cleanHeaderText drops control characters (folded line breaks, NULs) from a
// decoded header value and trims it.
func cleanHeaderText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
			return ' '
		case unicode.IsControl(r):
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// truncateBytes cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncateBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// ComparePartIDs orders MIME part paths ("2" < "10", "1.2" < "1.10" < "2");
// a segment that is not a number compares as text.
func ComparePartIDs(a, b string) int {
	as, bs := strings.Split(a, "."), strings.Split(b, ".")
	for i := range min(len(as), len(bs)) {
		x, errx := strconv.Atoi(as[i])
		y, erry := strconv.Atoi(bs[i])
		if errx == nil && erry == nil {
			if x != y {
				return cmp.Compare(x, y)
			}
			continue
		}
		if c := strings.Compare(as[i], bs[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(as), len(bs))
}
