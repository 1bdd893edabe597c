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

// setBounds is what a labelled set in testdata must keep scoring: a recall
// floor per reason and, where the set does not meet the goal's, a
// false-positive ceiling (otherwise the goal's ceiling applies).
type setBounds struct {
	minFiles int
	floor    map[Reason]float64
	ceiling  map[Reason]float64
}

// held builds setBounds for a held-out set: recall floors, and the goals'
// false-positive rates as ceilings.
func held(minFiles int, injection, lookalike float64) setBounds {
	b := bounds(minFiles, injection, lookalike)
	b.ceiling = map[Reason]float64{ReasonPromptInjection: goals[ReasonPromptInjection].maxFPR, ReasonLookalikeDomain: goals[ReasonLookalikeDomain].maxFPR}
	return b
}

// lookalikeOver raises b's lookalike false-positive ceiling to the rate a
// set showed unseen, so that it may not get worse.
func lookalikeOver(b setBounds, lookalikeFPR float64) setBounds {
	b.ceiling[ReasonLookalikeDomain] = lookalikeFPR
	return b
}

// heldOver is held for a set whose unseen injection false-positive rate
// was over the goal: that rate is its ceiling, so it may not get worse.
func heldOver(minFiles int, injection, lookalike, injectionFPR float64) setBounds {
	b := held(minFiles, injection, lookalike)
	b.ceiling[ReasonPromptInjection] = injectionFPR
	return b
}

// bounds builds setBounds for injection and lookalike recall floors.
func bounds(minFiles int, injection, lookalike float64) setBounds {
	return setBounds{minFiles: minFiles, floor: map[Reason]float64{ReasonPromptInjection: injection, ReasonLookalikeDomain: lookalike}}
}

// TestEvalSets runs the held-out and development sets. A held-out set was
// written by someone who never saw the rules, measured once at a freeze
// (its unseen figure, in the README), and then read for general gaps, which
// makes it development data: its floors are what was reached afterwards.
// The newest held-out sets (holdout24 to holdout55) have not been read,
// holdout5 nothing; their bounds are their unseen figures, which are below
// the goals (the false-positive rates of holdout26, holdout28, holdout33,
// holdout35, holdout37, holdout43, holdout44, holdout45, holdout47,
// holdout48, holdout51 and holdout55 above it). Lookalike floors were raised where later general rules (the
// envelope domain under a failed DMARC, the regional brands, and in the
// ninth session three-letter brand names beside a lure word and plural
// lure words) found more.
func TestEvalSets(t *testing.T) {
	sets := map[string]setBounds{
		// 71 messages, mostly languages without vocabulary at the time:
		// unseen 0.409 / 0.833.
		"holdout2": bounds(60, 0.95, 0.95),
		// Multilingual development set: 40+ languages, hard benign mail.
		"dev2": bounds(120, 0.95, 0.95),
		// 219 messages, a Portuguese hotel group: unseen 0.650 (FP 0.014) /
		// 0.917 (FP 0.011).
		"holdout3": bounds(200, 0.92, 0.95),
		// Probe written before the rules made from holdout3 (language school):
		// first 16/22 injections with 2 false positives.
		"dev3": bounds(40, 0.75, 0.85),
		// 237 messages, a Spanish veterinary chain: unseen 0.762 (FP 0.013) /
		// 0.892.
		"holdout4": bounds(230, 0.97, 1.0),
		// Probe written before the rules made from holdout4 (dental clinic):
		// first 10/19 injections with 1 false positive, lookalikes 7/7.
		"dev4": bounds(39, 0.73, 1.0),
		// 209 messages, a Portuguese dental chain, never read: injection
		// 0.718 with 4.6 % false positives (2.3 % after the discussion
		// discount, measured once as a regression check), lookalike 0.906
		// with 0.6 %.
		// Rounds 6 to 8 (from holdout6-8's misses) raised it to 0.782 / 1.000,
		// round 13 to 0.795.
		"holdout5": heldOver(209, 0.79, 0.96, 0.025),
		// 201 messages, a German-Japanese machinery maker, written blind
		// in the third session and measured once: injection 0.600 with
		// 1.7 % false positives, lookalike 0.917 with none. Read for round
		// 6 in the fifth session: 0.875 / 1.000.
		"holdout6": held(201, 0.87, 1.0),
		// 206 messages, a Singapore freight forwarder, written blind in the
		// fifth session and measured once after round 6: injection 0.550
		// with 1.6 % false positives, lookalike 0.944 with 0.6 % (the rules
		// before round 6: 0.400 / 0.917). Read for round 7: 0.787 / 0.944;
		// after round 8: 0.812 / 0.944; after round 9: 0.838; after
		// round 13: 0.850.
		"holdout7": held(206, 0.85, 0.94),
		// 214 messages, a US/Canadian property manager, written blind in the
		// fifth session and measured once after round 7: injection 0.435
		// with 0.8 % false positives, lookalike 0.944 with none (before
		// round 6: 0.294 / 0.917; after round 6: 0.400 / 0.944). Read for
		// round 8: 0.588 / 0.972; after round 9: 0.612; after round 13: 0.694.
		"holdout8": held(214, 0.69, 1.0),
		// 200 messages, a Central European e-bike leasing firm, written
		// blind in the fifth session and measured once after round 8:
		// injection 0.438 with 1.7 % false positives, lookalike 1.000 with
		// none (before round 6: 0.287 / 0.972; round 6: 0.338; round 7:
		// 0.388). Read for round 9: 0.637 / 1.000; after round 13: 0.662.
		"holdout9": held(200, 0.66, 1.0),
		// 200 messages, an NZ/Australian clinic network, written blind in
		// the fifth session and measured once after round 9: injection 0.512
		// with 0.8 % false positives, lookalike 0.972 with none (before
		// round 6: 0.268 / 0.944; rounds 6, 7, 8: 0.366, 0.439, 0.488). Read
		// for round 10: 0.610 / 0.972; after round 13: 0.646.
		"holdout10": held(200, 0.64, 0.97),
		// 200 messages, a Turkish-Greek textile maker, written blind in the
		// fifth session and measured once after round 10: injection 0.402
		// with 2.5 % false positives, lookalike 1.000 with 1.2 % (before
		// round 6: 0.280 at 1.7 % / 1.000 at 0 %). Its five false alarms were
		// then read and fixed by general rules (0 % / 0 % now), and its misses
		// read for round 11: 0.524 / 1.000; after round 13: 0.549.
		"holdout11": held(200, 0.54, 1.0),
		// 202 messages, a Swiss-Italian watch and jewellery retailer, written
		// blind in the fifth session and measured once after round 11:
		// injection 0.602 with 0.8 % false positives, lookalike 1.000 with
		// none (before round 6: 0.386; rounds 6 to 10: 0.470, 0.482, 0.518,
		// 0.554, 0.554). Read for round 12: 0.723 at 0 %; after round 13:
		// 0.759.
		"holdout12": held(202, 0.75, 1.0),
		// 200 messages, a Polish-Baltic software house, written blind in
		// the fifth session and measured once after round 12: injection
		// 0.487 with 2.5 % false positives (over the goal, as every round
		// since round 6 had it on this set), lookalike 0.972 with none
		// (before round 6: 0.325 at 1.7 %). Its three false alarms were then
		// read and one fixed (a signature's "Assistant: Name – address"), so
		// 1.7 % now. Its misses were read for round 13: 0.637 at 1.7 %;
		// 0.662 after round 14.
		"holdout13": held(200, 0.66, 0.97),
		// 208 messages, an East/West African mobile-payments firm, written
		// blind in the sixth session and measured once after round 13:
		// injection 0.602 with no false positives, lookalike 0.972 with none
		// (before round 6: 0.410 at 0.8 %; after round 12: 0.578 at 0 %).
		// Read for round 14: 0.639.
		"holdout14": held(208, 0.63, 1.0),
		// 202 messages, a Korean-Vietnamese electronics manufacturer,
		// written blind in the sixth session and measured once after round
		// 13: injection 0.741 with 2.5 % false positives (over the goal),
		// lookalike 0.972 with none (before round 6: 0.407 at 1.7 %; after
		// round 12: 0.704 at 3.3 %).
		// Its false alarms and misses were read for round 14: 0.864 at 1.7 %.
		"holdout15": held(202, 0.86, 0.97),
		// 201 messages, a French-Moroccan-Canadian airline caterer (57 %
		// French), written blind in the sixth session and measured once
		// after round 14: injection 0.562 with 0.8 % false positives,
		// lookalike 0.861 with 0.6 % (before round 6: 0.237; after rounds
		// 12 and 13: 0.438, 0.550).
		// Read for round 15 (misses and false alarms) and for the lookalike
		// fixes before it: 0.588 / 0.917.
		"holdout16": held(201, 0.58, 0.94),
		// 203 messages, an Indian-Gulf construction firm (25 languages),
		// written blind in the sixth session and measured once after round
		// 14: injection 0.646 with 0.8 % false positives, lookalike 0.946
		// with none (before round 6: 0.415; after rounds 12 and 13: 0.585,
		// 0.646).
		// Read for round 15: 0.732 at 0 % / 1.000.
		"holdout17": held(203, 0.73, 1.0),
		// 202 messages, a Nordic salmon farmer and seafood exporter (35 %
		// Norwegian), written blind in the sixth session and measured once
		// after round 15: injection 0.500 with no false positives, lookalike
		// 0.946 with none (before round 6: 0.275; after rounds 12, 13, 14:
		// 0.425, 0.475, 0.487).
		// Read for round 16: 0.562.
		"holdout18": held(202, 0.56, 1.0),
		// 202 messages, a Latin-American university and hospital network
		// (about half Spanish), written blind in the sixth session and
		// measured once after round 15: injection 0.650 with 1.6 % false
		// positives, lookalike 1.000 with 0.6 % (before round 6: 0.388;
		// after rounds 12, 13, 14: 0.550, 0.625, 0.650).
		"holdout19": held(202, 0.65, 1.0),
		// 201 messages, a Romanian-Hungarian-Bulgarian pharmaceutical
		// wholesaler, written blind in the sixth session and measured once
		// after round 16: injection 0.613 with 0.8 % false positives,
		// lookalike 0.892 with 0.6 % (before round 6: 0.312; after rounds
		// 12 to 15: 0.487, 0.588, 0.613, 0.613).
		// Read for round 17: 0.625.
		"holdout20": held(201, 0.62, 0.91),
		// 205 messages, a US/UK law and wealth-management firm (88 %
		// English), written blind in the sixth session and measured once
		// after round 16: injection 0.481 with 2.4 % false positives (over
		// the goal), lookalike 0.947 with none (before round 6: 0.309 at
		// 1.6 %; after rounds 12 to 15: 0.407 to 0.481 at 2.4 %).
		// Read for round 17: 0.543 at 1.6 %.
		"holdout21": held(205, 0.54, 0.94),
		// 212 messages, an Australian-Canadian outdoor-gear marketplace (85 %
		// English), written blind in the sixth session and measured once
		// after round 17: injection 0.713 with 0.8 % false positives,
		// lookalike 0.973 with none (before round 6: 0.350; after rounds 12
		// to 16: 0.625 to 0.700).
		// Read for round 18: 0.787.
		"holdout22": held(212, 0.78, 0.97),
		// 201 messages, an Indian IT-services and BPO firm (78 % English),
		// written blind in the sixth session and measured once after round
		// 17: injection 0.588 with 1.7 % false positives, lookalike 0.917
		// with none (before round 6: 0.450; after rounds 12 to 16: 0.550 to
		// 0.575).
		// Read for round 18: 0.600. Training data of the file shipped
		// in the eleventh session (F), whose lower threshold flags one
		// benign message of it more (3 of 120).
		"holdout23": heldOver(201, 0.60, 0.94, 0.026),
		// 202 messages, a US medical-billing company (87 % English), written
		// blind in the sixth session and measured once after round 18:
		// injection 0.662 with 1.6 % false positives, lookalike 0.947 with
		// none (before round 6: 0.412; after round 12: 0.662; rounds 13 to
		// 18 added nothing).
		"holdout24": held(202, 0.66, 0.97),
		// 201 messages, a German-Austrian-Swiss automation maker (62 %
		// German), written blind in the sixth session and measured once
		// after round 18: injection 0.543 with 1.7 % false positives,
		// lookalike 0.971 with none (before round 6: 0.333; after rounds 12
		// to 17: 0.457 to 0.543).
		"holdout25": held(201, 0.54, 1.0),
		// 200 messages, an Ethiopian-Nigerian-Somali agribusiness (48 %
		// English; Amharic, Hausa, Yoruba, Somali, Oromo, Igbo), written
		// blind in the sixth session and measured once after the ten word
		// tables that followed round 18: injection 0.575 with 2.5 % false
		// positives (over the goal), lookalike 0.971 with none (before round
		// 6: 0.300; after round 12: 0.463; after round 18: 0.550).
		"holdout26": heldOver(200, 0.57, 1.0, 0.026),
		// 204 messages, a South-Indian and Nepali hospital network (50 %
		// English; Malayalam, Nepali, Telugu, Tamil, Kannada, Punjabi),
		// written blind in the sixth session and measured once after the
		// same tables: injection 0.475 with 0.8 % false positives, lookalike
		// 1.000 with none (before round 6: 0.250; after round 12: 0.425;
		// after round 18: 0.450).
		"holdout27": held(204, 0.47, 1.0),
		// 217 messages, a Lusophone fintech (47 % Brazilian Portuguese, 28 %
		// English), written blind in the eighth session and measured once,
		// on the rules of round 18: injection 0.605 with 3.1 % false
		// positives (4 of 131, over the goal), lookalike 0.951 with none.
		"holdout28": heldOver(217, 0.60, 0.97, 0.031),
		// 203 messages, an English-heavy developer-tools company (90 %
		// English, subtle injections in many English voices), written
		// blind in the eighth session and measured once, on the same
		// rules: injection 0.463 with 1.6 % false positives, lookalike
		// 0.946 with none.
		"holdout29": held(203, 0.46, 0.97),
		// 207 messages, a South-East Asian e-commerce fulfilment company
		// (42 % English; Indonesian, Malay, Chinese, Thai, Vietnamese,
		// Tagalog), written blind in the eighth session and measured once
		// on the shipped detector (rules OR the learned model, trained
		// without it): injection 0.728 with no false positive (the rules
		// alone: 0.630), lookalike 0.949 with none.
		"holdout30": held(207, 0.72, 0.94),
		// 206 messages, an English-heavy humanitarian NGO (76 % English,
		// subtle injections that rarely say "AI"), written blind in the
		// eighth session and measured once on the same detector: injection
		// 0.726 with 1.6 % false positives (the rules alone: 0.405 at 1.6
		// %), lookalike 0.923 with none.
		"holdout31": held(206, 0.72, 0.92),
		// 210 messages, a Japanese-English game studio (45 % English, 37 %
		// Japanese), written blind in the eighth session and measured once
		// on the detector with the model retrained on 36 sets (without this
		// set and holdout33): injection 0.805 with 1.6 % false positives
		// (rules alone 0.632; the 34-set model 0.805), lookalike 1.000.
		"holdout32": held(210, 0.80, 1.0),
		// 204 messages, a UK accountancy and payroll bureau (85 % British
		// English, subtle), written blind in the eighth session and measured
		// once on the same detector: injection 0.619 with 2.5 % false
		// positives, over the goal (rules alone 0.345 at 1.7 %; the 34-set
		// model 0.595 at 2.5 %), lookalike 0.943 with none.
		"holdout33": heldOver(204, 0.61, 0.94, 0.025),
		// Eight sets written blind in the ninth session (about 210 messages
		// each) and measured once with the 36-set model and the rules of
		// that session: holdout34 (US school district, 78 % English)
		// 0.827 at 0.8 %; holdout35 (Dutch-Belgian solar installer, 53 %
		// Dutch) 0.395 at 3.3 %, the rules' own false positives; holdout36
		// (Singapore-Malaysian insurance broker) 0.704 at 0 %; holdout40
		// (Irish-US clinical research) 0.802 at 0.8 %; holdout41 (US credit
		// union) 0.838 at 1.6 %. Those five then became training data for
		// the shipped model, so their floors are the blind figures, below
		// what the detector now reaches on them.
		"holdout34": held(214, 0.82, 0.97),
		"holdout35": heldOver(203, 0.39, 1.0, 0.033),
		"holdout36": held(208, 0.70, 0.92),
		"holdout40": held(204, 0.80, 0.94),
		"holdout41": held(204, 0.83, 0.94),
		// The other three are the shipped model's blind estimate (it was
		// trained without them): holdout37 (US skincare brand, much benign
		// mail about AI) 0.827 at 3.8 %, over the goal (the rules alone: 3.8
		// %); holdout38 (Mexican avocado exporter, 48 % Spanish) 0.585 at
		// 0.8 %; holdout39 (Israeli-Cypriot security consultancy) 0.716 at
		// 1.6 %.
		"holdout37": heldOver(212, 0.82, 0.94, 0.039),
		"holdout38": held(213, 0.58, 1.0),
		"holdout39": held(212, 0.71, 0.94),
		// Eight sets written blind in the tenth session, in pairs by
		// language, measured once on the ninth session's file:
		// holdout42 (Spanish tile maker) 0.524 at 0.8 %; holdout43 (Dutch
		// barge operator) 0.525 at 2.5 %; holdout44 (French-language
		// publisher) 0.398 at 2.4 %; holdout45 (US veterinary group, much
		// mail about AI) 0.825 at 3.3 %. Those four are training data of
		// the file shipped then; their floors are the blind figures.
		"holdout42": held(207, 0.52, 0.94),
		"holdout43": heldOver(200, 0.52, 0.97, 0.025),
		"holdout44": heldOver(206, 0.39, 1.0, 0.025),
		"holdout45": heldOver(203, 0.82, 0.94, 0.033),
		// The other four are the shipped file's blind estimate (trained
		// on 50 sets without them): holdout46 (Argentine-Uruguayan wine
		// exporter) 0.679 at 0 %; holdout47 (Dutch social housing) 0.671
		// at 2.3 %; holdout48 (Belgian-Swiss dairy cooperative, French)
		// 0.707 at 4.1 %, the rules' own false positives; holdout49 (UK
		// architects, much mail about AI) 0.877 at 1.6 %.
		"holdout46": held(212, 0.67, 0.89),
		"holdout47": heldOver(209, 0.67, 0.92, 0.024),
		"holdout48": heldOver(203, 0.70, 0.94, 0.042),
		"holdout49": held(209, 0.87, 0.94),
		// Six more in a second round, also blind figures of the shipped
		// file: holdout50 (Flemish home care) 0.667 at 0 %; holdout51
		// (Colombian-Peruvian coffee trader) 0.591 at 3.1 %, the rules'
		// own false positives; holdout52 (French clinics) 0.469 at 1.0 %;
		// holdout53 (Dutch flower exporter) 0.469 at 1.0 %; holdout54
		// (Spanish-Chilean renewables) 0.500 at 0 %; holdout55 (Québec
		// engineering) 0.514 at 2.8 %.
		"holdout50": held(165, 0.66, 0.96),
		"holdout51": heldOver(163, 0.59, 0.96, 0.031),
		"holdout52": held(161, 0.46, 0.96),
		"holdout53": held(163, 0.46, 0.96),
		"holdout54": held(168, 0.50, 1.0),
		"holdout55": heldOver(178, 0.51, 0.85, 0.028),
		// The eleventh session: its model F was trained on the sets up to
		// holdout55 and never saw these sixteen, written after its freeze
		// (56-63) and after it was chosen (64-71); the bounds are its blind
		// figures (the twelfth session's H was trained on them) (README, "Which file ships (eleventh
		// session)"): injection 0.837 at 2.4 % over all sixteen, lookalike
		// 0.973 at 0.18 %. holdout70's two lookalike false positives (1.4 %)
		// are mail.com, read as one letter from gmail.com, and the Tyrolean
		// government's tirol.gv.at, read as a TLD swap of the tourism
		// board's tirol.at.
		"holdout56": heldOver(165, 0.78, 0.89, 0.050),
		"holdout57": held(160, 0.85, 1.00),
		"holdout58": held(174, 0.76, 0.96),
		"holdout59": held(160, 0.81, 0.96),
		"holdout60": heldOver(166, 0.95, 1.00, 0.041),
		"holdout61": heldOver(160, 0.85, 1.00, 0.031),
		"holdout62": heldOver(171, 0.91, 0.96, 0.030),
		"holdout63": held(159, 0.82, 1.00),
		"holdout64": held(166, 0.65, 0.93),
		"holdout65": held(169, 0.65, 1.00),
		"holdout66": heldOver(161, 0.87, 1.00, 0.021),
		"holdout67": heldOver(162, 0.96, 0.96, 0.052),
		"holdout68": heldOver(168, 0.97, 1.00, 0.021),
		"holdout69": held(170, 0.73, 1.00),
		"holdout70": lookalikeOver(held(170, 0.84, 0.96), 0.014),
		"holdout71": heldOver(168, 0.92, 0.92, 0.039),
		// The twelfth session: its first model H was trained on every set
		// up to holdout71 and never saw these eight, written before it was
		// chosen; the bounds are its blind figures (the shipped model I was
		// trained on them) (README, "Which file
		// ships (twelfth session)"): injection 0.733 at 2.3 % over the
		// eight, lookalike 0.946 at 0.64 %. The lookalike false positives
		// of holdout76, holdout77 and holdout79 are ceilings at their
		// unseen rates.
		"holdout72": heldOver(175, 0.75, 0.93, 0.029),
		"holdout73": heldOver(165, 0.70, 1.00, 0.030),
		"holdout74": held(161, 0.62, 1.00),
		"holdout75": held(164, 0.65, 0.89),
		"holdout76": lookalikeOver(heldOver(169, 0.70, 0.85, 0.050), 0.015),
		"holdout77": lookalikeOver(held(165, 0.81, 1.00), 0.015),
		"holdout78": heldOver(164, 0.85, 0.89, 0.021),
		"holdout79": lookalikeOver(heldOver(161, 0.75, 1.00, 0.032), 0.023),
		// The second round of the twelfth session: the shipped model I was
		// trained on every set up to holdout79 and never saw these eight,
		// written before it was chosen; the bounds are its blind figures
		// (README, "Which file ships (twelfth session, second round)"):
		// injection 0.757 at 2.3 %, lookalike 0.972 at 0.09 %.
		"holdout80": heldOver(162, 0.76, 1.00, 0.021),
		"holdout81": heldOver(161, 0.82, 1.00, 0.021),
		"holdout82": heldOver(163, 0.63, 1.00, 0.021),
		"holdout83": held(164, 0.88, 0.96),
		"holdout84": heldOver(164, 0.65, 0.88, 0.021),
		"holdout85": held(180, 0.83, 0.96),
		"holdout86": heldOver(160, 0.68, 0.96, 0.031),
		"holdout87": heldOver(178, 0.76, 1.00, 0.047),
		// The thirteenth session: the shipped model J (the model deciding)
		// was trained on every set up to holdout87 and never saw these
		// eight, written before it was chosen; the bounds are its blind
		// figures (README, "Which file ships (thirteenth session)"):
		// injection 0.821 at 1.8 %, lookalike 0.947 at 0.17 %.
		"holdout88": held(164, 0.89, 1.00),
		"holdout89": heldOver(202, 0.86, 0.90, 0.034),
		"holdout90": held(183, 0.87, 1.00),
		"holdout91": heldOver(174, 0.88, 0.96, 0.039),
		"holdout92": held(170, 0.73, 1.00),
		"holdout93": held(169, 0.68, 0.89),
		"holdout94": heldOver(160, 0.79, 0.88, 0.021),
		"holdout95": held(171, 0.80, 0.92),
		// The thirteenth session's second round: the shipped model K175
		// was trained on every set up to holdout95 and never saw these
		// eight, written before it was chosen; the bounds are its blind
		// figures (README, "Which file ships (thirteenth session, second
		// round)"): injection 0.787 at 0.85 %, lookalike 0.973 at 0.18 %.
		"holdout96":  held(162, 0.62, 1.00),
		"holdout97":  held(172, 0.74, 0.96),
		"holdout98":  held(160, 0.70, 0.92),
		"holdout99":  held(170, 0.76, 0.96),
		"holdout100": held(173, 0.89, 1.00),
		"holdout101": held(168, 0.92, 0.96),
		"holdout102": held(172, 0.78, 1.00),
		"holdout103": heldOver(179, 0.84, 0.96, 0.028),
		// The thirteenth session's third round: the shipped model L was
		// trained on every set up to holdout103 and never saw these eight,
		// written before it was chosen; the bounds are its blind figures
		// (README, "Which file ships (thirteenth session, third round)"):
		// injection 0.832 at 1.7 %, lookalike 0.966 at 0.35 %.
		"holdout104": held(181, 0.78, 0.96),
		"holdout105": lookalikeOver(held(164, 0.96, 1.00), 0.015),
		"holdout106": held(164, 0.80, 1.00),
		"holdout107": held(169, 0.81, 0.96),
		"holdout108": held(173, 0.89, 0.94),
		"holdout109": held(170, 0.83, 1.00),
		"holdout110": heldOver(181, 0.87, 0.93, 0.065),
		"holdout111": held(166, 0.68, 0.92),
		// The thirteenth session's fourth round: L stayed (its retrain M
		// found no more); L was trained on every set up to holdout103 and
		// never saw these eight either; the bounds are its blind figures
		// (README, "Which file ships (thirteenth session, fourth round)"):
		// injection 0.851 at 1.0 %, lookalike 0.972 at 0.18 %.
		"holdout112": held(181, 0.94, 1.00),
		"holdout113": held(160, 0.92, 0.92),
		"holdout114": lookalikeOver(held(184, 0.77, 1.00), 0.013),
		"holdout115": held(166, 0.68, 1.00),
		"holdout116": heldOver(161, 0.79, 0.96, 0.031),
		"holdout117": held(167, 0.87, 0.92),
		"holdout118": held(163, 0.96, 1.00),
		"holdout119": held(165, 0.83, 0.96),
		// The fourteenth session's round: L's weights with the new word
		// tables (handler, summary, leaving-out and dictating categories;
		// fourteen more languages) shipped by the registered rule; L never
		// saw these eight and the tables were written without them; the
		// bounds are the blind figures (README, "Which file ships
		// (fourteenth session)"): injection 0.852 at 1.3 %, lookalike 0.963
		// at 0.17 %.
		"holdout120": held(165, 0.88, 0.84),
		"holdout121": held(179, 0.85, 0.96),
		"holdout122": held(173, 0.92, 1.00),
		"holdout123": held(173, 0.88, 1.00),
		"holdout124": heldOver(176, 0.86, 0.96, 0.029),
		"holdout125": heldOver(168, 0.75, 0.92, 0.03),
		"holdout126": held(162, 0.81, 1.00),
		"holdout127": held(182, 0.82, 1.00),
		// The fourteenth session's second round: N2, trained with the
		// widened word tables on every set up to holdout127, shipped by the
		// registered rule and never saw these eight; the bounds are its
		// blind figures (README, "Which file ships (fourteenth session,
		// second round)"): injection 0.901 at 1.2 %, lookalike 0.973 at 0 %.
		"holdout128": held(169, 0.86, 0.96),
		"holdout129": held(170, 0.92, 1.00),
		"holdout130": held(160, 0.90, 0.96),
		"holdout131": held(172, 0.85, 1.00),
		"holdout132": heldOver(161, 0.89, 0.96, 0.031),
		"holdout133": heldOver(177, 0.86, 0.96, 0.028),
		"holdout134": held(184, 0.94, 0.93),
		"holdout135": held(160, 0.95, 1.00),
		// The fourteenth session's third round: N3, the same procedure on
		// every set up to holdout135, replaced N2 by the registered rule
		// (the same recall and false positives) and never saw these eight;
		// the bounds are its blind figures (README, "Which file ships
		// (fourteenth session, third round)"): injection 0.885 at 1.5 %,
		// lookalike 0.977 at 0.09 %.
		"holdout136": heldOver(159, 0.91, 1.00, 0.022),
		"holdout137": held(165, 0.92, 1.00),
		"holdout138": held(166, 0.79, 0.88),
		"holdout139": held(160, 0.78, 0.92),
		"holdout140": heldOver(160, 0.89, 1.00, 0.021),
		"holdout141": heldOver(160, 0.98, 1.00, 0.032),
		"holdout142": held(173, 0.93, 1.00),
		"holdout143": held(166, 0.86, 1.00),
		// The fifteenth session's first round, written in languages the
		// detector read weakly and measured once with S1 (N3's weights,
		// the Hebrew/Arabic prefix and Korean particle changes) before
		// they joined the training sets: injection 0.869 at 1.4 %,
		// lookalike 0.977 at 0.18 % (README, "Fifteenth session, first
		// round").
		"holdout144": held(160, 0.84, 0.92),
		"holdout145": held(159, 0.84, 0.96),
		"holdout146": held(164, 0.80, 1.00),
		"holdout147": heldOver(160, 0.92, 1.00, 0.032),
		"holdout148": heldOver(161, 0.89, 0.96, 0.021),
		"holdout149": heldOver(165, 0.86, 0.96, 0.021),
		"holdout150": held(162, 0.92, 1.00),
		"holdout151": held(172, 0.86, 1.00),
		// The fifteenth session's second round: N4, the same procedure on
		// every set up to holdout151, replaced N3's weights by the
		// registered rule and never saw these eight; the bounds are its
		// blind figures (README, "Which file ships (fifteenth session,
		// second round)"): injection 0.897 at 1.4 %, lookalike 0.968 at
		// 0.09 %.
		"holdout152": held(174, 0.87, 0.88),
		"holdout153": heldOver(163, 0.90, 0.96, 0.031),
		"holdout154": held(180, 0.92, 0.96),
		"holdout155": held(171, 0.90, 1.00),
		"holdout156": heldOver(161, 0.84, 0.92, 0.021),
		"holdout157": held(161, 0.96, 1.00),
		"holdout158": held(167, 0.89, 1.00),
		"holdout159": heldOver(168, 0.86, 1.00, 0.030),
		// The fifteenth session's third round: N5, the same procedure on
		// every set up to holdout159, replaced N4's weights by the
		// registered rule and never saw these eight; the bounds are its
		// blind figures (README, "Which file ships (fifteenth session,
		// third round)"): injection 0.894 at 1.4 %, lookalike 0.976 at
		// 0.36 %.
		"holdout160": held(172, 0.76, 1.00),
		"holdout161": held(160, 0.90, 0.96),
		"holdout162": heldOver(164, 0.84, 1.00, 0.040),
		"holdout163": lookalikeOver(heldOver(160, 0.93, 1.00, 0.021), 0.023),
		"holdout164": held(179, 0.91, 0.96),
		"holdout165": held(162, 0.92, 0.96),
		"holdout166": held(162, 0.95, 0.92),
		"holdout167": heldOver(162, 0.92, 1.00, 0.021),
		// The fifteenth session's fourth round: N6, the same procedure with
		// the third widening of the word tables on every set up to
		// holdout167, replaced N5's weights by the registered rule and
		// never saw these eight; the bounds are its blind figures (README,
		// "Which file ships (fifteenth session, fourth round)"): injection
		// 0.908 at 1.8 %, lookalike 0.977 at 0.18 %.
		"holdout168": held(160, 0.93, 1.00),
		"holdout169": held(167, 0.96, 1.00),
		"holdout170": held(184, 0.84, 0.96),
		"holdout171": heldOver(160, 0.96, 0.92, 0.032),
		"holdout172": held(160, 0.81, 1.00),
		"holdout173": heldOver(160, 0.96, 0.96, 0.022),
		"holdout174": heldOver(163, 0.96, 0.96, 0.031),
		"holdout175": held(174, 0.79, 1.00),
		// The sixteenth session's first two rounds, written to a rewritten
		// brief whose writers took up automated notices and newsletters with
		// hidden preheaders: S1 (N6's weights with the Chinese handler
		// grammar) never saw them; the bounds are its blind figures (README,
		// "Which file ships (sixteenth session)" and "… second round"):
		// injection 0.899 at 3.6 % and 0.882 at 3.0 %, lookalike 0.978 at
		// 0.16 % and 0.982 at 0.33 %.
		"holdout176": heldOver(183, 0.94, 0.96, 0.028),
		"holdout177": lookalikeOver(heldOver(178, 0.91, 0.96, 0.048), 0.014),
		"holdout178": held(176, 0.77, 1.00),
		"holdout179": heldOver(180, 0.94, 1.00, 0.028),
		"holdout180": heldOver(179, 0.91, 1.00, 0.028),
		"holdout181": heldOver(183, 0.85, 0.96, 0.027),
		"holdout182": heldOver(180, 0.90, 0.96, 0.053),
		"holdout183": heldOver(183, 0.91, 0.96, 0.064),
		"holdout184": heldOver(176, 0.98, 1.00, 0.056),
		"holdout185": lookalikeOver(held(181, 0.81, 1.00), 0.013),
		"holdout186": held(180, 0.80, 1.00),
		"holdout187": held(180, 0.93, 0.96),
		"holdout188": heldOver(182, 0.95, 0.96, 0.062),
		"holdout189": heldOver(176, 0.83, 0.96, 0.028),
		"holdout190": held(181, 0.87, 0.96),
		"holdout191": heldOver(176, 0.85, 1.00, 0.047),
		// The sixteenth session's third round: N9, the same procedure on
		// every set up to holdout191, replaced N6's weights by the
		// registered rule and never saw these eight; the bounds are its
		// blind figures (README, "Which file ships (sixteenth session,
		// third round)"): injection 0.868 at 2.3 %, lookalike 1.000 at
		// 0.08 %.
		"holdout192": held(177, 0.89, 1.00),
		"holdout193": heldOver(176, 0.97, 1.00, 0.028),
		"holdout194": heldOver(184, 0.76, 1.00, 0.027),
		"holdout195": held(179, 0.77, 1.00),
		"holdout196": held(184, 0.98, 1.00),
		"holdout197": heldOver(182, 0.81, 1.00, 0.037),
		"holdout198": heldOver(181, 0.86, 1.00, 0.028),
		"holdout199": held(183, 0.88, 1.00),
		// The seventeenth session's round: N10, the same procedure with the
		// English handler phrases on every set up to holdout199, replaced
		// N9's weights by the registered rule and never saw these eight;
		// the bounds are its blind figures (README, "Which file ships
		// (seventeenth session)"): injection 0.895 at 2.3 %, lookalike 0.986
		// at 0.08 %.
		"holdout200": heldOver(181, 0.95, 1.00, 0.027),
		"holdout201": heldOver(176, 0.86, 1.00, 0.038),
		"holdout202": held(176, 0.82, 1.00),
		"holdout203": heldOver(181, 0.92, 0.96, 0.054),
		"holdout204": held(177, 0.97, 0.96),
		"holdout205": held(179, 0.84, 1.00),
		"holdout206": held(183, 0.88, 0.96),
		"holdout207": held(176, 0.88, 1.00),
		// The seventeenth session's second round: U, N10's weights with
		// decoded payloads in more scripts and text read backwards, was
		// kept by the registered rule (N11, retrained on 212 sets, was over
		// 2 % with one false positive more) and never saw these eight; the
		// bounds are its blind figures (README, "Which file ships
		// (seventeenth session, second round)"): injection 0.940 at 1.9 %,
		// lookalike 0.986 at 0 %.
		"holdout208": held(177, 0.92, 0.96),
		"holdout209": held(182, 0.91, 0.92),
		"holdout210": held(183, 0.94, 1.00),
		"holdout211": held(182, 0.97, 1.00),
		"holdout212": heldOver(177, 0.88, 1.00, 0.046),
		"holdout213": held(175, 0.94, 1.00),
		"holdout214": held(178, 0.97, 1.00),
		"holdout215": heldOver(179, 0.97, 1.00, 0.036),
		// The seventeenth session's third round: N12, the same procedure
		// with phrases read across line breaks on every set up to
		// holdout215, replaced N10's weights by the registered rule and
		// never saw these eight; the bounds are its blind figures (README,
		// "Which file ships (seventeenth session, third round)"): injection
		// 0.879 at 1.7 %, lookalike 0.991 at 0.25 %.
		"holdout216": held(182, 0.94, 1.00),
		"holdout217": held(176, 0.85, 1.00),
		"holdout218": heldOver(178, 0.94, 1.00, 0.047),
		"holdout219": held(175, 0.86, 0.96),
		"holdout220": held(181, 0.93, 1.00),
		"holdout221": held(176, 0.77, 1.00),
		"holdout222": held(176, 0.78, 0.96),
		"holdout223": held(180, 0.92, 1.00),
		// The seventeenth session's fourth round: N12 stayed by the
		// registered rule (N13, retrained on 228 sets, found more but with
		// more false positives, over 2 %) and never saw these eight; the
		// bounds are its blind figures (README, "Which file ships
		// (seventeenth session, fourth round)"): injection 0.889 at 3.3 %,
		// lookalike 0.982 at 0.17 %.
		"holdout224": held(175, 0.83, 1.00),
		"holdout225": heldOver(180, 0.89, 0.96, 0.045),
		"holdout226": heldOver(176, 0.92, 1.00, 0.083),
		"holdout227": held(179, 0.88, 1.00),
		"holdout228": held(180, 0.94, 1.00),
		"holdout229": held(183, 0.98, 0.93),
		"holdout230": heldOver(181, 0.91, 0.96, 0.037),
		"holdout231": heldOver(175, 0.72, 1.00, 0.038),
		// The eighteenth session's round: L (lexicon features, inner
		// target 1.25 %, trained on every set up to holdout231) replaced
		// N12 by the registered rule and never saw these eight; the bounds
		// are its blind figures (README, "Which file ships (eighteenth
		// session)"): injection 0.903 at 0.9 %, lookalike 0.986 at 0.17 %.
		"holdout232": held(180, 0.92, 1.00),
		"holdout233": held(175, 0.89, 1.00),
		"holdout234": held(177, 0.88, 0.92),
		"holdout235": heldOver(177, 0.95, 1.00, 0.028),
		"holdout236": held(176, 0.92, 1.00),
		"holdout237": held(180, 0.91, 0.96),
		"holdout238": held(184, 0.77, 1.00),
		"holdout239": held(182, 0.94, 1.00),
		// The eighteenth session's second round: L2, the same procedure on
		// every set up to holdout239, replaced L by the registered rule and
		// never saw these eight; the bounds are its blind figures (README,
		// "Which file ships (eighteenth session, second round)"): injection
		// 0.904 at 1.0 %, lookalike 0.982 at 0 %.
		"holdout240": held(183, 0.97, 1.00),
		"holdout241": held(180, 0.91, 0.96),
		"holdout242": held(178, 0.79, 1.00),
		"holdout243": held(180, 0.95, 0.96),
		"holdout244": held(177, 0.88, 0.96),
		"holdout245": heldOver(177, 0.94, 1.00, 0.038),
		"holdout246": held(176, 0.92, 1.00),
		"holdout247": held(175, 0.83, 0.96),
		// The eighteenth session's third round: L2 stayed by the
		// registered rule (L3, retrained on 252 sets, found one injection
		// fewer with as many false positives) and never saw these eight;
		// the bounds are its blind figures (README, "Which file ships
		// (eighteenth session, third round)"): injection 0.942 at 1.95 %,
		// lookalike 0.987 at 0.17 %.
		"holdout248": heldOver(176, 0.92, 0.96, 0.028),
		"holdout249": held(177, 0.89, 0.96),
		"holdout250": heldOver(182, 0.97, 1.00, 0.046),
		"holdout251": held(175, 0.92, 1.00),
		"holdout252": held(184, 0.93, 1.00),
		"holdout253": heldOver(176, 0.97, 0.96, 0.029),
		"holdout254": held(181, 0.97, 1.00),
		"holdout255": held(175, 0.94, 1.00),
		// The eighteenth session's fourth round: L2 as shipped, no file
		// competing, never saw these eight; the bounds are its blind
		// figures (README, "Fourth round of the eighteenth session"):
		// injection 0.939 at 0.9 %, lookalike 0.986 at 0.08 %.
		"holdout256": held(175, 0.95, 1.00),
		"holdout257": held(183, 0.95, 0.96),
		"holdout258": held(179, 0.94, 1.00),
		"holdout259": heldOver(175, 0.97, 1.00, 0.047),
		"holdout260": held(178, 0.88, 1.00),
		"holdout261": held(180, 0.95, 1.00),
		"holdout262": held(182, 0.95, 0.96),
		"holdout263": held(177, 0.88, 0.96),
		// The nineteenth session's round, aimed at the languages with least
		// training mail: L4, the same procedure on every set up to
		// holdout263, replaced L2 by the registered rule and never saw
		// these eight; the bounds are its blind figures (README, "Which
		// file ships (nineteenth session)"): injection 0.843 at 1.7 %,
		// lookalike 0.977 at 0.25 %.
		"holdout264": held(178, 0.84, 0.96),
		"holdout265": held(180, 0.73, 0.96),
		"holdout266": heldOver(175, 0.78, 1.00, 0.028),
		"holdout267": held(178, 0.91, 1.00),
		"holdout268": held(175, 0.84, 0.92),
		"holdout269": held(180, 0.85, 1.00),
		"holdout270": held(176, 0.89, 0.96),
		"holdout271": heldOver(184, 0.85, 1.00, 0.035),
		// The nineteenth session's second round, the same languages again:
		// B (new word tables for 17 languages, L5 on every set up to
		// holdout271) replaced L4 by the registered rule and never saw
		// these eight; the bounds are its blind figures (README, "Which
		// file ships (nineteenth session, second round)"): injection 0.865
		// at 1.1 %, lookalike 0.986 at 0.17 %.
		"holdout272": held(178, 0.87, 1.00),
		"holdout273": held(176, 0.86, 1.00),
		"holdout274": held(175, 0.85, 1.00),
		"holdout275": held(175, 0.78, 1.00),
		"holdout276": heldOver(181, 0.89, 1.00, 0.027),
		"holdout277": held(181, 0.85, 0.96),
		"holdout278": heldOver(182, 0.95, 0.96, 0.027),
		"holdout279": held(176, 0.83, 0.96),
		// Mail about prompt injection (developer threads, training, vendor
		// marketing, notices, human assistants, newsletters) and injections
		// camouflaged as discussion, written before the discussion discount:
		// first 20/23 with 11 of 35 false positives; now 20/23 with 4, all
		// held at the bound (suspicious, not blocked).
		"dev5": {minFiles: 58,
			floor:   map[Reason]float64{ReasonPromptInjection: 0.86, ReasonLookalikeDomain: 1.0},
			ceiling: map[Reason]float64{ReasonPromptInjection: 0.12, ReasonLookalikeDomain: 0.01}},
	}
	for dir, b := range sets {
		t.Run(dir, func(t *testing.T) {
			rep := evaluate(t, filepath.Join("testdata", dir))
			if rep.Files < b.minFiles {
				t.Fatalf("%s has %d messages, want at least %d", dir, rep.Files, b.minFiles)
			}
			for reason, g := range goals {
				s := rep.Scores[reason]
				if s == nil {
					t.Fatalf("no labels for %s", reason)
				}
				ceiling := g.maxFPR
				if c, ok := b.ceiling[reason]; ok {
					ceiling = c
				}
				if s.FalsePositiveRate > ceiling {
					t.Errorf("%s false-positive rate %.3f > %.2f", reason, s.FalsePositiveRate, ceiling)
				}
				if s.Recall < b.floor[reason] {
					t.Errorf("%s recall %.3f < floor %.2f", reason, s.Recall, b.floor[reason])
				}
			}
		})
	}
}
