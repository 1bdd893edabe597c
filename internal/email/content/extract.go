package content

import (
	"bytes"
	"context"
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
// PDF reading runs in its own goroutine under limits.Timeout with panics
// recovered: the PDF library is not hardened against hostile files. The file
// is checked first and the library's reading is bounded (pdfguard.go), so
// the goroutine ends by itself; on timeout it is told to stop and does at
// its next read of the file.
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

type extractResult struct {
	text string
	err  error
}

func pdfText(data []byte, limits Limits) (string, error) {
	return guarded(limits.Timeout, func(ctx context.Context) (string, error) { return readPDF(ctx, data, limits.MaxOutput) })
}

// stopGrace is how long guarded waits, after its timeout, for the extractor
// to notice the cancelled context and end. readPDF notices at its next read
// of the file (see pdfSource), so this is short.
const stopGrace = 2 * time.Second

// guarded runs an extractor that is not trusted to return, or to return
// without panicking, on hostile input. A panic becomes ErrMalformed. On
// timeout the extractor's context is cancelled and guarded waits up to
// stopGrace for it to end, so that the work stops, not just the wait; an
// extractor that ignores its context is abandoned after that (Go cannot stop
// a goroutine; its result is dropped into a buffered channel).
func guarded(timeout time.Duration, extract func(ctx context.Context) (string, error)) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	done := make(chan extractResult, 1)
	go func() {
		var res extractResult
		defer func() {
			if r := recover(); r != nil {
				res = extractResult{err: fmt.Errorf("%w: reader failed: %v", ErrMalformed, r)}
			}
			done <- res
		}()
		res.text, res.err = extract(ctx)
	}()
	select {
	case res := <-done:
		return res.text, res.err
	case <-ctx.Done():
		select {
		case <-done:
		case <-time.After(stopGrace):
		}
		return "", fmt.Errorf("%w: after %s", ErrTimeout, timeout)
	}
}

// readPDF reads the text of every page in order, stopping early once
// maxOutput is reached. The library only ever sees a file that passed the
// checks in pdfguard.go, through a pdfSource that stops it when ctx ends.
func readPDF(ctx context.Context, data []byte, maxOutput int) (string, error) {
	table, err := readXrefMirror(ctx, data)
	if err != nil {
		return "", fmt.Errorf("%w: pdf: %w", ErrMalformed, err)
	}
	guard := &pageGuard{ctx: ctx, budget: maxDecodedTotal, cmaps: map[string]streamScan{}}
	if err := table.checkObjectStreams(data, &guard.budget); err != nil {
		return "", fmt.Errorf("%w: pdf: %w", ErrMalformed, err)
	}
	r, err := pdf.NewReader(newPDFSource(ctx, data), int64(len(data)))
	if err != nil {
		return "", fmt.Errorf("%w: pdf: %w", ErrMalformed, err)
	}
	pages, err := pdfPages(r)
	if err != nil {
		return "", fmt.Errorf("%w: pdf: %w", ErrMalformed, err)
	}
	var b strings.Builder
	for i, page := range pages {
		if b.Len() > maxOutput {
			break
		}
		if err := guard.check(page); err != nil {
			return "", fmt.Errorf("%w: pdf page %d: %w", ErrMalformed, i+1, err)
		}
		text, err := pdf.Page{V: page}.GetPlainText(nil)
		if err != nil {
			return "", fmt.Errorf("%w: pdf page %d: %w", ErrMalformed, i+1, err)
		}
		b.WriteString(strings.TrimSpace(text))
		b.WriteString("\n\n") // a blank line between pages
	}
	return strings.ToValidUTF8(strings.TrimSpace(b.String()), "\uFFFD"), nil
}
