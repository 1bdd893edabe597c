// Command screentrain trains the learned prompt-injection model of the
// screening detector on every labelled set and writes the model file that
// the package embeds. Run it from the repository root:
//
//	go run ./internal/email/screen/cmd/screentrain
//
// It chooses lambda, gamma and the threshold by grouped inner
// cross-validation (the README's "reading B"), takes a few minutes, and
// writes the same bytes every time for the same data.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agentsvc/agentsvc/internal/email/screen"
)

func main() {
	data := flag.String("data", filepath.Join("internal", "email", "screen", "testdata"), "directory of labelled sets (each with labels.jsonl, context.json, *.eml)")
	out := flag.String("out", filepath.Join("internal", "email", "screen", screen.ModelFile), "model file to write")
	sets := flag.String("sets", "", "comma-separated set names to train on (default: every labelled set under -data)")
	workers := flag.Int("workers", 2, "messages parsed and screened in parallel")
	flag.Parse()
	var names []string
	if *sets != "" {
		names = strings.Split(*sets, ",")
	}
	file, err := screen.TrainModel(*data, screen.TrainOptions{Sets: names, Workers: *workers, Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "screentrain:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(*out, file, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "screentrain:", err)
		os.Exit(1)
	}
	fmt.Fprintf(os.Stderr, "wrote %s (%d bytes)\n", *out, len(file))
}
