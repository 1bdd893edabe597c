package enmime

// agentsvc patch: the fast path in boundaryReader.Read must return exactly
// what upstream's byte-at-a-time loop returns. readByteAtATime below is
// upstream v2.5.0's Read, unchanged apart from its name; the tests drive both
// over the same inputs, part by part and with uneven read sizes, and compare
// every result.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"testing"

	"github.com/pkg/errors"
)

// readByteAtATime is upstream's boundaryReader.Read (v2.5.0). It ignores
// srcEOF (the second agentsvc change), so the traces also check that
// answering io.EOF from the remembered source EOF returns what upstream's
// loop returns.
func (b *boundaryReader) readByteAtATime(dest []byte) (n int, err error) {
	if b.buffer.Len() >= len(dest) {
		n, err = b.buffer.Read(dest)
		if b.atPartStart && n > 0 {
			b.atPartStart = false
		}
		return n, err
	}
	for range dest {
		var cs []byte
		cs, err = b.r.Peek(1)
		if err != nil && err != io.EOF {
			return 0, errors.WithStack(err)
		}
		if len(cs) > 0 {
			padding := 1
			check := false
			switch cs[0] {
			case '\r':
				padding = 2
				check = true
			case '\n':
				check = true
			default:
				if b.atPartStart {
					padding = 0
					check = true
				}
			}
			if check {
				var peek []byte
				peek, err = b.r.Peek(len(b.nlPrefix) + padding + 1)
				switch err {
				case nil:
					if bytes.HasPrefix(peek, []byte("\n\n")) ||
						bytes.HasPrefix(peek, []byte("\n\r")) ||
						bytes.HasPrefix(peek, []byte("\r\n\r")) ||
						bytes.HasPrefix(peek, []byte("\r\n\n")) {
						break
					}
					if b.isDelimiter(peek[padding:]) || b.isTerminator(peek[padding:]) {
						n, err = b.buffer.Read(dest)
						switch err {
						case nil, io.EOF:
							if b.atPartStart && n > 0 {
								b.atPartStart = false
							}
							return n, io.EOF
						default:
							return 0, errors.WithStack(err)
						}
					}
				case io.EOF:
					b.unbounded = true
				default:
					continue
				}
			}
		}
		var next byte
		next, err = b.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return 0, errors.WithStack(err)
		}
		if err = b.buffer.WriteByte(next); err != nil {
			return 0, errors.WithStack(err)
		}
	}
	n, err = b.buffer.Read(dest)
	if b.atPartStart && n > 0 {
		b.atPartStart = false
	}
	return n, err
}

// boundaryTrace reads input through a boundaryReader part by part, with the
// read sizes of sizes (cycled), and records everything it observes.
func boundaryTrace(input []byte, boundary string, bufSize int, sizes []int, read func(*boundaryReader, []byte) (int, error)) string {
	var out bytes.Buffer
	br := newBoundaryReader(bufio.NewReaderSize(bytes.NewReader(input), bufSize), boundary)
	step := 0
	for part := 0; part < 50; part++ {
		more, err := br.Next()
		fmt.Fprintf(&out, "next %v %v\n", more, err != nil)
		if !more {
			break
		}
		for reads := 0; reads < 10000; reads++ {
			dest := make([]byte, sizes[step%len(sizes)])
			step++
			n, err := read(br, dest)
			fmt.Fprintf(&out, "read %d %q %v unbounded=%v\n", n, dest[:n], err, br.unbounded)
			if err != nil {
				// Once more after the error: a reader at its end must keep
				// answering the same (the remembered source EOF answers
				// without reading, see boundaryReader.srcEOF).
				n, err = read(br, dest)
				fmt.Fprintf(&out, "again %d %q %v unbounded=%v\n", n, dest[:n], err, br.unbounded)
				break
			}
		}
	}
	rest, _ := io.ReadAll(br.r)
	fmt.Fprintf(&out, "rest %q\n", rest)
	return out.String()
}

func checkFastPath(t *testing.T, input []byte, boundary string, bufSize int, sizes []int) {
	t.Helper()
	want := boundaryTrace(input, boundary, bufSize, sizes, (*boundaryReader).readByteAtATime)
	got := boundaryTrace(input, boundary, bufSize, sizes, (*boundaryReader).Read)
	if got != want {
		t.Fatalf("fast path differs from the byte-at-a-time read\ninput %q boundary %q bufsize %d sizes %v\nwant:\n%s\ngot:\n%s",
			input, boundary, bufSize, sizes, want, got)
	}
}

// randomMIME builds input from pieces that exercise the delimiter checks:
// line ends of both kinds, blank lines, the boundary with and without its
// dashes, whitespace and terminators, and runs of ordinary text.
func randomMIME(r *rand.Rand, boundary string) []byte {
	pieces := []string{"\r\n", "\n", "\r", "\r\n\r\n", "--", "--" + boundary, "--" + boundary + "--",
		"\r\n--" + boundary + "\r\n", "\n--" + boundary + "\n", "\r\n--" + boundary + "--\r\n", boundary, " ", "\t", "-",
		"x", "Content-Type: text/plain\r\n\r\n", "the quick brown fox jumps over the lazy dog ", "é", "\x00"}
	var b bytes.Buffer
	for range r.Intn(120) {
		if r.Intn(8) == 0 {
			b.WriteString(string(bytes.Repeat([]byte{'a' + byte(r.Intn(26))}, r.Intn(300))))
			continue
		}
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.Bytes()
}

func TestBoundaryReaderFastPathMatchesByteAtATime(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	boundaries := []string{"b", "bb", "STOPHERE", "----=_Part_123_456.789", "x-y"}
	bufSizes := []int{16, 64, 100, 4096}
	for i := range 20000 {
		boundary := boundaries[i%len(boundaries)]
		sizes := make([]int, 1+r.Intn(4))
		for j := range sizes {
			sizes[j] = 1 + r.Intn(700)
		}
		checkFastPath(t, randomMIME(r, boundary), boundary, bufSizes[r.Intn(len(bufSizes))], sizes)
	}
}

func FuzzBoundaryReaderFastPath(f *testing.F) {
	f.Add([]byte("--bb\r\nContent-Type: text/plain\r\n\r\nhello\r\n--bb\r\n\r\nx--bb y\r\n--bb--\r\n"), "bb", uint16(4096), uint16(7))
	f.Add([]byte("--bb\nab--bb \n--bb--"), "bb", uint16(16), uint16(1))
	f.Fuzz(func(t *testing.T, input []byte, boundary string, bufSize, size uint16) {
		if boundary == "" || len(boundary) > 70 {
			return
		}
		checkFastPath(t, input, boundary, max(16, int(bufSize)%8192), []int{1 + int(size)%5000, 1 + int(size)%13})
	})
}
