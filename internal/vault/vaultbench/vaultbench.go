// Package vaultbench measures the vault's hot paths against GET /api/v1/me
// on an in-process server and prints the figures. It is a figure printer for
// `agentsvc-bench vault`, not a timed test: goals are read by people.
package vaultbench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"syscall"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/loadgen"
)

// Run starts a dev server in a temporary directory (SQLite, no rate limit),
// creates an agent with a login carrying a TOTP secret, and drives
// GET /api/v1/me, GET /api/v1/vault/{id}/totp and GET /api/v1/vault/{id} with
// conns concurrent connections for duration each, printing req/s, p50, p99,
// the ratio to /me and the process CPU time per request. Every vault request
// writes its audit entry.
func Run(w io.Writer, duration time.Duration, conns int) error {
	if conns < 1 {
		return errors.New("conns must be at least 1")
	}
	a, stop, err := app.StartLocal(context.Background(), nil)
	if err != nil {
		return err
	}
	defer stop()

	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConns: conns * 2, MaxIdleConnsPerHost: conns * 2}}
	base := a.BaseURL()
	key := a.DevCredentials.OrgKey
	var created struct {
		Agent struct{ ID string } `json:"agent"`
	}
	if err := call(client, "POST", base+"/api/v1/inboxes", key, map[string]any{"username": "bench"}, 201, &created); err != nil {
		return err
	}
	var tok struct{ Token string }
	if err := call(client, "POST", base+"/api/v1/agents/"+created.Agent.ID+"/tokens", key,
		map[string]any{"name": "bench", "capabilities": []string{"vault:use", "vault:write", "vault:metadata"}}, 201, &tok); err != nil {
		return err
	}
	var cred struct{ ID string }
	if err := call(client, "POST", base+"/api/v1/vault", tok.Token, map[string]any{"name": "bench", "username": "u",
		"generate": true, "secret": "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"}, 201, &cred); err != nil {
		return err
	}

	// The endpoints take turns in rounds, so that a neighbour on a shared
	// machine slowing it down for a few seconds hits each of them alike and
	// the ratios stay meaningful.
	const rounds = 3
	fmt.Fprintf(w, "vault benchmark: %d connections, %s per endpoint in %d interleaved rounds, SQLite, audit write on every vault request\n", conns, duration, rounds)
	fmt.Fprintf(w, "%-28s %10s %10s %10s %8s %8s %10s\n", "endpoint", "req/s", "p50", "p99", "errors", "vs /me", "cpu/req")
	endpoints := []struct{ name, path string }{
		{"GET /api/v1/me", "/api/v1/me"},
		{"GET /api/v1/vault/{id}/totp", "/api/v1/vault/" + cred.ID + "/totp"},
		{"GET /api/v1/vault/{id}", "/api/v1/vault/" + cred.ID},
	}
	runs := make([][]loadgen.Result, len(endpoints))
	cpu := make([]time.Duration, len(endpoints))
	for range rounds {
		for i, ep := range endpoints {
			url := base + ep.path
			cpu0 := processCPU()
			runs[i] = append(runs[i], loadgen.Run(context.Background(), ep.name, conns, duration/rounds, func() (*http.Request, error) {
				req, err := http.NewRequest("GET", url, nil)
				if err == nil {
					req.Header.Set("Authorization", "Bearer "+tok.Token)
				}
				return req, err
			}))
			cpu[i] += processCPU() - cpu0
		}
	}
	me := loadgen.Merge(endpoints[0].name, runs[0]...)
	for i, ep := range endpoints {
		r := loadgen.Merge(ep.name, runs[i]...)
		ratio := 0.0
		if me.RPS() > 0 {
			ratio = r.RPS() / me.RPS()
		}
		perReq := time.Duration(0)
		if r.Requests > 0 {
			perReq = cpu[i] / time.Duration(r.Requests)
		}
		fmt.Fprintf(w, "%-28s %10.0f %10s %10s %8d %7.2fx %10s\n", r.Name, r.RPS(), r.P50.Round(10*time.Microsecond), r.P99.Round(10*time.Microsecond), r.Errors, ratio,
			perReq.Round(time.Microsecond))
	}
	return nil
}

// processCPU is the CPU time (user + system) this process used so far. The
// load generator runs in the same process, so CPU per request includes the
// client's share, the same for every endpoint; on a shared machine it swings
// less than req/s.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func call(client *http.Client, method, url, token string, body any, want int, out any) error {
	raw, err := json.Marshal(body)
	if err != nil {
		return err
	}
	req, err := http.NewRequest(method, url, bytes.NewReader(raw))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != want {
		return fmt.Errorf("%s %s: %d %s", method, url, resp.StatusCode, b)
	}
	return json.Unmarshal(b, out)
}
