package content

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"

	"github.com/ledongthuc/pdf"
)

// Why this file exists. github.com/ledongthuc/pdf is not hardened against
// hostile files, and Go cannot stop a goroutine, so a timeout alone only stops
// the waiting: a PDF that makes the library loop keeps a CPU busy forever
// after ExtractText has returned, and some PDFs of a few hundred bytes kill
// the whole process (a fatal stack overflow or out-of-memory, which no recover
// catches). Reading the library (v0.0.0-20260907135840-6c8c28e0e8a0) found:
//
//   - (*Reader).Page walks /Kids without a depth limit: a /Pages node that
//     lists itself loops forever; NumPage trusts /Count, so a huge /Count
//     makes a page-by-page loop run billions of times;
//   - Page.findInherited follows /Parent without a limit (a cycle loops);
//   - NewReader follows /Prev without noticing a cycle, and sizes its object
//     table from /Size, /Index or the first object number of an xref
//     subsection: one large number allocates gigabytes (fatal);
//   - resolve loads an object from an object stream by first resolving the
//     stream, recursively: an object stream whose own xref entry points into
//     an object stream recurses without any I/O until the stack overflows
//     (fatal); /N of an object stream bounds a loop that runs on at end of
//     data; /Extends is followed without a limit;
//   - the lexer, where end of data is allowed (content streams, ToUnicode
//     CMaps, object streams), spins forever on a hex string left open at the
//     end;
//   - text decoding is linear in the CMap or /Differences size per byte of
//     text, and a CMap can expand each byte to a long string.
//
// The defence, without forking the library:
//
//  1. checkPDFXref reads the cross-reference sections itself (pdfsyntax.go)
//     before the library sees the file, and refuses object numbers beyond a
//     bound that follows from the file size, /Prev cycles, object streams
//     stored in object streams, and object streams the library would read
//     past their end (scanned through a synthetic copy of the file that
//     lists only those streams);
//  2. every byte the library reads comes through pdfSource, which stops the
//     library (by a panic the library's own recovers turn into an error) once
//     the caller has given up, once a read budget is spent, or when the stack
//     is deeper than any legitimate file needs;
//  3. pdfPages walks the page tree through the library's Value API with a
//     depth limit and a node budget, and pageGuard checks every page's
//     /Parent chain, content streams and fonts before the library
//     interprets them.

// Bounds for one PDF. Generous for real documents; each names what it stops.
const (
	maxPageTreeDepth = 64      // a real page tree is a few levels deep
	maxPageTreeNodes = 1 << 16 // pages plus intermediate /Pages nodes
	maxXrefSections  = 256     // incremental updates, each with its /Prev
	maxFontsPerPage  = 1024
	maxDifferences   = 1024    // a /Differences array maps at most 256 codes
	maxCMapString    = 256     // longest string in a ToUnicode CMap
	maxCMapOperands  = 1 << 19 // a full 16-bit CMap has about 130 000
	maxPendingOps    = 1 << 17 // operands before an operator in page content
	maxDecodedTotal  = 64 << 20
	maxDecodeWork    = 1 << 31 // text bytes x CMap entries, per page
	maxExpandedText  = 1 << 28 // text bytes x longest CMap string, per page
	maxStackFrames   = 8192    // the library nests at most 1000 objects deep
)

var errPDFRefused = errors.New("pdf refused")

func refuse(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errPDFRefused, fmt.Sprintf(format, args...))
}

// maxObjectNumber bounds object numbers (and so the library's object table)
// by the file size: every object costs bytes somewhere in the file.
func maxObjectNumber(size int) int { return size/8 + 1<<16 }

// pdfAbort is the panic value pdfSource uses to stop the library; the
// library's recovers return it as an error, ours as ErrMalformed.
type pdfAbort struct{ err error }

func (a pdfAbort) Error() string { return a.err.Error() }
func (a pdfAbort) Unwrap() error { return a.err }

// pdfSource is the io.ReaderAt the library reads the file through. Every
// loop in the library that follows references reads, so checking here
// bounds them all: after ctx ends (the caller stopped waiting), after
// budget bytes, or when the call stack is so deep that an unbounded
// recursion is under way (a Go stack overflow is fatal, not recoverable).
type pdfSource struct {
	data   []byte
	ctx    context.Context
	read   int64
	budget int64
	pcs    []uintptr
}

func newPDFSource(ctx context.Context, data []byte) *pdfSource {
	return &pdfSource{
		data:   data,
		ctx:    ctx,
		budget: 256<<20 + 16*int64(len(data)),
		pcs:    make([]uintptr, maxStackFrames),
	}
}

func (s *pdfSource) ReadAt(p []byte, off int64) (int, error) {
	if err := s.ctx.Err(); err != nil {
		panic(pdfAbort{fmt.Errorf("%w: stopped", ErrTimeout)})
	}
	if runtime.Callers(0, s.pcs) == len(s.pcs) {
		panic(pdfAbort{refuse("references nested too deeply")})
	}
	s.read += int64(len(p))
	if s.read > s.budget {
		panic(pdfAbort{refuse("reading needs more than %d bytes of I/O", s.budget)})
	}
	if off < 0 || off > int64(len(s.data)) {
		return 0, io.EOF
	}
	n := copy(p, s.data[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// xrefEntry mirrors the library's xref: what resolve will find for an
// object number.
type xrefEntry struct {
	num      uint32 // ptr.id; zero with gen zero means "not set" to the library
	gen      uint16
	inStream bool
	stream   uint32
	offset   int64
}

func (e xrefEntry) set() bool { return e.num != 0 || e.gen != 0 }

type xrefTable struct {
	entries []xrefEntry
	trailer pdfDict // the newest section's trailer, as r.trailer
	stream  bool    // cross-reference streams (object streams possible)
	limit   int
	ctx     context.Context
}

func (t *xrefTable) ensure(x int64) error {
	if x < 0 || x > int64(t.limit) {
		return refuse("object number %d outside 0..%d", x, t.limit)
	}
	if int(x) >= len(t.entries) {
		t.entries = append(t.entries, make([]xrefEntry, int(x)-len(t.entries)+1)...)
	}
	return nil
}

// startXref finds the startxref offset as NewReaderEncrypted does.
func startXref(data []byte) (int64, error) {
	if len(data) < 10 || !bytes.HasPrefix(data, []byte("%PDF-1.")) || data[7] < '0' || data[7] > '7' || data[8] != '\r' && data[8] != '\n' {
		return 0, refuse("not a PDF file: invalid header")
	}
	const endChunk = 100
	tail := data[max(0, len(data)-endChunk):]
	tail = bytes.TrimRight(tail, "\r\n\t ")
	if !bytes.HasSuffix(tail, []byte("%%EOF")) {
		return 0, refuse("not a PDF file: missing %%%%EOF")
	}
	i := findLastLine(tail, "startxref")
	if i < 0 {
		return 0, refuse("missing final startxref")
	}
	l := &pdfLexer{data: tail, pos: i + len("startxref")}
	tok, err := l.token()
	off, ok := tok.(int64)
	if err != nil || !ok {
		return 0, refuse("startxref not followed by an integer")
	}
	return off, nil
}

func findLastLine(buf []byte, s string) int {
	end := len(buf)
	for {
		i := bytes.LastIndex(buf[:end], []byte(s))
		if i <= 0 || i+len(s) >= len(buf) {
			return -1
		}
		if (buf[i-1] == '\n' || buf[i-1] == '\r') && (buf[i+len(s)] == '\n' || buf[i+len(s)] == '\r') {
			return i
		}
		end = i
	}
}

// readXrefMirror builds the object table the library will build, refusing
// what would make the library allocate without bound or loop.
func readXrefMirror(ctx context.Context, data []byte) (*xrefTable, error) {
	start, err := startXref(data)
	if err != nil {
		return nil, err
	}
	if start < 0 || start >= int64(len(data)) {
		return nil, refuse("startxref outside the file")
	}
	t := &xrefTable{limit: maxObjectNumber(len(data)), ctx: ctx}
	l := &pdfLexer{data: data, pos: int(start)}
	tok, err := l.token()
	if err != nil {
		return nil, err
	}
	if tok == pdfKeyword("xref") {
		return t, t.readTables(data, l)
	}
	if _, ok := tok.(int64); !ok {
		return nil, refuse("cross-reference table not found")
	}
	t.stream = true
	return t, t.readStreams(data, start)
}

func (t *xrefTable) readTables(data []byte, l *pdfLexer) error {
	seen := map[int]bool{l.pos: true}
	first := true
	for sections := 0; ; sections++ {
		if sections > maxXrefSections {
			return refuse("more than %d cross-reference sections", maxXrefSections)
		}
		if err := t.readTableData(l); err != nil {
			return err
		}
		obj, err := l.object()
		if err != nil {
			return err
		}
		trailer, ok := obj.(pdfDict)
		if !ok {
			return refuse("xref table not followed by a trailer dictionary")
		}
		if first {
			t.trailer, first = trailer, false
		}
		prev, ok := trailer["Prev"]
		if !ok || prev == nil {
			break
		}
		off, ok := prev.(int64)
		if !ok || off < 0 || off >= int64(len(data)) {
			return refuse("bad /Prev %v", prev)
		}
		if seen[int(off)] {
			return refuse("/Prev chain of cross-reference sections is cyclic")
		}
		seen[int(off)] = true
		l = &pdfLexer{data: data, pos: int(off)}
		if tok, err := l.token(); err != nil || tok != pdfKeyword("xref") {
			return refuse("/Prev does not point to an xref table")
		}
	}
	size, ok := t.trailer["Size"].(int64)
	if !ok || size < 0 {
		return refuse("trailer without a valid /Size")
	}
	if size < int64(len(t.entries)) {
		t.entries = t.entries[:size]
	}
	return nil
}

func (t *xrefTable) readTableData(l *pdfLexer) error {
	for {
		tok, err := l.token()
		if err != nil {
			return err
		}
		if tok == pdfKeyword("trailer") {
			return nil
		}
		start, ok1 := tok.(int64)
		ntok, err := l.token()
		if err != nil {
			return err
		}
		n, ok2 := ntok.(int64)
		if !ok1 || !ok2 {
			return refuse("malformed xref table")
		}
		for i := int64(0); i < n; i++ {
			var f [3]any
			for j := range f {
				if f[j], err = l.token(); err != nil {
					return err
				}
			}
			off, ok1 := f[0].(int64)
			gen, ok2 := f[1].(int64)
			alloc, ok3 := f[2].(pdfKeyword)
			if !ok1 || !ok2 || !ok3 || alloc != "f" && alloc != "n" {
				return refuse("malformed xref table")
			}
			x := start + i
			if err := t.ensure(x); err != nil {
				return err
			}
			if alloc == "n" && t.entries[x].offset == 0 {
				t.entries[x] = xrefEntry{num: uint32(x), gen: uint16(gen), offset: off}
			}
		}
	}
}

func (t *xrefTable) readStreams(data []byte, start int64) error {
	seen := map[int64]bool{start: true}
	off := start
	var size int64
	for sections := 0; ; sections++ {
		if sections > maxXrefSections {
			return refuse("more than %d cross-reference sections", maxXrefSections)
		}
		def, err := objectAt(data, off)
		if err != nil {
			return err
		}
		strm, ok := def.obj.(pdfStream)
		if !ok {
			return refuse("cross-reference stream not found")
		}
		if strm.hdr["Type"] != pdfName("XRef") {
			return refuse("xref stream does not have type XRef")
		}
		ssize, ok := strm.hdr["Size"].(int64)
		if sections == 0 {
			if !ok || ssize < 0 || ssize > int64(t.limit) {
				return refuse("xref stream /Size %v outside 0..%d", strm.hdr["Size"], t.limit)
			}
			size = ssize
			t.trailer = strm.hdr
			t.entries = make([]xrefEntry, size)
		} else if ssize > size {
			return refuse("xref prev stream larger than last stream")
		}
		if err := t.readStreamData(data, off, def.ref, strm, max(ssize, 0)); err != nil {
			return err
		}
		prev, ok := strm.hdr["Prev"]
		if !ok || prev == nil {
			return nil
		}
		if off, ok = prev.(int64); !ok || off < 0 || off >= int64(len(data)) {
			return refuse("bad /Prev %v", prev)
		}
		if seen[off] {
			return refuse("/Prev chain of cross-reference sections is cyclic")
		}
		seen[off] = true
	}
}

func (t *xrefTable) readStreamData(data []byte, objOff int64, ref pdfRef, strm pdfStream, size int64) error {
	index, _ := strm.hdr["Index"].(pdfArray)
	if index == nil {
		index = pdfArray{int64(0), size}
	}
	if len(index)%2 != 0 {
		return refuse("invalid /Index")
	}
	ww, ok := strm.hdr["W"].(pdfArray)
	if !ok || len(ww) < 3 {
		return refuse("invalid /W")
	}
	var w []int
	total := 0
	for _, x := range ww {
		i, ok := x.(int64)
		if !ok || i < 0 || i > 8 {
			return refuse("invalid /W %v", x)
		}
		w = append(w, int(i))
		total += int(i)
	}
	var need int64
	for i := 0; i < len(index); i += 2 {
		start, ok1 := index[i].(int64)
		n, ok2 := index[i+1].(int64)
		if !ok1 || !ok2 || start < 0 || n < 0 || start+n-1 > int64(t.limit) {
			return refuse("invalid /Index pair %v %v", index[i], index[i+1])
		}
		need += n * int64(total)
	}
	if err := checkColumns(strm.hdr["DecodeParms"]); err != nil {
		return err
	}
	// The library decodes the stream itself; let it, through a file that
	// lists only this object, so the bytes are exactly the ones it will see.
	syn, err := syntheticReader(t.ctx, data, map[uint32]xrefEntry{ref.num: {num: ref.num, gen: ref.gen, offset: objOff}}, []pdfRef{ref}, nil)
	if err != nil {
		return err
	}
	v := syn.Trailer().Key("X").Index(0)
	if v.Kind() != pdf.Stream {
		return refuse("cross-reference stream unreadable")
	}
	buf := make([]byte, total)
	rd := v.Reader()
	defer rd.Close()
	decoded := io.LimitReader(rd, need)
	for i := 0; i < len(index); i += 2 {
		start, n := index[i].(int64), index[i+1].(int64)
		for j := int64(0); j < n; j++ {
			if _, err := io.ReadFull(decoded, buf); err != nil {
				return refuse("reading xref stream: %v", err)
			}
			v1 := decodeInt(buf[0:w[0]])
			if w[0] == 0 {
				v1 = 1
			}
			v2 := decodeInt(buf[w[0] : w[0]+w[1]])
			v3 := decodeInt(buf[w[0]+w[1] : w[0]+w[1]+w[2]])
			x := start + j
			if err := t.ensure(x); err != nil {
				return err
			}
			if t.entries[x].set() {
				continue
			}
			switch v1 {
			case 0:
				t.entries[x] = xrefEntry{gen: 65535}
			case 1:
				t.entries[x] = xrefEntry{num: uint32(x), gen: uint16(v3), offset: int64(v2)}
			case 2:
				t.entries[x] = xrefEntry{num: uint32(x), inStream: true, stream: uint32(v2), offset: int64(v3)}
			}
		}
	}
	return nil
}

// maxColumns bounds /Columns of a PNG predictor: the library allocates a
// row of that many bytes before reading anything.
const maxColumns = 1 << 20

// checkColumns checks DecodeParms as read by pdfLexer (a dictionary, or an
// array of them for a filter array).
func checkColumns(parms any) error {
	switch p := parms.(type) {
	case pdfDict:
		if c, ok := p["Columns"].(int64); ok && (c < 0 || c > maxColumns) {
			return refuse("/Columns %d", c)
		}
	case pdfArray:
		for _, e := range p {
			if err := checkColumns(e); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkColumnsValue is checkColumns through the library's Value API.
func checkColumnsValue(v pdf.Value) error {
	parms := v.Key("DecodeParms")
	check := func(d pdf.Value) error {
		if c := d.Key("Columns").Int64(); c < 0 || c > maxColumns {
			return refuse("/Columns %d", c)
		}
		return nil
	}
	if parms.Kind() == pdf.Array {
		for i := 0; i < parms.Len() && i < 64; i++ {
			if err := check(parms.Index(i)); err != nil {
				return err
			}
		}
		if parms.Len() > 64 {
			return refuse("%d decode parameter sets", parms.Len())
		}
		return nil
	}
	return check(parms)
}

func decodeInt(b []byte) int {
	x := 0
	for _, c := range b {
		x = x<<8 | int(c)
	}
	return x
}

// syntheticReader opens data with an appended cross-reference section that
// lists only entries, and a trailer whose /X array references refs (and that
// carries the original /Encrypt and /ID, so encrypted streams decode the
// same). The library then reads those objects exactly as it reads them in
// the real file, but cannot reach anything else.
func syntheticReader(ctx context.Context, data []byte, entries map[uint32]xrefEntry, refs []pdfRef, trailer pdfDict) (*pdf.Reader, error) {
	var b strings.Builder
	b.WriteString("\n")
	xrefAt := len(data) + b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	var maxNum uint32
	for num, e := range entries {
		if e.offset < 0 {
			return nil, refuse("object %d not found", num)
		}
		fmt.Fprintf(&b, "%d 1\n%010d %05d n \n", num, e.offset, e.gen)
		maxNum = max(maxNum, num)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /X [", maxNum+1)
	for _, r := range refs {
		fmt.Fprintf(&b, "%d %d R ", r.num, r.gen)
	}
	b.WriteString("]")
	for _, k := range []pdfName{"Encrypt", "ID"} {
		if v, ok := trailer[k]; ok {
			b.WriteString(" ")
			writePDFObject(&b, k)
			b.WriteString(" ")
			writePDFObject(&b, v)
		}
	}
	fmt.Fprintf(&b, " >>\nstartxref\n%d\n%%%%EOF\n", xrefAt)
	src := &concatReaderAt{ctx: ctx, a: data, b: []byte(b.String())}
	r, err := pdf.NewReader(src, src.size())
	if err != nil {
		return nil, refuse("%v", err)
	}
	return r, nil
}

// concatReaderAt serves data plus the synthetic section; like pdfSource it
// stops the library once ctx ends.
type concatReaderAt struct {
	ctx  context.Context
	a, b []byte
}

func (c *concatReaderAt) size() int64 { return int64(len(c.a) + len(c.b)) }

func (c *concatReaderAt) ReadAt(p []byte, off int64) (int, error) {
	if err := c.ctx.Err(); err != nil {
		panic(pdfAbort{fmt.Errorf("%w: stopped", ErrTimeout)})
	}
	n := 0
	for len(p) > 0 {
		switch {
		case off < 0 || off >= c.size():
			return n, io.EOF
		case off < int64(len(c.a)):
			m := copy(p, c.a[off:])
			n, p, off = n+m, p[m:], off+int64(m)
		default:
			m := copy(p, c.b[off-int64(len(c.a)):])
			n, p, off = n+m, p[m:], off+int64(m)
		}
	}
	return n, nil
}

// checkObjectStreams makes sure that loading a compressed object cannot
// recurse or spin: no object stream is itself in an object stream, and
// every object stream (and every stream it /Extends) has an /N its data
// can hold and no hex string open at its end. budget is the shared decode
// allowance.
func (t *xrefTable) checkObjectStreams(data []byte, budget *int64) error {
	if !t.stream {
		return nil
	}
	var work []uint32
	queued := map[uint32]bool{}
	for _, e := range t.entries {
		if !e.inStream {
			continue
		}
		if int(e.stream) < len(t.entries) && t.entries[e.stream].inStream {
			return refuse("object stream %d is itself stored in an object stream", e.stream)
		}
		if !queued[e.stream] {
			queued[e.stream] = true
			work = append(work, e.stream)
		}
	}
	typeOne := func(num uint32) (xrefEntry, bool) {
		if int(num) >= len(t.entries) {
			return xrefEntry{}, false
		}
		e := t.entries[num]
		return e, !e.inStream && e.offset != 0 && e.num == num
	}
	lookup := map[uint32]xrefEntry{}
	extends := map[uint32]uint32{}
	var refs []pdfRef
	for len(work) > 0 {
		num := work[0]
		work = work[1:]
		e, ok := typeOne(num)
		if !ok || e.gen != 0 {
			continue // resolve finds no stream there and fails cleanly
		}
		def, err := objectAt(data, e.offset)
		if err != nil || def.ref != (pdfRef{num, 0}) {
			continue // the library fails on it too
		}
		strm, ok := def.obj.(pdfStream)
		if !ok {
			continue
		}
		h := strm.hdr
		for _, k := range []pdfName{"Type", "N", "First", "Filter", "DecodeParms"} {
			if hasRef(h[k]) {
				return refuse("object stream %d: indirect /%s", num, k)
			}
		}
		if err := checkColumns(h["DecodeParms"]); err != nil {
			return err
		}
		if r, ok := h["Length"].(pdfRef); ok {
			le, ok := typeOne(r.num)
			if !ok {
				return refuse("object stream %d: /Length is not a plain object", num)
			}
			lookup[r.num] = le
		}
		if ext, ok := h["Extends"]; ok && ext != nil {
			r, ok := ext.(pdfRef)
			if !ok {
				return refuse("object stream %d: bad /Extends", num)
			}
			if _, ok := typeOne(r.num); !ok && int(r.num) < len(t.entries) && t.entries[r.num].inStream {
				return refuse("object stream %d extends a compressed object", num)
			}
			extends[num] = r.num
			if !queued[r.num] {
				queued[r.num] = true
				work = append(work, r.num)
			}
		}
		lookup[num] = e
		refs = append(refs, pdfRef{num, 0})
	}
	// resolve follows /Extends until it finds the object, without a limit.
	for start := range extends {
		seen := map[uint32]bool{start: true}
		for n, ok := extends[start]; ok; n, ok = extends[n] {
			if seen[n] {
				return refuse("object stream %d: /Extends chain is cyclic", start)
			}
			seen[n] = true
		}
	}
	if len(refs) == 0 {
		return nil
	}
	if r, ok := t.trailer["Encrypt"].(pdfRef); ok {
		e, ok := typeOne(r.num)
		if !ok {
			return refuse("/Encrypt is not a plain object")
		}
		lookup[r.num] = e
	}
	syn, err := syntheticReader(t.ctx, data, lookup, refs, t.trailer)
	if err != nil {
		return err
	}
	list := syn.Trailer().Key("X")
	for i := 0; i < list.Len(); i++ {
		v := list.Index(i)
		if v.Kind() != pdf.Stream || v.Key("Type").Name() != "ObjStm" {
			continue
		}
		scan, err := scanStream(t.ctx, []pdf.Value{v}, budget)
		if err != nil {
			return refuse("object stream %d: %v", refs[i].num, err)
		}
		if n := v.Key("N").Int64(); n > int64(scan.size/2+1) {
			return refuse("object stream %d: /N %d for %d bytes", refs[i].num, n, scan.size)
		}
	}
	return nil
}

func hasRef(v any) bool {
	switch v := v.(type) {
	case pdfRef:
		return true
	case pdfArray:
		for _, e := range v {
			if hasRef(e) {
				return true
			}
		}
	case pdfDict:
		for _, e := range v {
			if hasRef(e) {
				return true
			}
		}
	}
	return false
}

// streamScan summarizes decoded stream data for the bounds above.
type streamScan struct {
	size        int // decoded bytes
	stringBytes int // bytes inside strings
	maxString   int
	operands    int // all operands
	maxPending  int // most operands before one operator
}

// scanStream decodes streams as the library's Interpret will see them (one
// after the other), charging budget, and refuses data that ends inside a
// hex string: the library's lexer, where end of data is allowed, reads that
// end as whitespace forever.
func scanStream(ctx context.Context, streams []pdf.Value, budget *int64) (streamScan, error) {
	var data []byte
	for _, v := range streams {
		if err := checkColumnsValue(v); err != nil {
			return streamScan{}, err
		}
		rd := v.Reader()
		b, err := io.ReadAll(io.LimitReader(rd, *budget+1))
		rd.Close()
		*budget -= int64(len(b))
		if *budget < 0 {
			return streamScan{}, fmt.Errorf("more than %d bytes of decoded streams", maxDecodedTotal)
		}
		if err != nil {
			return streamScan{}, fmt.Errorf("stream unreadable: %v", err)
		}
		if data == nil {
			data = b
		} else {
			data = append(data, b...)
		}
	}
	// Hex digits and whitespace are all a hex string may hold; if the last
	// other byte is '<', the library's readHexString reaches the end.
	tail := bytes.TrimRight(data, "0123456789abcdefABCDEF\x00\t\n\f\r ")
	if len(tail) > 0 && tail[len(tail)-1] == '<' {
		return streamScan{}, errors.New("hex string open at the end of the stream")
	}
	return tallyOperands(ctx, data)
}

// tallyOperands counts strings and operands roughly as the library's lexer
// splits them; the counts only feed the bounds, so being approximate in odd
// corners (the library's error recovery) is fine.
func tallyOperands(ctx context.Context, data []byte) (streamScan, error) {
	s := streamScan{size: len(data)}
	pending := 0
	next := 1 << 20
	for i := 0; i < len(data); {
		if i >= next { // data can be tens of megabytes: notice a timeout
			if err := ctx.Err(); err != nil {
				return s, fmt.Errorf("%w: stopped", ErrTimeout)
			}
			next = i + 1<<20
		}
		c := data[i]
		switch {
		case pdfIsSpace(c):
			i++
		case c == '%':
			for i < len(data) && data[i] != '\r' && data[i] != '\n' {
				i++
			}
		case c == '(':
			depth, n := 1, 0
			for i++; i < len(data) && depth > 0; i++ {
				switch data[i] {
				case '\\':
					i++
				case '(':
					depth++
				case ')':
					depth--
				}
				n++
			}
			s.stringBytes += n
			s.maxString = max(s.maxString, n)
			pending++
		case c == '<' && i+1 < len(data) && data[i+1] == '<', c == '>' && i+1 < len(data) && data[i+1] == '>':
			i += 2
		case c == '<':
			j := bytes.IndexByte(data[i:], '>')
			if j < 0 {
				j = len(data) - i
			}
			n := (j + 1) / 2
			s.stringBytes += n
			s.maxString = max(s.maxString, n)
			pending++
			i += j + 1
		case c == '[' || c == ']' || c == '{' || c == '}' || c == ')' || c == '>':
			i++
		case c == '/':
			for i++; i < len(data) && !pdfIsDelim(data[i]) && !pdfIsSpace(data[i]); i++ {
			}
			pending++
		default:
			j := i
			for ; j < len(data) && !pdfIsDelim(data[j]) && !pdfIsSpace(data[j]); j++ {
			}
			word := data[i:j]
			i = max(j, i+1)
			if pdfIsInteger(word) || pdfIsReal(word) || string(word) == "true" || string(word) == "false" {
				pending++
				continue
			}
			s.operands += pending
			s.maxPending = max(s.maxPending, pending)
			pending = 0
		}
	}
	s.operands += pending
	s.maxPending = max(s.maxPending, pending)
	return s, nil
}

// pdfPages returns the page leaves in order, walking the tree through the
// library's Value API with a depth limit and a node budget instead of
// trusting /Count (the library's Page and NumPage do): a tree that lists
// itself, however indirectly, exceeds one or the other.
func pdfPages(r *pdf.Reader) ([]pdf.Value, error) {
	root := r.Trailer().Key("Root").Key("Pages")
	if root.Key("Type").Name() != "Pages" {
		return nil, nil
	}
	type item struct {
		v     pdf.Value
		depth int
	}
	stack := []item{{root, 0}}
	var pages []pdf.Value
	nodes := 0
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if nodes++; nodes > maxPageTreeNodes {
			return nil, refuse("page tree has more than %d nodes (or is cyclic)", maxPageTreeNodes)
		}
		switch it.v.Key("Type").Name() {
		case "Page":
			pages = append(pages, it.v)
		case "Pages":
			if it.depth >= maxPageTreeDepth {
				return nil, refuse("page tree deeper than %d levels (or cyclic)", maxPageTreeDepth)
			}
			kids := it.v.Key("Kids")
			if n := kids.Len(); n > maxPageTreeNodes-nodes {
				return nil, refuse("page tree has more than %d nodes", maxPageTreeNodes)
			}
			for i := kids.Len() - 1; i >= 0; i-- { // reversed: the stack pops the first kid first
				stack = append(stack, item{kids.Index(i), it.depth + 1})
			}
		}
	}
	return pages, nil
}

// pageGuard checks one page before the library interprets it. cmaps caches
// CMap scans across pages, keyed by the stream's identity (its header and
// file offset, which is what Value.String prints for a stream).
type pageGuard struct {
	ctx    context.Context
	budget int64
	cmaps  map[string]streamScan
}

func (g *pageGuard) check(page pdf.Value) error {
	// Page.findInherited walks /Parent until it finds /Resources.
	var resources pdf.Value
	steps := 0
	for v := page; !v.IsNull(); v = v.Key("Parent") {
		if steps++; steps > maxPageTreeDepth+2 {
			return refuse("cyclic /Parent chain")
		}
		if r := v.Key("Resources"); !r.IsNull() {
			resources = r
			break
		}
	}
	contents := page.Key("Contents")
	var streams []pdf.Value
	switch contents.Kind() {
	case pdf.Null:
		return nil // the library skips the page
	case pdf.Array:
		if contents.Len() > maxPageTreeNodes {
			return refuse("page has %d content streams", contents.Len())
		}
		for i := 0; i < contents.Len(); i++ {
			streams = append(streams, contents.Index(i))
		}
	default:
		streams = []pdf.Value{contents}
	}
	text, err := scanStream(g.ctx, streams, &g.budget)
	if err != nil {
		return refuse("page content: %v", err)
	}
	if text.maxPending > maxPendingOps {
		return refuse("page content: %d operands without an operator", text.maxPending)
	}

	fonts := resources.Key("Font")
	names := fonts.Keys()
	if len(names) > maxFontsPerPage {
		return refuse("page has %d fonts", len(names))
	}
	entries, longest := 0, 1
	for _, name := range names {
		f := fonts.Key(name)
		if enc := f.Key("Encoding"); enc.Kind() == pdf.Dict {
			n := enc.Key("Differences").Len()
			if n > maxDifferences {
				return refuse("font %s: /Differences has %d entries", name, n)
			}
			entries = max(entries, n)
		}
		tu := f.Key("ToUnicode")
		if tu.Kind() != pdf.Stream {
			continue
		}
		key := tu.String()
		cm, ok := g.cmaps[key]
		if !ok {
			if cm, err = scanStream(g.ctx, []pdf.Value{tu}, &g.budget); err != nil {
				return refuse("font %s ToUnicode: %v", name, err)
			}
			g.cmaps[key] = cm
		}
		if cm.operands > maxCMapOperands || cm.maxString > maxCMapString {
			return refuse("font %s: ToUnicode CMap too large (%d operands, %d-byte string)", name, cm.operands, cm.maxString)
		}
		entries = max(entries, cm.operands/2)
		longest = max(longest, cm.maxString)
	}
	if int64(text.stringBytes)*int64(entries+1) > maxDecodeWork || int64(text.stringBytes)*int64(longest) > maxExpandedText {
		return refuse("page text of %d bytes with %d-entry encodings is too costly to decode", text.stringBytes, entries)
	}
	return nil
}
