package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/machines/gvisor"
	"github.com/agentsvc/agentsvc/internal/machines/image"
	"github.com/agentsvc/agentsvc/internal/vault"
)

// devMachinesDomain serves port URLs in dev mode: browsers and curl resolve
// *.localhost to loopback without any DNS setup.
const devMachinesDomain = "machines.localhost"

func bindMachineFlags(fs *pflag.FlagSet, c *Config) {
	fs.StringVar(&c.MachinesDomain, "machines-domain", "", "domain of machine port URLs https://<port>-<machine>.<domain> (needs a wildcard DNS record and certificate); default machines.localhost over http in dev mode, machines.<base-url host> otherwise")
	fs.StringVar(&c.MachinesImageDir, "machines-image-dir", "", "directory holding images/<suite>-<variant> (default: the data dir)")
	fs.StringVar(&c.MachinesSuite, "machines-suite", "bookworm", "distribution release of the machine images (bookworm, noble)")
	fs.StringVar(&c.MachinesRuntimeName, "machines-runtime-name", "agv", "1-5 lowercase letters naming this server's sandbox interfaces, iptables chains and cgroups")
	fs.StringVar(&c.MachinesSubnet, "machines-subnet", "10.200.0.0/16", "IPv4 network the sandboxes' addresses come from")
	fs.StringVar(&c.Runsc, "runsc", "runsc", "the gVisor runsc binary (installed by scripts/ensure-runsc.sh)")
}

var domainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z0-9]([a-z0-9-]*[a-z0-9])?$`)

func (c *Config) validateMachines() []error {
	var errs []error
	if c.MachinesDomain != "" {
		c.MachinesDomain = strings.ToLower(strings.TrimSuffix(c.MachinesDomain, "."))
		if !domainPattern.MatchString(c.MachinesDomain) {
			errs = append(errs, fmt.Errorf("machines-domain: %q is not a domain", c.MachinesDomain))
		}
	}
	if c.MachinesSubnet != "" {
		if p, err := netip.ParsePrefix(c.MachinesSubnet); err != nil || !p.Addr().Is4() || p.Bits() > 28 {
			errs = append(errs, fmt.Errorf("machines-subnet: %q must be an IPv4 network of at least /28", c.MachinesSubnet))
		}
	}
	if c.MachinesRuntimeName != "" && !regexp.MustCompile(`^[a-z]{1,5}$`).MatchString(c.MachinesRuntimeName) {
		errs = append(errs, fmt.Errorf("machines-runtime-name: %q must be 1 to 5 lowercase letters", c.MachinesRuntimeName))
	}
	return errs
}

// setupMachines builds the sandbox runtime and the machines service and
// reconciles this host's machines with the sandboxes that outlived the
// previous process. Without runsc or the image the service still starts;
// machine operations then answer 503.
func (a *App) setupMachines(ctx context.Context) error {
	cfg := a.cfg
	var subnet netip.Prefix
	if cfg.MachinesSubnet != "" {
		subnet = netip.MustParsePrefix(cfg.MachinesSubnet) // validated
	}
	rt, err := gvisor.New(gvisor.Options{DataDir: cfg.DataDir, Runsc: cfg.Runsc, Subnet: subnet, Name: cfg.MachinesRuntimeName, Logger: a.log})
	if err != nil {
		return fmt.Errorf("machines runtime: %w", err)
	}
	imageRoot := cfg.MachinesImageDir
	if imageRoot == "" {
		imageRoot = cfg.DataDir
	}
	suite := cfg.MachinesSuite
	if suite == "" {
		suite = "bookworm"
	}
	a.Machines = machines.NewService(machines.Options{
		DB:      a.DB,
		Runtime: rt,
		Image: func(name string) (string, bool) {
			return image.Ready(imageRoot, suite, image.Variant(name))
		},
		PortURL:     a.portURL,
		Credentials: vaultCredentials{a.Vault},
		Host:        machinesHost(cfg.MachinesRuntimeName),
		SetupHint:   "make machines-setup",
		Logger:      a.log.With("component", "machines"),
	})
	rctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if err := a.Machines.Reconcile(rctx); err != nil {
		a.log.Error("reconciling machines with their sandboxes failed; affected machines are fixed on the next start", "err", err)
	}
	if _, ok := image.Ready(imageRoot, suite, image.Base); !ok {
		a.log.Warn("the machine image is not built: creating machines answers 503 until `make machines-setup` ran",
			"dir", filepath.Join(imageRoot, "images"))
	}
	return nil
}

// machinesHost names this node's sandboxes in the machines table: the host
// name and the runtime name, since one host may run several runtimes.
func machinesHost(runtimeName string) string {
	h, _ := os.Hostname()
	if runtimeName == "" {
		runtimeName = "agv"
	}
	return h + "/" + runtimeName
}

// machinesDomain is the domain under which port URLs live, and their scheme.
func (a *App) machinesDomain() (domain, scheme string) {
	if a.cfg.MachinesDomain != "" {
		if a.cfg.Dev {
			return a.cfg.MachinesDomain, "http"
		}
		return a.cfg.MachinesDomain, "https"
	}
	if a.cfg.Dev {
		return devMachinesDomain, "http"
	}
	if u, err := url.Parse(a.baseURL); err == nil && u.Hostname() != "" {
		return "machines." + u.Hostname(), "https"
	}
	return devMachinesDomain, "http"
}

// portURL is the public URL of a machine's port.
func (a *App) portURL(machineID string, port int) string {
	domain, scheme := a.machinesDomain()
	host := fmt.Sprintf("%d-%s.%s", port, machineID, domain)
	if scheme == "http" && a.httpLn != nil {
		if _, p, err := net.SplitHostPort(a.httpLn.Addr().String()); err == nil && p != "80" {
			host += ":" + p
		}
	}
	return scheme + "://" + host
}

// desktopCookie carries the desktop session on a desktop port's host.
const desktopCookie = "agentsvc_desktop"

// machineProxy serves the machines' port URLs: a request whose Host is
// <port>-<machine id>.<machines domain> goes to that port of the machine's
// sandbox (HTTP and WebSocket upgrades alike); anything else goes to next.
// The URL is stable: the target address is looked up per request, so it
// follows the machine through stop and resume.
func (a *App) machineProxy(next http.Handler) http.Handler {
	domain, scheme := a.machinesDomain()
	suffix := "." + domain
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host := strings.ToLower(r.Host)
		if h, _, err := net.SplitHostPort(host); err == nil {
			host = h
		}
		host = strings.TrimSuffix(host, ".")
		if !strings.HasSuffix(host, suffix) {
			next.ServeHTTP(w, r)
			return
		}
		portS, machineID, ok := strings.Cut(strings.TrimSuffix(host, suffix), "-")
		if strings.HasPrefix(machineID, "mch-") {
			machineID = "mch_" + machineID[4:] // the DNS-safe spelling
		}
		port, err := strconv.Atoi(portS)
		if !ok || err != nil || port < 1 || port > 65535 || !ids.Valid("mch", machineID) {
			proxyError(w, apierr.NotFound("machine port"))
			return
		}
		t, err := a.Machines.ProxyTarget(r.Context(), machineID, port)
		switch {
		case errors.Is(err, machines.ErrNoTarget):
			proxyError(w, apierr.NotFound("machine port").WithHint("expose the port with POST /api/v1/machines/{id}/ports"))
			return
		case errors.Is(err, machines.ErrStopped):
			proxyError(w, apierr.Unavailable("the machine is not running", "resume it; this URL works again afterwards"))
			return
		case err != nil:
			a.log.Error("machine proxy", "err", err)
			proxyError(w, apierr.Internal(err))
			return
		}
		if !t.Public {
			if !a.desktopAllowed(w, r, machineID, scheme == "https") {
				proxyError(w, apierr.Unauthorized("the desktop link is missing, expired or not for this machine",
					"get a new link with GET /api/v1/machines/{id}/desktop"))
				return
			}
		}
		a.proxyTo(t.Addr).ServeHTTP(w, r)
	})
}

// desktopAllowed checks the desktop token (URL) or session (cookie), and
// turns a valid URL token into a session cookie for this host.
func (a *App) desktopAllowed(w http.ResponseWriter, r *http.Request, machineID string, secure bool) bool {
	q := r.URL.Query()
	if tok := q.Get(machines.DesktopTokenParam); tok != "" && a.Machines.VerifyDesktopToken(r.Context(), machineID, tok) {
		session, exp, err := a.Machines.DesktopSession(r.Context(), machineID)
		if err != nil {
			return false
		}
		http.SetCookie(w, &http.Cookie{Name: desktopCookie, Value: session, Path: "/", Expires: exp, HttpOnly: true,
			Secure: secure, SameSite: http.SameSiteLaxMode})
		q.Del(machines.DesktopTokenParam)
		r.URL.RawQuery = q.Encode()
		return true
	}
	c, err := r.Cookie(desktopCookie)
	return err == nil && a.Machines.VerifyDesktopToken(r.Context(), machineID, c.Value)
}

func (a *App) proxyTo(addr netip.AddrPort) http.Handler {
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.SetURL(&url.URL{Scheme: "http", Host: addr.String()})
			pr.Out.Host = pr.In.Host
			pr.SetXForwarded()
			// The desktop session is ours, not the machine's.
			cookies := pr.Out.Cookies()
			pr.Out.Header.Del("Cookie")
			for _, c := range cookies {
				if c.Name != desktopCookie {
					pr.Out.AddCookie(c)
				}
			}
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			a.log.Info("machine proxy: upstream failed", "addr", addr.String(), "err", err)
			proxyError(w, &apierr.Error{Status: http.StatusServiceUnavailable, Code: apierr.CodeUnavailable,
				Message: "nothing answered on this port of the machine", Hint: "start a server listening on 0.0.0.0 at that port inside the machine"})
		},
	}
}

func proxyError(w http.ResponseWriter, e *apierr.Error) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.Status)
	body := map[string]any{"code": e.Code, "message": e.Message}
	if e.Hint != "" {
		body["hint"] = e.Hint
	}
	_ = json.NewEncoder(w).Encode(map[string]any{"error": body})
}

// vaultCredentials hands vault values to the machines service for
// inject_credential_ids (the vault audits each hand-over as vault.inject).
type vaultCredentials struct{ v *vault.Service }

func (c vaultCredentials) ValueForMachine(ctx context.Context, p *auth.Principal, credentialID, machineID string) (string, []byte, error) {
	inj, err := c.v.ValueForMachine(ctx, p, credentialID, machineID)
	if err != nil {
		return "", nil, err
	}
	return credentialFileName(inj.Name, inj.CredentialID), inj.Value, nil
}

// credentialFileName turns a credential's name into a file name that cannot
// leave the credentials directory: letters, digits, dot, dash and underscore,
// no leading dot; the credential id when nothing is left.
func credentialFileName(name, id string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	out := strings.TrimLeft(b.String(), ".")
	if out == "" || len(out) > 100 {
		return id
	}
	return out
}
