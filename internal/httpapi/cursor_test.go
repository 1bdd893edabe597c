package httpapi

import (
	"testing"
)

func TestCursorRoundTrip(t *testing.T) {
	for _, key := range []string{"agt_01m7yjk8am0zm8bd5k13kd2tbx", "12345"} {
		got, err := DecodeCursor(EncodeCursor(key))
		if err != nil || got != key {
			t.Fatalf("round trip of %q: %q, %v", key, got, err)
		}
	}
	for _, bad := range []string{"x", "!!!", EncodeCursor("") + "A", "YzE6", "YzI6YWJj"} {
		if _, err := DecodeCursor(bad); err == nil {
			t.Errorf("DecodeCursor(%q) accepted", bad)
		}
	}
}

func FuzzCursor(f *testing.F) {
	f.Add(EncodeCursor("agt_01m7yjk8am0zm8bd5k13kd2tbx"))
	f.Add("YzE6")
	f.Add("")
	f.Fuzz(func(t *testing.T, c string) {
		key, err := DecodeCursor(c)
		if err != nil {
			return
		}
		if c != "" && EncodeCursor(key) != c {
			t.Fatalf("cursor %q decodes to %q which encodes differently", c, key)
		}
	})
}

func TestBodyKey(t *testing.T) {
	cases := map[string]string{
		`{"idempotency_key":"abc","to":["x"]}`: "abc",
		`{"to":{"idempotency_key":"nested"}}`:  "",
		`{"idempotency_key":5}`:                "",
		`not json`:                             "",
		`["idempotency_key"]`:                  "",
	}
	for body, want := range cases {
		if got := bodyKey("application/json", []byte(body)); got != want {
			t.Errorf("bodyKey(%s) = %q, want %q", body, got, want)
		}
	}
	if got := bodyKey("text/plain", []byte(`{"idempotency_key":"abc"}`)); got != "" {
		t.Errorf("non-JSON body gave key %q", got)
	}
}
