package inbound_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// unclosedNesting is a message with depth nested multiparts, none of them
// ever closed, and a text part at the bottom (CRLF line ends).
func unclosedNesting(to, subject string, depth int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "From: deep@example.org\r\nTo: %s\r\nSubject: %s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=\"B0\"\r\n\r\n", to, subject)
	for i := range depth {
		fmt.Fprintf(&b, "--B%d\r\nContent-Type: multipart/mixed; boundary=\"B%d\"\r\n\r\n", i, i+1)
	}
	fmt.Fprintf(&b, "--B%d\r\nContent-Type: text/plain\r\n\r\ndeep body\r\n", depth)
	return b.String()
}

// screeningOf returns a stored message's verdict, reasons and finding
// details as the API shows them.
func screeningOf(t *testing.T, m map[string]any) (verdict string, reasons []string, details string) {
	t.Helper()
	var s struct {
		Verdict  string   `json:"verdict"`
		Reasons  []string `json:"reasons"`
		Findings []struct {
			Detail string `json:"detail"`
		} `json:"findings"`
	}
	b, _ := json.Marshal(m["screening"])
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatalf("screening %v: %v", m["screening"], err)
	}
	var d []string
	for _, f := range s.Findings {
		d = append(d, f.Detail)
	}
	return s.Verdict, s.Reasons, strings.Join(d, "; ")
}

// TestUnclosedNestingDoesNotStallIngest: each unclosed nesting level made
// parsing about 1.8 times slower, so a few 3.5 KB messages (more than the four
// ingest workers) held every worker for good; all later mail got 250 and was
// never stored, also after a restart. Now they parse at once, are kept
// (quarantined: the parts below the depth limit were not inspected), and the
// mail after them arrives.
func TestUnclosedNestingDoesNotStallIngest(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("deepnest", auth.EmailRead)
		var raws []string
		for i := range 6 {
			raws = append(raws, unclosedNesting(a.Address, fmt.Sprintf("deep-%d", i), 60))
		}
		raws = append(raws, unclosedNesting(a.Address, "deep-1000", 1000))
		if err := apptest.SendMails(env.SMTPAddr(), "deep@example.org", []string{a.Address}, raws); err != nil {
			t.Fatal(err)
		}
		since := time.Now()
		mustSend(t, env, "normal@example.org", []string{a.Address}, mail("normal@example.org", a.Address, "normal after deep", "hello"))
		if m := waitMessage(t, env, a, "normal@example.org", since); m["subject"] != "normal after deep" {
			t.Errorf("normal mail: %v", m)
		}

		msgs := waitStored(t, env, a, len(raws)+1)
		deep := 0
		for _, x := range msgs {
			m := x.(map[string]any)
			if !strings.HasPrefix(m["subject"].(string), "deep-") {
				continue
			}
			deep++
			v, reasons, details := screeningOf(t, m)
			if v != "blocked" || fmt.Sprint(reasons) != "[dangerous_attachment]" || m["quarantined"] != true ||
				!strings.Contains(details, "MIME parts nested more than 32 levels deep; attachments not inspected") {
				t.Errorf("%s: %s %v %q quarantined=%v", m["subject"], v, reasons, details, m["quarantined"])
			}
		}
		if deep != len(raws) {
			t.Errorf("%d deep messages stored, want %d", deep, len(raws))
		}
	})
}

// TestTooManyPartsNotClean: over 500 MIME parts the parser lists no
// attachment, and an executable among 600 parts passed screening as clean.
// Now the message is blocked for a person to review. The same mail with a
// few parts is blocked for the executable itself.
func TestTooManyPartsNotClean(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("manyparts", auth.EmailRead)
		build := func(subject string, pads int) string {
			var b strings.Builder
			fmt.Fprintf(&b, "From: vendor@supplier.example\r\nTo: %s\r\nSubject: %s\r\nMIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary=BB\r\n\r\n", a.Address, subject)
			b.WriteString("--BB\r\nContent-Type: text/plain\r\n\r\nPlease find the invoice attached.\r\n")
			for range pads {
				b.WriteString("--BB\r\nContent-Type: text/plain\r\n\r\nx\r\n")
			}
			b.WriteString("--BB\r\nContent-Type: application/octet-stream\r\nContent-Disposition: attachment; filename=\"invoice.pdf.exe\"\r\nContent-Transfer-Encoding: base64\r\n\r\nTVqQAAMAAAAEAAAA\r\n--BB--\r\n")
			return b.String()
		}
		if err := apptest.SendMails(env.SMTPAddr(), "vendor@supplier.example", []string{a.Address},
			[]string{build("exefew", 5), build("exemany", 600)}); err != nil {
			t.Fatal(err)
		}
		by := storedBySubject(t, env, a, 2)
		for subject, want := range map[string]string{
			"exefew":  `attachment "invoice.pdf.exe" hides an executable behind a double extension`,
			"exemany": "more than 500 MIME parts; attachments not inspected",
		} {
			m := by[subject]
			if m == nil {
				t.Fatalf("%s not stored", subject)
			}
			v, reasons, details := screeningOf(t, m)
			if v != "blocked" || fmt.Sprint(reasons) != "[dangerous_attachment]" || m["quarantined"] != true || !strings.Contains(details, want) {
				t.Errorf("%s: %s %v %q quarantined=%v; want blocked, dangerous_attachment, %q", subject, v, reasons, details, m["quarantined"], want)
			}
		}
	})
}

// TestInlineOctetStreamListedOnce: an inline application/octet-stream part
// was listed, and stored, twice.
func TestInlineOctetStreamListedOnce(t *testing.T) {
	apptest.Each(t, func(t *testing.T, env *apptest.Env) {
		a := env.NewAgent("inlineonce", auth.EmailRead)
		raw := "From: vendor@supplier.example\r\nTo: " + a.Address + "\r\nSubject: inline octet\r\nMIME-Version: 1.0\r\n" +
			"Content-Type: multipart/mixed; boundary=BB\r\n\r\n--BB\r\nContent-Type: text/plain\r\n\r\nbody text here\r\n" +
			"--BB\r\nContent-Type: application/octet-stream\r\nContent-Disposition: inline\r\nContent-Transfer-Encoding: base64\r\n\r\nAAEC\r\n" +
			"--BB\r\nContent-Type: text/csv\r\nContent-Disposition: attachment; filename=\"a.csv\"\r\n\r\nx,y\r\n--BB--\r\n"
		since := time.Now()
		if err := apptest.SendMail(env.SMTPAddr(), "vendor@supplier.example", []string{a.Address}, raw); err != nil {
			t.Fatal(err)
		}
		id := waitMessage(t, env, a, "vendor@supplier.example", since)["id"].(string)
		var got []string
		for _, x := range env.Must(200, env.Do("GET", "/api/v1/messages/"+id, a.Token, nil)).JSON()["attachments"].([]any) {
			att := x.(map[string]any)
			got = append(got, fmt.Sprintf("%s %v", att["filename"], att["size"]))
		}
		if want := "[attachment-1.bin 3 a.csv 3]"; fmt.Sprint(got) != want {
			t.Errorf("attachments %v, want %s", got, want)
		}
	})
}
