package machines

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Desktop machines (image desktop) run Xvfb, openbox, x11vnc (on the
// machine's loopback only) and websockify serving noVNC on DesktopPort. The
// port is not public: the proxy lets a browser in with a short-lived signed
// token in the URL (DesktopURLLifetime), then with a cookie for that host
// (DesktopSessionLifetime), never with the agent's token.
const (
	DesktopPort            = 6080
	DesktopURLLifetime     = 5 * time.Minute
	DesktopSessionLifetime = time.Hour
	// DesktopTokenParam is the query parameter carrying the token.
	DesktopTokenParam = "agentsvc_desktop_token"
)

// desktopScript starts the desktop programs that are not running yet and
// waits until noVNC answers. setsid keeps them out of the command's process
// group, so they outlive it (and stop/resume, like any process).
const desktopScript = `export DISPLAY=:1 HOME=/root
start() { name=$1; shift; pgrep -x "$name" >/dev/null || setsid nohup "$@" >/tmp/desktop-$name.log 2>&1 < /dev/null & }
start Xvfb Xvfb :1 -screen 0 1280x800x24 -nolisten tcp
for i in $(seq 50); do [ -e /tmp/.X11-unix/X1 ] && break; sleep 0.1; done
start openbox openbox
start x11vnc x11vnc -display :1 -localhost -rfbport 5900 -forever -shared -nopw -quiet
up() { (exec 3<>/dev/tcp/127.0.0.1/6080) 2>/dev/null; }
up || setsid nohup websockify --web /usr/share/novnc 6080 127.0.0.1:5900 >/tmp/desktop-websockify.log 2>&1 < /dev/null &
for i in $(seq 100); do up && exit 0; sleep 0.1; done
echo "noVNC did not start" >&2; tail -n 5 /tmp/desktop-*.log >&2; exit 1`

// Desktop is a link to a machine's screen.
type Desktop struct {
	URL       string    `json:"url" doc:"Opens noVNC in a browser; authorized by the signed token in the URL, not by the agent's token."`
	ExpiresAt time.Time `json:"expires_at" doc:"The URL must be opened before this time (5 minutes); the browser session then lasts an hour."`
}

// Desktop starts the desktop of a running desktop-image machine if needed and
// returns a short-lived URL to it.
func (s *Service) Desktop(ctx context.Context, p *auth.Principal, id string) (Desktop, error) {
	m, err := s.running(ctx, p, id, "open the desktop of")
	if err != nil {
		return Desktop{}, err
	}
	if m.Image != ImageDesktop {
		return Desktop{}, apierr.Conflict(apierr.CodeInvalidState, "the machine was created with the %s image, which has no desktop", m.Image).
			WithHint("create a machine with \"image\": \"desktop\"")
	}
	res, err := s.rt.Exec(ctx, m.sandboxID, ExecRequest{Command: desktopScript, Timeout: 30 * time.Second, MaxOutputBytes: 64 << 10})
	if err != nil {
		return Desktop{}, s.mapRuntime(err)
	}
	if res.ExitCode != 0 {
		return Desktop{}, &apierr.Error{Status: 503, Code: apierr.CodeUnavailable, Message: "the machine's desktop did not start",
			Hint: "check the desktop image (agentsvc machines image build --desktop)", Err: fmt.Errorf("desktop script: exit %d: %s", res.ExitCode, res.Stderr)}
	}
	exp := s.now().Add(DesktopURLLifetime)
	tok, err := s.descs.sign(ctx, m.ID, exp)
	if err != nil {
		return Desktop{}, err
	}
	u := s.opts.PortURL(m.ID, DesktopPort) + "/vnc.html?autoconnect=1&resize=remote&path=websockify&" + DesktopTokenParam + "=" + tok
	return Desktop{URL: u, ExpiresAt: exp.UTC().Truncate(time.Second)}, nil
}

// DesktopSession returns a token for the desktop of machineID valid for
// DesktopSessionLifetime (the proxy's cookie), and its expiry.
func (s *Service) DesktopSession(ctx context.Context, machineID string) (string, time.Time, error) {
	exp := s.now().Add(DesktopSessionLifetime)
	tok, err := s.descs.sign(ctx, machineID, exp)
	return tok, exp, err
}

// VerifyDesktopToken reports whether token opens the desktop of machineID now.
func (s *Service) VerifyDesktopToken(ctx context.Context, machineID, token string) bool {
	return s.descs.verify(ctx, machineID, token, s.now())
}

// Target is where the port proxy sends a request.
type Target struct {
	Addr netip.AddrPort
	// Public: the port was exposed with POST /ports; anyone with the URL
	// may use it. Otherwise only the desktop port is reachable, with a
	// desktop token.
	Public bool
	// Desktop: the port is the desktop of a desktop-image machine.
	Desktop bool
}

// ErrNoTarget: the host names no reachable port (unknown or deleted machine,
// or a port neither exposed nor the desktop).
var ErrNoTarget = errors.New("machines: no such port")

// ErrStopped: the machine exists but does not run; its URL works again after
// resume.
var ErrStopped = errors.New("machines: machine is not running")

// ProxyTarget resolves a port URL's machine and port for the proxy.
func (s *Service) ProxyTarget(ctx context.Context, machineID string, port int) (Target, error) {
	m, err := getMachineByID(ctx, s.db, machineID)
	if err != nil {
		if e := apierr.From(err); e.Status == 404 {
			return Target{}, ErrNoTarget
		}
		return Target{}, err
	}
	if m.State == StateDeleted {
		return Target{}, ErrNoTarget
	}
	var n int
	if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM machine_ports WHERE machine_id = $1 AND port = $2`, m.ID, port).Scan(&n); err != nil {
		return Target{}, fmt.Errorf("proxy target: %w", err)
	}
	t := Target{Public: n > 0, Desktop: port == DesktopPort && m.Image == ImageDesktop}
	if !t.Public && !t.Desktop {
		return Target{}, ErrNoTarget
	}
	if m.State != StateRunning {
		return t, ErrStopped
	}
	addr, err := s.rt.Address(ctx, m.sandboxID)
	if errors.Is(err, ErrNotRunning) || errors.Is(err, ErrNotFound) {
		return t, ErrStopped
	}
	if err != nil {
		return Target{}, err
	}
	t.Addr = netip.AddrPortFrom(addr, uint16(port))
	return t, nil
}

// desktopSigner signs desktop tokens with a key kept in the database, so
// every server node accepts every node's tokens.
type desktopSigner struct {
	db  *store.DB
	mu  sync.Mutex
	key []byte
}

func (d *desktopSigner) secret(ctx context.Context) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.key != nil {
		return d.key, nil
	}
	fresh := make([]byte, 32)
	if _, err := rand.Read(fresh); err != nil {
		return nil, err
	}
	var key []byte
	err := d.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO machine_secrets (name, value, created_at) VALUES ('desktop', $1, $2) ON CONFLICT (name) DO NOTHING`,
			fresh, store.Micros(time.Now())); err != nil {
			return err
		}
		return tx.QueryRowContext(ctx, `SELECT value FROM machine_secrets WHERE name = 'desktop'`).Scan(&key)
	})
	if err != nil {
		return nil, fmt.Errorf("desktop signing key: %w", err)
	}
	d.key = key
	return key, nil
}

func (d *desktopSigner) mac(key []byte, machineID string, exp int64) string {
	h := hmac.New(sha256.New, key)
	fmt.Fprintf(h, "desktop|%s|%d", machineID, exp)
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}

// sign makes "<unix expiry>.<mac>".
func (d *desktopSigner) sign(ctx context.Context, machineID string, exp time.Time) (string, error) {
	key, err := d.secret(ctx)
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(exp.Unix(), 10) + "." + d.mac(key, machineID, exp.Unix()), nil
}

func (d *desktopSigner) verify(ctx context.Context, machineID, token string, now time.Time) bool {
	expS, mac, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	exp, err := strconv.ParseInt(expS, 10, 64)
	if err != nil || now.Unix() >= exp {
		return false
	}
	key, err := d.secret(ctx)
	if err != nil {
		return false
	}
	return hmac.Equal([]byte(mac), []byte(d.mac(key, machineID, exp)))
}
