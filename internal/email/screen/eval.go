package screen

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
)

// Score holds the evaluation figures for one reason code.
//
// Ratios with an empty denominator take their vacuous value: precision 1
// when nothing was flagged (no false claim was made), recall 1 when there
// is no positive to find, false-positive rate 0 when there is no negative.
// The counts are always printed beside them, so a vacuous 1 is visible.
type Score struct {
	Precision         float64 `json:"precision"`
	Recall            float64 `json:"recall"`
	FalsePositiveRate float64 `json:"false_positive_rate"`
	TP                int     `json:"tp"`
	FP                int     `json:"fp"`
	FN                int     `json:"fn"`
	TN                int     `json:"tn"`
}

func (s *Score) finish() {
	s.Precision = ratio(s.TP, s.TP+s.FP, 1)
	s.Recall = ratio(s.TP, s.TP+s.FN, 1)
	s.FalsePositiveRate = ratio(s.FP, s.FP+s.TN, 0)
}

func ratio(num, den int, vacuous float64) float64 {
	if den == 0 {
		return vacuous
	}
	return float64(num) / float64(den)
}

// EvalContext is the organization context file of an evaluation set.
type EvalContext struct {
	OrgDomains          []string `json:"org_domains"`
	KnownCorrespondents []string `json:"known_correspondents"`
}

// EvalMiss names one wrong answer, for inspecting a run.
type EvalMiss struct {
	File   string
	Reason Reason
	Kind   string // "fp" or "fn"
	Detail string
}

// EvalReport is the outcome of Evaluate.
type EvalReport struct {
	Scores map[Reason]*Score
	Misses []EvalMiss
	Files  int
}

// Evaluate screens every labelled message in dir (the format of the
// shared screening set: *.eml, labels.jsonl, context.json) and scores each
// reason code that appears as a boolean key in labels.jsonl.
func Evaluate(dir string, d *Detector) (EvalReport, error) {
	var rep EvalReport
	ctxRaw, err := os.ReadFile(filepath.Join(dir, "context.json"))
	if err != nil {
		return rep, fmt.Errorf("read context: %w", err)
	}
	var ec EvalContext
	if err := json.Unmarshal(ctxRaw, &ec); err != nil {
		return rep, fmt.Errorf("parse context.json: %w", err)
	}
	c := Context{OrgDomains: ec.OrgDomains, KnownCorrespondents: ec.KnownCorrespondents}

	f, err := os.Open(filepath.Join(dir, "labels.jsonl"))
	if err != nil {
		return rep, fmt.Errorf("read labels: %w", err)
	}
	defer f.Close()
	rep.Scores = map[Reason]*Score{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			return rep, fmt.Errorf("labels.jsonl line %d: %w", line, err)
		}
		file, _ := rec["file"].(string)
		if file == "" || filepath.Base(file) != file {
			return rep, fmt.Errorf("labels.jsonl line %d: missing or unsafe \"file\"", line)
		}
		raw, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			return rep, fmt.Errorf("labels.jsonl line %d: %w", line, err)
		}
		msg, err := MessageFromRaw(raw)
		if err != nil {
			return rep, fmt.Errorf("%s: %w", file, err)
		}
		res := d.Screen(msg, c)
		rep.Files++
		for k, v := range rec {
			want, ok := v.(bool)
			if !ok {
				continue
			}
			reason := Reason(k)
			s := rep.Scores[reason]
			if s == nil {
				s = &Score{}
				rep.Scores[reason] = s
			}
			got := res.Has(reason)
			switch {
			case want && got:
				s.TP++
			case !want && got:
				s.FP++
				rep.Misses = append(rep.Misses, EvalMiss{File: file, Reason: reason, Kind: "fp", Detail: detailFor(res, reason)})
			case want && !got:
				s.FN++
				rep.Misses = append(rep.Misses, EvalMiss{File: file, Reason: reason, Kind: "fn"})
			default:
				s.TN++
			}
		}
	}
	if err := sc.Err(); err != nil {
		return rep, fmt.Errorf("read labels: %w", err)
	}
	if rep.Files == 0 {
		return rep, errors.New("labels.jsonl lists no messages")
	}
	for _, s := range rep.Scores {
		s.finish()
	}
	sort.Slice(rep.Misses, func(i, j int) bool { return rep.Misses[i].File < rep.Misses[j].File })
	return rep, nil
}

func detailFor(r Result, reason Reason) string {
	for _, f := range r.Findings {
		if f.Reason == reason {
			return f.Detail
		}
	}
	return ""
}

// RunEval is the body of `agentsvc screen eval DIR [--json]`: it evaluates
// dir and prints per reason code precision, recall, false-positive rate and
// the confusion counts, as a table or as one JSON object keyed by reason.
func RunEval(dir string, d *Detector, jsonOut bool, w io.Writer) error {
	rep, err := Evaluate(dir, d)
	if err != nil {
		return err
	}
	if jsonOut {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep.Scores); err != nil {
			return fmt.Errorf("write json: %w", err)
		}
		return nil
	}
	reasons := make([]Reason, 0, len(rep.Scores))
	for r := range rep.Scores {
		reasons = append(reasons, r)
	}
	slices.Sort(reasons)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "reason\tprecision\trecall\tfp_rate\ttp\tfp\tfn\ttn\n")
	for _, r := range reasons {
		s := rep.Scores[r]
		fmt.Fprintf(tw, "%s\t%.3f\t%.3f\t%.3f\t%d\t%d\t%d\t%d\n", r, s.Precision, s.Recall, s.FalsePositiveRate, s.TP, s.FP, s.FN, s.TN)
	}
	fmt.Fprintf(tw, "\n%d messages from %s\n", rep.Files, dir)
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	return nil
}
