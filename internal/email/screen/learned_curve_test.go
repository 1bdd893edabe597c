package screen

// How a feature change moves the model on sets it has never seen, without
// the cost of the whole selection: one fixed fit (λ 1e-8, 80 epochs, the
// shipped files' usual choice) on every set written before a block of
// held-out sets, scored on the block. It prints the area under the ROC curve and the
// recall at several false-positive rates chosen on the block itself (how
// well the model separates, whatever the threshold), and, with
// SCREEN_CURVE_INNER=1, what the shipped threshold rule gives there: the
// pooled out-of-fold scores of five inner groupings, a threshold at each of
// several inner false-positive targets, the block's figures at each. The
// eighteenth session chose the lexicon features and the 1.25 % target this
// way on holdout200-231 (README, "Which file ships (eighteenth session)"):
//
//	SCREEN_CURVE=holdout200-231 SCREEN_CURVE_LEX=0,0.2 SCREEN_CURVE_INNER=1 \
//	  go test ./internal/email/screen -run TestLearnedCurve -v -timeout 60m
//
// SCREEN_CURVE_LEX lists lexicon-block weights to compare (0: without the
// lexicon features); SCREEN_LOSO_CACHE caches the parsed sets as for
// TestLearnedLOSO.

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestLearnedCurve(t *testing.T) {
	block := os.Getenv("SCREEN_CURVE")
	if block == "" {
		t.Skip("set SCREEN_CURVE=holdoutA-B to run the fixed-fit comparison (trains several models)")
	}
	var from, to int
	if _, err := fmt.Sscanf(block, "holdout%d-%d", &from, &to); err != nil || to < from {
		t.Fatalf("SCREEN_CURVE=%q: want holdoutA-B", block)
	}
	held := map[string]bool{}
	for n := from; n <= to; n++ {
		held[fmt.Sprintf("holdout%d", n)] = true
	}
	scales := os.Getenv("SCREEN_CURVE_LEX")
	if scales == "" {
		scales = strconv.FormatFloat(modelFeatures.lexScale, 'g', -1, 64)
	}
	samples := loadLOSOSamples(t)
	// Training sees the sets written before the block, as a file shipped
	// before it would have: none numbered after it.
	var train []int
	for i, s := range samples {
		var n int
		if _, err := fmt.Sscanf(s.Set, "holdout%d", &n); err == nil && n > to {
			continue
		}
		if !held[s.Set] {
			train = append(train, i)
		}
	}
	fit := losoHyper{lambda: 1e-8, epochs: 80}
	for _, f := range strings.Split(scales, ",") {
		scale, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatal(err)
		}
		cfg := modelFeatures
		cfg.lex, cfg.lexScale = scale > 0, scale
		d := newTrainingData(samples, cfg)
		m := d.train(train, fit, 1)
		var pos, neg []float64
		for i, s := range samples {
			if !held[s.Set] {
				continue
			}
			if s.Inj {
				pos = append(pos, d.score(m, i))
			} else {
				neg = append(neg, d.score(m, i))
			}
		}
		var at []string
		for _, fp := range []float64{0.01, 0.015, 0.02, 0.025, 0.03} {
			at = append(at, fmt.Sprintf("%.1f %%: %.3f", 100*fp, recallAbove(pos, thresholdAt(neg, fp))))
		}
		t.Logf("lexicon weight %g: %d injections, %d benign; AUC %.4f; recall at %s", scale, len(pos), len(neg), rocArea(pos, neg), strings.Join(at, ", "))
		if os.Getenv("SCREEN_CURVE_INNER") == "" {
			continue
		}
		var names []string
		for _, i := range train {
			if n := samples[i].Set; !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		slices.Sort(names)
		groups := innerGroups(names, 5, shippedSelection.repeats)
		oof := d.outOfFold(train, groups, 5, fit, 1)
		var innerPos, innerNeg []float64
		for j, z := range oof {
			if samples[train[j%len(train)]].Inj {
				innerPos = append(innerPos, z)
			} else {
				innerNeg = append(innerNeg, z)
			}
		}
		for _, target := range []float64{0.01, 0.0125, 0.015, 0.0175, 0.02} {
			thr := thresholdAt(innerNeg, target)
			t.Logf("  inner target %.2f %%: threshold %.3f, inner recall %.3f; held out: recall %.3f at %.2f %% false positives",
				100*target, thr, recallAbove(innerPos, thr), recallAbove(pos, thr), 100*recallAbove(neg, thr))
		}
	}
}

// recallAbove is the share of scores strictly above thr.
func recallAbove(scores []float64, thr float64) float64 {
	n := 0
	for _, z := range scores {
		if z > thr {
			n++
		}
	}
	return float64(n) / float64(max(1, len(scores)))
}

// rocArea is the probability that an injection scores above a benign
// message (ties count as below).
func rocArea(pos, neg []float64) float64 {
	p, n := slices.Clone(pos), slices.Clone(neg)
	slices.Sort(p)
	slices.Sort(n)
	var sum float64
	j := 0
	for _, z := range p {
		for j < len(n) && n[j] < z {
			j++
		}
		sum += float64(j)
	}
	return sum / float64(max(1, len(p)*len(n)))
}
