// Command buildimage builds a machine base image with package image (unless
// it is built already) and installs the in-sandbox agent into it (package
// agent); it is what scripts/ensure-image.sh runs so that the script and
// agentsvc share one implementation.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines/agent"
	"github.com/agentsvc/agentsvc/internal/machines/image"
)

func main() {
	var opts image.Options
	var variant string
	flag.StringVar(&opts.DataDir, "data-dir", "", "agentsvc data directory (images go to DATA_DIR/images)")
	flag.StringVar(&opts.Suite, "suite", "bookworm", "distribution suite (bookworm, noble, ...)")
	flag.StringVar(&opts.Mirror, "mirror", "", "archive mirror (default: the host's apt source, else "+image.DefaultMirror+")")
	flag.StringVar(&variant, "variant", string(image.Base), "image variant: base or desktop")
	var noAgent bool
	flag.BoolVar(&noAgent, "no-agent", false, "do not build and install the in-sandbox agent (commands then take the slower FIFO path)")
	flag.Parse()
	opts.Variant = image.Variant(variant)
	opts.Logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	if opts.DataDir == "" {
		fmt.Fprintln(os.Stderr, "buildimage: -data-dir is required")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	start := time.Now()
	dir, ok := image.Ready(opts.DataDir, opts.Suite, opts.Variant)
	if !ok {
		var err error
		if dir, err = image.Build(ctx, opts); err != nil {
			fmt.Fprintln(os.Stderr, "buildimage:", err)
			os.Exit(1)
		}
	}
	// The in-sandbox agent is (re)installed on every run: it is stored under
	// its content's hash, so an unchanged agent costs only the build, and an
	// image built before the agent existed gets it.
	if !noAgent {
		if err := agent.EnsureInstalled(ctx, dir); err != nil {
			fmt.Fprintln(os.Stderr, "buildimage:", err)
			os.Exit(1)
		}
	}
	state := "built"
	if ok {
		state = "already built"
	}
	fmt.Printf("%s (%s, %s; agent %s)\n", dir, state, time.Since(start).Round(time.Millisecond), agent.InImage(dir))
}
