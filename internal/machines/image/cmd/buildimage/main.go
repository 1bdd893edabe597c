// Command buildimage builds a machine base image with package image; it is
// what scripts/ensure-image.sh runs so that the script and agentsvc share one
// implementation.
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

	"github.com/agentsvc/agentsvc/internal/machines/image"
)

func main() {
	var opts image.Options
	var variant string
	flag.StringVar(&opts.DataDir, "data-dir", "", "agentsvc data directory (images go to DATA_DIR/images)")
	flag.StringVar(&opts.Suite, "suite", "bookworm", "distribution suite (bookworm, noble, ...)")
	flag.StringVar(&opts.Mirror, "mirror", "", "archive mirror (default: the host's apt source, else "+image.DefaultMirror+")")
	flag.StringVar(&variant, "variant", string(image.Base), "image variant: base or desktop")
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
	dir, err := image.Build(ctx, opts)
	if err != nil {
		fmt.Fprintln(os.Stderr, "buildimage:", err)
		os.Exit(1)
	}
	fmt.Printf("%s (%s)\n", dir, time.Since(start).Round(time.Millisecond))
}
