package screen

import (
	"fmt"
	"os"
	"testing"
)

func TestDebugEval(t *testing.T) {
	dir := os.Getenv("EVAL_DIR")
	if dir == "" {
		t.Skip()
	}
	rep, err := Evaluate(dir, NewDetector())
	if err != nil {
		t.Fatal(err)
	}
	for r, s := range rep.Scores {
		fmt.Printf("%s %+v\n", r, *s)
	}
	for _, m := range rep.Misses {
		fmt.Println(m.Kind, m.File, m.Reason, m.Detail)
	}
}

func TestDebugOne(t *testing.T) {
	f := os.Getenv("EVAL_FILE")
	if f == "" {
		t.Skip()
	}
	raw, _ := os.ReadFile(f)
	m, err := MessageFromRaw(raw)
	if err != nil {
		t.Fatal(err)
	}
	d := NewDetector()
	hv := extractHTML(m.HTML)
	for _, s := range collectSegments(m, hv) {
		text := normalize(s.text)
		for i, p := range splitParagraphs(text) {
			set := d.inj.signals(p)
			var names []string
			for x := signal(0); x < numSignals; x++ {
				if set.has(x) {
					names = append(names, signalName[x])
				}
			}
			fmt.Printf("zone %d para %d %v: %.80q\n", s.zone, i, names, p)
		}
	}
	fmt.Printf("%+v\n", d.Screen(m, Context{}))
}
