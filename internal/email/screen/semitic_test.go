package screen

import (
	"slices"
	"testing"
)

func TestWithoutClitics(t *testing.T) {
	tests := []struct {
		word      string
		want, not []string
	}{
		{"והסיכום", []string{"הסיכום", "סיכום"}, nil},
		{"לסוכן", []string{"סוכן", "הסוכן"}, nil},
		{"שהבוט", []string{"הבוט", "בוט"}, nil},
		{"מהמערכת", []string{"המערכת", "מערכת"}, nil},
		{"שלח", nil, []string{"לח"}}, // a root letter, and too short a rest
		{"وللمساعد", []string{"للمساعد", "مساعد", "المساعد"}, nil},
		{"بالبريد", []string{"البريد", "بريد"}, nil},
		{"فسأرسل", nil, nil},
		{"send", nil, nil},
	}
	for _, tc := range tests {
		got := withoutClitics(foldSemitic(tc.word))
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("withoutClitics(%q) = %q, want it to hold %q", tc.word, got, w)
			}
		}
		for _, w := range tc.not {
			if slices.Contains(got, w) {
				t.Errorf("withoutClitics(%q) = %q, holds %q", tc.word, got, w)
			}
		}
	}
}

func TestFoldSemitic(t *testing.T) {
	for in, want := range map[string]string{
		"أَرْسِلْ": "ارسل",
		"إلى":      "الي",
		"الفاتورة": "الفاتوره",
		"שָׁלוֹם":  "שלום",
		"hello":    "hello",
	} {
		if got := foldSemitic(in); got != want {
			t.Errorf("foldSemitic(%q) = %q, want %q", in, got, want)
		}
	}
}
