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

// BenchmarkScreenOrder screens the 10 KB shipping notice of the ingest
// benchmark (inbound/bench): long, benign, repetitive, text and HTML.
func BenchmarkScreenOrder(b *testing.B) {
	m := orderMessage()
	d := NewDetector()
	c := Context{OrgDomains: []string{"agentsvc.test"}, KnownCorrespondents: []string{"paypal.com", "github.com"}}
	b.SetBytes(int64(len(m.Text) + len(m.HTML)))
	b.ReportAllocs()
	for b.Loop() {
		_ = d.Screen(m, c)
	}
}

// BenchmarkInjectionModel is the learned model's share of screening the
// message of BenchmarkScreenOrder (benign): feature hashing and the
// weighted sum.
func BenchmarkInjectionModel(b *testing.B) {
	m := orderMessage()
	d := NewDetector()
	c := Context{OrgDomains: []string{"agentsvc.test"}}
	ev := d.injectionEvidence(m, c, extractHTML(m.HTML), true)
	in := newModelInputs(ev, false, m.Auth, false)
	b.SetBytes(int64(len(m.Text) + len(m.HTML)))
	b.ReportAllocs()
	for b.Loop() {
		_, _ = d.model.flags(&in)
	}
}

// orderMessage is the 10 KB shipping notice of the ingest benchmark.
func orderMessage() Message {
	var t, h strings.Builder
	for t.Len() < 5<<10 {
		t.WriteString("Your order has shipped and will arrive within three business days. Track it in your account.\r\n")
	}
	h.WriteString("<html><body>")
	for h.Len() < 5<<10 {
		h.WriteString("<p>Your order has <b>shipped</b>. <a href=\"https://shop.example/track\">Track it</a>.</p>\r\n")
	}
	h.WriteString("</body></html>")
	m := Message{From: Address{Name: "Load Sender", Address: "load@sender.example"}, Subject: "Order 1 shipped",
		Text: t.String(), HTML: h.String(), Auth: AuthResults{SPF: "temperror", DKIM: "none", DMARC: "temperror"}}
	return m
}
