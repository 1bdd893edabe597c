package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/email"
	"github.com/agentsvc/agentsvc/internal/email/inbound"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/email/outbound"
	"github.com/agentsvc/agentsvc/internal/httpapi"
	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/vault"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

// App is a running agentsvc server.
type App struct {
	cfg Config
	log *slog.Logger

	DB      *store.DB
	Authn   *auth.Authenticator
	Orgs    *org.Service
	Inboxes *email.Service
	API     *httpapi.Server
	// Seal seals secrets at rest under per-organization data keys.
	Seal *seal.Keyring
	// Vault holds the agents' credentials.
	Vault   *vault.Service
	Mailbox *mailbox.Service
	Inbound *inbound.Pipeline
	// Outbound is the sending side; Delivery its queue and workers.
	Outbound *outbound.Service
	Delivery *delivery.Service
	mail     mailParts

	Machines *machines.Service

	// Webhooks delivers the event log to customers' endpoints.
	Webhooks *webhooks.Service

	httpLn, adminLn net.Listener
	httpSrv         *http.Server
	adminSrv        *http.Server

	baseURL, issuerURL string
	// DevCredentials is set in dev mode.
	DevCredentials *DevCredentials
}

// NewLogger builds the logger the config asks for.
func NewLogger(cfg Config, w *os.File) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

// OpenStore opens and migrates the configured database.
func OpenStore(ctx context.Context, cfg Config, log *slog.Logger) (*store.DB, error) {
	db, err := store.Open(ctx, store.Config{URL: cfg.DatabaseURL, Path: filepath.Join(cfg.DataDir, "agentsvc.db"), Logger: log})
	if err != nil {
		return nil, err
	}
	if err := db.Migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// New validates the config, opens storage, wires the services and binds the
// listeners (so the real addresses are known before Run).
func New(ctx context.Context, cfg Config, log *slog.Logger, version string) (*App, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, fmt.Errorf("data dir: %w", err)
	}
	a := &App{cfg: cfg, log: log}
	db, err := OpenStore(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	a.DB = db
	a.Authn = auth.NewAuthenticator(db, log)
	a.Orgs = org.NewService(db, a.Authn, log)
	a.Inboxes = email.NewService(db, log)
	// A key file is created on first start only where one node owns the
	// database (SQLite) or in dev mode; nodes sharing PostgreSQL must share a
	// key, so there it has to be provided.
	if a.Seal, err = seal.New(ctx, db, seal.Config{Value: cfg.MasterKey, File: cfg.MasterKeyFile,
		Create: cfg.Dev || cfg.DatabaseURL == "", Logger: log}); err != nil {
		a.close()
		return nil, fmt.Errorf("master key: %w", err)
	}
	a.Vault = vault.NewService(db, a.Seal, log, vault.Options{ReadAuditSync: cfg.VaultReadAuditSync})

	if err := a.newMail(); err != nil {
		a.close()
		return nil, err
	}
	if err := a.setupMachines(ctx); err != nil {
		a.close()
		return nil, err
	}

	// Owners are emailed through the outbound pipeline when an endpoint is
	// disabled.
	a.Webhooks = webhooks.New(db, a.Seal, webhooks.Config{Dev: cfg.Dev, AttemptTimeout: cfg.WebhookAttemptTimeout,
		Now: cfg.WebhookClock, Notifier: a.Outbound, Logger: log})

	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	a.API = httpapi.New(httpapi.Deps{DB: db, Authn: a.Authn, Orgs: a.Orgs, Inboxes: a.Inboxes, Logger: log, Metrics: reg, Version: version,
		Vault:    a.Vault,
		Mailbox:  a.Mailbox,
		Outbound: a.Outbound,
		Machines: a.Machines,
		Webhooks: a.Webhooks},
		httpapi.Options{RateLimit: cfg.RateLimit, RateBurst: cfg.RateBurst, MaxBodyBytes: cfg.MaxBodyBytes})

	if a.httpLn, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
		a.close()
		return nil, fmt.Errorf("http listener: %w", err)
	}
	a.baseURL = cfg.BaseURL
	if a.baseURL == "" {
		a.baseURL = "http://" + a.httpLn.Addr().String()
	}
	a.Outbound.SetBaseURL(a.baseURL)
	a.issuerURL = cfg.IssuerURL
	if a.issuerURL == "" {
		a.issuerURL = a.baseURL
	}
	a.httpSrv = &http.Server{Handler: a.API.Handler(), ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	a.httpSrv.Handler = a.machineProxy(a.httpSrv.Handler)

	if cfg.AdminAddr != "" {
		if a.adminLn, err = net.Listen("tcp", cfg.AdminAddr); err != nil {
			a.close()
			return nil, fmt.Errorf("admin listener: %w", err)
		}
		mux := http.NewServeMux()
		mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
		mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok\n")) })
		a.adminSrv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	}

	if cfg.Dev {
		if a.DevCredentials, err = a.devBootstrap(ctx); err != nil {
			a.close()
			return nil, fmt.Errorf("dev bootstrap: %w", err)
		}
	}
	return a, nil
}

// BaseURL is the public origin of the API.
func (a *App) BaseURL() string { return a.baseURL }

// HTTPAddr is the bound API address.
func (a *App) HTTPAddr() string { return a.httpLn.Addr().String() }

// AdminAddr is the bound admin address, or "".
func (a *App) AdminAddr() string {
	if a.adminLn == nil {
		return ""
	}
	return a.adminLn.Addr().String()
}

// Run serves until ctx is cancelled, then shuts down in order: stop taking
// requests and let in-flight ones finish, stop workers, close storage.
func (a *App) Run(ctx context.Context) error {
	workCtx, stopWork := context.WithCancel(context.WithoutCancel(ctx))
	var workers sync.WaitGroup
	workers.Go(func() { a.Authn.Run(workCtx) })
	workers.Go(func() { a.sweep(workCtx) })
	a.runMail(workCtx, &workers)
	workers.Go(func() { a.Machines.RunWorker(workCtx) })
	workers.Go(func() { a.Webhooks.Run(workCtx) })

	errc := make(chan error, 2)
	go func() { errc <- serve(a.httpSrv, a.httpLn) }()
	if a.adminSrv != nil {
		go func() { errc <- serve(a.adminSrv, a.adminLn) }()
	}
	a.log.Info("agentsvc listening", "http", a.HTTPAddr(), "admin", a.AdminAddr(), "base_url", a.baseURL,
		"database", a.DB.Dialect().String(), "dev", a.cfg.Dev)

	var runErr error
	select {
	case <-ctx.Done():
	case runErr = <-errc:
	}
	a.log.Info("shutting down", "timeout", a.cfg.ShutdownTimeout)
	shutCtx, cancel := context.WithTimeout(context.Background(), a.cfg.ShutdownTimeout)
	defer cancel()
	if err := a.httpSrv.Shutdown(shutCtx); err != nil {
		runErr = errors.Join(runErr, fmt.Errorf("http shutdown: %w", err))
	}
	if a.adminSrv != nil {
		_ = a.adminSrv.Shutdown(shutCtx)
	}
	if err := a.stopMail(shutCtx); err != nil {
		runErr = errors.Join(runErr, err)
	}
	stopWork()
	workers.Wait()
	a.close()
	a.log.Info("stopped")
	return runErr
}

func serve(srv *http.Server, ln net.Listener) error {
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// sweep removes expired records periodically.
func (a *App) sweep(ctx context.Context) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if err := a.API.SweepIdempotency(ctx); err != nil && ctx.Err() == nil {
				a.log.Warn("idempotency sweep failed", "err", err)
			}
		}
	}
}

func (a *App) close() {
	if a.httpLn != nil {
		a.httpLn.Close()
	}
	if a.adminLn != nil {
		a.adminLn.Close()
	}
	if a.mail.smtpLn != nil {
		a.mail.smtpLn.Close()
	}
	if a.DB != nil {
		a.DB.Close()
	}
}
