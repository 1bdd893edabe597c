package machines_test

import (
	"bufio"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/machines/image"
	"github.com/agentsvc/agentsvc/internal/store"
)

// TestDesktop opens the desktop of a desktop-image machine in the way a
// browser would: the signed URL loads noVNC and sets the session cookie, the
// cookie carries the WebSocket upgrade to the VNC server; without them the
// proxy refuses. It needs the desktop image (agentsvc machines image build
// --desktop), which CI does not build.
func TestDesktop(t *testing.T) {
	needSandboxes(t)
	if _, ok := image.Ready(apptest.TestDataDir(), "bookworm", image.Desktop); !ok {
		t.Skip("desktop image not built: scripts/ensure-image.sh " + apptest.TestDataDir() + " --desktop")
	}
	env := apptest.Start(t, store.SQLite)
	a := client{t, env, env.NewAgent("desk", auth.ComputeRead, auth.ComputeRun, auth.ComputeAdmin).Token}

	base := a.create(map[string]any{})
	if r := env.Do("GET", "/api/v1/machines/"+base.ID+"/desktop", a.token, nil); r.Status != 409 || r.ErrorCode() != "invalid_state" {
		t.Errorf("desktop of a base machine: %d %s", r.Status, r.Body)
	}
	a.del(base.ID)

	m := a.create(map[string]any{"image": "desktop", "size": "medium"})
	var d struct {
		URL       string    `json:"url"`
		ExpiresAt time.Time `json:"expires_at"`
	}
	env.Must(200, env.Do("GET", "/api/v1/machines/"+m.ID+"/desktop", a.token, nil)).Decode(t, &d)
	if until := time.Until(d.ExpiresAt); until < 4*time.Minute || until > 6*time.Minute {
		t.Errorf("expires_at %v", d.ExpiresAt)
	}
	u, err := url.Parse(d.URL)
	if err != nil || !strings.HasPrefix(u.Host, "6080-"+m.ID+".machines.localhost:") || u.Query().Get("agentsvc_desktop_token") == "" {
		t.Fatalf("desktop url %q", d.URL)
	}
	get := func(path string, cookie *http.Cookie) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", env.BaseURL+path, nil)
		req.Host = u.Host
		if cookie != nil {
			req.AddCookie(cookie)
		}
		resp, err := env.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp
	}
	if r := get("/vnc.html", nil); r.StatusCode != 401 {
		t.Errorf("desktop without token: %d", r.StatusCode)
	}
	if r := get("/vnc.html?agentsvc_desktop_token=1.forged", nil); r.StatusCode != 401 {
		t.Errorf("desktop with a forged token: %d", r.StatusCode)
	}
	r := get(u.RequestURI(), nil)
	if r.StatusCode != 200 {
		t.Fatalf("noVNC page: %d", r.StatusCode)
	}
	var session *http.Cookie
	for _, c := range r.Cookies() {
		if c.Name == "agentsvc_desktop" {
			session = c
		}
	}
	if session == nil || !session.HttpOnly {
		t.Fatalf("no session cookie: %v", r.Cookies())
	}
	if r := get("/app/ui.js", session); r.StatusCode != 200 {
		t.Errorf("noVNC asset with the session cookie: %d", r.StatusCode)
	}

	// The WebSocket noVNC opens, through the proxy, reaches the VNC server.
	conn, err := net.Dial("tcp", strings.TrimPrefix(env.BaseURL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
	_, _ = conn.Write([]byte("GET /websockify HTTP/1.1\r\nHost: " + u.Host + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n" +
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Protocol: binary\r\n" +
		"Cookie: agentsvc_desktop=" + session.Value + "\r\n\r\n"))
	status, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil || !strings.Contains(status, " 101 ") {
		t.Errorf("websocket upgrade: %q %v", status, err)
	}
	a.del(m.ID)
}
