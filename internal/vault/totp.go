package vault

import (
	"encoding/base32"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/agentsvc/agentsvc/internal/apierr"
)

// TOTP algorithms (RFC 6238 section 1.2 allows HMAC-SHA-256 and -512 beside SHA-1).
const (
	AlgSHA1   = "SHA1"
	AlgSHA256 = "SHA256"
	AlgSHA512 = "SHA512"
)

// Limits of a TOTP secret. 80 bits is the shortest secret sites hand out in
// practice (RFC 4226 asks for 128, recommends 160); 128 bytes is far above
// any HMAC block size in use.
const (
	minSecretBytes = 10
	maxSecretBytes = 128
	maxOTPAuthURI  = 2048
)

// TOTPParams are the public parameters of a TOTP generator.
type TOTPParams struct {
	Algorithm string
	Digits    int
	Period    int
}

// DefaultTOTPParams are what authenticator apps assume when an URI omits them.
var DefaultTOTPParams = TOTPParams{Algorithm: AlgSHA1, Digits: 6, Period: 30}

// TOTPSecret is a parsed secret with its parameters.
type TOTPSecret struct {
	Key []byte
	TOTPParams
}

// TOTPCode is the answer of GET /api/v1/vault/{id}/totp.
type TOTPCode struct {
	Code       string    `json:"code" doc:"The current one-time code (6 or 8 digits, as stored)."`
	ValidUntil time.Time `json:"valid_until" doc:"End of the current time step: the code is not accepted after it."`
	Period     int       `json:"period" doc:"Length of a time step in seconds, typically 30."`
	Digits     int       `json:"digits" doc:"Number of digits of the code."`
}

// Code computes the RFC 6238 code at t and the end of its time step.
func (s TOTPSecret) Code(t time.Time) (TOTPCode, error) {
	alg := otp.AlgorithmSHA1
	switch s.Algorithm {
	case AlgSHA256:
		alg = otp.AlgorithmSHA256
	case AlgSHA512:
		alg = otp.AlgorithmSHA512
	}
	code, err := totp.GenerateCodeCustom(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(s.Key), t,
		totp.ValidateOpts{Period: uint(s.Period), Digits: otp.Digits(s.Digits), Algorithm: alg})
	if err != nil {
		return TOTPCode{}, fmt.Errorf("totp: %w", err)
	}
	step := t.Unix() / int64(s.Period)
	return TOTPCode{Code: code, ValidUntil: time.Unix((step+1)*int64(s.Period), 0).UTC(), Period: s.Period, Digits: s.Digits}, nil
}

// TOTPOptions are the optional parameters given beside a base32 secret.
// Zero values mean "not given".
type TOTPOptions struct {
	Algorithm string
	Digits    int
	Period    int
}

// ParseTOTPSecret reads the `secret` field: a base32 secret, or an
// otpauth://totp/ URI carrying one. opts (totp_algorithm, totp_digits,
// totp_period) apply to a base32 secret; with an URI they must agree with it
// or be omitted. Error messages name the field and never echo the secret.
func ParseTOTPSecret(secret string, opts TOTPOptions) (TOTPSecret, error) {
	var s TOTPSecret
	if len(secret) >= 10 && strings.EqualFold(secret[:10], "otpauth://") {
		u, err := ParseOTPAuthURI(secret)
		if err != nil {
			return TOTPSecret{}, err
		}
		s = u.Secret
		for _, c := range []struct {
			field      string
			given, uri any
			set        bool
		}{
			{"totp_algorithm", strings.ToUpper(opts.Algorithm), s.Algorithm, opts.Algorithm != ""},
			{"totp_digits", opts.Digits, s.Digits, opts.Digits != 0},
			{"totp_period", opts.Period, s.Period, opts.Period != 0},
		} {
			if c.set && c.given != c.uri {
				return TOTPSecret{}, apierr.Invalid(c.field, "disagrees with the otpauth URI in secret (%v)", c.uri).
					WithHint("omit it: the URI's parameters are used")
			}
		}
		return s, nil
	}
	key, err := decodeBase32Secret("secret", secret)
	if err != nil {
		return TOTPSecret{}, err
	}
	s = TOTPSecret{Key: key, TOTPParams: DefaultTOTPParams}
	if opts.Algorithm != "" {
		if s.Algorithm, err = parseAlgorithm("totp_algorithm", opts.Algorithm); err != nil {
			return TOTPSecret{}, err
		}
	}
	if opts.Digits != 0 {
		if err := checkDigits("totp_digits", opts.Digits); err != nil {
			return TOTPSecret{}, err
		}
		s.Digits = opts.Digits
	}
	if opts.Period != 0 {
		if err := checkPeriod("totp_period", opts.Period); err != nil {
			return TOTPSecret{}, err
		}
		s.Period = opts.Period
	}
	return s, nil
}

// decodeBase32Secret accepts what sites show: RFC 4648 base32 in any case,
// with or without padding, in groups separated by spaces or hyphens.
func decodeBase32Secret(field, in string) ([]byte, error) {
	clean := strings.Map(func(r rune) rune {
		if r == ' ' || r == '-' || r == '\t' {
			return -1
		}
		return r
	}, strings.ToUpper(in))
	clean = strings.TrimRight(clean, "=")
	if clean == "" {
		return nil, apierr.Invalid(field, "is required for a TOTP secret")
	}
	if len(clean) > maxSecretBytes*8/5+1 {
		return nil, apierr.Invalid(field, "is longer than %d bytes", maxSecretBytes)
	}
	key, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(clean)
	if err != nil {
		return nil, apierr.Invalid(field, "is not valid base32 (RFC 4648: letters A-Z and digits 2-7)").
			WithHint("copy the secret shown under \"can't scan the code?\", or pass the otpauth:// URI")
	}
	if len(key) < minSecretBytes {
		return nil, apierr.Invalid(field, "is too short: %d bytes, at least %d (16 base32 characters) needed", len(key), minSecretBytes)
	}
	return key, nil
}

func parseAlgorithm(field, v string) (string, error) {
	a := strings.ToUpper(strings.ReplaceAll(v, "-", ""))
	if !slices.Contains([]string{AlgSHA1, AlgSHA256, AlgSHA512}, a) {
		return "", apierr.Invalid(field, "must be SHA1, SHA256 or SHA512")
	}
	return a, nil
}

func checkDigits(field string, d int) error {
	if d != 6 && d != 8 {
		return apierr.Invalid(field, "must be 6 or 8")
	}
	return nil
}

func checkPeriod(field string, p int) error {
	if p < 1 || p > 3600 {
		return apierr.Invalid(field, "must be between 1 and 3600 seconds")
	}
	return nil
}

// OTPAuthURI is a parsed otpauth://totp/ URI (the Key Uri Format of Google
// Authenticator, which every authenticator app follows).
type OTPAuthURI struct {
	Secret  TOTPSecret
	Issuer  string
	Account string
}

// supportedURIParams are the parameters the Key Uri Format defines for TOTP.
// Anything else (counter, image, …) is refused by name rather than ignored:
// a parameter we do not understand may change the codes.
var supportedURIParams = []string{"secret", "issuer", "algorithm", "digits", "period"}

// ParseOTPAuthURI parses otpauth://totp/LABEL?secret=…&issuer=…&algorithm=…
// &digits=…&period=…. Errors name the `secret` field and never echo it.
func ParseOTPAuthURI(raw string) (OTPAuthURI, error) {
	const field = "secret"
	if len(raw) > maxOTPAuthURI {
		return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI is longer than %d characters", maxOTPAuthURI)
	}
	u, err := url.Parse(raw)
	if err != nil || !strings.EqualFold(u.Scheme, "otpauth") {
		return OTPAuthURI{}, apierr.Invalid(field, "is not a valid otpauth:// URI")
	}
	switch typ := strings.ToLower(u.Host); typ {
	case "totp":
	case "hotp":
		return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI of type hotp is not supported, only totp")
	default:
		return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI type must be totp")
	}
	if u.User != nil || u.Fragment != "" || u.Opaque != "" {
		return OTPAuthURI{}, apierr.Invalid(field, "is not a valid otpauth:// URI")
	}
	q, err := url.ParseQuery(u.RawQuery)
	if err != nil {
		return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI has a malformed query")
	}
	var unsupported, repeated []string
	for name, vals := range q {
		if !slices.Contains(supportedURIParams, strings.ToLower(name)) {
			unsupported = append(unsupported, printable(name))
		} else if len(vals) > 1 {
			repeated = append(repeated, printable(name))
		}
	}
	if len(unsupported) > 0 {
		sort.Strings(unsupported)
		if len(unsupported) > 10 {
			unsupported = append(unsupported[:10], "…")
		}
		return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI parameters not supported: %s", strings.Join(unsupported, ", ")).
			WithHint("supported: " + strings.Join(supportedURIParams, ", "))
	}
	if len(repeated) > 0 {
		sort.Strings(repeated)
		return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI repeats parameters: %s", strings.Join(repeated, ", "))
	}
	get := func(name string) string {
		for k, v := range q {
			if strings.EqualFold(k, name) {
				return v[0]
			}
		}
		return ""
	}
	out := OTPAuthURI{Issuer: get("issuer")}
	label := strings.TrimPrefix(u.Path, "/")
	if iss, acct, ok := strings.Cut(label, ":"); ok {
		out.Account = strings.TrimSpace(acct)
		if out.Issuer == "" {
			out.Issuer = iss
		}
	} else {
		out.Account = label
	}
	key, err := decodeBase32Secret(field, get("secret"))
	if err != nil {
		if get("secret") == "" {
			return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI has no secret parameter")
		}
		return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI secret is not valid base32 of %d to %d bytes", minSecretBytes, maxSecretBytes)
	}
	out.Secret = TOTPSecret{Key: key, TOTPParams: DefaultTOTPParams}
	if v := get("algorithm"); v != "" {
		if out.Secret.Algorithm, err = parseAlgorithm(field, v); err != nil {
			return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI algorithm must be SHA1, SHA256 or SHA512")
		}
	}
	if v := get("digits"); v != "" {
		d, err := strconv.Atoi(v)
		if err != nil || checkDigits(field, d) != nil {
			return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI digits must be 6 or 8")
		}
		out.Secret.Digits = d
	}
	if v := get("period"); v != "" {
		p, err := strconv.Atoi(v)
		if err != nil || checkPeriod(field, p) != nil {
			return OTPAuthURI{}, apierr.Invalid(field, "otpauth URI period must be between 1 and 3600 seconds")
		}
		out.Secret.Period = p
	}
	return out, nil
}

// printable shortens a parameter name for an error message.
func printable(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
	if len([]rune(s)) > 40 {
		s = string([]rune(s)[:40]) + "…"
	}
	return strconv.Quote(s)
}
