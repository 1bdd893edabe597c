package vault

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
)

// FuzzParseOTPAuthURI: any input yields either a usable secret within the
// limits or a 400 naming the field, never a panic, and an error message never
// repeats the secret parameter.
func FuzzParseOTPAuthURI(f *testing.F) {
	for _, s := range []string{
		"otpauth://totp/ACME:alice@example.com?secret=JBSWY3DPEHPK3PXP&issuer=ACME&algorithm=SHA256&digits=8&period=60",
		"otpauth://hotp/x?secret=JBSWY3DPEHPK3PXP&counter=0",
		"otpauth://totp/x?secret=JBSWY3DPEHPK3PXP&image=x",
		"otpauth://totp/%zz?secret=",
		"otpauth://totp?secret=JBSWY3DPEHPK3PXP&secret=A",
		"OTPAUTH://TOTP/x?SECRET=jbswy3dpehpk3pxp&Digits=6",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := ParseOTPAuthURI(raw)
		if err != nil {
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Status != 400 || !strings.HasPrefix(ae.Message, "secret: ") {
				t.Fatalf("error is not a 400 naming secret: %v", err)
			}
			if pu, perr := url.Parse(raw); perr == nil {
				if sec := pu.Query().Get("secret"); len(sec) >= 8 && strings.Contains(ae.Message+ae.Hint, sec) {
					t.Fatalf("error echoes the secret: %s", ae.Message)
				}
			}
			return
		}
		s := u.Secret
		if len(s.Key) < minSecretBytes || len(s.Key) > maxSecretBytes || (s.Digits != 6 && s.Digits != 8) || s.Period < 1 || s.Period > 3600 {
			t.Fatalf("accepted out-of-range parameters: %d-byte key, %+v", len(s.Key), s.TOTPParams)
		}
		if _, err := s.Code(timeZero); err != nil {
			t.Fatalf("accepted secret cannot make a code: %v", err)
		}
	})
}

var timeZero = time.Unix(1700000000, 0)
