package apierr

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

// TestReadmeListsEveryCode keeps the README's error table in step with Codes.
func TestReadmeListsEveryCode(t *testing.T) {
	raw, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(raw)
	for _, c := range Codes {
		row := "| " + strconv.Itoa(c.Status) + " | `" + c.Code + "` |"
		if !strings.Contains(readme, row) {
			t.Errorf("README lacks the row %q", row)
		}
	}
}

func TestFrom(t *testing.T) {
	if e := From(Invalid("name", "is required")); e.Status != 400 || e.Message != "name: is required" {
		t.Fatalf("Invalid: %+v", e)
	}
	if e := From(ErrNotFound); e.Status != 404 || e.Code != CodeNotFound {
		t.Fatalf("ErrNotFound: %+v", e)
	}
	if e := From(os.ErrClosed); e.Status != 500 || e.Message != "internal error" {
		t.Fatalf("internal errors must not leak: %+v", e)
	}
	if h := RateLimited(1500 * 1e6).Headers().Get("Retry-After"); h != "2" {
		t.Fatalf("Retry-After rounds up: %q", h)
	}
}
