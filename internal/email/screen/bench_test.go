package screen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkScreen screens a ~10 KB newsletter (HTML with hidden text and a
// plain-text part), the common case for every inbound message.
func BenchmarkScreen(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join("testdata", "eval", "dev-039.eml"))
	if err != nil {
		b.Fatal(err)
	}
	m, err := MessageFromRaw(raw)
	if err != nil {
		b.Fatal(err)
	}
	// Pad to about 10 KB of body text.
	for len(m.Text)+len(m.HTML) < 10<<10 {
		m.Text += strings.Repeat("Spot rates fell again on most lanes this week. ", 10) + "\n\n"
	}
	d := NewDetector()
	c := Context{OrgDomains: []string{"acme-corp.com"}, KnownCorrespondents: []string{"paypal.com", "github.com"}}
	b.SetBytes(int64(len(m.Text) + len(m.HTML)))
	b.ReportAllocs()
	for b.Loop() {
		_ = d.Screen(m, c)
	}
}
