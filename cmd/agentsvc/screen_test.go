package main

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestScreenEval runs `agentsvc screen eval DIR --json` on the screening
// package's held-out set and checks the shape the issue asks for.
func TestScreenEval(t *testing.T) {
	root := newRoot()
	var out bytes.Buffer
	root.SetOut(&out)
	root.SetArgs([]string{"screen", "eval", "../../internal/email/screen/testdata/holdout", "--json"})
	if err := root.Execute(); err != nil {
		t.Fatal(err)
	}
	var scores map[string]map[string]float64
	if err := json.Unmarshal(out.Bytes(), &scores); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out.String())
	}
	for _, reason := range []string{"prompt_injection", "lookalike_domain"} {
		s, ok := scores[reason]
		if !ok {
			t.Fatalf("no %s in %s", reason, out.String())
		}
		for _, k := range []string{"precision", "recall", "false_positive_rate", "tp", "fp", "fn", "tn"} {
			if _, ok := s[k]; !ok {
				t.Errorf("%s lacks %s", reason, k)
			}
		}
		if s["tp"]+s["fn"] == 0 {
			t.Errorf("%s: no positives scored", reason)
		}
	}
	root = newRoot()
	root.SetArgs([]string{"screen", "eval", t.TempDir() + "/missing"})
	root.SetOut(&out)
	if err := root.Execute(); err == nil {
		t.Error("a missing directory must fail")
	}
}

// TestScreenEvalRulesOnly: --rules-only screens without the learned model,
// so on a set where the model finds injections the rules miss, its recall
// is lower than the default's.
func TestScreenEvalRulesOnly(t *testing.T) {
	recall := func(extra ...string) float64 {
		t.Helper()
		root := newRoot()
		var out bytes.Buffer
		root.SetOut(&out)
		root.SetArgs(append([]string{"screen", "eval", "../../internal/email/screen/testdata/holdout29", "--json"}, extra...))
		if err := root.Execute(); err != nil {
			t.Fatal(err)
		}
		var scores map[string]map[string]float64
		if err := json.Unmarshal(out.Bytes(), &scores); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, out.String())
		}
		return scores["prompt_injection"]["recall"]
	}
	if with, without := recall(), recall("--rules-only"); without >= with {
		t.Errorf("recall with the model %.3f, rules only %.3f: want the rules alone lower", with, without)
	}
}
