package screen

// A leave-one-set-out experiment with a learned prompt-injection model:
// hashed character n-grams and word n-grams per zone, the rules' own partial
// evidence (stacking), sender features; L2-regularised logistic regression
// trained by SGD. It trains many models, so it runs only when asked:
//
//	SCREEN_LOSO=1 go test ./internal/email/screen -run TestLearnedLOSO -v -timeout 60m
//
// SCREEN_LOSO=dev runs the development protocol instead (held-out sets
// holdout3 … holdout13, training never sees holdout14 … holdout27), which is
// where feature design was tried. SCREEN_LOSO_FEATS picks a feature set
// (see featureConfigs; the README's figures are charword-mil).
// SCREEN_LOSO_FP is the inner false-positive target (default 0.01);
// SCREEN_LOSO_THR picks how the threshold is set from it: unset, rules OR
// model meets it (reading A of the README); "model", the model alone meets
// it (reading B); "perset", the per-set shipping criterion. SCREEN_LOSO_CACHE
// names a gob file that caches the parsed messages and rule results between
// runs; SCREEN_LOSO_LIST=1 logs every message the model adds to the rules.
// SCREEN_LOSO=recent holds out holdout24 … holdout33 one at a time and
// trains on every other set; SCREEN_LOSO_BITS overrides the number of hash
// bits. SCREEN_LOSO=blind trains without holdout28 and holdout29 and measures on
// them (with SCREEN_LOSO_THR=model: the shipping decision). The README
// sections "A learned model, second attempt" and "A learned model,
// shipped" have the figures.
//
// The features, training and selection are the product's own (model.go,
// train.go): the shipped model is reading B of this experiment, trained on
// every set by cmd/screentrain.

import (
	"bufio"
	"encoding/gob"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// losoSample is one labelled message as the experiment needs it.
type losoSample = labelledSample

func loadLOSOSamples(t *testing.T) []losoSample {
	t.Helper()
	cache := os.Getenv("SCREEN_LOSO_CACHE")
	if cache != "" {
		if f, err := os.Open(cache); err == nil {
			defer f.Close()
			var out []losoSample
			if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&out); err == nil {
				return out
			}
		}
	}
	sets, err := labelledSetNames("testdata")
	if err != nil {
		t.Fatal(err)
	}
	out, err := loadLabelledSamples("testdata", sets, 2)
	if err != nil {
		t.Fatal(err)
	}
	if cache != "" {
		if f, err := os.Create(cache); err == nil {
			bw := bufio.NewWriter(f)
			if err := gob.NewEncoder(bw).Encode(out); err == nil {
				bw.Flush()
			}
			f.Close()
		}
	}
	return out
}

// featureConfigs are the configurations compared; "all" is the shipped
// one (modelFeatures).
var featureConfigs = map[string]featCfg{
	"word":         {name: "word", bits: 18, word: true, zoneTag: true, maxChars: 20000, wordScale: 1},
	"char":         {name: "char", bits: 18, char: true, zoneTag: true, maxChars: 20000, charScale: 1},
	"charword":     {name: "charword", bits: 18, char: true, word: true, zoneTag: true, maxChars: 20000, charScale: 1, wordScale: 1},
	"all":          modelFeatures,
	"char+rule":    {name: "char+rule", bits: 18, char: true, zoneTag: true, rules: true, meta: true, maxChars: 20000, charScale: 1},
	"charword-mil": {name: "charword-mil", bits: 18, char: true, word: true, zoneTag: true, maxChars: 20000, charScale: 1, wordScale: 1, mil: 1},
	"rulesonly":    {name: "rulesonly", bits: 18, rules: true, meta: true},
}

type foldResult struct {
	set                          string
	pos, neg                     int
	ruleTP, ruleFP               int
	modTP, modFP                 int
	combTP, combFP               int
	hyper                        losoHyper
	thr                          float64
	innerRecall, innerCombRecall float64
}

// add counts one held-out message; mod is the model's decision.
func (r *foldResult) add(s losoSample, mod bool) {
	comb := mod || s.In.RuleFlag
	if s.Inj {
		r.pos++
		r.ruleTP += b2i(s.In.RuleFlag)
		r.modTP += b2i(mod)
		r.combTP += b2i(comb)
	} else {
		r.neg++
		r.ruleFP += b2i(s.In.RuleFlag)
		r.modFP += b2i(mod)
		r.combFP += b2i(comb)
	}
}

func TestLearnedLOSO(t *testing.T) {
	mode := os.Getenv("SCREEN_LOSO")
	if mode == "" {
		t.Skip("set SCREEN_LOSO=1 (or dev) to run the learned-model experiment (trains many models)")
	}
	cfgName := os.Getenv("SCREEN_LOSO_FEATS")
	if cfgName == "" {
		cfgName = "all"
	}
	cfg, ok := featureConfigs[cfgName]
	if !ok {
		t.Fatalf("unknown SCREEN_LOSO_FEATS %q", cfgName)
	}
	sel := selection{fpTarget: 0.01, rule: thrRulesOrModel, seed: 1}
	if v := os.Getenv("SCREEN_LOSO_FP"); v != "" {
		if _, err := fmt.Sscanf(v, "%g", &sel.fpTarget); err != nil {
			t.Fatal(err)
		}
	}
	// SCREEN_LOSO_DECIDES=1 chooses λ and γ by the model's own inner
	// recall, as the shipped procedure does since the model decides.
	sel.modelDecides = os.Getenv("SCREEN_LOSO_DECIDES") != ""
	switch os.Getenv("SCREEN_LOSO_THR") {
	case "model":
		sel.rule = thrModelAlone
	case "perset":
		sel.rule = thrPerSet
	}
	for env, dst := range map[string]*int{"SCREEN_LOSO_REPEATS": &sel.repeats, "SCREEN_LOSO_FOLDS": &sel.folds} {
		if v := os.Getenv(env); v != "" {
			if _, err := fmt.Sscanf(v, "%d", dst); err != nil {
				t.Fatal(err)
			}
		}
	}
	if v := os.Getenv("SCREEN_LOSO_BITS"); v != "" {
		if _, err := fmt.Sscanf(v, "%d", &cfg.bits); err != nil {
			t.Fatal(err)
		}
	}
	samples := loadLOSOSamples(t)
	t.Logf("%d samples, features %s, inner FP target %g (threshold rule %q)", len(samples), cfg.name, sel.fpTarget, os.Getenv("SCREEN_LOSO_THR"))
	d := newTrainingData(samples, cfg)
	var held []string
	excluded := map[string]bool{}
	if mode == "block" {
		// One model trained without every set in SCREEN_LOSO_HELD,
		// measured on each of them (how a shipped file meets new sets).
		for _, n := range strings.Split(os.Getenv("SCREEN_LOSO_HELD"), ",") {
			if n != "" {
				excluded[n] = true
			}
		}
		if len(excluded) == 0 {
			t.Fatal("SCREEN_LOSO=block needs SCREEN_LOSO_HELD=set,set,...")
		}
		var train []int
		for i, s := range samples {
			if !excluded[s.Set] {
				train = append(train, i)
			}
		}
		sl := selectAndTrain(d, train, sel)
		var tot foldResult
		for _, h := range strings.Split(os.Getenv("SCREEN_LOSO_HELD"), ",") {
			r := foldResult{set: h}
			for i, s := range samples {
				if s.Set != h {
					continue
				}
				mod := d.score(sl.model, i)+sl.hyper.gamma*s.In.partialEvidence() > sl.thr
				r.add(s, mod)
				tot.add(s, mod)
			}
			t.Logf("%s: %d / %d injections (model alone %d), %d FP of %d (model alone %d)", h, r.combTP, r.pos, r.modTP, r.combFP, r.neg, r.modFP)
		}
		t.Logf("block, λ %g, epochs %d, γ %g, threshold %.4f, inner recall %.3f/%.3f: %d / %d injections (%.3f), %d FP of %d (%.2f %%)",
			sl.hyper.lambda, sl.hyper.epochs, sl.hyper.gamma, sl.thr, sl.innerRecall, sl.innerCombRecall,
			tot.combTP, tot.pos, float64(tot.combTP)/float64(tot.pos), tot.combFP, tot.neg, 100*float64(tot.combFP)/float64(tot.neg))
		t.Logf("block, the model deciding: %d / %d injections (%.3f), %d FP of %d (%.2f %%)",
			tot.modTP, tot.pos, float64(tot.modTP)/float64(tot.pos), tot.modFP, tot.neg, 100*float64(tot.modFP)/float64(tot.neg))
		return
	}
	if mode == "blind" {
		// The two sets written blind in the eighth session, after this
		// experiment was designed: training sees neither.
		held = []string{"holdout28", "holdout29"}
		excluded["holdout28"], excluded["holdout29"] = true, true
	} else if mode == "recent" {
		// The newest English-heavy and subtle sets, each held out in turn
		// while training sees every other set.
		for n := 24; n <= 33; n++ {
			held = append(held, fmt.Sprintf("holdout%d", n))
		}
	} else if mode == "dev" {
		for n := 3; n <= 13; n++ {
			held = append(held, fmt.Sprintf("holdout%d", n))
		}
		for n := 14; n <= 27; n++ {
			excluded[fmt.Sprintf("holdout%d", n)] = true
		}
	} else {
		for n := 14; n <= 27; n++ {
			held = append(held, fmt.Sprintf("holdout%d", n))
		}
	}
	results := make([]foldResult, len(held))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for hi, h := range held {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var train, test []int
			for i, s := range samples {
				switch {
				case s.Set == h:
					test = append(test, i)
				case !excluded[s.Set]:
					train = append(train, i)
				}
			}
			sl := selectAndTrain(d, train, sel)
			m, hp, thr := sl.model, sl.hyper, sl.thr
			r := foldResult{set: h, hyper: hp, thr: thr, innerRecall: sl.innerRecall, innerCombRecall: sl.innerCombRecall}
			for _, i := range test {
				s := samples[i]
				mod := d.score(m, i)+hp.gamma*s.In.partialEvidence() > thr
				if mod && !s.In.RuleFlag && os.Getenv("SCREEN_LOSO_LIST") != "" {
					t.Logf("model adds %s/%s (injection %v)", s.Set, s.File, s.Inj)
				}
				r.add(s, mod)
			}
			results[hi] = r
		}()
	}
	wg.Wait()
	var tot foldResult
	t.Logf("| set | injections / benign | rules recall, FP | model recall, FP | rules OR model recall, FP | λ, γ, threshold, inner recall model/comb |")
	t.Logf("|---|---|---|---|---|---|")
	for _, r := range results {
		t.Logf("| %s | %d / %d | %.3f, %d | %.3f, %d | %.3f, %d | %g, %g, %.2f, %.3f/%.3f |", r.set, r.pos, r.neg,
			float64(r.ruleTP)/float64(r.pos), r.ruleFP, float64(r.modTP)/float64(r.pos), r.modFP,
			float64(r.combTP)/float64(r.pos), r.combFP, r.hyper.lambda, r.hyper.gamma, r.thr, r.innerRecall, r.innerCombRecall)
		tot.pos += r.pos
		tot.neg += r.neg
		tot.ruleTP += r.ruleTP
		tot.ruleFP += r.ruleFP
		tot.modTP += r.modTP
		tot.modFP += r.modFP
		tot.combTP += r.combTP
		tot.combFP += r.combFP
	}
	t.Logf("| total | %d / %d | %.3f, %d (%.1f %%) | %.3f, %d (%.1f %%) | %.3f, %d (%.1f %%) | |", tot.pos, tot.neg,
		float64(tot.ruleTP)/float64(tot.pos), tot.ruleFP, 100*float64(tot.ruleFP)/float64(tot.neg),
		float64(tot.modTP)/float64(tot.pos), tot.modFP, 100*float64(tot.modFP)/float64(tot.neg),
		float64(tot.combTP)/float64(tot.pos), tot.combFP, 100*float64(tot.combFP)/float64(tot.neg))
}
