// Package webhook verifies the requests agentsvc sends to a webhook
// endpoint, by the receiver rules of the service reference: the signature is
// checked over the raw body before anything parses it, with a constant-time
// comparison; either signature header may match (during the 24 hours after a
// secret rotation a request carries both); timestamps older than five
// minutes (or as far in the future) are refused, so a captured request cannot
// be replayed later.
//
// Deliveries are at least once and unordered: deduplicate by the event id
// (the X-Service-Event-Id header, the body's id).
package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Header names of a delivery.
const (
	HeaderSignature         = "X-Service-Signature"
	HeaderSignaturePrevious = "X-Service-Signature-Previous"
	HeaderTimestamp         = "X-Service-Timestamp"
	HeaderEventID           = "X-Service-Event-Id"
	HeaderDeliveryID        = "X-Service-Delivery-Id"
)

// Tolerance is how far a request's timestamp may be from the receiver's clock.
const Tolerance = 5 * time.Minute

// Errors returned by Verify; test with errors.Is.
var (
	ErrNoSignature = errors.New("webhook: no signature header")
	ErrTimestamp   = errors.New("webhook: missing or malformed timestamp")
	ErrExpired     = errors.New("webhook: timestamp outside the 5-minute tolerance")
	ErrSignature   = errors.New("webhook: no signature matches")
)

// Sign returns the value of a signature header for body signed at ts with
// secret (the whole "whsec_…" string is the key): "v1=" and the hex
// HMAC-SHA256 of "<unix seconds>.<body>".
func Sign(secret string, ts time.Time, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(strconv.FormatInt(ts.Unix(), 10)))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1=" + hex.EncodeToString(mac.Sum(nil))
}

// Verify checks a delivery: header are the request headers, body the raw
// bytes read from the request (before any JSON decoding), now the receiver's
// clock. It returns nil when either signature header carries a valid v1
// signature by secret and the timestamp is within Tolerance of now.
func Verify(secret string, header http.Header, body []byte, now time.Time) error {
	tsRaw := header.Get(HeaderTimestamp)
	secs, err := strconv.ParseInt(strings.TrimSpace(tsRaw), 10, 64)
	if err != nil || secs <= 0 {
		return ErrTimestamp
	}
	ts := time.Unix(secs, 0)
	if d := now.Sub(ts); d > Tolerance || d < -Tolerance {
		return ErrExpired
	}
	var candidates []string
	for _, name := range []string{HeaderSignature, HeaderSignaturePrevious} {
		candidates = append(candidates, header.Values(name)...)
	}
	if len(candidates) == 0 {
		return ErrNoSignature
	}
	want := []byte(Sign(secret, ts, body))
	ok := false
	for _, c := range candidates {
		// Check every candidate (no early exit) so the time taken does not
		// say which header matched.
		if hmac.Equal([]byte(strings.TrimSpace(c)), want) {
			ok = true
		}
	}
	if !ok {
		return ErrSignature
	}
	return nil
}
