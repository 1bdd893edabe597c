package enmime

// agentsvc patch: reading at the end of unclosed nested multiparts must not
// re-read every enclosing level (boundaryReader.srcEOF), and MaxMIMEDepth
// keeps a multipart nested too deep as an unparsed leaf.

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
)

// unclosedNesting is a message with depth multiparts, each opened by its
// parent's delimiter and none ever closed, and a text part at the bottom.
func unclosedNesting(depth int) string {
	var b strings.Builder
	b.WriteString("Subject: deep\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B0\"\r\n\r\n")
	for i := range depth {
		fmt.Fprintf(&b, "--B%d\r\nContent-Type: multipart/mixed; boundary=\"B%d\"\r\n\r\n", i, i+1)
	}
	fmt.Fprintf(&b, "--B%d\r\nContent-Type: text/plain\r\n\r\ndeep body\r\n", depth)
	return b.String()
}

// countingReader counts the Read calls that reach the message source.
type countingReader struct {
	r     io.Reader
	calls int
}

func (c *countingReader) Read(p []byte) (int, error) {
	c.calls++
	return c.r.Read(p)
}

func TestUnclosedNestingReadsSourceLinearly(t *testing.T) {
	// Without the remembered EOF every read at the bottom of the nesting
	// read each enclosing level about twice over: at depth 20 the source
	// saw millions of reads (and the parse took seconds); at 25, a minute.
	for _, depth := range []int{5, 20, 40} {
		src := &countingReader{r: strings.NewReader(unclosedNesting(depth))}
		env, err := NewParser().ReadEnvelope(src)
		if err != nil {
			t.Fatalf("depth %d: %v", depth, err)
		}
		if !strings.Contains(env.Text, "deep body") {
			t.Errorf("depth %d: text %q, want the innermost body", depth, env.Text)
		}
		t.Logf("depth %d: %d reads", depth, src.calls)
		if limit := 20 * (depth + 1); src.calls > limit {
			t.Fatalf("depth %d: the source was read %d times, want at most %d", depth, src.calls, limit)
		}
	}
}

func TestMaxMIMEDepthKeepsDeeperMultipartAsLeaf(t *testing.T) {
	p := NewParser(MaxMIMEDepth(4))

	t.Run("unclosed", func(t *testing.T) {
		env, err := p.ReadEnvelope(strings.NewReader(unclosedNesting(60)))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(env.Text, "deep body") {
			t.Errorf("text %q: the body below the depth limit was parsed", env.Text)
		}
		leaves := env.Root.DepthMatchAll(func(part *Part) bool {
			for _, e := range part.Errors {
				if e.Name == ErrorNestingTooDeep {
					return true
				}
			}
			return false
		})
		if len(leaves) != 1 {
			t.Fatalf("%d parts carry %q, want 1", len(leaves), ErrorNestingTooDeep)
		}
		leaf := leaves[0]
		// Levels 1-4 are the root and three nested multiparts; the fifth
		// is the leaf, 1.1.1.1 in the tree.
		if leaf.PartID != "1.1.1.1" || leaf.FirstChild != nil || leaf.ContentType != "multipart/mixed" {
			t.Errorf("leaf %s %s children=%v, want 1.1.1.1 multipart/mixed with no children", leaf.PartID, leaf.ContentType, leaf.FirstChild != nil)
		}
		if !bytes.Contains(leaf.Content, []byte("--B5\r\n")) || !bytes.Contains(leaf.Content, []byte("deep body")) {
			t.Errorf("leaf content %q, want the unparsed body", leaf.Content)
		}
	})

	t.Run("closed, with a sibling after", func(t *testing.T) {
		var b strings.Builder
		b.WriteString("Content-Type: multipart/mixed; boundary=\"B0\"\r\n\r\n")
		for i := range 6 {
			fmt.Fprintf(&b, "--B%d\r\nContent-Type: multipart/mixed; boundary=\"B%d\"\r\n\r\n", i, i+1)
		}
		b.WriteString("--B6\r\nContent-Type: text/plain\r\n\r\ntoo deep\r\n--B6--\r\n")
		for i := 5; i >= 1; i-- {
			fmt.Fprintf(&b, "--B%d--\r\n", i)
		}
		b.WriteString("--B0\r\nContent-Type: text/plain\r\n\r\nsibling text\r\n--B0--\r\n")
		env, err := p.ReadEnvelope(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(env.Text, "sibling text") || strings.Contains(env.Text, "too deep") {
			t.Errorf("text %q, want the sibling after the capped part and not the part below the limit", env.Text)
		}
	})

	t.Run("default has no limit", func(t *testing.T) {
		env, err := NewParser().ReadEnvelope(strings.NewReader(unclosedNesting(60)))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(env.Text, "deep body") {
			t.Errorf("text %q, want the innermost body", env.Text)
		}
	})
}
