package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/seal"
)

// vaultCmd groups operator commands for secrets at rest.
func vaultCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "vault", Short: "Manage the keys that seal secrets at rest"}
	rotate := &cobra.Command{
		Use:   "rotate-master-key",
		Short: "Generate a new master key, re-wrap every data key under it and retire the old one (no downtime)",
		Long: "Adds a new key to the master key file, re-wraps every organization's data key under it, then drops the old key.\n" +
			"Running servers keep working: they re-read the key file when they meet a data key under a key id they do not know.\n" +
			"Every node must read the same key file. Creates the file when it does not exist and the database holds no data keys.",
		Args: cobra.NoArgs,
	}
	cfg := withConfig(rotate)
	var asJSON bool
	rotate.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	rotate.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := prepare(cmd, cfg); err != nil {
			return err
		}
		if cfg.MasterKey != "" {
			return errors.New("master keys come from AGENTSVC_MASTER_KEY: rotate by setting \"new,old\" on every node, " +
				"restarting, and setting \"new\" alone once the data keys are re-wrapped (seal.RewrapAll); this command rotates a key file")
		}
		ctx := cmd.Context()
		db, err := app.OpenStore(ctx, *cfg, app.NewLogger(*cfg, os.Stderr))
		if err != nil {
			return err
		}
		defer db.Close()
		r, err := seal.RotateMasterKey(ctx, db, cfg.MasterKeyFile)
		if err != nil {
			return err
		}
		if asJSON {
			return json.NewEncoder(cmd.OutOrStdout()).Encode(r)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "master key file %s now holds %s; re-wrapped %d data keys; retired %v\n",
			cfg.MasterKeyFile, r.NewKeyID, r.Rewrapped, r.RetiredIDs)
		return nil
	}
	cmd.AddCommand(rotate)
	return cmd
}
