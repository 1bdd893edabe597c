package screen

// The learned prompt-injection model: an L2-regularised logistic
// regression on hashed features of the message text (character 3-5-grams
// and word uni/bigrams, zone-tagged), the rules' own evidence and a few
// sender features. It decides whether a message holds an injection, the
// rules' evidence being among its features (injectionFinding).
// Training (train.go, cmd/screentrain) and scoring share the feature code
// below, so the two cannot drift; the README section "A learned model"
// has the figures.

import (
	"bytes"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"math"
	"sync"
	"unicode"
	"unicode/utf8"
)

const (
	// modelFormat and modelFormatVersion name the model file's layout; the
	// loader refuses any other.
	modelFormat        = "agentsvc-injection-model"
	modelFormatVersion = 1
	// modelFeatureID names the feature extraction the weights were trained
	// on. Change it whenever featureHasher or modelFeatures changes what a
	// message hashes to, and retrain: the loader refuses a mismatch.
	modelFeatureID = "all-v2"
	// modelRuleFlag is the rule threshold at which the rules' evidence
	// (score and signals) is read for the model: far below the flag, so the
	// model sees partial evidence.
	modelRuleFlag = 0.01
	// ModelFile is the model's file name in the package directory.
	ModelFile = "injection_model.bin"
)

//go:embed injection_model.bin
var embeddedModelFile []byte

// featCfg is a feature configuration. The shipped model uses modelFeatures
// (the experiment's config "all"); learned_loso_test.go compares others.
type featCfg struct {
	name      string
	bits      uint
	char      bool // character 3-5-grams of words
	word      bool // word unigrams and bigrams
	zoneTag   bool // zone-tagged copies for text a person does not read
	rules     bool // the rules' score and signals
	meta      bool // sender and structure
	maxChars  int  // per message, over all segments
	mil       int  // multiple-instance rounds over windows (experiment only)
	lex       bool // lexicon categories and their same-sentence pairs, in any language
	charScale float64
	wordScale float64
	lexScale  float64
}

// modelFeatures is the shipped model's feature configuration.
var modelFeatures = featCfg{name: "all", bits: 18, char: true, word: true, zoneTag: true, rules: true, meta: true,
	lex: true, maxChars: 20000, charScale: 1, wordScale: 1, lexScale: 0.2}

// modelSegment is one text source of a message, as the model reads it.
type modelSegment struct {
	Zone int
	Text string
}

// modelInputs is everything the model reads about one message. Fields are
// exported for the experiment's gob cache.
type modelInputs struct {
	Segs     []modelSegment
	RuleFlag bool          // the rules flag prompt_injection
	Score    float64       // the rules' best score at modelRuleFlag, rounded (0 below it)
	Sigs     uint32        // the signals of that window
	Internal bool          // the sender is the organization itself
	AuthFail int           // failed SPF, DKIM, DMARC results
	Lookalk  bool          // a lookalike_domain finding
	Lex      [4]lexProfile // what the lexicon found, per zone group (featCfg.lex)
}

func newModelInputs(ev injectionEvidence, ruleFlag bool, auth AuthResults, lookalike bool) modelInputs {
	in := modelInputs{RuleFlag: ruleFlag, Internal: ev.internal, Lookalk: lookalike, Segs: make([]modelSegment, len(ev.segs)), Lex: ev.lex}
	for i, s := range ev.segs {
		in.Segs[i] = modelSegment{int(s.zone), s.text}
	}
	if ev.low.score >= modelRuleFlag {
		// as "score %.0f" in a finding's detail, which the experiment read
		in.Score = math.RoundToEven(ev.low.score)
		in.Sigs = uint32(ev.low.shownSignals())
	}
	for _, v := range []string{auth.SPF, auth.DKIM, auth.DMARC} {
		if authFailed(v) {
			in.AuthFail++
		}
	}
	return in
}

// partialEvidence is 1 when the rules' best window scores 3 or 4: below
// the flag, but more than chance. The model adds gamma times it.
func (in *modelInputs) partialEvidence() float64 {
	if !in.RuleFlag && in.Score >= 3 {
		return 1
	}
	return 0
}

// ---- features ----

const fnvBasis = 2166136261

func fnvMix(h uint32, s string) uint32 {
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

func fnvMixBytes(h uint32, s []byte) uint32 {
	for _, c := range s {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

// zoneGroup folds zones into what a reader sees (0), what a reader does
// not (1: hidden, comment, alt text, decoded), attachments (2) and code (3).
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

func isFeatureWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '@' || r == '_'
}

// forEachWord calls fn for each run of letters, digits, '@' and '_' in s,
// as strings.FieldsFunc would split it (invalid bytes separate words).
func forEachWord(s string, fn func(w string)) {
	start := -1
	for i := 0; i < len(s); {
		var in bool
		size := 1
		if c := s[i]; c < utf8.RuneSelf {
			in = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '@' || c == '_'
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			in = isFeatureWordRune(r) && !(r == utf8.RuneError && size == 1)
		}
		if in {
			if start < 0 {
				start = i
			}
		} else if start >= 0 {
			fn(s[start:i])
			start = -1
		}
		i += size
	}
	if start >= 0 {
		fn(s[start:])
	}
}

// countTable counts hashed features of one block: a small open-addressing
// table, reused between messages, that keeps insertion order (so sums run
// in the same order every time).
type countTable struct {
	slots []countSlot
	order []int32 // used slots, in insertion order
}

type countSlot struct {
	key uint32 // bucket+1, 0 when empty
	cnt float32
}

func (t *countTable) add(k uint32, n float32) {
	if len(t.order)*2 >= len(t.slots) {
		t.grow()
	}
	mask := uint32(len(t.slots) - 1)
	i := (k * 0x9e3779b1) >> 7 & mask
	for {
		sl := &t.slots[i]
		switch sl.key {
		case k + 1:
			sl.cnt += n
			return
		case 0:
			sl.key, sl.cnt = k+1, n
			t.order = append(t.order, int32(i))
			return
		}
		i = (i + 1) & mask
	}
}

func (t *countTable) grow() {
	old, oldOrder := t.slots, t.order
	n := max(1024, 2*len(old))
	t.slots, t.order = make([]countSlot, n), make([]int32, 0, n/2)
	for _, i := range oldOrder {
		t.add(old[i].key-1, old[i].cnt)
	}
}

func (t *countTable) reset() {
	for _, i := range t.order {
		t.slots[i] = countSlot{}
	}
	t.order = t.order[:0]
}

// wordTable counts words per zone group, like countTable: open
// addressing by the word's hash, insertion order kept.
type wordTable struct {
	slots []wordSlot
	order []int32
}

type wordSlot struct {
	h    uint32
	zg   int32
	used bool
	n    float32
	w    string
}

func (t *wordTable) add(w string, h uint32, zg int) {
	if len(t.order)*2 >= len(t.slots) {
		t.grow()
	}
	mask := uint32(len(t.slots) - 1)
	i := (h * 0x9e3779b1) >> 7 & mask
	for {
		sl := &t.slots[i]
		if !sl.used {
			*sl = wordSlot{h: h, zg: int32(zg), used: true, n: 1, w: w}
			t.order = append(t.order, int32(i))
			return
		}
		if sl.h == h && sl.zg == int32(zg) && sl.w == w {
			sl.n++
			return
		}
		i = (i + 1) & mask
	}
}

func (t *wordTable) grow() {
	old, oldOrder := t.slots, t.order
	n := max(256, 2*len(old))
	t.slots, t.order = make([]wordSlot, n), make([]int32, 0, n/2)
	mask := uint32(n - 1)
	for _, j := range oldOrder {
		sl := old[j]
		i := (sl.h * 0x9e3779b1) >> 7 & mask
		for t.slots[i].used {
			i = (i + 1) & mask
		}
		t.slots[i] = sl
		t.order = append(t.order, int32(i))
	}
}

func (t *wordTable) reset() {
	for _, i := range t.order {
		t.slots[i] = wordSlot{}
	}
	t.order = t.order[:0]
}

// featureHasher turns a message into hashed features. It holds reusable
// buffers, so one hasher serves one goroutine at a time.
type featureHasher struct {
	cfg        featCfg
	mask       uint32
	char, word countTable
	// words counts the words of the current block (in order of first
	// appearance), whose character n-grams are counted at flush: each
	// distinct word is cut into n-grams once.
	words wordTable
	buf   []byte
	off   []int
	dense map[string]uint32 // dense feature name -> bucket, filled at construction
}

var denseNames = func() []string {
	names := []string{"bias", "window", "rscore", "rbin0", "rbin1", "rbin3", "rbin5", "rbin8", "internal", "lookalike",
		"authfail0", "authfail1", "authfail2", "haszone0", "haszone1", "haszone2", "haszone3"}
	for x := signal(0); x < numSignals; x++ {
		names = append(names, "sig"+signalName[x])
	}
	return names
}()

func newFeatureHasher(cfg featCfg) *featureHasher {
	fx := &featureHasher{cfg: cfg, mask: uint32(1)<<cfg.bits - 1, dense: map[string]uint32{}}
	for _, n := range denseNames {
		fx.dense[n] = fnvMix(fnvBasis^4, n) & fx.mask
	}
	return fx
}

// textBlocks counts the character and word features of normalized text
// from a segment of zone group zg.
func (fx *featureHasher) textBlocks(text string, zg int) {
	cfg, mask := &fx.cfg, fx.mask
	prev := "^"
	forEachWord(text, func(w string) {
		h := fnvMix(fnvBasis^2, w)
		if cfg.char {
			fx.words.add(w, h, zg)
		}
		if cfg.word {
			fx.word.add(h&mask, 1)
			b := fnvMix(fnvMix(fnvMix(fnvBasis^3, prev), " "), w)
			fx.word.add(b&mask, 1)
			if cfg.zoneTag && zg != 0 {
				fx.word.add(fnvMix(h^uint32(zg)*0x9e3779b1, "z")&mask, 1)
			}
			prev = w
		}
	})
}

// charGrams counts the character 3-5-grams of word w (read in zone group
// zg) c times.
func (fx *featureHasher) charGrams(w string, zg int, c float32) {
	mask := fx.mask
	// " " + w + " ", at most 42 runes; n-grams of 3 to 5 runes. The
	// hash of an n-gram is FNV over its bytes, so the 4- and 5-gram
	// at a position extend the 3-gram's hash.
	fx.buf = append(fx.buf[:0], ' ')
	fx.off = append(fx.off[:0], 0)
	for i := 0; i < len(w) && len(fx.off) < 42; {
		size := 1
		if w[i] >= utf8.RuneSelf {
			_, size = utf8.DecodeRuneInString(w[i:])
		}
		fx.off = append(fx.off, len(fx.buf))
		fx.buf = append(fx.buf, w[i:i+size]...)
		i += size
	}
	if len(fx.off) < 42 {
		fx.off = append(fx.off, len(fx.buf))
		fx.buf = append(fx.buf, ' ')
	}
	nr := len(fx.off)
	fx.off = append(fx.off, len(fx.buf))
	tag := fx.cfg.zoneTag && zg != 0
	for i := 0; i+3 <= nr; i++ {
		h := fnvMixBytes(fnvBasis^1, fx.buf[fx.off[i]:fx.off[i+3]])
		for n := 3; ; n++ {
			fx.char.add(h&mask, c)
			if tag {
				fx.char.add(fnvMix(h^uint32(zg)*0x9e3779b1, "z")&mask, c)
			}
			if n == 5 || i+n+1 > nr {
				break
			}
			h = fnvMixBytes(h, fx.buf[fx.off[i+n]:fx.off[i+n+1]])
		}
	}
}

// flush emits the block's features (see flushBlock) and empties it.
func (fx *featureHasher) flush(emit func(k uint32, v float32)) {
	for _, i := range fx.words.order {
		sl := &fx.words.slots[i]
		fx.charGrams(sl.w, int(sl.zg), sl.n)
	}
	fx.words.reset()
	flushBlock(&fx.char, fx.cfg.charScale, emit)
	flushBlock(&fx.word, fx.cfg.wordScale, emit)
}

// flushBlock emits a block's features, log-scaled (1 + ln count) and
// L2-normalised to length scale, and empties the block.
func flushBlock(t *countTable, scale float64, emit func(k uint32, v float32)) {
	var norm float64
	for _, i := range t.order {
		v := float32(1 + math.Log(float64(t.slots[i].cnt)))
		t.slots[i].cnt = v
		norm += float64(v * v)
	}
	if norm > 0 {
		f := float32(scale / math.Sqrt(norm))
		for _, i := range t.order {
			emit(t.slots[i].key-1, t.slots[i].cnt*f)
		}
	}
	t.reset()
}

// message emits the features of a whole message (a bucket may come more
// than once; values add up).
func (fx *featureHasher) message(in *modelInputs, emit func(k uint32, v float32)) {
	cfg := &fx.cfg
	if cfg.char || cfg.word {
		budget := cfg.maxChars
		for _, sg := range in.Segs {
			if budget <= 0 {
				break
			}
			text := sg.Text
			if len(text) > budget {
				text = text[:budget]
			}
			budget -= len(text)
			fx.textBlocks(normalize(text), zoneGroup(sg.Zone))
		}
		fx.flush(emit)
	}
	if cfg.lex {
		fx.lexFeatures(in, emit)
	}
	emit(fx.dense["bias"], 1)
	if cfg.rules {
		sc := in.Score
		emit(fx.dense["rscore"], float32(min(sc, 12)/6))
		switch {
		case sc == 0:
			emit(fx.dense["rbin0"], 1)
		case sc < 3:
			emit(fx.dense["rbin1"], 1)
		case sc < 5:
			emit(fx.dense["rbin3"], 1)
		case sc < 8:
			emit(fx.dense["rbin5"], 1)
		default:
			emit(fx.dense["rbin8"], 1)
		}
		for x := signal(0); x < numSignals; x++ {
			if in.Sigs&(1<<x) != 0 {
				emit(fx.dense["sig"+signalName[x]], 1)
			}
		}
	}
	if cfg.meta {
		if in.Internal {
			emit(fx.dense["internal"], 1)
		}
		emit(fx.dense[fmt.Sprintf("authfail%d", min(in.AuthFail, 2))], 1)
		if in.Lookalk {
			emit(fx.dense["lookalike"], 1)
		}
		var zones [4]bool
		for _, sg := range in.Segs {
			zones[zoneGroup(sg.Zone)] = true
		}
		for z, ok := range zones {
			if ok {
				emit(fx.dense[fmt.Sprintf("haszone%d", z)], 1)
			}
		}
	}
}

// ---- the model file ----

// modelHeader is the first line of the model file (JSON); the float16
// weights follow it.
type modelHeader struct {
	Format     string  `json:"format"`
	Version    int     `json:"version"`
	Features   string  `json:"features"`
	Bits       int     `json:"bits"`
	Weights    string  `json:"weights"` // "float16le"
	WeightsCRC uint32  `json:"weights_crc32"`
	Lambda     float64 `json:"lambda"`
	Epochs     int     `json:"epochs"`
	Gamma      float64 `json:"gamma"`
	Threshold  float64 `json:"threshold"`
	FPTarget   float64 `json:"inner_fp_target"`
	// InnerRepeats is how many inner cross-validations were pooled to
	// choose the threshold (absent: one).
	InnerRepeats int `json:"inner_repeats,omitempty"`
	// CalibrationSets are the sets whose benign mail alone set the
	// threshold (absent: all of them).
	CalibrationSets []string `json:"calibration_sets,omitempty"`
	InnerRecall     float64  `json:"inner_recall_model"`
	InnerComb       float64  `json:"inner_recall_rules_or_model"`
	Samples         int      `json:"samples"`
	Injections      int      `json:"injections"`
	Sets            []string `json:"sets"`
}

// injectionModel is a loaded model: weights and decision rule.
type injectionModel struct {
	hdr  modelHeader
	w    []float32
	pool sync.Pool // *featureHasher
}

// errModelMismatch is returned for a model file the code cannot use.
var errModelMismatch = errors.New("injection model file does not match this code")

// encodeModel writes the model file: the header line, then every weight
// as a little-endian float16.
func encodeModel(h modelHeader, w []float64) ([]byte, error) {
	if len(w) != 1<<h.Bits {
		return nil, fmt.Errorf("model has %d weights, want 2^%d", len(w), h.Bits)
	}
	bin := make([]byte, 2*len(w))
	for i, x := range w {
		binary.LittleEndian.PutUint16(bin[2*i:], f32ToF16(float32(x)))
	}
	h.Format, h.Version, h.Features, h.Weights = modelFormat, modelFormatVersion, modelFeatureID, "float16le"
	h.WeightsCRC = crc32.ChecksumIEEE(bin)
	hb, err := json.Marshal(h)
	if err != nil {
		return nil, err
	}
	return append(append(hb, '\n'), bin...), nil
}

// parseModel reads a model file and refuses one made for another format
// version or feature extraction.
func parseModel(b []byte) (*injectionModel, error) {
	line, bin, ok := bytes.Cut(b, []byte("\n"))
	if !ok {
		return nil, fmt.Errorf("%w: no header line", errModelMismatch)
	}
	var h modelHeader
	if err := json.Unmarshal(line, &h); err != nil {
		return nil, fmt.Errorf("%w: header: %v", errModelMismatch, err)
	}
	switch {
	case h.Format != modelFormat:
		return nil, fmt.Errorf("%w: format %q, want %q", errModelMismatch, h.Format, modelFormat)
	case h.Version != modelFormatVersion:
		return nil, fmt.Errorf("%w: format version %d, want %d", errModelMismatch, h.Version, modelFormatVersion)
	case h.Features != modelFeatureID:
		return nil, fmt.Errorf("%w: features %q, want %q (retrain: go run ./internal/email/screen/cmd/screentrain)", errModelMismatch, h.Features, modelFeatureID)
	case h.Bits != int(modelFeatures.bits):
		return nil, fmt.Errorf("%w: %d hash bits, want %d", errModelMismatch, h.Bits, modelFeatures.bits)
	case h.Weights != "float16le":
		return nil, fmt.Errorf("%w: weights %q, want float16le", errModelMismatch, h.Weights)
	case len(bin) != 2<<h.Bits:
		return nil, fmt.Errorf("%w: %d bytes of weights, want %d", errModelMismatch, len(bin), 2<<h.Bits)
	case crc32.ChecksumIEEE(bin) != h.WeightsCRC:
		return nil, fmt.Errorf("%w: weights checksum mismatch", errModelMismatch)
	}
	m := &injectionModel{hdr: h, w: make([]float32, 1<<h.Bits)}
	for i := range m.w {
		m.w[i] = f16ToF32(binary.LittleEndian.Uint16(bin[2*i:]))
	}
	m.pool.New = func() any { return newFeatureHasher(modelFeatures) }
	return m, nil
}

// embeddedModel is the model compiled into the binary, parsed once.
var embeddedModel = sync.OnceValues(func() (*injectionModel, error) { return parseModel(embeddedModelFile) })

// margin is the model's score for a message (before the rules' partial
// evidence is added).
func (m *injectionModel) margin(in *modelInputs) float64 {
	fx := m.pool.Get().(*featureHasher)
	defer m.pool.Put(fx)
	var z float64
	fx.message(in, func(k uint32, v float32) { z += float64(m.w[k]) * float64(v) })
	return z
}

// flags returns the decision score (margin + gamma * partial evidence) and
// whether it is over the threshold.
func (m *injectionModel) flags(in *modelInputs) (float64, bool) {
	z := m.margin(in) + m.hdr.Gamma*in.partialEvidence()
	return z, z > m.hdr.Threshold
}

// f32ToF16 rounds f to the nearest IEEE 754 half-precision value (ties to
// even).
func f32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	e := int((b >> 23) & 0xff)
	mant := b & 0x7fffff
	if e == 0xff {
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	exp := e - 127 + 15
	if exp >= 0x1f {
		return sign | 0x7c00
	}
	if exp <= 0 {
		if exp < -10 {
			return sign
		}
		mant |= 0x800000
		shift := uint32(14 - exp)
		half := mant >> shift
		rem := mant & (1<<shift - 1)
		halfway := uint32(1) << (shift - 1)
		if rem > halfway || rem == halfway && half&1 == 1 {
			half++
		}
		return sign | uint16(half)
	}
	half := uint32(exp)<<10 | mant>>13
	rem := mant & 0x1fff
	if rem > 0x1000 || rem == 0x1000 && half&1 == 1 {
		half++
	}
	return sign | uint16(half)
}

func f16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch exp {
	case 0:
		f := float32(mant) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	case 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | mant<<13)
}

// lexFeatures emits, per zone group, the lexicon's categories the rules
// found in the text (log-scaled counts) and each pair of categories that
// met in one sentence, whatever the language: a Georgian "ignore …
// instructions" reaches the same features as a Hungarian one, so what the
// model learns from the languages it has much mail in carries to those it
// has little (README, "Which file ships (eighteenth session)"). The rules
// read every paragraph anyway, so this costs no second pass.
func (fx *featureHasher) lexFeatures(in *modelInputs, emit func(k uint32, v float32)) {
	scale := float32(fx.cfg.lexScale)
	for zg := range in.Lex {
		pr := &in.Lex[zg]
		for c, n := range pr.Cats {
			if n > 0 {
				emit(fx.lexKey(zg, c, c), (1+float32(math.Log(float64(n))))*scale)
			}
		}
		for a, m := range pr.Pairs {
			for b := a + 1; b < int(numLexCats); b++ {
				if m&(1<<b) != 0 {
					emit(fx.lexKey(zg, a, b), scale)
				}
			}
		}
	}
}

// lexKey is the bucket of category a (when b == a) or of the pair a < b in
// zone group zg.
func (fx *featureHasher) lexKey(zg, a, b int) uint32 {
	return fnvMixBytes(fnvBasis^5, []byte{byte(zg), byte(a), byte(b)}) & fx.mask
}
