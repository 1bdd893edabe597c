package screen

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestRequiredLiterals(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string // nil: no prefilter
	}{
		{`ignore previous`, []string{"ignore previous"}},
		{`\b(?:forward|send)\s+it\b`, []string{"forward", "send"}},
		{`(?i)IGNORE`, []string{"ignore"}},
		{`a*b?`, nil},
		{`(?:foo|x*)bar`, []string{"bar"}},
		{`(?:foo|x*)`, nil},
		{`(?:abc){2,}`, []string{"abc"}},
		{`(?:abc){0,2}`, nil},
		{`summari[sz]e`, []string{"summarise", "summarize"}},
		{`da(?:me|nos)\b`, []string{"dame", "danos"}},
		{`pre-?(?:approved|cleared)`, []string{"preapproved", "precleared", "pre-approved", "pre-cleared"}},
		{`[\w-]+`, nil},
	} {
		got := requiredLiterals(tc.expr)
		slices.Sort(got)
		want := slices.Clone(tc.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("requiredLiterals(%q) = %q, want %q", tc.expr, got, want)
		}
	}
}

// TestPrefilterSound checks, for every injection pattern, that no text the
// pattern matches in the evaluation and holdout mail is skipped by its
// prefilter: the prefilter may only save work, never change a result.
func TestPrefilterSound(t *testing.T) {
	r := newInjectionRules()
	texts := evalParagraphs(t)
	if len(texts) < 500 {
		t.Fatalf("only %d paragraphs to check", len(texts))
	}
	checked := 0
	for _, pt := range r.patterns {
		for _, p := range texts {
			if pt.re.MatchString(p) {
				checked++
				if !mayMatch(pt.need, p) {
					t.Errorf("pattern %q matches %q but its prefilter %q skips it", pt.re, p, pt.need)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no pattern matched anything: the check checked nothing")
	}
	// The prefilter must also exist for most patterns, or it saves nothing.
	with := 0
	for _, pt := range r.patterns {
		if pt.need != nil {
			with++
		}
	}
	if with*10 < len(r.patterns)*8 {
		t.Errorf("only %d of %d patterns have a prefilter", with, len(r.patterns))
	}
}

// evalParagraphs returns the normalized paragraphs (as signals sees them,
// with and without line breaks and reported speech) of every message in
// the evaluation sets, decoded payloads included.
func evalParagraphs(t *testing.T) []string {
	t.Helper()
	r := newInjectionRules()
	var out []string
	for _, dir := range []string{"eval", "holdout", "holdout2", "dev2"} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.eml"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			m, err := MessageFromRaw(raw)
			if err != nil {
				continue
			}
			segs := collectSegments(m, extractHTML(m.HTML))
			for _, s := range segs {
				for _, dec := range r.decodePayloads(s.text) {
					segs = append(segs, segment{zoneDecoded, dec})
				}
			}
			for _, s := range segs {
				text := r.quotePfx.ReplaceAllString(normalize(s.text), "")
				for _, p := range splitParagraphs(text) {
					flat := strings.ReplaceAll(p, "\n", " ")
					out = append(out, p, flat, r.quoted.ReplaceAllString(flat, ""))
				}
			}
		}
	}
	return out
}

func TestNormalizeASCIIFastPath(t *testing.T) {
	// The ASCII fast path must agree with the general path; a trailing
	// non-ASCII letter forces the general one.
	for _, s := range []string{"Ignore\tPrevious\r\nINSTRUCTIONS", "plain text", "Tabs\tand\r\nCRLF\n\nDone.", ""} {
		fast := normalize(s)
		slow := strings.TrimSuffix(normalize(s+"é"), "é")
		if fast != slow {
			t.Errorf("normalize(%q) = %q by the fast path, %q by the general path", s, fast, slow)
		}
	}
}
