// Package app is the service's wiring: configuration, the order in which
// storage, domain services, listeners and workers start and stop, and the
// dev-mode bootstrap.
package app

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/pflag"
	"gopkg.in/yaml.v3"

	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/vault"
)

// Config is every setting of `agentsvc server`. Each field is a flag; each
// flag can also come from the environment (AGENTSVC_ + the flag name in upper
// case with - as _) or from the config file (the flag name as key). Flags win
// over the environment, which wins over the file.
type Config struct {
	Dev             bool
	ConfigFile      string
	DataDir         string
	HTTPAddr        string
	AdminAddr       string
	SMTPAddr        string
	DatabaseURL     string
	BaseURL         string
	IssuerURL       string
	MailDomain      string
	SMTPRelay       string
	DevPlan         string
	LogFormat       string
	LogLevel        string
	RateLimit       float64
	RateBurst       int
	MaxBodyBytes    int64
	ShutdownTimeout time.Duration
	// MasterKeyFile holds the master keys that wrap the organizations' data
	// keys (internal/seal); default DATA_DIR/master.key.
	MasterKeyFile string
	// MasterKey (AGENTSVC_MASTER_KEY) is base64 32-byte keys, comma
	// separated, newest first; when set, MasterKeyFile is not read.
	MasterKey string
	// DNSServer ("host:port") answers the DNS queries of sender
	// authentication; empty uses the system resolver.
	DNSServer string
	// SMTPMaxMessageBytes is the largest inbound message (SMTP SIZE).
	SMTPMaxMessageBytes int64
	// Postmaster is the inbox address that receives mail to postmaster@
	// every local domain (RFC 5321 §4.5.1); empty refuses it.
	Postmaster string

	// Machines (see machines.go).
	MachinesDomain      string
	MachinesImageDir    string
	MachinesSuite       string
	MachinesRuntimeName string
	MachinesSubnet      string
	Runsc               string
	// SMTPRelayUsername and SMTPRelayPassword log in to the relay (AUTH
	// PLAIN, only over TLS).
	SMTPRelayUsername, SMTPRelayPassword string
	// SMTPDirect makes dev mode deliver outside mail by MX lookup instead
	// of capturing it (outside dev mode that is always the case without a relay).
	SMTPDirect bool
	// SMTPDeliveryPort is the port of direct delivery (25; tests change it).
	SMTPDeliveryPort int
	// SMTPRetryFor bounds retries of outbound mail after temporary
	// failures; SMTPRetryBackoff is the first wait (doubling, at most 1 h).
	SMTPRetryFor, SMTPRetryBackoff time.Duration
	// WebhookAttemptTimeout bounds one webhook attempt (the reference's 10 s).
	WebhookAttemptTimeout time.Duration
	// VaultReadAuditSync: vault.Options.ReadAuditSync.
	VaultReadAuditSync time.Duration
	// WebhookClock replaces the webhooks' clock (tests only; not a flag).
	WebhookClock func() time.Time
}

// BindFlags declares the flags of the server command.
func BindFlags(fs *pflag.FlagSet, c *Config) {
	fs.BoolVar(&c.Dev, "dev", false, "dev mode: SQLite and files in the data dir, loopback listeners, a seeded organization (see dev-credentials.json)")
	fs.StringVar(&c.ConfigFile, "config", "", "YAML or JSON file with settings (keys are the flag names)")
	fs.StringVar(&c.DataDir, "data-dir", "data", "directory for the SQLite database, blobs and keys")
	fs.StringVar(&c.HTTPAddr, "http-addr", "", "HTTP listen address (default 127.0.0.1:8080 in dev, :8080 otherwise)")
	fs.StringVar(&c.AdminAddr, "admin-addr", "127.0.0.1:9090", "listen address for /metrics and /debug/pprof; empty disables")
	fs.StringVar(&c.SMTPAddr, "smtp-addr", "", "SMTP listen address (default 127.0.0.1:2525 in dev, :25 otherwise)")
	fs.StringVar(&c.DatabaseURL, "database-url", "", "postgres://… URL; empty means SQLite in the data dir")
	fs.StringVar(&c.BaseURL, "base-url", "", "public origin of the service (default http://<http-addr>)")
	fs.StringVar(&c.IssuerURL, "issuer-url", "", "OpenID Connect issuer (default: the base URL)")
	fs.StringVar(&c.MailDomain, "mail-domain", "", "mail domain for new organizations (dev default agentsvc.localhost)")
	fs.StringVar(&c.SMTPRelay, "smtp-relay", "", "smarthost for outbound mail, host:port")
	fs.StringVar(&c.Postmaster, "postmaster", "", "inbox address that receives mail to postmaster@ every local domain (RFC 5321 4.5.1); empty refuses it")
	fs.StringVar(&c.DevPlan, "dev-plan", org.PlanPaid, "plan of the dev organization: paid or sandbox")
	fs.StringVar(&c.LogFormat, "log-format", "", "text or json (default text in dev, json otherwise)")
	fs.StringVar(&c.LogLevel, "log-level", "info", "debug, info, warn or error")
	fs.Float64Var(&c.RateLimit, "rate-limit", 50, "sustained requests per second per credential; 0 disables")
	fs.IntVar(&c.RateBurst, "rate-burst", 100, "requests per credential allowed at once above the rate")
	fs.Int64Var(&c.MaxBodyBytes, "max-body-bytes", 1<<20, "largest JSON request body")
	fs.DurationVar(&c.ShutdownTimeout, "shutdown-timeout", 20*time.Second, "how long in-flight work may take to finish on SIGTERM")
	fs.StringVar(&c.MasterKeyFile, "master-key-file", "", "file of master keys sealing secrets at rest (default DATA_DIR/master.key, created on first start with SQLite or in dev mode)")
	fs.StringVar(&c.MasterKey, "master-key", "", "master keys as base64 32-byte values, comma separated, newest first (prefer the environment AGENTSVC_MASTER_KEY); overrides master-key-file")
	fs.StringVar(&c.DNSServer, "dns-server", "", "DNS server (host:port) for SPF, DKIM and DMARC lookups; empty uses the system resolver")
	fs.DurationVar(&c.WebhookAttemptTimeout, "webhook-attempt-timeout", 10*time.Second, "how long a webhook receiver has to answer one delivery")
	fs.DurationVar(&c.VaultReadAuditSync, "vault-read-audit-sync", vault.DefaultReadAuditSync, "how long the audit entry of a vault read may wait for the disk after the value is returned (SQLite; committed before, so it survives any crash of agentsvc; 0 waits for the disk on every read)")
	fs.Int64Var(&c.SMTPMaxMessageBytes, "smtp-max-message-bytes", 25<<20, "largest inbound message accepted over SMTP (advertised with SIZE)")
	bindMachineFlags(fs, c)
	fs.StringVar(&c.SMTPRelayUsername, "smtp-relay-username", "", "user name for the relay (AUTH PLAIN, sent only over TLS)")
	fs.StringVar(&c.SMTPRelayPassword, "smtp-relay-password", "", "password for the relay (prefer the environment AGENTSVC_SMTP_RELAY_PASSWORD)")
	fs.BoolVar(&c.SMTPDirect, "smtp-direct", false, "dev mode: deliver outside mail by MX lookup instead of keeping it in the local capture")
	fs.IntVar(&c.SMTPDeliveryPort, "smtp-delivery-port", 25, "port of direct (MX) delivery")
	fs.DurationVar(&c.SMTPRetryFor, "smtp-retry-for", 48*time.Hour, "how long outbound mail is retried after temporary failures before it fails")
	fs.DurationVar(&c.SMTPRetryBackoff, "smtp-retry-backoff", time.Minute, "first wait before retrying outbound mail (doubles, at most 1 h)")
}

// Load fills flags that were not given on the command line from the
// environment and then from the config file.
func Load(fs *pflag.FlagSet, getenv func(string) string) error {
	file := map[string]any{}
	path := getenv("AGENTSVC_CONFIG")
	if f := fs.Lookup("config"); f != nil && f.Changed {
		path = f.Value.String()
	}
	if path != "" {
		raw, err := os.ReadFile(path)
		if err != nil {
			return fmt.Errorf("config file: %w", err)
		}
		if strings.HasSuffix(path, ".json") {
			err = json.Unmarshal(raw, &file)
		} else {
			err = yaml.Unmarshal(raw, &file)
		}
		if err != nil {
			return fmt.Errorf("config file %s: %w", path, err)
		}
		for k := range file {
			if fs.Lookup(k) == nil {
				return fmt.Errorf("config file %s: unknown setting %q", path, k)
			}
		}
		if f := fs.Lookup("config"); f != nil && !f.Changed {
			_ = fs.Set("config", path)
		}
	}
	var errs []error
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Changed || f.Name == "config" {
			return
		}
		env := "AGENTSVC_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v := getenv(env); v != "" {
			if err := fs.Set(f.Name, v); err != nil {
				errs = append(errs, fmt.Errorf("%s: %w", env, err))
			}
			return
		}
		if v, ok := file[f.Name]; ok {
			if err := fs.Set(f.Name, fmt.Sprint(v)); err != nil {
				errs = append(errs, fmt.Errorf("config %s: %w", f.Name, err))
			}
		}
	})
	return errors.Join(errs...)
}

// applyDefaults fills what depends on the mode.
func (c *Config) applyDefaults() {
	if c.HTTPAddr == "" {
		c.HTTPAddr = ":8080"
		if c.Dev {
			c.HTTPAddr = "127.0.0.1:8080"
		}
	}
	if c.SMTPAddr == "" {
		c.SMTPAddr = ":25"
		if c.Dev {
			c.SMTPAddr = "127.0.0.1:2525"
		}
	}
	if c.MailDomain == "" && c.Dev {
		c.MailDomain = "agentsvc.localhost"
	}
	if c.LogFormat == "" {
		c.LogFormat = "json"
		if c.Dev {
			c.LogFormat = "text"
		}
	}
	if c.DataDir != "" {
		if abs, err := filepath.Abs(c.DataDir); err == nil {
			c.DataDir = abs
		}
	}
	if c.MasterKeyFile == "" && c.DataDir != "" {
		c.MasterKeyFile = filepath.Join(c.DataDir, "master.key")
	}
}

// Validate reports every problem at once.
func (c *Config) Validate() error {
	c.applyDefaults()
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	checkAddr := func(name, addr string, optional bool) {
		if addr == "" {
			if !optional {
				bad("%s: required", name)
			}
			return
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			bad("%s: %q is not host:port", name, addr)
			return
		}
		if c.Dev && !isLoopback(host) {
			bad("%s: dev mode listens on loopback only, not %q", name, host)
		}
		_ = port
	}
	checkAddr("http-addr", c.HTTPAddr, false)
	checkAddr("admin-addr", c.AdminAddr, true)
	checkAddr("smtp-addr", c.SMTPAddr, false)
	if c.DataDir == "" {
		bad("data-dir: required")
	}
	if c.VaultReadAuditSync < 0 || c.VaultReadAuditSync > time.Second {
		bad("vault-read-audit-sync: must be between 0s and 1s, not %s", c.VaultReadAuditSync)
	}
	if c.DatabaseURL != "" && !strings.HasPrefix(c.DatabaseURL, "postgres://") && !strings.HasPrefix(c.DatabaseURL, "postgresql://") {
		bad("database-url: must start with postgres:// (leave empty for SQLite)")
	}
	for name, v := range map[string]string{"base-url": c.BaseURL, "issuer-url": c.IssuerURL} {
		if v == "" {
			continue
		}
		u, err := url.Parse(v)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			bad("%s: %q must be an http(s) origin such as https://agents.example.com", name, v)
		} else if !c.Dev && u.Scheme != "https" {
			bad("%s: must be https outside dev mode", name)
		}
	}
	if c.MailDomain == "" {
		bad("mail-domain: required outside dev mode")
	} else if strings.ContainsAny(c.MailDomain, " @/") || !strings.Contains(c.MailDomain, ".") {
		bad("mail-domain: %q is not a domain", c.MailDomain)
	}
	if c.Postmaster != "" {
		if local, domain, ok := strings.Cut(c.Postmaster, "@"); !ok || local == "" || !strings.Contains(domain, ".") || strings.ContainsAny(c.Postmaster, " <>,;") {
			bad("postmaster: %q is not an address such as ops@%s", c.Postmaster, cmp.Or(c.MailDomain, "agents.example.com"))
		}
	}
	if c.SMTPRelay != "" {
		if _, _, err := net.SplitHostPort(c.SMTPRelay); err != nil {
			bad("smtp-relay: %q is not host:port", c.SMTPRelay)
		}
	}
	if _, ok := org.Plans[c.DevPlan]; !ok {
		bad("dev-plan: must be paid or sandbox")
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		bad("log-format: must be text or json")
	}
	switch c.LogLevel {
	case "debug", "info", "warn", "error":
	default:
		bad("log-level: must be debug, info, warn or error")
	}
	if c.RateLimit < 0 {
		bad("rate-limit: must not be negative")
	}
	if c.RateBurst < 0 {
		bad("rate-burst: must not be negative")
	}
	if c.MaxBodyBytes < 1024 {
		bad("max-body-bytes: must be at least 1024")
	}
	if c.ShutdownTimeout <= 0 {
		bad("shutdown-timeout: must be positive")
	}
	if c.MasterKey != "" {
		if _, err := seal.ParseMasterKeys(c.MasterKey); err != nil {
			bad("master-key: %v", err)
		}
	}
	if c.DNSServer != "" {
		if _, _, err := net.SplitHostPort(c.DNSServer); err != nil {
			bad("dns-server: %q is not host:port", c.DNSServer)
		}
	}
	if c.WebhookAttemptTimeout < 0 {
		bad("webhook-attempt-timeout: must not be negative")
	}
	if c.SMTPMaxMessageBytes < 0 {
		bad("smtp-max-message-bytes: must not be negative")
	}
	errs = append(errs, c.validateMachines()...)
	if c.SMTPRelayUsername != "" && c.SMTPRelay == "" {
		bad("smtp-relay-username: needs smtp-relay")
	}
	if c.SMTPDeliveryPort < 0 || c.SMTPDeliveryPort > 65535 {
		bad("smtp-delivery-port: must be a port number")
	}
	if c.SMTPRetryFor < 0 || c.SMTPRetryBackoff < 0 {
		bad("smtp-retry-for, smtp-retry-backoff: must not be negative")
	}
	return errors.Join(errs...)
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
