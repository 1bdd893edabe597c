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
	"github.com/agentsvc/agentsvc/internal/vault"
)

// Run starts two dev servers in temporary directories (SQLite, no rate
// limit): one with the default vault.DefaultReadAuditSync, where a read's
// audit entry is committed before the value is returned and reaches the disk
// within that window, and one where every read also waits for the disk.
// On each it creates an agent with a login carrying a TOTP secret, then drives
// GET /api/v1/me, GET /api/v1/vault/{id}/totp and GET /api/v1/vault/{id} with
// conns concurrent connections for duration each, printing req/s, p50, p99,
// the ratio to /me and the process CPU time per request. Every vault request
// writes its audit entry.
func Run(w io.Writer, duration time.Duration, conns int) error {
	if conns < 1 {
		return errors.New("conns must be at least 1")
	}
	client := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConns: conns * 4, MaxIdleConnsPerHost: conns * 2}}
	start := func(sync time.Duration) (target, func(), error) {
		a, stop, err := app.StartLocal(context.Background(), func(c *app.Config) { c.VaultReadAuditSync = sync })
		if err != nil {
			return target{}, nil, err
		}
		tg, err := prepare(client, a.BaseURL(), a.DevCredentials.OrgKey)
		if err != nil {
			stop()
			return target{}, nil, err
		}
		return tg, stop, nil
	}
	def, stopDef, err := start(vault.DefaultReadAuditSync)
	if err != nil {
		return err
	}
	defer stopDef()
	strict, stopStrict, err := start(0)
	if err != nil {
		return err
	}
	defer stopStrict()

	// The endpoints take turns in rounds, so that a neighbour on a shared
	// machine slowing it down for a few seconds hits each of them alike and
	// the ratios stay meaningful. With 3 rounds the ratio of identical runs
	// still ranged over 0.41-0.68x; with 10 (1 s slices at 10 s per
	// endpoint) it stays within about 0.02.
	const rounds = 10
	fmt.Fprintf(w, "vault benchmark: %d connections, %s per endpoint in %d interleaved rounds, SQLite, audit write on every vault request\n", conns, duration, rounds)
	fmt.Fprintf(w, "default: the entry is committed before the value is returned and synced to disk within %s; [sync per read]: the read also waits for the disk\n", vault.DefaultReadAuditSync)
	fmt.Fprintf(w, "%-44s %10s %10s %10s %8s %8s %10s\n", "endpoint", "req/s", "p50", "p99", "errors", "vs /me", "cpu/req")
	endpoints := []struct {
		name string
		tg   target
		path string
	}{
		{"GET /api/v1/me", def, "/api/v1/me"},
		{"GET /api/v1/vault/{id}/totp", def, "/api/v1/vault/" + def.cred + "/totp"},
		{"GET /api/v1/vault/{id}", def, "/api/v1/vault/" + def.cred},
		{"GET /api/v1/vault/{id}/totp [sync per read]", strict, "/api/v1/vault/" + strict.cred + "/totp"},
		{"GET /api/v1/vault/{id} [sync per read]", strict, "/api/v1/vault/" + strict.cred},
	}
	runs := make([][]loadgen.Result, len(endpoints))
	cpu := make([]time.Duration, len(endpoints))
	for range rounds {
		for i, ep := range endpoints {
			url, token := ep.tg.base+ep.path, ep.tg.token
			cpu0 := processCPU()
			runs[i] = append(runs[i], loadgen.Run(context.Background(), ep.name, conns, duration/rounds, func() (*http.Request, error) {
				req, err := http.NewRequest("GET", url, nil)
				if err == nil {
					req.Header.Set("Authorization", "Bearer "+token)
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
		fmt.Fprintf(w, "%-44s %10.0f %10s %10s %8d %7.2fx %10s\n", r.Name, r.RPS(), r.P50.Round(10*time.Microsecond), r.P99.Round(10*time.Microsecond), r.Errors, ratio,
			perReq.Round(time.Microsecond))
	}
	return nil
}

// target is a server's base URL, an agent token and the credential it reads.
type target struct{ base, token, cred string }

// prepare creates an agent, its token and a login with a TOTP secret.
func prepare(client *http.Client, base, key string) (tg target, err error) {
	var created struct {
		Agent struct{ ID string } `json:"agent"`
	}
	if err := call(client, "POST", base+"/api/v1/inboxes", key, map[string]any{"username": "bench"}, 201, &created); err != nil {
		return tg, err
	}
	var tok struct{ Token string }
	if err := call(client, "POST", base+"/api/v1/agents/"+created.Agent.ID+"/tokens", key,
		map[string]any{"name": "bench", "capabilities": []string{"vault:use", "vault:write", "vault:metadata"}}, 201, &tok); err != nil {
		return tg, err
	}
	var cred struct{ ID string }
	if err := call(client, "POST", base+"/api/v1/vault", tok.Token, map[string]any{"name": "bench", "username": "u",
		"generate": true, "secret": "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"}, 201, &cred); err != nil {
		return tg, err
	}
	tg.base, tg.token, tg.cred = base, tok.Token, cred.ID
	return tg, nil
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
