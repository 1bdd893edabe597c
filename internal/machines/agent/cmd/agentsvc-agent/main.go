// Command agentsvc-agent is the agent that runs inside a machine sandbox (see
// package agent). The sandbox's PID 1 starts it with the token in the
// environment; it serves on agent.Port on all addresses. Build it static:
//
//	CGO_ENABLED=0 go build -trimpath -o agentsvc-agent ./internal/machines/agent/cmd/agentsvc-agent
package main

import (
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"strconv"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines/agent"
)

func main() {
	listen := flag.String("listen", ":"+strconv.Itoa(agent.Port), "address to serve on")
	tmp := flag.String("tmp", "/run/agentsvc", "directory for command output files (a tmpfs)")
	flag.Parse()
	token := os.Getenv(agent.TokenEnv)
	// Commands inherit the environment; the token is not theirs.
	_ = os.Unsetenv(agent.TokenEnv)
	if err := os.MkdirAll(*tmp, 0o700); err != nil {
		*tmp = os.TempDir()
	}
	srv, err := agent.NewServer(agent.ServerConfig{Token: token, TmpDir: *tmp, Env: os.Environ()})
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc-agent:", err)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc-agent:", err)
		os.Exit(1)
	}
	hs := &http.Server{Handler: srv, ReadHeaderTimeout: 30 * time.Second}
	if err := hs.Serve(ln); err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc-agent:", err)
		os.Exit(1)
	}
}
