package screen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The goals of the issue: recall and false-positive rate per reason code.
var goals = map[Reason]struct{ recall, maxFPR float64 }{
	ReasonPromptInjection: {recall: 0.9, maxFPR: 0.02},
	ReasonLookalikeDomain: {recall: 0.95, maxFPR: 0.01},
}

func evaluate(t *testing.T, dir string) EvalReport {
	t.Helper()
	rep, err := Evaluate(dir, NewDetector())
	if err != nil {
		t.Fatalf("Evaluate(%s): %v", dir, err)
	}
	for r, s := range rep.Scores {
		t.Logf("%s: precision %.3f recall %.3f fp_rate %.3f (tp %d fp %d fn %d tn %d)", r, s.Precision, s.Recall, s.FalsePositiveRate, s.TP, s.FP, s.FN, s.TN)
	}
	for _, m := range rep.Misses {
		t.Logf("miss %s %s %s %s", m.Kind, m.File, m.Reason, m.Detail)
	}
	return rep
}

// TestEvalGoals is an accuracy test on the extended set in the repo (the
// shared set plus our own messages).
func TestEvalGoals(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "eval"))
	if rep.Files < 180 {
		t.Fatalf("eval set has %d messages, want the shared 123 plus at least 60", rep.Files)
	}
	for reason, g := range goals {
		s := rep.Scores[reason]
		if s == nil {
			t.Fatalf("no labels for %s", reason)
		}
		if s.Recall < g.recall {
			t.Errorf("%s recall %.3f < %.2f", reason, s.Recall, g.recall)
		}
		if s.FalsePositiveRate > g.maxFPR {
			t.Errorf("%s false-positive rate %.3f > %.2f", reason, s.FalsePositiveRate, g.maxFPR)
		}
	}
}

// TestHoldout runs the first held-out set. It was written after an earlier
// freeze and its two misses (Russian, informal French) were looked at, so it
// is now a regression set: it guards the false-positive goals and a recall
// floor below the goal.
func TestHoldout(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "holdout"))
	if rep.Files < 40 {
		t.Fatalf("holdout has %d messages, want at least 40", rep.Files)
	}
	for reason, g := range goals {
		s := rep.Scores[reason]
		if s.FalsePositiveRate > g.maxFPR {
			t.Errorf("%s holdout false-positive rate %.3f > %.2f", reason, s.FalsePositiveRate, g.maxFPR)
		}
		if s.Recall < 0.8 {
			t.Errorf("%s holdout recall %.3f < 0.80", reason, s.Recall)
		}
	}
}

func writeSet(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const ctxJSON = `{"org_domains":["acme-corp.com"],"known_correspondents":["paypal.com"]}`

func TestRunEvalJSONShape(t *testing.T) {
	dir := writeSet(t, map[string]string{
		"context.json": ctxJSON,
		"a.eml":        "From: PayPal <service@paypa1.com>\r\nTo: x@acme-corp.com\r\nSubject: hi\r\n\r\nhello\r\n",
		"b.eml":        "From: Bob <bob@example.org>\r\nTo: x@acme-corp.com\r\nSubject: lunch\r\n\r\nLunch at noon?\r\n",
		"labels.jsonl": `{"file":"a.eml","lookalike_domain":true,"spf_fail":false,"notes":"x"}` + "\n" +
			`{"file":"b.eml","lookalike_domain":false,"spf_fail":false}` + "\n",
	})
	var out bytes.Buffer
	if err := RunEval(dir, NewDetector(), true, &out); err != nil {
		t.Fatal(err)
	}
	var got map[string]map[string]float64
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("output is not one JSON object keyed by reason: %v\n%s", err, out.String())
	}
	if len(got) != 2 {
		t.Fatalf("reason keys = %v, want lookalike_domain and spf_fail only (notes is not a label)", got)
	}
	want := map[string]float64{"precision": 1, "recall": 1, "false_positive_rate": 0, "tp": 1, "fp": 0, "fn": 0, "tn": 1}
	for k, v := range want {
		if g, ok := got["lookalike_domain"][k]; !ok || g != v {
			t.Errorf("lookalike_domain[%s] = %v (present %v), want %v", k, g, ok, v)
		}
	}
	// spf_fail has no positives and no predictions: vacuous precision and
	// recall are 1, the false-positive rate is 0.
	if s := got["spf_fail"]; s["precision"] != 1 || s["recall"] != 1 || s["false_positive_rate"] != 0 || s["tn"] != 2 {
		t.Errorf("spf_fail = %v, want vacuous 1/1/0 with tn 2", s)
	}

	out.Reset()
	if err := RunEval(dir, NewDetector(), false, &out); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"reason", "precision", "recall", "fp_rate", "lookalike_domain", "spf_fail", "2 messages"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("table output lacks %q:\n%s", w, out.String())
		}
	}
}

func TestRunEvalErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"no context", map[string]string{"labels.jsonl": "{}\n"}, "read context"},
		{"bad labels", map[string]string{"context.json": ctxJSON, "labels.jsonl": "{not json\n"}, "line 1"},
		{"missing eml", map[string]string{"context.json": ctxJSON, "labels.jsonl": `{"file":"gone.eml","prompt_injection":true}` + "\n"}, "gone.eml"},
		{"path escape", map[string]string{"context.json": ctxJSON, "labels.jsonl": `{"file":"../x.eml","prompt_injection":true}` + "\n"}, "unsafe"},
		{"empty", map[string]string{"context.json": ctxJSON, "labels.jsonl": "\n"}, "no messages"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := RunEval(writeSet(t, tc.files), NewDetector(), false, &bytes.Buffer{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

// TestHoldout2 runs the second held-out set, written after the rules were
// frozen (commit 477a2aa), mostly in languages the rules did not cover
// then. Its misses (nine languages without vocabulary, two lookalike
// kinds) were what the word tables and the lookalike fixes of the next
// round addressed, so it is now dev data, no longer unseen: the floors are
// what was reached on it, and honest figures on unseen mail come from a
// later held-out set.
func TestHoldout2(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "holdout2"))
	if rep.Files < 60 {
		t.Fatalf("holdout2 has %d messages, want at least 60", rep.Files)
	}
	// First measured at 0.409 / 0.833 (unseen); 22/22 and 12/12 after.
	assertFloors(t, rep, map[Reason]float64{ReasonPromptInjection: 0.95, ReasonLookalikeDomain: 0.95})
}

// TestDev2 runs the multilingual development set: injections in 40+
// languages and styles, hard benign mail (one-time codes that say "never
// share", password resets, security notices, AI talk, people asking for
// invoices to be sent to an address, self-corrections) in 30+ languages,
// lookalikes of the kinds holdout2 missed and real look-alike companies.
func TestDev2(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "dev2"))
	if rep.Files < 120 {
		t.Fatalf("dev2 has %d messages, want at least 120", rep.Files)
	}
	assertFloors(t, rep, map[Reason]float64{ReasonPromptInjection: 0.95, ReasonLookalikeDomain: 0.95})
}

// TestHoldout3 runs the third held-out set (219 messages, a Portuguese hotel
// group), first measured unseen at injection recall 0.650 (FP 0.014) and
// lookalike recall 0.917 (FP 0.011). Its misses were then read as symptoms
// of general gaps and the rules changed, so it is dev data now: the floors
// are what was reached on it.
func TestHoldout3(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "holdout3"))
	if rep.Files < 200 {
		t.Fatalf("holdout3 has %d messages, want at least 200", rep.Files)
	}
	assertFloors(t, rep, map[Reason]float64{ReasonPromptInjection: 0.92, ReasonLookalikeDomain: 0.95})
}

// TestDev3 runs the probe written before the round-3 rules (42 messages,
// a language school): the rules were made from holdout3's misses, and
// dev3 checked afterwards that they catch messages not looked at while
// writing them (first measured 16/22 injections, 2 false positives).
func TestDev3(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "dev3"))
	if rep.Files < 40 {
		t.Fatalf("dev3 has %d messages, want at least 40", rep.Files)
	}
	assertFloors(t, rep, map[Reason]float64{ReasonPromptInjection: 0.75, ReasonLookalikeDomain: 0.85})
}

// assertFloors checks the false-positive goals and a recall floor per code.
func assertFloors(t *testing.T, rep EvalReport, floors map[Reason]float64) {
	t.Helper()
	for reason, g := range goals {
		s := rep.Scores[reason]
		if s == nil {
			t.Fatalf("no labels for %s", reason)
		}
		if s.FalsePositiveRate > g.maxFPR {
			t.Errorf("%s false-positive rate %.3f > %.2f", reason, s.FalsePositiveRate, g.maxFPR)
		}
		if s.Recall < floors[reason] {
			t.Errorf("%s recall %.3f < floor %.2f", reason, s.Recall, floors[reason])
		}
	}
}

// TestHoldout4 runs holdout4 (237 messages, a Spanish veterinary clinic
// chain), unseen until round 4 (injection recall 0.762, lookalike 0.892 at
// that freeze) and development data since: the round-4 rules were made
// from its misses, so these floors are regression guards, not a
// generalisation figure.
func TestHoldout4(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "holdout4"))
	if rep.Files < 230 {
		t.Fatalf("holdout4 has %d messages, want at least 230", rep.Files)
	}
	assertFloors(t, rep, map[Reason]float64{ReasonPromptInjection: 0.97, ReasonLookalikeDomain: 1.0})
}

// TestDev4 runs the probe written before the round-4 rules (39 messages,
// a dental clinic); first measured after the rules built from holdout4:
// injection 10/19 with no false positive, lookalike 7/7.
func TestDev4(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "dev4"))
	if rep.Files < 39 {
		t.Fatalf("dev4 has %d messages, want at least 39", rep.Files)
	}
	assertFloors(t, rep, map[Reason]float64{ReasonPromptInjection: 0.73, ReasonLookalikeDomain: 1.0})
}

// TestHoldout5 runs holdout5 (209 messages, a Portuguese dental clinic
// chain), written by someone who never saw the rules and measured once
// after the round-4 freeze: it is the current estimate on unseen mail, and
// it is BELOW the goals (injection recall 0.718 with 4.6 % false positives,
// lookalike recall 0.906 with 0.6 %). Nothing was tuned on it. The bounds
// here are those figures, so the test catches a regression; it does not
// claim the goals.
func TestHoldout5(t *testing.T) {
	rep := evaluate(t, filepath.Join("testdata", "holdout5"))
	if rep.Files < 209 {
		t.Fatalf("holdout5 has %d messages, want at least 209", rep.Files)
	}
	for reason, b := range map[Reason]struct{ minRecall, maxFPR float64 }{
		ReasonPromptInjection: {0.71, 0.05},
		ReasonLookalikeDomain: {0.90, 0.01},
	} {
		s := rep.Scores[reason]
		if s == nil {
			t.Fatalf("no labels for %s", reason)
		}
		if s.Recall < b.minRecall || s.FalsePositiveRate > b.maxFPR {
			t.Errorf("%s: recall %.3f (floor %.2f), false-positive rate %.3f (ceiling %.2f)", reason, s.Recall, b.minRecall, s.FalsePositiveRate, b.maxFPR)
		}
	}
}
