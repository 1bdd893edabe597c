package webhooks

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
)

// sign is the value of a signature header: "v1=" and the hex HMAC-SHA256,
// keyed with the whole secret string, of the timestamp (Unix seconds as
// sent in X-Service-Timestamp), a dot and the raw body. client/webhook
// verifies it; both are checked against testdata/vectors.json there.
func sign(secret, timestamp string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(timestamp))
	mac.Write([]byte{'.'})
	mac.Write(body)
	return "v1=" + hex.EncodeToString(mac.Sum(nil))
}
