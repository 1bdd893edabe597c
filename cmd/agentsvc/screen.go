package main

import (
	"github.com/spf13/cobra"

	"github.com/agentsvc/agentsvc/internal/email/screen"
)

// screenCmd is `agentsvc screen eval DIR [--json] [--rules-only]`: the
// screening component's evaluation on a labelled directory of mail.
func screenCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "screen", Short: "Mail screening tools"}
	var jsonOut, rulesOnly bool
	eval := &cobra.Command{
		Use:   "eval DIR",
		Short: "Score the screening detectors on a labelled directory (*.eml, labels.jsonl, context.json)",
		Long: "Prints precision, recall and false-positive rate per reason code for the messages in DIR, " +
			"in the format of shared/eval/screening: *.eml files, labels.jsonl (one object per file with a boolean per reason code) " +
			"and context.json (org_domains, known_correspondents).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var opts []screen.Option
			if rulesOnly {
				opts = append(opts, screen.WithoutInjectionModel())
			}
			return screen.RunEval(args[0], screen.NewDetector(opts...), jsonOut, cmd.OutOrStdout())
		},
	}
	eval.Flags().BoolVar(&jsonOut, "json", false, "print one JSON object keyed by reason code")
	eval.Flags().BoolVar(&rulesOnly, "rules-only", false, "screen without the learned prompt-injection model (the rules alone), to compare")
	cmd.AddCommand(eval)
	return cmd
}
