package app

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/org"
)

// DevCredentials is dev-credentials.json, the contract tests and tools rely on
// (ARCHITECTURE.md, "Dev-mode contract").
type DevCredentials struct {
	OrganizationID string `json:"organization_id"`
	OrgKey         string `json:"org_key"`
	OwnerEmail     string `json:"owner_email"`
	OwnerPassword  string `json:"owner_password"`
	BaseURL        string `json:"base_url"`
	IssuerURL      string `json:"issuer_url"`
	MailDomain     string `json:"mail_domain"`
	SMTPAddr       string `json:"smtp_addr"`
}

// DevCredentialsFile is where dev mode writes its credentials.
func DevCredentialsFile(dataDir string) string { return filepath.Join(dataDir, "dev-credentials.json") }

// devBootstrap creates the dev organization on the first start and reuses it
// afterwards. The addresses in the file are refreshed on every start, since
// they may change between runs (port 0 in tests).
func (a *App) devBootstrap(ctx context.Context) (*DevCredentials, error) {
	path := DevCredentialsFile(a.cfg.DataDir)
	var creds DevCredentials
	raw, err := os.ReadFile(path)
	switch {
	case err == nil:
		if err := json.Unmarshal(raw, &creds); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		if _, err := a.Orgs.Get(ctx, creds.OrganizationID); err != nil {
			if apierr.From(err).Status == 404 {
				return nil, fmt.Errorf("%s names organization %s, which the database does not have; remove the file to start afresh", path, creds.OrganizationID)
			}
			return nil, err
		}
		if _, err := a.Authn.Authenticate(ctx, creds.OrgKey); err != nil {
			return nil, fmt.Errorf("%s: the org key no longer works (%v); remove the file to start afresh", path, err)
		}
	case errors.Is(err, os.ErrNotExist):
		password := RandomPassword()
		c, err := a.Orgs.CreateOrganization(ctx, org.NewOrganization{
			Name: "Dev organization", Plan: a.cfg.DevPlan, MailDomain: a.cfg.MailDomain,
			OwnerEmail: "owner@" + a.cfg.MailDomain, OwnerName: "Dev Owner", OwnerPassword: password, KeyName: "dev",
		})
		if err != nil {
			return nil, err
		}
		creds = DevCredentials{OrganizationID: c.Organization.ID, OrgKey: c.OrgKeySecret, OwnerEmail: c.Owner.Email, OwnerPassword: password}
		a.log.Info("dev organization created", "organization_id", c.Organization.ID, "credentials", path)
	default:
		return nil, err
	}
	creds.BaseURL, creds.IssuerURL, creds.MailDomain, creds.SMTPAddr = a.baseURL, a.issuerURL, a.cfg.MailDomain, a.cfg.SMTPAddr
	out, _ := json.MarshalIndent(creds, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(out, '\n'), 0o600); err != nil {
		return nil, err
	}
	if err := os.Rename(tmp, path); err != nil {
		return nil, err
	}
	return &creds, nil
}

// RandomPassword makes a password for a generated account.
func RandomPassword() string {
	var b [18]byte
	_, _ = rand.Read(b[:])
	return base64.RawURLEncoding.EncodeToString(b[:])
}
