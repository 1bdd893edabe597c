// Command screentrain trains the learned prompt-injection model of the
// screening detector on every labelled set and writes the model file that
// the package embeds. Run it from the repository root:
//
//	go run ./internal/email/screen/cmd/screentrain [-exclude SET,SET,...] [-fp 0.0175] [-repeats 5]
//
// The screen README gives the exact -exclude list (the blind sets) that
// reproduces the shipped file.
// It chooses lambda, gamma and the threshold by grouped inner
// cross-validation (the README's "reading B"), takes about eight minutes, and
// writes the same bytes every time for the same data.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentsvc/agentsvc/internal/email/screen"
)

func main() {
	data := flag.String("data", filepath.Join("internal", "email", "screen", "testdata"), "directory of labelled sets (each with labels.jsonl, context.json, *.eml)")
	out := flag.String("out", filepath.Join("internal", "email", "screen", screen.ModelFile), "model file to write")
	sets := flag.String("sets", "", "comma-separated set names to train on (default: every labelled set under -data)")
	exclude := flag.String("exclude", "", "comma-separated set names to leave out, e.g. blind sets kept for measuring the file")
	workers := flag.Int("workers", 2, "messages parsed and screened in parallel")
	fpTarget := flag.Float64("fp", 0, "share of inner held-out benign mail the model alone may flag when its threshold is chosen (0: the shipped default)")
	repeats := flag.Int("repeats", 0, "inner cross-validations, each grouping the sets differently, pooled to choose the threshold (0: the shipped default)")
	calib := flag.String("calibrate", "", "comma-separated training sets whose benign mail alone sets the threshold (default: all of them), e.g. the sets whose benign mix is closest to a real inbox")
	flag.Parse()
	if *fpTarget < 0 || *fpTarget >= 1 {
		fmt.Fprintln(os.Stderr, "screentrain: -fp must be a share between 0 and 1, such as 0.0175")
		os.Exit(2)
	}
	if *repeats < 0 || *repeats > 50 {
		fmt.Fprintln(os.Stderr, "screentrain: -repeats must be between 1 and 50 (0: the shipped default)")
		os.Exit(2)
	}
	var names []string
	if *sets != "" {
		names = strings.Split(*sets, ",")
	}
	if *exclude != "" {
		if names == nil {
			var err error
			if names, err = labelledSets(*data); err != nil {
				fmt.Fprintln(os.Stderr, "screentrain:", err)
				os.Exit(1)
			}
		}
		names = slices.DeleteFunc(names, func(n string) bool { return slices.Contains(strings.Split(*exclude, ","), n) })
	}
	file, err := screen.TrainModel(*data, screen.TrainOptions{Sets: names, Workers: *workers, Log: os.Stderr, FPTarget: *fpTarget, Repeats: *repeats, CalibrationSets: calibSets(*calib)})
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

// labelledSets lists the directories under dir that hold a labels.jsonl,
// sorted by name.
func labelledSets(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(dir, e.Name(), "labels.jsonl")); e.IsDir() && err == nil {
			out = append(out, e.Name())
		}
	}
	return out, nil
}

// calibSets splits the -calibrate list; holdoutA-B names a range.
func calibSets(v string) []string {
	var out []string
	for _, f := range strings.Split(v, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		var a, b int
		if n, _ := fmt.Sscanf(f, "holdout%d-%d", &a, &b); n == 2 && a <= b {
			for i := a; i <= b; i++ {
				out = append(out, fmt.Sprintf("holdout%d", i))
			}
			continue
		}
		out = append(out, f)
	}
	return out
}
