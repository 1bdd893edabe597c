package screen

import (
	"bytes"
	"fmt"
	"net/mail"
	"strings"
	"unicode/utf8"

	"github.com/emersion/go-msgauth/authres"
	"github.com/jhillyerd/enmime/v2"
	"github.com/ledongthuc/pdf"
)

// Limits for reading attachment text while parsing; screening must stay
// cheap for every delivery.
const (
	maxAttachmentText = 64 << 10
	maxPDFBytes       = 4 << 20
	maxPDFPages       = 20
)

// MessageFromRaw parses an RFC 5322 message into a Message. It is what the
// evaluation uses; the inbound pipeline builds Message from its own parse.
// Malformed MIME yields whatever could be read, not an error; only input
// enmime cannot read at all fails.
func MessageFromRaw(raw []byte) (Message, error) {
	// Character-set detection stays on only for parts that declare no
	// charset: enmime otherwise trusts a statistical guess over a declared
	// charset, and a short UTF-8 text with a few accents ("códigos") is
	// then read as Latin-1 mojibake that no word list matches.
	env, err := enmime.NewParser(enmime.DisableCharacterDetection(true)).ReadEnvelope(bytes.NewReader(raw))
	if err != nil {
		return Message{}, fmt.Errorf("parse message: %w", err)
	}
	m := Message{
		Subject: env.GetHeader("Subject"),
		Headers: map[string][]string{},
	}
	for _, k := range env.GetHeaderKeys() {
		m.Headers[k] = env.GetHeaderValues(k)
	}
	m.From = firstAddress(env, "From")
	m.ReplyTo = addresses(env, "Reply-To")
	if rp, ok := lenientAddress(env.GetHeader("Return-Path")); ok {
		m.ReturnPath = rp.Address
	}
	m.To = addresses(env, "To")
	m.Auth = authFromHeaders(env.GetHeaderValues("Authentication-Results"))

	var text, htmlBody strings.Builder
	var walk func(p *enmime.Part)
	walk = func(p *enmime.Part) {
		if p == nil {
			return
		}
		if p.FirstChild != nil {
			for c := p.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
			return
		}
		ct := strings.ToLower(p.ContentType)
		isBody := p.Disposition != "attachment" && p.FileName == ""
		switch {
		case isBody && (ct == "text/plain" || ct == ""):
			text.Write(p.Content)
			text.WriteString("\n\n")
		case isBody && ct == "text/html":
			htmlBody.Write(p.Content)
			htmlBody.WriteString("\n")
		case strings.HasPrefix(ct, "multipart/"):
		default:
			m.Attachments = append(m.Attachments, attachmentFromPart(p))
		}
	}
	walk(env.Root)
	m.Text = text.String()
	m.HTML = htmlBody.String()
	return m, nil
}

func attachmentFromPart(p *enmime.Part) Attachment {
	ct := strings.ToLower(p.ContentType)
	a := Attachment{Filename: p.FileName, ContentType: p.ContentType, Size: int64(len(p.Content)), Executable: ExecutableFormat(p.Content)}
	switch {
	case strings.HasPrefix(ct, "text/"), ct == "application/json", ct == "application/xml", ct == "message/rfc822",
		ct == "application/ics", strings.HasSuffix(ct, "+json"), strings.HasSuffix(ct, "+xml"):
		if utf8.Valid(p.Content) {
			a.Text = truncate(string(p.Content), maxAttachmentText)
		}
	case ct == "application/pdf" || strings.EqualFold(ext(p.FileName), "pdf"):
		a.Text = pdfText(p.Content)
	case ct == "application/zip" || ct == "application/x-zip-compressed" || strings.EqualFold(ext(p.FileName), "zip"):
		a.ArchiveEntries, a.ArchiveExecutables = InspectArchive(p.Content)
	}
	return a
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	for !utf8.ValidString(s) && len(s) > 0 {
		s = s[:len(s)-1]
	}
	return s
}

// pdfText extracts the text layer of a small PDF. The PDF reader can panic
// on malformed files; a panic here means "no text", never a failed parse.
func pdfText(b []byte) (text string) {
	if len(b) == 0 || len(b) > maxPDFBytes {
		return ""
	}
	defer func() {
		if recover() != nil {
			text = ""
		}
	}()
	r, err := pdf.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return ""
	}
	var sb strings.Builder
	for i := 1; i <= r.NumPage() && i <= maxPDFPages && sb.Len() < maxAttachmentText; i++ {
		p := r.Page(i)
		if p.V.IsNull() {
			continue
		}
		rows, err := p.GetTextByRow()
		if err != nil {
			continue
		}
		for _, row := range rows {
			for _, w := range row.Content {
				sb.WriteString(w.S)
			}
			sb.WriteString("\n")
		}
		sb.WriteString("\n")
	}
	return truncate(sb.String(), maxAttachmentText)
}

func addresses(env *enmime.Envelope, key string) []Address {
	if env.GetHeader(key) == "" {
		return nil
	}
	list, err := env.AddressList(key)
	if err != nil || len(list) == 0 {
		// Raw UTF-8 addresses (RFC 6532) or sloppy syntax: fall back to a
		// lenient split so the domain is still screened.
		var out []Address
		for _, v := range strings.Split(env.GetHeader(key), ",") {
			if a, ok := lenientAddress(v); ok {
				out = append(out, a)
			}
		}
		return out
	}
	out := make([]Address, 0, len(list))
	for _, a := range list {
		out = append(out, Address{Name: a.Name, Address: a.Address})
	}
	return out
}

func firstAddress(env *enmime.Envelope, key string) Address {
	if l := addresses(env, key); len(l) > 0 {
		return l[0]
	}
	return Address{}
}

func lenientAddress(v string) (Address, bool) {
	v = strings.TrimSpace(v)
	if a, err := mail.ParseAddress(v); err == nil {
		return Address{Name: a.Name, Address: a.Address}, true
	}
	name, addr := "", v
	if i := strings.LastIndexByte(v, '<'); i >= 0 {
		name = strings.Trim(strings.TrimSpace(v[:i]), `"`)
		addr = strings.TrimSuffix(strings.TrimSpace(v[i+1:]), ">")
	}
	if !strings.Contains(addr, "@") {
		return Address{}, false
	}
	return Address{Name: name, Address: strings.TrimSpace(addr)}, true
}

// authFromHeaders reads the first SPF, DKIM and DMARC results recorded in
// Authentication-Results (RFC 8601). The receiving server's own header is
// the topmost; later ones may be forged by the sender, so the first value
// per method wins.
func authFromHeaders(values []string) AuthResults {
	var a AuthResults
	for _, v := range values {
		_, results, err := authres.Parse(v)
		if err != nil || len(results) == 0 {
			// Exchange Online writes the results without the authserv-id
			// that RFC 8601 section 2.2 puts first ("spf=fail (...)
			// smtp.mailfrom=...; dkim=none ..."): read them as if it were there.
			if _, results, err = authres.Parse("unknown; " + v); err != nil {
				continue
			}
		}
		for _, r := range results {
			switch r := r.(type) {
			case *authres.SPFResult:
				if a.SPF == "" {
					a.SPF = string(r.Value)
				}
			case *authres.DKIMResult:
				if a.DKIM == "" {
					a.DKIM = string(r.Value)
				}
			case *authres.DMARCResult:
				if a.DMARC == "" {
					a.DMARC = string(r.Value)
				}
			}
		}
	}
	return a
}
