package content

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"
)

// classicPDF lays out objs as objects 1..n (the catalog first) with a
// classic xref table. In trailerExtra, %[1]d is the xref table's offset (for
// a /Prev that points back at it).
func classicPDF(objs []string, trailerExtra string) []byte {
	return layoutPDF("%PDF-1.4\n", objs, 1, trailerExtra)
}

// layoutPDF writes header, objs as objects 1..n, a classic xref table and a
// trailer whose /Root is object root.
func layoutPDF(header string, objs []string, root int, trailerExtra string) []byte {
	var b bytes.Buffer
	b.WriteString(header)
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	x := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", o)
	}
	extra := trailerExtra
	if strings.Contains(extra, "%[1]d") {
		extra = fmt.Sprintf(extra, x)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %d 0 R %s>>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, root, extra, x)
	return b.Bytes()
}

// streamObj is a stream object body with a correct /Length.
func streamObj(dict, data string) string {
	return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
}

// deflate compresses s as a FlateDecode stream.
func deflate(t testing.TB, s string) string {
	t.Helper()
	var z bytes.Buffer
	w := zlib.NewWriter(&z)
	if _, err := w.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return z.String()
}

// xrefEntrySpec is one row of a cross-reference stream: type 1 (offset of
// the object numbered like the row, filled in by objStreamPDF) or type 2
// (object stream and index).
type xrefEntrySpec struct {
	compressed    bool
	stream, index int
}

// objStreamPDF writes a PDF 1.5 file whose cross-reference is a stream.
// objs maps object numbers to bodies written in the file; compressed rows
// come from rows; the xref stream is object size-1. xrefExtra is added to
// the xref stream's dictionary.
func objStreamPDF(objs map[int]string, rows map[int]xrefEntrySpec, size int, xrefExtra string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.5\n")
	offs := map[int]int{}
	for n := 1; n < size-1; n++ {
		if body, ok := objs[n]; ok {
			offs[n] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
		}
	}
	xnum := size - 1
	offs[xnum] = b.Len()
	var data []byte
	for n := 0; n < size; n++ {
		switch r, ok := rows[n]; {
		case ok && r.compressed:
			data = append(data, 2, byte(r.stream>>24), byte(r.stream>>16), byte(r.stream>>8), byte(r.stream), 0, byte(r.index))
		case offs[n] != 0:
			o := offs[n]
			data = append(data, 1, byte(o>>24), byte(o>>16), byte(o>>8), byte(o), 0, 0)
		default:
			data = append(data, 0, 0, 0, 0, 0, 0xff, 0xff)
		}
	}
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R %s/Length %d >>\nstream\n%s\nendstream\nendobj\n",
		xnum, size, xrefExtra, len(data), data)
	fmt.Fprintf(&b, "startxref\n%d\n%%%%EOF\n", offs[xnum])
	return b.Bytes()
}

// objStmBody is an object stream holding one object, number num.
func objStmBody(num int, obj, extra string) string {
	head := fmt.Sprintf("%d 0 ", num)
	return streamObj(fmt.Sprintf("/Type /ObjStm /N 1 /First %d %s", len(head), extra), head+obj)
}

// goodObjStreamPDF is a valid PDF 1.5 file whose /Pages node is stored in
// an object stream, as most current producers write them.
func goodObjStreamPDF(t testing.TB) []byte {
	return objStreamPDF(map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R >>",
		3: objStmBody(2, "<< /Type /Pages /Kids [4 0 R] /Count 1 >>", ""),
		4: "<< /Type /Page /Parent 2 0 R /Contents 5 0 R /Resources << /Font << /F1 6 0 R >> >> >>",
		5: streamObj("/Filter /FlateDecode", deflate(t, "BT /F1 12 Tf 72 720 Td (Compressed objects) Tj ET")),
		6: "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}, map[int]xrefEntrySpec{2: {compressed: true, stream: 3}}, 8, "")
}

type hostilePDF struct {
	name string
	data []byte
}

// hostilePDFs are files that made github.com/ledongthuc/pdf loop forever,
// recurse until the process died, allocate until it died, or work for hours.
func hostilePDFs(t testing.TB) []hostilePDF {
	catalog := "<< /Type /Catalog /Pages 2 0 R >>"
	onePage := "<< /Type /Pages /Kids [3 0 R] /Count 1 >>"
	page := "<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>"
	text := streamObj("", "BT /F1 12 Tf (Hello) Tj ET")
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
	cmapFont := "<< /Type /Font /Subtype /Type0 /BaseFont /X /ToUnicode 6 0 R >>"

	// A CMap whose every lookup scans 100 000 entries, and a page of 1 MB
	// of text to look up: hours of work in the library's cmap.Decode.
	var cmap strings.Builder
	cmap.WriteString("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <00> <ff> endcodespacerange\n100000 beginbfchar\n")
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&cmap, "<%06x> <0041>\n", i)
	}
	cmap.WriteString("endbfchar endcmap CMapName currentdict /CMap defineresource pop end end\n")
	bigText := "BT /F1 12 Tf (" + strings.Repeat("x", 1<<20) + ") Tj ET"

	return []hostilePDF{
		// The audit's file: a /Pages node that lists itself as a kid.
		{name: "pages node lists itself", data: classicPDF([]string{catalog, "<< /Type /Pages /Kids [2 0 R 2 0 R] /Count 1 >>"}, "")},
		{name: "pages nodes list each other", data: classicPDF([]string{catalog, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "<< /Type /Pages /Kids [2 0 R] /Count 1 >>"}, "")},
		{name: "huge Count", data: classicPDF([]string{catalog, "<< /Type /Pages /Kids [3 0 R] /Count 2000000000 >>", page, text, font}, "")},
		{name: "Parent cycle without Resources", data: classicPDF([]string{catalog, onePage, "<< /Type /Page /Parent 3 0 R /Contents 4 0 R >>", text}, "")},
		{name: "Prev points at its own xref", data: classicPDF([]string{catalog, "<< /Type /Pages /Kids [] /Count 0 >>"}, "/Prev %[1]d ")},
		{name: "hex string open at end of content", data: classicPDF([]string{catalog, onePage, page, streamObj("", "BT <4142"), font}, "")},
		{name: "hex string open at end of ToUnicode", data: classicPDF([]string{catalog, onePage, page, text, cmapFont, streamObj("", "1 begincodespacerange <00> <ff")}, "")},
		{name: "object number 1500000000 in xref table", data: []byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\nxref\n0 1\n0000000000 65535 f \n1500000000 1\n0000000009 00000 n \ntrailer\n<< /Size 2 /Root 1 0 R >>\nstartxref\n44\n%%EOF\n")},
		{name: "predictor Columns of 100 GB", data: classicPDF([]string{catalog, onePage, page, streamObj("/Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 100000000000 >>", deflate(t, "BT ET")), font}, "")},
		{name: "CMap lookups times text length", data: classicPDF([]string{catalog, onePage, page,
			streamObj("/Filter /FlateDecode", deflate(t, bigText)), cmapFont, streamObj("/Filter /FlateDecode", deflate(t, cmap.String()))}, "")},
		{name: "object stream stored in itself", data: objStreamPDF(map[int]string{
			1: catalog,
			3: objStmBody(2, "<< /Type /Pages /Kids [] /Count 0 >>", ""),
		}, map[int]xrefEntrySpec{2: {compressed: true, stream: 3}, 3: {compressed: true, stream: 3}}, 5, "")},
		{name: "xref stream Size 2000000000", data: objStreamPDF(map[int]string{1: catalog}, nil, 3, "/Index [0 3] /Size 2000000000 ")},
		{name: "object stream N huge", data: objStreamPDF(map[int]string{
			1: catalog,
			3: streamObj("/Type /ObjStm /N 9000000000000000000 /First 4", "7 0 null"),
		}, map[int]xrefEntrySpec{2: {compressed: true, stream: 3}}, 5, "")},
		{name: "hex string open at end of object stream", data: objStreamPDF(map[int]string{
			1: catalog,
			3: streamObj("/Type /ObjStm /N 1 /First 4", "2 0 <4142"),
		}, map[int]xrefEntrySpec{2: {compressed: true, stream: 3}}, 5, "")},
		{name: "object stream Extends itself", data: objStreamPDF(map[int]string{
			1: catalog,
			3: objStmBody(9, "null", "/Extends 3 0 R"),
		}, map[int]xrefEntrySpec{2: {compressed: true, stream: 3}}, 5, "")},
	}
}

// TestExtractTextPDFHostile checks that every hostile PDF is answered within
// the timeout with an error, and that nothing is left working once
// ExtractText has returned: no reader process, no goroutine. Before, the
// reader ran in a goroutine that kept looping after the timeout, and some of
// these files killed the whole process (out of memory, stack overflow).
func TestExtractTextPDFHostile(t *testing.T) {
	const timeout = time.Second
	for _, tt := range hostilePDFs(t) {
		t.Run(tt.name, func(t *testing.T) {
			before := runtime.NumGoroutine()
			start := time.Now()
			got, err := ExtractText("application/pdf", "x.pdf", tt.data, Limits{Timeout: timeout})
			elapsed := time.Since(start)
			if err != nil && !errors.Is(err, ErrMalformed) && !errors.Is(err, ErrTimeout) {
				t.Errorf("ExtractText: %v, want ErrMalformed or ErrTimeout", err)
			}
			t.Logf("%q, %v after %s", got, err, elapsed.Round(time.Millisecond))
			if elapsed > timeout+time.Second {
				t.Errorf("ExtractText took %s", elapsed)
			}
			assertNothingLeft(t, before)
		})
	}
}

// assertNothingLeft fails when a PDF reader process or a goroutine started
// by ExtractText outlives it.
func assertNothingLeft(t *testing.T, goroutinesBefore int) {
	t.Helper()
	if n := pdfRunning.Load(); n != 0 {
		t.Errorf("%d PDF reader processes still running", n)
	}
	deadline := time.Now().Add(time.Second) // goroutines that are ending anyway
	for runtime.NumGoroutine() > goroutinesBefore && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutinesBefore {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines after ExtractText returned, %d before:\n%s", n, goroutinesBefore, buf[:runtime.Stack(buf, true)])
	}
}

// TestExtractTextPDFTimeoutStopsWork checks that the timeout stops the work,
// not only the wait: the page is legitimate but slow (48 MB of path
// operators, many seconds of lexing), and its reader is killed.
func TestExtractTextPDFTimeoutStopsWork(t *testing.T) {
	content := strings.Repeat("10 10 m 20 20 l S\n", 48<<20/18)
	data := classicPDF([]string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /Contents 4 0 R /Resources << >> >>",
		streamObj("/Filter /FlateDecode", deflate(t, content)),
	}, "")
	before := runtime.NumGoroutine()
	start := time.Now()
	_, err := ExtractText("application/pdf", "x.pdf", data, Limits{Timeout: 500 * time.Millisecond})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v after %s, want ErrTimeout", err, time.Since(start))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("ExtractText returned after %s", d)
	}
	assertNothingLeft(t, before)
}

// TestPDFReaderProcess checks the reader's side of the protocol in this
// process (servePDF; the limits it sets first apply to a reader process
// only): text on success, exit code pdfChildMalformed and the reason for a
// file it cannot read, and the output limit.
func TestPDFReaderProcess(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := servePDF("1000", bytes.NewReader(goodObjStreamPDF(t)), &out, &errOut); code != 0 || out.String() != "Compressed objects" {
		t.Errorf("good PDF: exit %d, %q, %q", code, out.String(), errOut.String())
	}
	out.Reset()
	errOut.Reset()
	if code := servePDF("1000", strings.NewReader("not a pdf"), &out, &errOut); code != pdfChildMalformed || errOut.Len() == 0 || out.Len() != 0 {
		t.Errorf("junk: exit %d, %q, %q", code, out.String(), errOut.String())
	}
	if code := servePDF("zero", strings.NewReader(""), &out, &errOut); code == 0 || code == pdfChildMalformed {
		t.Errorf("bad limit: exit %d", code)
	}
	lb := &limitedBuffer{buf: &bytes.Buffer{}, max: 5}
	if n, err := lb.Write([]byte("abcdefgh")); n != 8 || err != nil || lb.buf.String() != "abcde" {
		t.Errorf("limitedBuffer kept %q (%d, %v)", lb.buf.String(), n, err)
	}
}

func TestExtractTextPDFObjectStreams(t *testing.T) {
	got, err := ExtractText("application/pdf", "x.pdf", goodObjStreamPDF(t), Limits{})
	if err != nil || got != "Compressed objects" {
		t.Errorf("got %q, %v; want the page text", got, err)
	}
}

// TestWriteHostileFixtures keeps testdata/hostile in step with hostilePDFs
// (regenerate with CONTENT_UPDATE_FIXTURES=1): the files feed the end-to-end
// test that mails them (internal/email/inbound) and are there for anyone
// probing another PDF reader. Large cases stay in code only.
func TestWriteHostileFixtures(t *testing.T) {
	update := os.Getenv("CONTENT_UPDATE_FIXTURES") == "1"
	want := map[string]bool{}
	for _, h := range hostilePDFs(t) {
		if len(h.data) > 16<<10 {
			continue
		}
		name := "testdata/hostile/" + strings.Trim(regexp.MustCompile(`[^a-z0-9]+`).ReplaceAllString(strings.ToLower(h.name), "-"), "-") + ".pdf"
		want[name] = true
		if update {
			if err := os.MkdirAll("testdata/hostile", 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(name, h.data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		got, err := os.ReadFile(name)
		if err != nil || !bytes.Equal(got, h.data) {
			t.Errorf("%s differs from hostilePDFs (%v); rerun with CONTENT_UPDATE_FIXTURES=1", name, err)
		}
	}
	files, _ := filepath.Glob("testdata/hostile/*.pdf")
	for _, f := range files {
		if !want[f] {
			t.Errorf("%s is not produced by hostilePDFs; delete it", f)
		}
	}
}
