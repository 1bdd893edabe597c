package content

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// buildPDF writes a small but complete PDF: one page per entry, each line of
// the entry shown with Tj, Helvetica, a correct cross-reference table. With
// compress the content streams are FlateDecode, as real producers write them.
func buildPDF(t testing.TB, pages []string, compress bool) []byte {
	t.Helper()
	var objs []string // objs[i] is object i+1
	add := func(s string) int { objs = append(objs, s); return len(objs) }
	catalog := add("") // filled below
	pagesObj := add("")
	font := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	var kids []string
	for _, page := range pages {
		var content strings.Builder
		content.WriteString("BT /F1 12 Tf 14 TL 72 720 Td\n")
		for i, line := range strings.Split(page, "\n") {
			if i > 0 {
				content.WriteString("T*\n")
			}
			esc := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`).Replace(line)
			fmt.Fprintf(&content, "(%s) Tj\n", esc)
		}
		content.WriteString("ET\n")
		stream := []byte(content.String())
		dict := fmt.Sprintf("<< /Length %d >>", len(stream))
		if compress {
			var z bytes.Buffer
			w := zlib.NewWriter(&z)
			if _, err := w.Write(stream); err != nil {
				t.Fatal(err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			stream = z.Bytes()
			dict = fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>", len(stream))
		}
		c := add(dict + "\nstream\n" + string(stream) + "\nendstream")
		p := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", pagesObj, c, font))
		kids = append(kids, fmt.Sprintf("%d 0 R", p))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj)
	objs[pagesObj-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))

	return layoutPDF("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n", objs, catalog, "")
}

func TestExtractTextPDF(t *testing.T) {
	fixture, err := os.ReadFile("testdata/invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		data []byte
		want []string
	}{
		{"plain one page", buildPDF(t, []string{"Hello World\nInvoice (March)"}, false), []string{"Hello World\nInvoice (March)"}},
		{"compressed two pages", buildPDF(t, []string{"Page one text", "Page two text"}, true), []string{"Page one text\n\nPage two text"}},
		{"committed fixture", fixture, []string{"Invoice 2025-0042", "Total due: EUR 1,250.00", "Thank you"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExtractText("application/pdf", "x.pdf", tt.data, Limits{})
			if err != nil {
				t.Fatalf("ExtractText: %v", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("text %q lacks %q", got, w)
				}
			}
		})
	}
}

// TestWriteFixture regenerates testdata/invoice.pdf when run with
// CONTENT_UPDATE_FIXTURES=1; otherwise it checks the committed file is the
// generator's output, so the fixture and the generator cannot drift apart.
func TestWriteFixture(t *testing.T) {
	want := buildPDF(t, []string{"Invoice 2025-0042\nACME GmbH, Hauptstrasse 5, 10115 Berlin\nTotal due: EUR 1,250.00", "Thank you for your business."}, true)
	if os.Getenv("CONTENT_UPDATE_FIXTURES") == "1" {
		if err := os.WriteFile("testdata/invoice.pdf", want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile("testdata/invoice.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("testdata/invoice.pdf differs from buildPDF output; rerun with CONTENT_UPDATE_FIXTURES=1")
	}
}

func TestExtractTextPDFBad(t *testing.T) {
	good := buildPDF(t, []string{"Hello"}, true)
	inputs := map[string][]byte{
		"garbage":        []byte("%PDF-1.7\nthis is not a pdf at all"),
		"truncated":      good[:len(good)/2],
		"bad xref":       bytes.Replace(good, []byte("xref"), []byte("xraf"), 1),
		"broken stream":  bytes.Replace(good, []byte("/FlateDecode"), []byte("/LZWDecode  "), 1),
		"empty":          {},
		"only a header":  []byte("%PDF-1.4\n"),
		"trailer loop":   []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Pages 1 0 R >>\nendobj\ntrailer\n<< /Root 1 0 R >>\nstartxref\n9\n%%EOF\n"),
		"negative count": bytes.Replace(good, []byte("/Count 1"), []byte("/Count -5"), 1),
	}
	for name, data := range inputs {
		t.Run(name, func(t *testing.T) {
			text, err := ExtractText("application/pdf", "x.pdf", data, Limits{Timeout: 2 * time.Second})
			if err == nil {
				// Recovering some text from a damaged file is fine; failing is too. Neither may panic.
				t.Logf("recovered %q", text)
				return
			}
			if !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTimeout) {
				t.Errorf("error %v is neither ErrMalformed nor ErrTimeout", err)
			}
		})
	}
}

func TestExtractTextFormats(t *testing.T) {
	tests := []struct {
		name, contentType, filename string
		data                        string
		want                        string
	}{
		{"csv quoted fields", "text/csv", "r.csv", "name,amount,note\r\n\"Doe, Jane\",12.50,\"multi\nline\"\r\nBob,3,\r\n",
			"name | amount | note\nDoe, Jane | 12.50 | multi line\nBob | 3 | \n"},
		{"csv semicolons latin-1", "text/csv; charset=iso-8859-1", "r.csv", "Stra\xdfe;Betrag\nM\xfcnchen;5\n",
			"Straße | Betrag\nMünchen | 5\n"},
		{"csv labelled octet-stream", "application/octet-stream", "export.CSV", "a\tb\n1\t2\n", "a | b\n1 | 2\n"},
		{"csv ragged rows", "text/csv", "", "a,b,c\n1\n", "a | b | c\n1\n"},
		{"json pretty", "application/json", "d.json", `{"a":[1,2],"b":{"c":"ü"}}`,
			"{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {\n    \"c\": \"ü\"\n  }\n}"},
		{"json suffix type", "application/ld+json; charset=utf-8", "", `[1]`, "[\n  1\n]"},
		{"html to text", "text/html; charset=utf-8", "p.html", `<h2>Terms</h2><p>Read <b>this</b>.</p><script>x()</script>`,
			"-----\nTerms\n-----\n\nRead *this*."},
		{"html charset from meta", "text/html", "p.html", "<meta charset=\"iso-8859-1\"><p>Gr\xfc\xdfe</p>", "Grüße"},
		{"text latin-1", "text/plain; charset=iso-8859-1", "a.txt", "caf\xe9\r\nna\xefve", "café\nnaïve"},
		{"text undeclared cp1252", "text/plain", "a.txt", "\x93quoted\x94 \x80", "“quoted” €"},
		{"text with bom", "text/plain", "", "\xef\xbb\xbfhello", "hello"},
		{"text unknown charset", "text/plain; charset=x-klingon", "", "plain", "plain"},
		{"markdown by type", "text/markdown", "n.md", "# T\n", "# T\n"},
		{"pdf sniffed from octet-stream", "application/octet-stream", "scan", string(buildPDF(t, []string{"Sniffed"}, false)), "Sniffed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ExtractText(tt.contentType, tt.filename, []byte(tt.data), Limits{})
			if err != nil {
				t.Fatalf("ExtractText: %v", err)
			}
			if got != tt.want {
				t.Errorf("got %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestExtractTextErrors(t *testing.T) {
	tests := []struct {
		name, contentType, filename string
		data                        []byte
		limits                      Limits
		want                        error
	}{
		{"image", "image/png", "a.png", []byte("\x89PNG"), Limits{}, ErrUnsupported},
		{"zip", "application/zip", "a.zip", []byte("PK"), Limits{}, ErrUnsupported},
		{"unknown octet-stream", "application/octet-stream", "blob.bin", []byte{0, 1, 2}, Limits{}, ErrUnsupported},
		{"bad content type", ";;;", "", []byte("x"), Limits{}, ErrUnsupported},
		{"invalid json", "application/json", "", []byte(`{"a":`), Limits{}, ErrMalformed},
		{"json trailing garbage", "text/json", "", []byte(`{"a":1} x`), Limits{}, ErrMalformed},
		{"too large", "text/plain", "", bytes.Repeat([]byte("a"), 101), Limits{MaxInput: 100}, ErrTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ExtractText(tt.contentType, tt.filename, tt.data, tt.limits)
			if !errors.Is(err, tt.want) {
				t.Errorf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

func TestExtractTextOutputCap(t *testing.T) {
	data := strings.Repeat("ä", 100) // 200 bytes
	got, err := ExtractText("text/plain", "", []byte(data), Limits{MaxOutput: 51})
	if err != nil {
		t.Fatal(err)
	}
	if got != strings.Repeat("ä", 25) {
		t.Errorf("got %d bytes %q, want 25 runes cut on a rune boundary", len(got), got)
	}
	csvData := strings.Repeat("a,b\n", 1000)
	got, err = ExtractText("text/csv", "", []byte(csvData), Limits{MaxOutput: 100})
	if err != nil || len(got) != 100 {
		t.Errorf("csv: %d bytes, %v", len(got), err)
	}
}
