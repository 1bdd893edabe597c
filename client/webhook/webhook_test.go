package webhook_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/client/webhook"
)

type vector struct {
	Name      string `json:"name"`
	Secret    string `json:"secret"`
	Timestamp int64  `json:"timestamp"`
	Body      string `json:"body"`
	Signature string `json:"signature"`
}

func loadVectors(t *testing.T) []vector {
	t.Helper()
	raw, err := os.ReadFile("testdata/vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []vector
	if err := json.Unmarshal(raw, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) == 0 {
		t.Fatal("no vectors")
	}
	return vs
}

func TestSignVectors(t *testing.T) {
	for _, v := range loadVectors(t) {
		if got := webhook.Sign(v.Secret, time.Unix(v.Timestamp, 0), []byte(v.Body)); got != v.Signature {
			t.Errorf("%s: Sign = %s, want %s", v.Name, got, v.Signature)
		}
	}
}

func TestVerify(t *testing.T) {
	vs := loadVectors(t)
	v := vs[0]
	at := time.Unix(v.Timestamp, 0)
	hdr := func(kv ...string) http.Header {
		h := http.Header{}
		for i := 0; i+1 < len(kv); i += 2 {
			h.Add(kv[i], kv[i+1])
		}
		return h
	}
	ts := "1767225600"
	other := webhook.Sign("whsec_other", at, []byte(v.Body))
	cases := []struct {
		name   string
		secret string
		header http.Header
		body   string
		now    time.Time
		want   error
	}{
		{"current header", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature), v.Body, at, nil},
		{"previous header matches", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, other, webhook.HeaderSignaturePrevious, v.Signature), v.Body, at, nil},
		{"current matches, previous another", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature, webhook.HeaderSignaturePrevious, other), v.Body, at, nil},
		{"4m59s old", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature), v.Body, at.Add(4*time.Minute + 59*time.Second), nil},
		{"5m1s old", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature), v.Body, at.Add(5*time.Minute + time.Second), webhook.ErrExpired},
		{"from the future", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature), v.Body, at.Add(-6 * time.Minute), webhook.ErrExpired},
		{"body changed", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature), v.Body + " ", at, webhook.ErrSignature},
		{"timestamp changed", v.Secret, hdr(webhook.HeaderTimestamp, "1767225601", webhook.HeaderSignature, v.Signature), v.Body, at, webhook.ErrSignature},
		{"wrong secret", "whsec_other2", hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature), v.Body, at, webhook.ErrSignature},
		{"no signature", v.Secret, hdr(webhook.HeaderTimestamp, ts), v.Body, at, webhook.ErrNoSignature},
		{"no timestamp", v.Secret, hdr(webhook.HeaderSignature, v.Signature), v.Body, at, webhook.ErrTimestamp},
		{"bad timestamp", v.Secret, hdr(webhook.HeaderTimestamp, "soon", webhook.HeaderSignature, v.Signature), v.Body, at, webhook.ErrTimestamp},
		{"scheme missing", v.Secret, hdr(webhook.HeaderTimestamp, ts, webhook.HeaderSignature, v.Signature[3:]), v.Body, at, webhook.ErrSignature},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := webhook.Verify(c.secret, c.header, []byte(c.body), c.now)
			if !errors.Is(err, c.want) || (c.want == nil && err != nil) {
				t.Fatalf("Verify = %v, want %v", err, c.want)
			}
		})
	}
}
