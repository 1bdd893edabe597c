package content

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/net/html/charset"
)

// Errors from ExtractText. Callers map them to API responses once: 415 for
// ErrUnsupported, 413 for ErrTooLarge, 422 for ErrMalformed and ErrTimeout.
var (
	ErrUnsupported = errors.New("content: no text extraction for this type")
	ErrTooLarge    = errors.New("content: attachment too large for text extraction")
	ErrMalformed   = errors.New("content: attachment could not be read")
	ErrTimeout     = errors.New("content: text extraction took too long")
)

// Limits bounds the work ExtractText may do on one attachment. Zero fields
// take the defaults of DefaultLimits.
type Limits struct {
	// MaxInput is the largest attachment read, in bytes.
	MaxInput int
	// MaxOutput caps the returned text, in bytes; longer text is cut at a
	// character boundary.
	MaxOutput int
	// Timeout bounds PDF extraction, the only extractor whose running time
	// does not follow from the input size.
	Timeout time.Duration
}

// DefaultLimits suits the API's attachment text endpoint: the whole 10 MB
// attachment allowance, 1 MB of text, and 10 s for a PDF.
func DefaultLimits() Limits {
	return Limits{MaxInput: 10 << 20, MaxOutput: 1 << 20, Timeout: 10 * time.Second}
}

func (l Limits) withDefaults() Limits {
	d := DefaultLimits()
	if l.MaxInput <= 0 {
		l.MaxInput = d.MaxInput
	}
	if l.MaxOutput <= 0 {
		l.MaxOutput = d.MaxOutput
	}
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	return l
}

// kind is what extractor handles an attachment.
type kind int

const (
	kindUnsupported kind = iota
	kindPDF
	kindCSV
	kindJSON
	kindHTML
	kindText
)

// classify decides from the declared type, then the file name, then the
// bytes: senders often label everything application/octet-stream.
func classify(contentType, filename string, data []byte) (kind, map[string]string) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil {
		mt = strings.ToLower(strings.TrimSpace(strings.SplitN(contentType, ";", 2)[0]))
	}
	switch {
	case mt == "application/pdf" || mt == "application/x-pdf":
		return kindPDF, params
	case mt == "text/csv" || mt == "application/csv" || mt == "text/comma-separated-values" ||
		mt == "text/tab-separated-values":
		return kindCSV, params
	case mt == "application/json" || mt == "text/json" || strings.HasSuffix(mt, "+json"):
		return kindJSON, params
	case mt == "text/html" || mt == "application/xhtml+xml":
		return kindHTML, params
	case strings.HasPrefix(mt, "text/"):
		return kindText, params
	case mt == "" || mt == "application/octet-stream" || mt == "binary/octet-stream" ||
		mt == "application/vnd.ms-excel": // what Windows labels .csv files
		switch strings.ToLower(path.Ext(filename)) {
		case ".pdf":
			return kindPDF, params
		case ".csv", ".tsv":
			return kindCSV, params
		case ".json":
			return kindJSON, params
		case ".html", ".htm":
			return kindHTML, params
		case ".txt", ".text", ".log", ".md":
			return kindText, params
		}
		if bytes.HasPrefix(data, []byte("%PDF-")) {
			return kindPDF, params
		}
	}
	return kindUnsupported, params
}

// ExtractText returns the text of an attachment as UTF-8: PDF text, CSV as
// one line per record with fields joined by " | ", JSON validated and
// indented, HTML as HTMLToText renders it, text/* converted from its charset.
// Other types give ErrUnsupported. The output is cut to limits.MaxOutput.
//
// PDF reading runs in a child process under limits.Timeout (pdfchild.go):
// the PDF library is not hardened against hostile files, and a loop, a
// stack overflow or an allocation without end in it must end with the
// child, not stall or kill the server.
func ExtractText(contentType, filename string, data []byte, limits Limits) (string, error) {
	limits = limits.withDefaults()
	if len(data) > limits.MaxInput {
		return "", fmt.Errorf("%w: %d bytes, limit %d", ErrTooLarge, len(data), limits.MaxInput)
	}
	k, params := classify(contentType, filename, data)
	var (
		out string
		err error
	)
	switch k {
	case kindPDF:
		out, err = pdfText(data, limits)
	case kindCSV:
		out, err = csvText(data, params["charset"], limits.MaxOutput)
	case kindJSON:
		out, err = jsonText(data)
	case kindHTML:
		var s string
		s, err = htmlSource(data, contentType)
		out = HTMLToText(s)
	case kindText:
		out, err = textToUTF8(data, params["charset"])
		out = normalizeNewlines(out)
	default:
		return "", fmt.Errorf("%w: %q", ErrUnsupported, contentType)
	}
	if err != nil {
		return "", err
	}
	return truncateBytes(out, limits.MaxOutput), nil
}

// textToUTF8 decodes text in its declared charset. Undeclared text that is
// not valid UTF-8 is read as Windows-1252, the usual culprit.
func textToUTF8(data []byte, cs string) (string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if cs == "" {
		if utf8.Valid(data) {
			return string(data), nil
		}
		cs = "windows-1252"
	}
	s, err := decodeCharset(cs, data)
	if err != nil {
		// An unknown label should not hide text that is readable anyway.
		return toValidText(data), nil
	}
	return s, nil
}

func htmlSource(data []byte, contentType string) (string, error) {
	enc, _, _ := charset.DetermineEncoding(data, contentType)
	b, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return toValidText(data), nil
	}
	return string(b), nil
}

func jsonText(data []byte) (string, error) {
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if !json.Valid(data) {
		return "", fmt.Errorf("%w: invalid JSON", ErrMalformed)
	}
	var b bytes.Buffer
	if err := json.Indent(&b, data, "", "  "); err != nil {
		return "", fmt.Errorf("%w: %w", ErrMalformed, err)
	}
	return b.String(), nil
}

// csvText renders each record as one line, fields joined by " | ", so a
// reader (or a model) sees the columns without CSV quoting. The delimiter is
// guessed from the first line: comma, semicolon (European spreadsheets) or
// tab.
func csvText(data []byte, cs string, maxOutput int) (string, error) {
	s, err := textToUTF8(data, cs)
	if err != nil {
		return "", err
	}
	r := csv.NewReader(strings.NewReader(s))
	r.Comma = guessDelimiter(s)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = true
	var b strings.Builder
	for b.Len() <= maxOutput {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("%w: csv: %w", ErrMalformed, err)
		}
		for i, f := range rec {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(strings.Join(strings.Fields(f), " "))
		}
		b.WriteByte('\n')
	}
	return b.String(), nil
}

func guessDelimiter(s string) rune {
	first, _, _ := strings.Cut(s, "\n")
	best, bestN := ',', strings.Count(first, ",")
	for _, d := range []rune{';', '\t'} {
		if n := strings.Count(first, string(d)); n > bestN {
			best, bestN = d, n
		}
	}
	return best
}

// readPDF reads the text of every page in order, stopping early once
// maxOutput is reached. It runs only in a PDF reader process (pdfchild.go).
func readPDF(data []byte, maxOutput int) (string, error) {
	r, err := pdf.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return "", fmt.Errorf("%w: pdf: %w", ErrMalformed, err)
	}
	var b strings.Builder
	for i := 1; i <= r.NumPage() && b.Len() <= maxOutput; i++ {
		page := r.Page(i)
		if page.V.IsNull() {
			continue
		}
		text, err := page.GetPlainText(nil)
		if err != nil {
			return "", fmt.Errorf("%w: pdf page %d: %w", ErrMalformed, i, err)
		}
		b.WriteString(strings.TrimSpace(text))
		b.WriteString("\n\n") // a blank line between pages
	}
	return strings.ToValidUTF8(strings.TrimSpace(b.String()), "\uFFFD"), nil
}
