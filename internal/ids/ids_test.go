package ids

import (
	"sort"
	"testing"
	"time"
)

func TestNewIsTimeOrderedAndValid(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var got []string
	for i := 0; i < 100; i++ {
		got = append(got, NewAt("inb", base.Add(time.Duration(i)*time.Millisecond)))
	}
	if !sort.StringsAreSorted(got) {
		t.Fatalf("ids are not sorted by time: %v", got[:5])
	}
	for _, id := range got {
		if !Valid("inb", id) {
			t.Fatalf("Valid(%q) = false", id)
		}
	}
	if a, b := New("x"), New("x"); a == b {
		t.Fatalf("two ids are equal: %s", a)
	}
}

func TestValidRejects(t *testing.T) {
	good := New("agt")
	for _, s := range []string{"", "agt_", "inb" + good[3:], good + "0", good[:len(good)-1] + "u", "agt-" + good[4:]} {
		if Valid("agt", s) {
			t.Errorf("Valid(%q) = true", s)
		}
	}
}
