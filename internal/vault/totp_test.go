package vault

import (
	"encoding/base32"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
)

var rfcSeeds = map[string]string{
	AlgSHA1:   "12345678901234567890",
	AlgSHA256: "12345678901234567890123456789012",
	AlgSHA512: "1234567890123456789012345678901234567890123456789012345678901234",
}

// TestRFC6238Vectors checks the codes of RFC 6238 Appendix B.
func TestRFC6238Vectors(t *testing.T) {
	vectors := []struct {
		at                   int64
		sha1, sha256, sha512 string
	}{
		{59, "94287082", "46119246", "90693936"},
		{1111111109, "07081804", "68084774", "25091201"},
		{1111111111, "14050471", "67062674", "99943326"},
		{1234567890, "89005924", "91819424", "93441116"},
		{2000000000, "69279037", "90698825", "38618901"},
		{20000000000, "65353130", "77737706", "47863826"},
	}
	for _, v := range vectors {
		for alg, want := range map[string]string{AlgSHA1: v.sha1, AlgSHA256: v.sha256, AlgSHA512: v.sha512} {
			t.Run(fmt.Sprintf("%s/%d", alg, v.at), func(t *testing.T) {
				s := TOTPSecret{Key: []byte(rfcSeeds[alg]), TOTPParams: TOTPParams{Algorithm: alg, Digits: 8, Period: 30}}
				c, err := s.Code(time.Unix(v.at, 0))
				if err != nil {
					t.Fatal(err)
				}
				if c.Code != want {
					t.Fatalf("code %s, want %s", c.Code, want)
				}
				end := (v.at/30 + 1) * 30
				if c.ValidUntil.Unix() != end || c.Period != 30 {
					t.Fatalf("valid_until %v period %d, want %d", c.ValidUntil.Unix(), c.Period, end)
				}
			})
		}
	}
}

// TestAgainstOathtool compares codes with an independent implementation.
func TestAgainstOathtool(t *testing.T) {
	if _, err := exec.LookPath("oathtool"); err != nil {
		t.Skip("oathtool is not installed (apt-get install -y oathtool); skipping the comparison with an independent implementation")
	}
	enc := base32.StdEncoding.WithPadding(base32.NoPadding)
	for _, alg := range []string{AlgSHA1, AlgSHA256, AlgSHA512} {
		for _, digits := range []int{6, 8} {
			for _, period := range []int{30, 60} {
				for _, at := range []int64{59, 1700000000, 1234567890 + int64(period) - 1} {
					s := TOTPSecret{Key: []byte(rfcSeeds[alg]), TOTPParams: TOTPParams{Algorithm: alg, Digits: digits, Period: period}}
					got, err := s.Code(time.Unix(at, 0))
					if err != nil {
						t.Fatal(err)
					}
					out, err := exec.Command("oathtool", "--totp="+strings.ToLower(alg), fmt.Sprintf("--digits=%d", digits),
						fmt.Sprintf("--time-step-size=%ds", period), fmt.Sprintf("--now=@%d", at), "-b", enc.EncodeToString(s.Key)).CombinedOutput()
					if err != nil {
						t.Fatalf("oathtool: %v: %s", err, out)
					}
					if want := strings.TrimSpace(string(out)); got.Code != want {
						t.Errorf("%s digits=%d period=%d at=%d: code %s, oathtool %s", alg, digits, period, at, got.Code, want)
					}
				}
			}
		}
	}
}

func TestParseTOTPSecret(t *testing.T) {
	const b32 = "JBSWY3DPEHPK3PXP" // "Hello!\xde\xad\xbe\xef"
	cases := []struct {
		name   string
		secret string
		opts   TOTPOptions
		want   TOTPParams
		err    string // substring of the message; "" for success
	}{
		{"plain", b32, TOTPOptions{}, DefaultTOTPParams, ""},
		{"lower case, spaces, padding", "jbsw y3dp ehpk 3pxp", TOTPOptions{}, DefaultTOTPParams, ""},
		{"options", b32, TOTPOptions{Algorithm: "sha256", Digits: 8, Period: 60}, TOTPParams{AlgSHA256, 8, 60}, ""},
		{"wrong base32", "JBSWY3DPEHPK3PX1", TOTPOptions{}, TOTPParams{}, "secret: is not valid base32"},
		{"too short", "JBSWY3DP", TOTPOptions{}, TOTPParams{}, "secret: is too short"},
		{"empty", "  ", TOTPOptions{}, TOTPParams{}, "secret: is required"},
		{"bad digits", b32, TOTPOptions{Digits: 7}, TOTPParams{}, "totp_digits: must be 6 or 8"},
		{"bad algorithm", b32, TOTPOptions{Algorithm: "MD5"}, TOTPParams{}, "totp_algorithm"},
		{"uri", "otpauth://totp/ACME:alice@example.com?secret=" + b32 + "&issuer=ACME&algorithm=SHA512&digits=8&period=45", TOTPOptions{},
			TOTPParams{AlgSHA512, 8, 45}, ""},
		{"uri defaults", "otpauth://totp/x?secret=" + b32, TOTPOptions{}, DefaultTOTPParams, ""},
		{"uri with agreeing option", "otpauth://totp/x?secret=" + b32 + "&digits=8", TOTPOptions{Digits: 8}, TOTPParams{AlgSHA1, 8, 30}, ""},
		{"uri with disagreeing option", "otpauth://totp/x?secret=" + b32 + "&digits=8", TOTPOptions{Digits: 6}, TOTPParams{}, "totp_digits: disagrees"},
		{"uri unsupported parameters", "otpauth://totp/x?secret=" + b32 + "&image=https://x/y.png&counter=3", TOTPOptions{}, TOTPParams{},
			`otpauth URI parameters not supported: "counter", "image"`},
		{"hotp", "otpauth://hotp/x?secret=" + b32 + "&counter=1", TOTPOptions{}, TOTPParams{}, "hotp is not supported"},
		{"uri without secret", "otpauth://totp/x?issuer=A", TOTPOptions{}, TOTPParams{}, "no secret parameter"},
		{"uri bad secret", "otpauth://totp/x?secret=11111111111111111", TOTPOptions{}, TOTPParams{}, "secret is not valid base32"},
		{"uri bad digits", "otpauth://totp/x?secret=" + b32 + "&digits=7", TOTPOptions{}, TOTPParams{}, "digits must be 6 or 8"},
		{"uri bad period", "otpauth://totp/x?secret=" + b32 + "&period=0", TOTPOptions{}, TOTPParams{}, "period must be between"},
		{"uri repeated", "otpauth://totp/x?secret=" + b32 + "&secret=" + b32, TOTPOptions{}, TOTPParams{}, "repeats parameters"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := ParseTOTPSecret(c.secret, c.opts)
			if c.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				if s.TOTPParams != c.want || string(s.Key) != "Hello!\xde\xad\xbe\xef" {
					t.Fatalf("got %+v %q, want %+v", s.TOTPParams, s.Key, c.want)
				}
				return
			}
			var ae *apierr.Error
			if !errors.As(err, &ae) || ae.Status != 400 || !strings.Contains(ae.Message, c.err) {
				t.Fatalf("err = %v, want 400 containing %q", err, c.err)
			}
			if strings.Contains(ae.Message+ae.Hint, b32) || strings.Contains(ae.Message+ae.Hint, "11111111111111111") {
				t.Fatalf("error echoes the secret: %s", ae.Message)
			}
		})
	}
}

func TestParseOTPAuthLabel(t *testing.T) {
	u, err := ParseOTPAuthURI("otpauth://totp/Example%20Co:alice@example.com?secret=JBSWY3DPEHPK3PXP")
	if err != nil {
		t.Fatal(err)
	}
	if u.Issuer != "Example Co" || u.Account != "alice@example.com" {
		t.Fatalf("issuer %q account %q", u.Issuer, u.Account)
	}
}

func TestValidOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Example.com":       "https://example.com",
		"https://example.com/":      "https://example.com",
		"https://example.com:443":   "https://example.com",
		"http://localhost:8080":     "http://localhost:8080",
		"https://[::1]:8443":        "https://[::1]:8443",
		"https://login.example.com": "https://login.example.com",
		"https://example.com/login": "",
		"https://example.com?x=1":   "",
		"https://user@example.com":  "",
		"ftp://example.com":         "",
		"example.com":               "",
		"https://example.com/#frag": "",
		"javascript:alert(1)":       "",
		"https://exa mple.com":      "",
	} {
		got, err := ValidOrigin("allowed_origins[0]", in)
		if want == "" {
			if err == nil || !strings.Contains(err.Error(), "allowed_origins[0]") {
				t.Errorf("%q: accepted as %q (err %v)", in, got, err)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("%q: got %q, %v; want %q", in, got, err, want)
		}
	}
}

func TestGenerate(t *testing.T) {
	p, err := Generate(PasswordOptions{})
	if err != nil {
		t.Fatal(err)
	}
	count := func(set string) int {
		n := 0
		for _, r := range p {
			if strings.ContainsRune(set, r) {
				n++
			}
		}
		return n
	}
	if len(p) != 32 || count("0123456789") != 6 || count("~!@#$%^&*()_+`-={}|[]\\:\"<>?,./") != 6 {
		t.Fatalf("default password %d chars, %d digits, %d symbols", len(p), count("0123456789"), count("~!@#$%^&*()_+`-={}|[]\\:\"<>?,./"))
	}
	zero := 0
	p, err = Generate(PasswordOptions{Length: 20, Symbols: &zero, NoUpper: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(p) != 20 || strings.ContainsAny(p, "~!@#$%^&*()_+`-={}|[]\\:\"<>?,./ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
		t.Fatalf("options ignored: %q", p)
	}
	for _, o := range []PasswordOptions{{Length: 8}, {Length: 500}, {Length: 12, Digits: ptr(6), Symbols: ptr(6)}} {
		if _, err := Generate(o); err == nil {
			t.Errorf("Generate(%+v) accepted", o)
		}
	}
}

func ptr[T any](v T) *T { return &v }
