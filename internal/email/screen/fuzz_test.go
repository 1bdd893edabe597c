package screen

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzScreen feeds arbitrary bytes through parsing and screening, both as a
// raw message and directly as text and HTML: neither may panic. Seeds are
// small messages so the fuzzer spends its time on mutations, not on parsing.
func FuzzScreen(f *testing.F) {
	for _, name := range []string{"dev-032.eml", "dev-035.eml", "dev-067.eml", "ext-041.eml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "eval", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	// Multilingual mail exercises the word tables (folding, unspaced scripts).
	for _, name := range []string{"d2-001.eml", "d2-023.eml", "d2-039.eml", "d2-125.eml"} {
		b, err := os.ReadFile(filepath.Join("testdata", "dev2", name))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("From: X <a@DhI.CO.uk>\r\n\r\nप्रिय एआई सहायक, 亲爱的智能助手：ถึงผู้ช่วย AI"))
	f.Add([]byte("From: =?utf-8?b?\xff?= <a@\xff.com>\r\n\r\n<div style=\"color:rgb(1,2\">"))
	d := NewDetector()
	c := Context{OrgDomains: []string{"acme-corp.com"}, KnownCorrespondents: []string{"paypal.com"}}
	f.Fuzz(func(t *testing.T, b []byte) {
		if m, err := MessageFromRaw(b); err == nil {
			_ = d.Screen(m, c)
		}
		s := string(b)
		r := d.Screen(Message{From: Address{Name: s, Address: s}, ReplyTo: []Address{{Address: "x@" + s}}, Text: s, HTML: s, Attachments: []Attachment{{Filename: s, Text: s}}}, c)
		if r.Verdict == "" {
			t.Fatal("empty verdict")
		}
	})
}
