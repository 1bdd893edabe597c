// Command agentsvc runs the agentsvc service and its operator tools.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/agentsvc/agentsvc/internal/app"
	"github.com/agentsvc/agentsvc/internal/org"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if err := newRoot().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "agentsvc:", err)
		os.Exit(1)
	}
}

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:           "agentsvc",
		Short:         "Email, vault, machines and sign-in for software agents",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(serverCmd(), orgCmd(), migrateCmd(), versionCmd())
	root.AddCommand(vaultCmd())
	root.AddCommand(screenCmd())
	root.AddCommand(machinesCmd())
	return root
}

// loadConfig binds the server settings to a command and loads them.
func withConfig(cmd *cobra.Command) *app.Config {
	cfg := &app.Config{}
	app.BindFlags(cmd.Flags(), cfg)
	return cfg
}

func prepare(cmd *cobra.Command, cfg *app.Config) error {
	if err := app.Load(cmd.Flags(), os.Getenv); err != nil {
		return err
	}
	return cfg.Validate()
}

func serverCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "server",
		Short: "Run the service (add --dev for a local, self-contained one)",
		Args:  cobra.NoArgs,
	}
	cfg := withConfig(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := prepare(cmd, cfg); err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(cmd.Context(), syscall.SIGTERM, os.Interrupt)
		defer stop()
		log := app.NewLogger(*cfg, os.Stderr)
		a, err := app.New(ctx, *cfg, log, version)
		if err != nil {
			return err
		}
		if a.DevCredentials != nil {
			fmt.Fprintf(os.Stderr, "\nagentsvc dev server on %s\n  credentials: %s\n  org key:     %s\n\n",
				a.BaseURL(), app.DevCredentialsFile(cfg.DataDir), a.DevCredentials.OrgKey)
		}
		return a.Run(ctx)
	}
	return cmd
}

func orgCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "org", Short: "Manage organizations"}
	create := &cobra.Command{Use: "create", Short: "Create an organization with its owner and an org key holding every capability", Args: cobra.NoArgs}
	cfg := withConfig(create)
	var name, plan, ownerEmail, ownerName string
	var asJSON bool
	create.Flags().StringVar(&name, "name", "", "organization name (required)")
	create.Flags().StringVar(&plan, "plan", org.PlanSandbox, "sandbox or paid")
	create.Flags().StringVar(&ownerEmail, "owner-email", "", "owner's email (default owner@<mail domain>)")
	create.Flags().StringVar(&ownerName, "owner-name", "Owner", "owner's name")
	create.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	_ = create.MarkFlagRequired("name")
	create.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := prepare(cmd, cfg); err != nil {
			return err
		}
		ctx := cmd.Context()
		log := app.NewLogger(*cfg, os.Stderr)
		db, err := app.OpenStore(ctx, *cfg, log)
		if err != nil {
			return err
		}
		defer db.Close()
		if ownerEmail == "" {
			ownerEmail = "owner@" + cfg.MailDomain
		}
		password := app.RandomPassword()
		c, err := org.NewService(db, nil, log).CreateOrganization(ctx, org.NewOrganization{
			Name: name, Plan: plan, MailDomain: cfg.MailDomain, OwnerEmail: ownerEmail, OwnerName: ownerName, OwnerPassword: password,
		})
		if err != nil {
			return err
		}
		out := map[string]any{
			"organization_id": c.Organization.ID,
			"name":            c.Organization.Name,
			"plan":            c.Organization.Plan,
			"mail_domain":     c.Organization.MailDomain,
			"org_key":         c.OrgKeySecret,
			"org_key_id":      c.OrgKey.ID,
			"capabilities":    c.OrgKey.Capabilities,
			"owner":           map[string]string{"id": c.Owner.ID, "email": c.Owner.Email, "password": password},
		}
		if asJSON {
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(out)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "organization %s (%s, plan %s)\norg key:        %s\nowner:          %s\nowner password: %s\n",
			c.Organization.ID, c.Organization.Name, c.Organization.Plan, c.OrgKeySecret, c.Owner.Email, password)
		return nil
	}
	cmd.AddCommand(create)
	return cmd
}

func migrateCmd() *cobra.Command {
	cmd := &cobra.Command{Use: "migrate", Short: "Apply database migrations and exit", Args: cobra.NoArgs}
	cfg := withConfig(cmd)
	cmd.RunE = func(cmd *cobra.Command, _ []string) error {
		if err := prepare(cmd, cfg); err != nil {
			return err
		}
		db, err := app.OpenStore(cmd.Context(), *cfg, app.NewLogger(*cfg, os.Stderr))
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.OutOrStdout(), "database (%s) is up to date\n", db.Dialect())
		return db.Close()
	}
	return cmd
}

func versionCmd() *cobra.Command {
	return &cobra.Command{Use: "version", Short: "Print the version", Args: cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) { fmt.Fprintln(cmd.OutOrStdout(), "agentsvc", version) }}
}
