package content

import (
	"strings"
	"testing"
)

func TestExtractCode(t *testing.T) {
	tests := []struct {
		name                string
		subject, text, html string
		wantCode, wantLink  string
	}{
		{
			name:     "english code is",
			subject:  "Your verification code",
			text:     "Hi Ada,\n\nYour verification code is 482913. It expires in 10 minutes.\n\nIf you didn't request this, ignore this email.\n",
			wantCode: "482913",
		},
		{
			name:     "code alone on the line after the label",
			subject:  "Sign in to Acme",
			text:     "Use the following code to sign in:\n\n    731904\n\nThis code expires in 15 minutes.\nAcme Inc., 500 Market Street, San Francisco, CA 94107",
			wantCode: "731904",
		},
		{
			name:     "german Ihr Code lautet",
			subject:  "Ihr Bestätigungscode",
			text:     "Hallo,\n\nIhr Code lautet: 558201\n\nDer Code ist 30 Minuten gültig.\nMusterfirma GmbH, Hauptstraße 5, 10115 Berlin",
			wantCode: "558201",
		},
		{
			name:     "french votre code",
			subject:  "Votre code de vérification",
			text:     "Bonjour,\nVotre code de vérification est : 904417\nCe code expire dans 10 minutes.",
			wantCode: "904417",
		},
		{
			name:     "spanish tu codigo",
			subject:  "Código de verificación",
			text:     "Tu código es 663018. No lo compartas con nadie.",
			wantCode: "663018",
		},
		{
			name:     "italian codice",
			subject:  "Codice di verifica",
			text:     "Il tuo codice di verifica è 270145.",
			wantCode: "270145",
		},
		{
			name:     "dutch verificatiecode",
			subject:  "Je verificatiecode",
			text:     "Je verificatiecode is 8841.",
			wantCode: "8841",
		},
		{
			name:     "polish kod",
			subject:  "Kod weryfikacyjny",
			text:     "Twój kod to 390221",
			wantCode: "390221",
		},
		{
			name:     "russian код",
			subject:  "Код подтверждения",
			text:     "Ваш код: 615530",
			wantCode: "615530",
		},
		{
			name:     "chinese 验证码 without spaces",
			subject:  "验证码",
			text:     "您的验证码是123456，5分钟内有效。",
			wantCode: "123456",
		},
		{
			name:     "japanese 認証コード",
			subject:  "認証コードのお知らせ",
			text:     "認証コード：908172\nこのコードの有効期限は10分です。",
			wantCode: "908172",
		},
		{
			name:     "code in the subject, number first",
			subject:  "123456 is your Instagram code",
			text:     "Hi ada_l,\nSomeone tried to log in to your Instagram account. If this was you, please use the following code to confirm your identity:\n\n123456\n",
			wantCode: "123456",
		},
		{
			name:     "grouped with a space",
			subject:  "Your Zoom code",
			text:     "Your one-time passcode is 123 456",
			wantCode: "123456",
		},
		{
			name:     "grouped with a hyphen",
			subject:  "Security code",
			text:     "Your security code: 123-456",
			wantCode: "123456",
		},
		{
			name:     "alphanumeric labelled",
			subject:  "Confirm your email",
			text:     "Your confirmation code is AB12-CD34\n",
			wantCode: "AB12-CD34",
		},
		{
			name:     "alphanumeric on the line after the label",
			subject:  "Verify your account",
			text:     "Enter this verification code:\n\nX7K9P2\n",
			wantCode: "X7K9P2",
		},
		{
			name:    "order confirmation without a code",
			subject: "Order confirmation #1029384",
			text:    "Thanks for your order!\nOrder number: 10293845\nTotal: $1,249.00\nShipping to 500 Market Street, San Francisco, CA 94107\nCall us at +1 800 555 1234.",
		},
		{
			name:    "receipt with prices and dates",
			subject: "Your receipt from Example Store",
			text:    "Receipt 2024-03-18\nAmount paid: 4599 USD\nDate paid: March 18, 2024 10:32\nCard ending in 4242",
		},
		{
			name:    "newsletter with a year and a promo code",
			subject: "Spring sale 2025",
			text:    "Our biggest sale of 2025 is here. Use promo code SPRING25 at checkout for 20% off.\n© 2025 Example Ltd.",
		},
		{
			name:    "meeting thread with times and phone",
			subject: "Re: project meeting",
			text:    "Hi team,\nLet's meet on 12.04.2025 at 14:30. Dial-in: +49 30 1234 5678, PIN 4455#\nRoom 2041.\nCheers, Bob",
		},
		{
			name:     "code with an order number nearby",
			subject:  "Confirm your purchase",
			text:     "Order 55667788 needs confirmation.\nYour confirmation code: 902114",
			wantCode: "902114",
		},
		{
			name:    "zip code in a signature is not a code",
			subject: "Re: verification of documents",
			text:    "Thanks, documents received.\n\nJane Doe\n1200 Main St\nSpringfield, IL 62704",
		},
		// "zip" is itself a non-code word; it used to match first and use up
		// the word, so the "code" of "ZIP code" labelled the postal code.
		{
			name:    "ZIP code with colon is not a code",
			subject: "Your order has shipped",
			text:    "Shipping to: Jane Doe, 100 Congress Ave, Austin TX\nZIP code: 78701\n",
		},
		{
			name:    "ZIP code without colon is not a code",
			subject: "Delivery address confirmed",
			text:    "We will deliver to 1 Market St, San Francisco, ZIP code 94105 on Monday.",
		},
		{
			name:    "Zip code in html is not a code",
			subject: "Update your address",
			html:    `<p>Address: 1 Market St, San Francisco</p><p>Zip code: 94105</p>`,
		},
		{
			name:    "zip code across a non-breaking space is not a code",
			subject: "Update your address",
			html:    `<p>Zip&nbsp;code: 94105</p>`,
		},
		{
			name:     "code still found when a ZIP follows it",
			subject:  "Your code",
			text:     "Code: 4821 — ZIP 10115 is your area",
			wantCode: "4821",
		},
		{
			name:     "your code is",
			subject:  "Sign in",
			text:     "Your code is 482913",
			wantCode: "482913",
		},
		{
			name:     "code after a postal address line",
			subject:  "Your Acme code",
			text:     "Acme Inc., ZIP code 94105\nYour verification code: 310574",
			wantCode: "310574",
		},
		{
			name:    "year next to the word code is not a code",
			subject: "Code of conduct update",
			text:    "We updated our code of conduct in 2024. Read it on our website.",
		},
		{
			name:     "html only with table layout",
			subject:  "Your login code",
			html:     `<html><body><table><tr><td>Your login code</td></tr><tr><td style="font-size:32px"><b>604231</b></td></tr></table><p><a href="https://example.com/unsubscribe">Unsubscribe</a></p></body></html>`,
			wantCode: "604231",
		},
		{
			name:     "hidden html code is ignored",
			subject:  "Your code",
			html:     `<p>Your code is <span style="display:none">999999</span><b>118822</b></p>`,
			wantCode: "118822",
		},
		{
			name:     "magic link from html",
			subject:  "Sign in to Linear",
			html:     `<p>Click below to sign in.</p><a href="https://linear.app/auth/magic?token=abc123">Sign in to Linear</a><p><a href="https://linear.app/unsubscribe?u=1">Unsubscribe</a> · <a href="https://linear.app/privacy">Privacy</a></p><img src="https://t.example.com/open.gif">`,
			wantLink: "https://linear.app/auth/magic?token=abc123",
		},
		{
			name:     "confirmation link in text",
			subject:  "Please confirm your email address",
			text:     "Welcome!\n\nConfirm your email address by visiting:\nhttps://example.com/confirm?t=Zx81Kq\n\nTo stop receiving these emails: https://example.com/unsubscribe?id=9",
			wantLink: "https://example.com/confirm?t=Zx81Kq",
		},
		{
			name:     "german bestätigen button with tracking redirect",
			subject:  "Bitte bestätigen Sie Ihre E-Mail-Adresse",
			html:     `<a href="https://click.mailer.example/ls/click?upn=AAA">E-Mail-Adresse bestätigen</a> <a href="https://click.mailer.example/ls/click?upn=BBB">Abmelden</a>`,
			wantLink: "https://click.mailer.example/ls/click?upn=AAA",
		},
		{
			name:     "password reset link beats help link",
			subject:  "Reset your password",
			html:     `<a href="https://help.example.com/">Help center</a><a href="https://example.com/reset-password?token=q1w2">Reset password</a><a href="https://example.com/not-me">This wasn't me</a>`,
			wantLink: "https://example.com/reset-password?token=q1w2",
		},
		{
			name:     "code and link together",
			subject:  "Verify your email for Example",
			text:     "Your verification code is 445566.\nOr click: https://example.com/verify?code=445566&u=7",
			html:     `<p>Your verification code is <b>445566</b>.</p><p><a href="https://example.com/verify?code=445566&amp;u=7">Verify email</a></p>`,
			wantCode: "445566",
			wantLink: "https://example.com/verify?code=445566&u=7",
		},
		{
			name:    "plain conversation has neither",
			subject: "Lunch tomorrow?",
			text:    "Hey, are you free for lunch tomorrow at 12:30? The place on 5th Avenue, number 1450.\nCall me: 555-0199",
		},
		{
			name:    "expiry minutes are not the code",
			subject: "Your code",
			text:    "Your code expires in 1440 minutes.",
		},
		{
			name:    "price labelled near code word",
			subject: "Redeem your gift",
			text:    "Your gift code is worth €2500.00",
		},
		{
			name:     "korean 인증번호",
			subject:  "인증번호 안내",
			text:     "인증번호 [774411]를 입력해 주세요.",
			wantCode: "774411",
		},
		{
			name:     "google style prefix",
			subject:  "G-482913 is your Google verification code",
			text:     "Google verification code\n\nG-482913\n",
			wantCode: "482913",
		},
		{
			name:     "apple id code",
			subject:  "Your Apple ID Code",
			text:     "Your Apple ID Code is: 730912. Don't share it with anyone.",
			wantCode: "730912",
		},
		{
			name:     "microsoft security code with account hint",
			subject:  "Microsoft account security code",
			text:     "Please use the following security code for the Microsoft account ad*****@agents.example.\n\nSecurity code: 6402\n\nIf you don't recognize the Microsoft account ad*****@agents.example, you can click https://account.live.com/dp?xyz to remove your email address from that account.",
			wantCode: "6402",
		},
		{
			name:     "amazon one-time password",
			subject:  "Amazon password assistance",
			text:     "To authenticate, please use the following One Time Password (OTP):\n\n918273\n\nDon't share this OTP with anyone. Our customer service team will never ask you for your password, OTP, credit card, or banking info.",
			wantCode: "918273",
		},
		{
			name:     "swedish engångskod",
			subject:  "Din engångskod",
			text:     "Din engångskod är 5521",
			wantCode: "5521",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, link := ExtractCode(tt.subject, tt.text, tt.html)
			if code != tt.wantCode {
				t.Errorf("code = %q, want %q", code, tt.wantCode)
			}
			if link != tt.wantLink {
				t.Errorf("link = %q, want %q", link, tt.wantLink)
			}
		})
	}
}

// A code is always a substring of the visible message (modulo the group
// separator): ExtractCode never invents one.
func TestExtractCodeOnlyCopies(t *testing.T) {
	inputs := []string{
		"Your code is 12 34 56 78 90",
		"code: 1a2b3c",
		"verification code: ABCDEF",
		"code: 0000-0000-0000-0000",
	}
	for _, in := range inputs {
		code, _ := ExtractCode("code", in, "")
		if code == "" {
			continue
		}
		if !containsIgnoringSeparators(in, code) {
			t.Errorf("ExtractCode(%q) = %q, not in the message", in, code)
		}
	}
}

func containsIgnoringSeparators(s, sub string) bool {
	strip := func(x string) string {
		out := make([]byte, 0, len(x))
		for i := 0; i < len(x); i++ {
			if x[i] != ' ' && x[i] != '-' {
				out = append(out, x[i])
			}
		}
		return string(out)
	}
	return len(sub) > 0 && strings.Contains(strip(s), strip(sub))
}
