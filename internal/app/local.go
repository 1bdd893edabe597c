package app

import (
	"context"
	"log/slog"
	"os"
	"time"
)

// StartLocal runs a throwaway dev-mode server for benchmarks and tools: a
// temporary data dir, loopback listeners on free ports, SQLite, rate limits
// off, quiet logs. tune may change the config before start. stop shuts the
// server down and removes the data dir.
func StartLocal(ctx context.Context, tune func(*Config)) (a *App, stop func(), err error) {
	dir, err := os.MkdirTemp("", "agentsvc-local-")
	if err != nil {
		return nil, nil, err
	}
	cfg := Config{Dev: true, DataDir: dir, HTTPAddr: "127.0.0.1:0", AdminAddr: "", SMTPAddr: "127.0.0.1:0",
		DevPlan: "paid", LogLevel: "error", LogFormat: "text", RateLimit: 0, MaxBodyBytes: 1 << 20,
		ShutdownTimeout: 10 * time.Second, SMTPMaxMessageBytes: 25 << 20}
	if tune != nil {
		tune(&cfg)
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelError}))
	runCtx, cancel := context.WithCancel(ctx)
	a, err = New(runCtx, cfg, log, "local")
	if err != nil {
		cancel()
		os.RemoveAll(dir)
		return nil, nil, err
	}
	done := make(chan error, 1)
	go func() { done <- a.Run(runCtx) }()
	return a, func() { cancel(); <-done; os.RemoveAll(dir) }, nil
}
