// Command agentsvc-bench prints the speed figures the issues ask for, each
// beside a baseline measured in the same run on the same machine.
//
//	agentsvc-bench api   [-d 10s] [-c 64]   GET /api/v1/me vs a bare net/http JSON handler
//	agentsvc-bench vault [-d 10s] [-c 64]   vault reads and TOTP codes vs GET /api/v1/me
//	agentsvc-bench smtp  [-d 10s]           SMTP ingest through the full pipeline vs an accept-and-discard sink
//	agentsvc-bench arrival [-rate 100] [-d 10s]  250 reply to the event reaching a waiting long-poll
//	agentsvc-bench longpoll [-n 10000]      waiting long-polls woken by one message
//	agentsvc-bench machines [-n 20]         machine lifecycle beside bare runsc (root, runsc and the image)
//	agentsvc-bench send [-d 10s]            send API to a local SMTP sink vs raw go-smtp client to sink
//	agentsvc-bench webhooks [-d 10s]        signed, verified, durable deliveries vs bare POSTs
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/delivery/deliverybench"
	inboundbench "github.com/agentsvc/agentsvc/internal/email/inbound/bench"
	"github.com/agentsvc/agentsvc/internal/loadgen"
	"github.com/agentsvc/agentsvc/internal/machines/machinesbench"
	"github.com/agentsvc/agentsvc/internal/vault/vaultbench"
	"github.com/agentsvc/agentsvc/internal/webhooks/webhooksbench"
)

func main() {
	// The long-poll benchmark re-runs this binary as its client process.
	inboundbench.PollClientMain()
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: agentsvc-bench api|vault|smtp|arrival|longpoll|machines|send|webhooks [flags]")
		os.Exit(2)
	}
	var err error
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	d := fs.Duration("d", 10*time.Second, "duration of each measurement")
	c := fs.Int("c", 64, "concurrent connections")
	rate := fs.Int("rate", 100, "messages per second (arrival)")
	n := fs.Int("n", 10000, "long-polls (longpoll)")
	switch os.Args[1] {
	case "api":
		err = benchAPI(os.Args[2:])
	case "vault":
		_ = fs.Parse(os.Args[2:])
		stopProfile := profile()
		err = vaultbench.Run(os.Stdout, *d, *c)
		stopProfile()
	case "smtp":
		_ = fs.Parse(os.Args[2:])
		stopProfile := profile()
		err = inboundbench.RunIngest(os.Stdout, *d)
		stopProfile()
	case "arrival":
		_ = fs.Parse(os.Args[2:])
		err = inboundbench.RunArrivalToEvent(os.Stdout, *rate, *d)
	case "longpoll":
		_ = fs.Parse(os.Args[2:])
		stopProfile := profile()
		err = inboundbench.RunLongPolls(os.Stdout, *n)
		stopProfile()
	case "send":
		_ = fs.Parse(os.Args[2:])
		err = deliverybench.Run(os.Stdout, *d)
	case "webhooks":
		_ = fs.Parse(os.Args[2:])
		stopProfile := profile()
		err = webhooksbench.Run(os.Stdout, *d)
		stopProfile()
	case "machines":
		fs.Lookup("n").DefValue = "20"
		_ = fs.Set("n", "20")
		_ = fs.Parse(os.Args[2:])
		err = machinesbench.Run(os.Stdout, *n)
	default:
		err = fmt.Errorf("unknown benchmark %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc-bench:", err)
		os.Exit(1)
	}
}

func post(url, token string, body any, out any) error {
	raw, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", url, bytesReader(raw))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %s", url, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// newAgentToken creates an agent with an inbox and a token with scopes.
func newAgentToken(a *app.App, username string, scopes ...string) (agentID, token string, err error) {
	var created struct {
		Agent struct{ ID string } `json:"agent"`
	}
	if err := post(a.BaseURL()+"/api/v1/inboxes", a.DevCredentials.OrgKey, map[string]any{"username": username}, &created); err != nil {
		return "", "", err
	}
	var tok struct{ Token string }
	if err := post(a.BaseURL()+"/api/v1/agents/"+created.Agent.ID+"/tokens", a.DevCredentials.OrgKey,
		map[string]any{"name": "bench", "capabilities": scopes}, &tok); err != nil {
		return "", "", err
	}
	return created.Agent.ID, tok.Token, nil
}

func benchAPI(args []string) error {
	fs := flag.NewFlagSet("api", flag.ExitOnError)
	d := fs.Duration("d", 10*time.Second, "duration of each measurement")
	c := fs.Int("c", 64, "concurrent connections")
	_ = fs.Parse(args)
	ctx := context.Background()

	// Baseline: a bare net/http handler writing a JSON body of similar size.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	payload := map[string]any{"organization_id": "org_x", "agent": map[string]any{"id": "agt_x", "name": "bench", "metadata": map[string]any{}},
		"inboxes": []any{map[string]any{"id": "inb_x", "address": "bench@agentsvc.localhost"}}, "token": map[string]any{"id": "tok_x", "capabilities": []string{"email:read"}}}
	bare := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(payload)
	})}
	go func() { _ = bare.Serve(ln) }()
	defer bare.Close()

	a, stop, err := app.StartLocal(ctx, nil)
	if err != nil {
		return err
	}
	defer stop()
	_, token, err := newAgentToken(a, "bench", "email:read")
	if err != nil {
		return err
	}
	meURL := a.BaseURL() + "/api/v1/me"
	bareURL := "http://" + ln.Addr().String() + "/"

	fmt.Printf("GET /api/v1/me with an agent token, %d connections, %s each, SQLite, this machine (%d CPUs)\n", *c, *d, numCPU())
	base := loadgen.Run(ctx, "bare net/http JSON handler", *c, *d, func() (*http.Request, error) { return http.NewRequest("GET", bareURL, nil) })
	fmt.Println(base)
	stopProfile := profile()
	me := loadgen.Run(ctx, "agentsvc GET /api/v1/me", *c, *d, func() (*http.Request, error) {
		req, err := http.NewRequest("GET", meURL, nil)
		if err == nil {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		return req, err
	})
	stopProfile()
	fmt.Println(me)
	fmt.Printf("ratio /me : bare = %.2f (goal >= 0.50); /me p99 %.2f ms (goal < 15 ms)\n", me.RPS()/base.RPS(), float64(me.P99.Microseconds())/1000)
	return nil
}
