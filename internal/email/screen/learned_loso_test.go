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
// runs. The README section "A learned model, second attempt" has the figures.

import (
	"bufio"
	"encoding/gob"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// losoSample is one labelled message as the experiment needs it.
type losoSample struct {
	Set      string
	File     string
	Inj      bool
	RuleFlag bool    // the shipped rules flag prompt_injection
	RuleAny  bool    // the message has any reason (other detectors)
	Score    float64 // the rules' best injection score (0 when none)
	Sigs     uint32  // the signals named in the best window
	Segs     []losoSeg
	Internal bool
	AuthFail int // number of failed SPF/DKIM/DMARC
	Lookalk  bool
}

type losoSeg struct {
	Zone int
	Text string
}

func losoSetNames(root string) ([]string, error) {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			if _, err := os.Stat(filepath.Join(root, e.Name(), "labels.jsonl")); err == nil {
				out = append(out, e.Name())
			}
		}
	}
	sort.Strings(out)
	return out, nil
}

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
	root := "testdata"
	sets, err := losoSetNames(root)
	if err != nil {
		t.Fatal(err)
	}
	det := NewDetector()
	low := NewDetector(WithInjectionThresholds(0.01, 1000))
	type job struct {
		set, dir string
		c        Context
		rec      map[string]any
	}
	var jobs []job
	for _, set := range sets {
		dir := filepath.Join(root, set)
		var ec EvalContext
		raw, err := os.ReadFile(filepath.Join(dir, "context.json"))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, &ec); err != nil {
			t.Fatal(err)
		}
		c := Context{OrgDomains: ec.OrgDomains, KnownCorrespondents: ec.KnownCorrespondents}
		lb, err := os.ReadFile(filepath.Join(dir, "labels.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(string(lb), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
			if _, ok := rec["prompt_injection"].(bool); !ok {
				continue
			}
			jobs = append(jobs, job{set, dir, c, rec})
		}
	}
	out := make([]losoSample, len(jobs))
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				j := jobs[i]
				file := j.rec["file"].(string)
				raw, err := os.ReadFile(filepath.Join(j.dir, file))
				if err != nil {
					panic(err)
				}
				m, err := MessageFromRaw(raw)
				if err != nil {
					panic(fmt.Sprintf("%s/%s: %v", j.set, file, err))
				}
				res := det.Screen(m, j.c)
				hv := extractHTML(m.HTML)
				s := losoSample{Set: j.set, File: file, Inj: j.rec["prompt_injection"].(bool),
					RuleFlag: res.Has(ReasonPromptInjection), Lookalk: res.Has(ReasonLookalikeDomain)}
				for _, r := range res.Reasons {
					if r != ReasonPromptInjection {
						s.RuleAny = true
					}
				}
				if f, ok := low.injectionFinding(m, j.c, hv); ok {
					var sc float64
					fmt.Sscanf(f.Detail, "score %f", &sc)
					s.Score = sc
					for x := signal(0); x < numSignals; x++ {
						if strings.Contains(f.Detail, signalName[x]) {
							s.Sigs |= 1 << x
						}
					}
				}
				for _, sg := range collectSegments(m, hv) {
					s.Segs = append(s.Segs, losoSeg{int(sg.zone), sg.text})
				}
				n := len(s.Segs)
				for k := 0; k < n; k++ {
					for _, dec := range det.inj.decodePayloads(s.Segs[k].Text) {
						s.Segs = append(s.Segs, losoSeg{int(zoneDecoded), dec})
					}
				}
				s.Internal = !strings.EqualFold(m.Auth.DMARC, "fail") && inDomains(domainOf(m.From.Address), j.c.OrgDomains) &&
					!relaysOutsiders(m.From.Address) && !relaysOutsiders(m.ReturnPath) && !repliesOutside(m, j.c.OrgDomains)
				for _, v := range []string{m.Auth.SPF, m.Auth.DKIM, m.Auth.DMARC} {
					v = strings.ToLower(strings.TrimSpace(v))
					if v == "fail" || v == "softfail" || v == "permerror" {
						s.AuthFail++
					}
				}
				out[i] = s
			}
		}()
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
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

// ---- features ----

type featCfg struct {
	name      string
	bits      uint
	char      bool // character 3-5-grams of words
	word      bool // word unigrams and bigrams
	zoneTag   bool // zone-tagged copies for text a person does not read
	rules     bool // the rules' score and signals
	meta      bool // sender and structure
	maxChars  int  // per message, over all segments
	mil       int  // multiple-instance rounds over windows
	charScale float64
	wordScale float64
}

var featureConfigs = map[string]featCfg{
	"word":         {name: "word", bits: 18, word: true, zoneTag: true, maxChars: 20000, wordScale: 1},
	"char":         {name: "char", bits: 18, char: true, zoneTag: true, maxChars: 20000, charScale: 1},
	"charword":     {name: "charword", bits: 18, char: true, word: true, zoneTag: true, maxChars: 20000, charScale: 1, wordScale: 1},
	"all":          {name: "all", bits: 18, char: true, word: true, zoneTag: true, rules: true, meta: true, maxChars: 20000, charScale: 1, wordScale: 1},
	"char+rule":    {name: "char+rule", bits: 18, char: true, zoneTag: true, rules: true, meta: true, maxChars: 20000, charScale: 1},
	"charword-mil": {name: "charword-mil", bits: 18, char: true, word: true, zoneTag: true, maxChars: 20000, charScale: 1, wordScale: 1, mil: 1},
	"rulesonly":    {name: "rulesonly", bits: 18, rules: true, meta: true},
}

type sparse struct {
	idx []uint32
	val []float32
}

func fnvMix(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

const fnvBasis = 2166136261

// zoneGroup folds zones into what a reader sees (0) and what a reader does
// not (1: hidden, comment, alt text, decoded) and attachments (2).
func zoneGroup(z int) int {
	switch zone(z) {
	case zoneHidden, zoneComment, zoneAttr, zoneDecoded:
		return 1
	case zoneAttachment:
		return 2
	case zoneCode:
		return 3
	}
	return 0
}

// words splits normalized text into runs of letters and digits.
func losoWords(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '@' && r != '_' })
}

func textBlocks(charAcc, wordAcc map[uint32]float32, text string, zg int, cfg featCfg) {
	mask := uint32(1)<<cfg.bits - 1
	ws := losoWords(text)
	if cfg.char {
		for _, w := range ws {
			r := []rune(" " + w + " ")
			if len(r) > 42 {
				r = r[:42]
			}
			for n := 3; n <= 5; n++ {
				for i := 0; i+n <= len(r); i++ {
					g := string(r[i : i+n])
					h := fnvMix(fnvBasis^1, g)
					charAcc[h&mask]++
					if cfg.zoneTag && zg != 0 {
						charAcc[fnvMix(h^uint32(zg)*0x9e3779b1, "z")&mask]++
					}
				}
			}
		}
	}
	if cfg.word {
		prev := "^"
		for _, w := range ws {
			h := fnvMix(fnvBasis^2, w)
			wordAcc[h&mask]++
			b := fnvMix(fnvMix(fnvBasis^3, prev), " "+w)
			wordAcc[b&mask]++
			if cfg.zoneTag && zg != 0 {
				wordAcc[fnvMix(h^uint32(zg)*0x9e3779b1, "z")&mask]++
			}
			prev = w
		}
	}
}

func addBlock(acc, m map[uint32]float32, scale float64) {
	var norm float64
	for k, v := range m {
		v = float32(1 + math.Log(float64(v)))
		m[k] = v
		norm += float64(v * v)
	}
	if norm == 0 {
		return
	}
	f := float32(scale / math.Sqrt(norm))
	for k, v := range m {
		acc[k] += v * f
	}
}

func toSparse(acc map[uint32]float32) sparse {
	keys := make([]uint32, 0, len(acc))
	for k := range acc {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	sp := sparse{idx: keys, val: make([]float32, len(keys))}
	for i, k := range keys {
		sp.val[i] = acc[k]
	}
	return sp
}

// buildWindows returns one vector per window of three neighbouring
// paragraphs of every segment (at most maxWin).
func buildWindows(s *losoSample, cfg featCfg, maxWin int) []sparse {
	var out []sparse
	budget := cfg.maxChars
	for _, sg := range s.Segs {
		if budget <= 0 || len(out) >= maxWin {
			break
		}
		text := sg.Text
		if len(text) > budget {
			text = text[:budget]
		}
		budget -= len(text)
		paras := splitParagraphs(normalize(text))
		zg := zoneGroup(sg.Zone)
		for i := range paras {
			if len(out) >= maxWin {
				break
			}
			if len(paras) > 1 && i == len(paras)-1 && len(paras) <= 3 {
				break
			}
			lo, hi := max(0, i-1), min(len(paras)-1, i+1)
			ca, wa := map[uint32]float32{}, map[uint32]float32{}
			for j := lo; j <= hi; j++ {
				textBlocks(ca, wa, paras[j], zg, cfg)
			}
			acc := map[uint32]float32{}
			addBlock(acc, ca, cfg.charScale)
			addBlock(acc, wa, cfg.wordScale)
			acc[fnvMix(fnvBasis^4, "bias")&(uint32(1)<<cfg.bits-1)] += 1
			acc[fnvMix(fnvBasis^4, "window")&(uint32(1)<<cfg.bits-1)] += 1
			out = append(out, toSparse(acc))
		}
	}
	return out
}

func buildFeatures(s *losoSample, cfg featCfg) sparse {
	mask := uint32(1)<<cfg.bits - 1
	acc := map[uint32]float32{}
	charAcc := map[uint32]float32{}
	wordAcc := map[uint32]float32{}
	budget := cfg.maxChars
	for _, sg := range s.Segs {
		if budget <= 0 {
			break
		}
		text := sg.Text
		if len(text) > budget {
			text = text[:budget]
		}
		budget -= len(text)
		textBlocks(charAcc, wordAcc, normalize(text), zoneGroup(sg.Zone), cfg)
	}
	addBlock(acc, charAcc, cfg.charScale)
	addBlock(acc, wordAcc, cfg.wordScale)
	dense := func(name string, v float32) {
		acc[fnvMix(fnvBasis^4, name)&mask] += v
	}
	dense("bias", 1)
	if cfg.rules {
		sc := s.Score
		dense("rscore", float32(min(sc, 12)/6))
		switch {
		case sc == 0:
			dense("rbin0", 1)
		case sc < 3:
			dense("rbin1", 1)
		case sc < 5:
			dense("rbin3", 1)
		case sc < 8:
			dense("rbin5", 1)
		default:
			dense("rbin8", 1)
		}
		for x := signal(0); x < numSignals; x++ {
			if s.Sigs&(1<<x) != 0 {
				dense("sig"+signalName[x], 1)
			}
		}
	}
	if cfg.meta {
		if s.Internal {
			dense("internal", 1)
		}
		dense(fmt.Sprintf("authfail%d", min(s.AuthFail, 2)), 1)
		if s.Lookalk {
			dense("lookalike", 1)
		}
		zones := map[int]bool{}
		for _, sg := range s.Segs {
			zones[zoneGroup(sg.Zone)] = true
		}
		for z := range zones {
			dense(fmt.Sprintf("haszone%d", z), 1)
		}
	}
	return toSparse(acc)
}

// ---- model ----

type logreg struct {
	w []float64
}

func (m *logreg) margin(x sparse) float64 {
	var z float64
	for i, k := range x.idx {
		z += m.w[k] * float64(x.val[i])
	}
	return z
}

// trainLogReg minimises mean log loss + lambda/2 |w|^2 by SGD with a
// decaying step, in a fixed order per seed (deterministic).
func trainLogReg(xs []sparse, ys []bool, bits uint, lambda float64, epochs int, seed uint64) *logreg {
	n := len(xs)
	w := make([]float64, 1<<bits)
	scale := 1.0 // w_true = scale * w (lazy L2 shrink)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	// balance: positives weigh as much in total as negatives
	var pos int
	for _, y := range ys {
		if y {
			pos++
		}
	}
	wPos, wNeg := float64(n)/(2*float64(max(pos, 1))), float64(n)/(2*float64(max(n-pos, 1)))
	t := 0.0
	eta0 := 0.5
	for ep := 0; ep < epochs; ep++ {
		rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })
		for _, i := range order {
			t++
			eta := eta0 / (1 + eta0*lambda*t) / (1 + 0.5*float64(ep))
			x := xs[i]
			var z float64
			for k, idx := range x.idx {
				z += w[idx] * float64(x.val[k])
			}
			z *= scale
			p := 1 / (1 + math.Exp(-z))
			g := p
			cw := wNeg
			if ys[i] {
				g = p - 1
				cw = wPos
			}
			scale *= 1 - eta*lambda
			if scale < 1e-9 {
				for k := range w {
					w[k] *= scale
				}
				scale = 1
			}
			step := eta * g * cw / scale
			for k, idx := range x.idx {
				w[idx] -= step * float64(x.val[k])
			}
		}
	}
	for k := range w {
		w[k] *= scale
	}
	return &logreg{w: w}
}

// ---- protocol ----

type losoHyper struct {
	lambda float64
	epochs int
	gamma  float64 // weight of the rules' partial evidence
}

var losoGrid = []losoHyper{{1e-5, 8, 0}, {1e-6, 8, 0}, {1e-7, 15, 0}, {1e-6, 15, 0}}

// innerFPTarget is the false-positive rate aimed at on the benign mail of
// the inner held-out sets (SCREEN_LOSO_FP overrides it).
var innerFPTarget = 0.01

// losoGammas weigh the rules' partial evidence (a best window scoring 3 or
// 4, below the flag) added to the model's margin; chosen in the inner loop.
// thrModelAlone (SCREEN_LOSO_THR=model) sets the threshold so that the
// model alone, not rules OR model, meets the target in the inner loop.
var thrModelAlone bool

// thrPerSet (SCREEN_LOSO_THR=perset) sets the threshold at the lowest margin
// at which rules OR model keeps the shipping criterion on the inner
// held-out sets: at most 2 % false positives on every set, or one message
// more on at most a seventh of the sets.
var thrPerSet bool

func perSetThreshold(samples []losoSample, train []int, oof []float64, g float64) float64 {
	type bs struct {
		z   float64
		set string
	}
	var cand []bs
	neg := map[string]int{}
	fp := map[string]int{}
	for j, i := range train {
		s := &samples[i]
		if s.Inj {
			continue
		}
		neg[s.Set]++
		if s.RuleFlag {
			fp[s.Set]++
			continue
		}
		cand = append(cand, bs{oof[j] + g*partial(s), s.Set})
	}
	sort.Slice(cand, func(a, b int) bool { return cand[a].z > cand[b].z })
	ok := func() bool {
		over := 0
		for set, n := range neg {
			limit := int(math.Floor(0.02 * float64(n)))
			switch {
			case fp[set] > limit+1:
				return false
			case fp[set] > limit:
				over++
			}
		}
		return over*7 <= len(neg)
	}
	thr := math.Inf(1)
	if !ok() {
		return thr
	}
	for _, c := range cand {
		fp[c.set]++
		if !ok() {
			return c.z
		}
		thr = c.z
	}
	return math.Inf(-1)
}

var losoGammas = []float64{0, 0.5, 1, 2}

func partial(s *losoSample) float64 {
	if !s.RuleFlag && s.Score >= 3 {
		return 1
	}
	return 0
}

// thresholdAt returns the smallest margin such that at most target of the
// benign messages score strictly above it.
func thresholdAt(benign []float64, target float64) float64 {
	s := slices.Clone(benign)
	slices.Sort(s)
	allowed := int(math.Floor(target * float64(len(s))))
	if allowed >= len(s) {
		return math.Inf(-1)
	}
	// with threshold s[len-1-allowed], scores > it are at most `allowed`
	return s[len(s)-1-allowed]
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

// losoData is the featurised corpus.
type losoData struct {
	samples []losoSample
	xs      []sparse   // whole-message vectors
	wins    [][]sparse // window vectors (nil unless mil)
	bits    uint
	mil     int // rounds of multiple-instance training (0: whole messages only)
}

// train fits a model on the samples idx.
func (d *losoData) train(idx []int, h losoHyper, seed uint64) *logreg {
	var tx []sparse
	var ty []bool
	for _, i := range idx {
		tx = append(tx, d.xs[i])
		ty = append(ty, d.samples[i].Inj)
	}
	m := trainLogReg(tx, ty, d.bits, h.lambda, h.epochs, seed)
	for r := 0; r < d.mil; r++ {
		tx, ty = tx[:0:0], ty[:0:0]
		for _, i := range idx {
			tx = append(tx, d.xs[i])
			ty = append(ty, d.samples[i].Inj)
			if !d.samples[i].Inj {
				for _, w := range d.wins[i] {
					tx = append(tx, w)
					ty = append(ty, false)
				}
				continue
			}
			best, bm := -1, math.Inf(-1)
			for k, w := range d.wins[i] {
				if z := m.margin(w); z > bm {
					best, bm = k, z
				}
			}
			if best >= 0 {
				tx = append(tx, d.wins[i][best])
				ty = append(ty, true)
			}
		}
		m = trainLogReg(tx, ty, d.bits, h.lambda, h.epochs, seed)
	}
	return m
}

// score is the model's margin for sample i: the whole message or, with
// windows, the highest of the message and its windows.
func (d *losoData) score(m *logreg, i int) float64 {
	z := m.margin(d.xs[i])
	if d.mil > 0 {
		for _, w := range d.wins[i] {
			z = max(z, m.margin(w))
		}
	}
	return z
}

// selectAndTrain chooses the hyperparameters and the threshold on the
// training sets only (grouped inner cross-validation by set), then trains
// on all of them.
func selectAndTrain(d *losoData, train []int, seed uint64) (*logreg, losoHyper, float64, float64, float64) {
	samples := d.samples
	// inner folds: the training sets, assigned round-robin to 5 groups in
	// name order.
	setsSeen := map[string]bool{}
	var names []string
	for _, i := range train {
		if !setsSeen[samples[i].Set] {
			setsSeen[samples[i].Set] = true
			names = append(names, samples[i].Set)
		}
	}
	slices.Sort(names)
	const K = 5
	group := map[string]int{}
	for i, n := range names {
		group[n] = i % K
	}
	bestH, bestThr, bestRec, bestComb, bestG := losoGrid[0], 0.0, -1.0, -1.0, 0.0
	for _, h := range losoGrid {
		oof := make([]float64, len(train))
		for k := 0; k < K; k++ {
			var tr []int
			for _, i := range train {
				if group[samples[i].Set] != k {
					tr = append(tr, i)
				}
			}
			m := d.train(tr, h, seed)
			for j, i := range train {
				if group[samples[i].Set] == k {
					oof[j] = d.score(m, i)
				}
			}
		}
		for _, g := range losoGammas {
			var benign []float64
			for j, i := range train {
				if !samples[i].Inj && !samples[i].RuleFlag {
					benign = append(benign, oof[j]+g*partial(&samples[i]))
				}
			}
			// the benign mail the rules flag already counts against the
			// target: the model may add the rest.
			var nb, rfp int
			for _, i := range train {
				if !samples[i].Inj {
					nb++
					rfp += b2i(samples[i].RuleFlag)
				}
			}
			allowed := max(0, innerFPTarget*float64(nb)-float64(rfp))
			if thrModelAlone {
				// the model alone aims at the target, wherever the rules stand
				benign = benign[:0]
				for j, i := range train {
					if !samples[i].Inj {
						benign = append(benign, oof[j]+g*partial(&samples[i]))
					}
				}
				allowed = innerFPTarget * float64(nb)
			}
			thr := thresholdAt(benign, allowed/float64(len(benign)))
			if thrPerSet {
				thr = perSetThreshold(samples, train, oof, g)
			}
			var tp, ctp, pos int
			for j, i := range train {
				if samples[i].Inj {
					pos++
					z := oof[j] + g*partial(&samples[i])
					if z > thr {
						tp++
					}
					if z > thr || samples[i].RuleFlag {
						ctp++
					}
				}
			}
			rec, comb := float64(tp)/float64(pos), float64(ctp)/float64(pos)
			if comb > bestComb || comb == bestComb && rec > bestRec {
				bestH, bestThr, bestRec, bestComb, bestG = h, thr, rec, comb, g
			}
		}
	}
	bestH.gamma = bestG
	return d.train(train, bestH, seed), bestH, bestThr, bestRec, bestComb
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
	if v := os.Getenv("SCREEN_LOSO_FP"); v != "" {
		if _, err := fmt.Sscanf(v, "%g", &innerFPTarget); err != nil {
			t.Fatal(err)
		}
	}
	thrModelAlone = os.Getenv("SCREEN_LOSO_THR") == "model"
	thrPerSet = os.Getenv("SCREEN_LOSO_THR") == "perset"
	samples := loadLOSOSamples(t)
	t.Logf("%d samples, features %s, inner FP target %g (threshold rule %q)", len(samples), cfg.name, innerFPTarget, os.Getenv("SCREEN_LOSO_THR"))
	d := &losoData{samples: samples, xs: make([]sparse, len(samples)), bits: cfg.bits, mil: cfg.mil}
	if d.mil > 0 {
		d.wins = make([][]sparse, len(samples))
	}
	for i := range samples {
		d.xs[i] = buildFeatures(&samples[i], cfg)
		if d.mil > 0 {
			d.wins[i] = buildWindows(&samples[i], cfg, 40)
		}
	}
	var held []string
	excluded := map[string]bool{}
	if mode == "blind" {
		// The two sets written blind in the eighth session, after this
		// experiment was designed: training sees neither.
		held = []string{"holdout28", "holdout29"}
		excluded["holdout28"], excluded["holdout29"] = true, true
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
			m, hp, thr, irec, icomb := selectAndTrain(d, train, 1)
			r := foldResult{set: h, hyper: hp, thr: thr, innerRecall: irec, innerCombRecall: icomb}
			for _, i := range test {
				s := samples[i]
				mod := d.score(m, i)+hp.gamma*partial(&s) > thr
				comb := mod || s.RuleFlag
				if s.Inj {
					r.pos++
					r.ruleTP += b2i(s.RuleFlag)
					r.modTP += b2i(mod)
					r.combTP += b2i(comb)
				} else {
					r.neg++
					r.ruleFP += b2i(s.RuleFlag)
					r.modFP += b2i(mod)
					r.combFP += b2i(comb)
				}
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

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
