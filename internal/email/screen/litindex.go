package screen

// litIndex answers "which of these literals occur in this text?" for a fixed
// set of literals in one pass over the text (Aho-Corasick). The injection
// rules gate every pattern behind literals one of which any match must
// contain (prefilter.go); checking them one strings.Contains at a time cost
// a scan of the paragraph per literal, thousands per message, and grew with
// every word added to the rules. One pass finds them all, whatever their
// number.
//
// Why not a library: the Aho-Corasick modules reachable here keep a dense
// 256-entry transition table per trie node (2-4 KB each), which for the
// rules' tens of thousands of literal bytes is tens of megabytes. Here only
// the root is dense; other nodes keep their few children in a sorted run.
type litIndex struct {
	// root maps a byte to the state reached from the root (0: stay).
	root [256]int32
	// Children of state s are edgeByte/edgeTo[first[s]:first[s+1]].
	first    []int32
	edgeByte []byte
	edgeTo   []int32
	// fail is the longest proper suffix of a state that is also a state.
	fail []int32
	// word is the literal ending at a state (-1: none); dict is the next
	// state on the fail chain whose word is set (0: none).
	word []int32
	dict []int32
	// n is the number of distinct literals.
	n int
	// ids maps each literal to its id.
	ids map[string]int32
}

// litSet is a set of literal ids of one litIndex.
type litSet []uint64

func (s litSet) has(id int32) bool { return s[id>>6]&(1<<(uint(id)&63)) != 0 }

// any reports whether s holds one of ids.
func (s litSet) any(ids []int32) bool {
	for _, id := range ids {
		if s.has(id) {
			return true
		}
	}
	return false
}

// newLitIndex builds the index of lits (duplicates share an id; the empty
// string is ignored since it needs no search).
func newLitIndex(lits []string) *litIndex {
	type buildNode struct {
		next map[byte]int32
		word int32
	}
	nodes := []buildNode{{next: map[byte]int32{}, word: -1}}
	x := &litIndex{ids: map[string]int32{}}
	for _, l := range lits {
		if l == "" {
			continue
		}
		if _, ok := x.ids[l]; ok {
			continue
		}
		id := int32(x.n)
		x.ids[l] = id
		x.n++
		s := int32(0)
		for i := 0; i < len(l); i++ {
			t, ok := nodes[s].next[l[i]]
			if !ok {
				t = int32(len(nodes))
				nodes = append(nodes, buildNode{next: map[byte]int32{}, word: -1})
				nodes[s].next[l[i]] = t
			}
			s = t
		}
		nodes[s].word = id
	}
	// Flatten the children into sorted runs.
	n := len(nodes)
	x.first = make([]int32, n+1)
	x.word = make([]int32, n)
	for s := range nodes {
		x.first[s] = int32(len(x.edgeByte))
		x.word[s] = nodes[s].word
		for c := 0; c < 256; c++ {
			if t, ok := nodes[s].next[byte(c)]; ok {
				x.edgeByte = append(x.edgeByte, byte(c))
				x.edgeTo = append(x.edgeTo, t)
			}
		}
	}
	x.first[n] = int32(len(x.edgeByte))
	for c, t := range nodes[0].next {
		x.root[c] = t
	}
	// Fail and dictionary links, breadth first.
	x.fail = make([]int32, n)
	x.dict = make([]int32, n)
	queue := make([]int32, 0, n)
	for _, t := range x.root {
		if t != 0 {
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for e := x.first[s]; e < x.first[s+1]; e++ {
			c, t := x.edgeByte[e], x.edgeTo[e]
			x.fail[t] = x.step(x.fail[s], c)
			if f := x.fail[t]; x.word[f] >= 0 {
				x.dict[t] = f
			} else {
				x.dict[t] = x.dict[f]
			}
			queue = append(queue, t)
		}
	}
	return x
}

// child is the state reached from s by c, or -1.
func (x *litIndex) child(s int32, c byte) int32 {
	if s == 0 {
		if t := x.root[c]; t != 0 {
			return t
		}
		return -1
	}
	for e := x.first[s]; e < x.first[s+1]; e++ {
		if x.edgeByte[e] == c {
			return x.edgeTo[e]
		}
	}
	return -1
}

// step is the Aho-Corasick transition: the child by c of s or of the
// nearest suffix of s that has one, else the root.
func (x *litIndex) step(s int32, c byte) int32 {
	for {
		if t := x.child(s, c); t >= 0 {
			return t
		}
		if s == 0 {
			return 0
		}
		s = x.fail[s]
	}
}

// scan returns the set of literals that occur in text.
func (x *litIndex) scan(text string) litSet {
	seen := make(litSet, (x.n+63)/64)
	s := int32(0)
	for i := 0; i < len(text); i++ {
		s = x.step(s, text[i])
		if x.word[s] >= 0 {
			id := x.word[s]
			seen[id>>6] |= 1 << (uint(id) & 63)
		}
		for d := x.dict[s]; d != 0; d = x.dict[d] {
			id := x.word[d]
			seen[id>>6] |= 1 << (uint(id) & 63)
		}
	}
	return seen
}

// anyFold reports whether one of the literals, which must be lower case,
// occurs in text with its ASCII letters in any case.
func (x *litIndex) anyFold(text string) bool {
	s := int32(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		s = x.step(s, c)
		if x.word[s] >= 0 || x.dict[s] != 0 {
			return true
		}
	}
	return false
}

// idsOf maps literals to their ids. nil means "no prefilter" and stays nil;
// so does a list holding the empty string, which every text contains.
func (x *litIndex) idsOf(lits []string) []int32 {
	if lits == nil {
		return nil
	}
	out := make([]int32, 0, len(lits))
	for _, l := range lits {
		if l == "" {
			return nil
		}
		out = append(out, x.ids[l])
	}
	return out
}

// buildIndex indexes every gate word and prefilter literal of the rules.
func (r *injectionRules) buildIndex() {
	var lits []string
	for _, g := range r.gates {
		lits = append(lits, g...)
	}
	for _, pt := range r.patterns {
		lits = append(lits, pt.need...)
	}
	r.index = newLitIndex(lits)
	for s, g := range r.gates {
		r.gateIDs[s] = r.index.idsOf(g)
	}
	for i := range r.patterns {
		r.patterns[i].needIDs = r.index.idsOf(r.patterns[i].need)
	}
}
