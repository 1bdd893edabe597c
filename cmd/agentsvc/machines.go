package main

import (
	"fmt"
	"log/slog"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentsvc/agentsvc/internal/machines/image"
)

// machinesCmd is `agentsvc machines`: operator tools for machine sandboxes.
func machinesCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "machines", Short: "Machine sandboxes: build the base images"}
	img := &cobra.Command{Use: "image", Short: "Machine images"}
	build := &cobra.Command{
		Use:   "build",
		Short: "Build the machine base image (debootstrap; needs root) into DATA_DIR/images, unless it is built already",
		Args:  cobra.NoArgs,
	}
	var (
		dataDir, suite, mirror string
		desktop                bool
	)
	build.Flags().StringVar(&dataDir, "data-dir", "data", "agentsvc data directory (images go to DATA_DIR/images)")
	build.Flags().StringVar(&suite, "suite", "bookworm", "distribution release: bookworm (Debian) or noble (Ubuntu, with --mirror http://archive.ubuntu.com/ubuntu)")
	build.Flags().StringVar(&mirror, "mirror", "", "archive mirror (default: the host's apt source, else "+image.DefaultMirror+")")
	build.Flags().BoolVar(&desktop, "desktop", false, "build the desktop variant (Xvfb, openbox, x11vnc, noVNC) instead of the base one")
	build.RunE = func(cmd *cobra.Command, _ []string) error {
		variant := image.Base
		if desktop {
			variant = image.Desktop
		}
		start := time.Now()
		dir, err := image.Build(cmd.Context(), image.Options{DataDir: dataDir, Suite: suite, Mirror: mirror, Variant: variant,
			Logger: slog.New(slog.NewTextHandler(os.Stderr, nil))})
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "%s (%s)\n", dir, time.Since(start).Round(time.Millisecond))
		return nil
	}
	img.AddCommand(build)
	cmd.AddCommand(img)
	return cmd
}
