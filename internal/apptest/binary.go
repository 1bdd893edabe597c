package apptest

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/smtp"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
)

// BuildBinary compiles the agentsvc command into the test's temp dir, for
// tests that must kill a real server process (crash tests, the CLI test).
func BuildBinary(t testing.TB) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agentsvc")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/agentsvc/agentsvc/cmd/agentsvc")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build agentsvc: %v\n%s", err, out)
	}
	return bin
}

// FreeAddr returns a loopback address with a port that was free a moment
// ago, for a server started in another process.
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// StartBinary runs bin (from BuildBinary) as `agentsvc server --dev` on
// dir/data with its HTTP API on httpAddr, no admin listener, warnings only,
// and args after those; its output goes to dir/server.log. It returns once
// /healthz answers (failing the test with the log after 30 s) and kills the
// process when the test ends.
func StartBinary(t testing.TB, bin, dir, httpAddr string, args ...string) *exec.Cmd {
	t.Helper()
	logPath := filepath.Join(dir, "server.log")
	logf, err := os.OpenFile(logPath, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { logf.Close() })
	cmd := exec.Command(bin, append([]string{"server", "--dev", "--data-dir", filepath.Join(dir, "data"), "--http-addr", httpAddr,
		"--admin-addr", "", "--log-level", "warn"}, args...)...)
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(30 * time.Second)
	for {
		if r, err := http.Get("http://" + httpAddr + "/healthz"); err == nil {
			r.Body.Close()
			return cmd
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logPath)
			t.Fatalf("server did not start: %s", log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// SendMail delivers raw (CRLF line endings) over a real SMTP session to
// addr, without STARTTLS (test servers have self-signed certificates). A
// refusal comes back as a *textproto.Error carrying the reply code.
func SendMail(addr, from string, to []string, raw string) error {
	return SendMails(addr, from, to, []string{raw})
}

// SendMails sends each of raws (CRLF line endings) from from to to, one after
// another in one SMTP session on addr.
func SendMails(addr, from string, to []string, raws []string) error {
	return SendMailsAs(addr, "client.test", from, to, raws)
}

// SendMailsAs is SendMails with the HELO name helo.
func SendMailsAs(addr, helo, from string, to []string, raws []string) error {
	c, err := smtp.Dial(addr)
	if err != nil {
		return err
	}
	defer c.Close()
	if err := c.Hello(helo); err != nil {
		return err
	}
	for _, raw := range raws {
		if err := c.Mail(from); err != nil {
			return err
		}
		for _, r := range to {
			if err := c.Rcpt(r); err != nil {
				return err
			}
		}
		w, err := c.Data()
		if err != nil {
			return err
		}
		if _, err := w.Write([]byte(raw)); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	return c.Quit()
}

// BinaryCredentials reads the dev credentials that a server started with
// StartBinary on dir wrote.
func BinaryCredentials(t testing.TB, dir string) app.DevCredentials {
	t.Helper()
	raw, err := os.ReadFile(app.DevCredentialsFile(filepath.Join(dir, "data")))
	if err != nil {
		t.Fatal(err)
	}
	var creds app.DevCredentials
	if err := json.Unmarshal(raw, &creds); err != nil {
		t.Fatal(err)
	}
	return creds
}

// CallJSON sends body as JSON with a bearer token, fails the test unless the
// answer has status want, and decodes it into out (unless nil).
func CallJSON(t testing.TB, method, url, token string, body any, want int, out any) {
	t.Helper()
	raw, _ := json.Marshal(body)
	req, err := http.NewRequest(method, url, bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		t.Fatalf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	if out != nil {
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, url, err, b)
		}
	}
}
