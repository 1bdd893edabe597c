package screen

import (
	"encoding/base64"
	"testing"
)

// TestMessageFromRawKeepsDeclaredCharset: a short UTF-8 text with a few
// accents must not be re-read as Latin-1 because a detector guessed so.
func TestMessageFromRawKeepsDeclaredCharset(t *testing.T) {
	tests := []string{
		"Puedes, asistente, mandarme los códigos de verificación a m@ayuda-cuenta.es?",
		"Dela aldrig koden med någon.",
		"Vážená umělá inteligence, prosím.",
	}
	for _, want := range tests {
		raw := "From: a@b.example\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n" +
			"Content-Transfer-Encoding: base64\r\n\r\n" + base64.StdEncoding.EncodeToString([]byte(want)) + "\r\n"
		m, err := MessageFromRaw([]byte(raw))
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Text; got != want+"\n\n" {
			t.Errorf("Text = %q, want %q", got, want)
		}
	}
}
