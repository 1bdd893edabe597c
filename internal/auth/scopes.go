// Package auth knows who is calling: organization keys, agent tokens and team
// members; the capabilities each may hold; how secrets are made, hashed and
// checked; and a cache that forgets a revoked token on the next request.
package auth

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Agent token scopes, exactly the reference's scope table.
const (
	EmailRead          = "email:read"
	EmailSend          = "email:send"
	VaultMetadata      = "vault:metadata"
	VaultUse           = "vault:use"
	VaultWrite         = "vault:write"
	WalletRead         = "wallet:read"
	WalletPay          = "wallet:pay"
	ComputeRead        = "compute:read"
	ComputeRun         = "compute:run"
	ComputeAdmin       = "compute:admin"
	IdentitySignIn     = "identity:sign_in"
	IdentityShareOwner = "identity:share_owner"
)

// AgentScopes lists every scope an agent token may carry.
var AgentScopes = []string{
	EmailRead, EmailSend,
	VaultMetadata, VaultUse, VaultWrite,
	WalletRead, WalletPay,
	ComputeRead, ComputeRun, ComputeAdmin,
	IdentitySignIn, IdentityShareOwner,
}

// Organization key capabilities. The reference names inboxes:manage and
// applications:manage; the others are ours (the reference leaves the list open).
const (
	InboxesManage      = "inboxes:manage"      // create inboxes, manage webhooks, release quarantine
	ApplicationsManage = "applications:manage" // register sign-in applications
	AgentsManage       = "agents:manage"       // read, update, delete agents; issue and revoke their tokens
	AuditRead          = "audit:read"          // read the organization's audit history
	VaultManage        = "vault:manage"        // create credentials and equip them on agents
	MachinesManage     = "machines:manage"     // see and stop every machine of the organization
	PhoneManage        = "phone:manage"        // receive SMS events on webhooks
	SocialManage       = "social:manage"       // receive social events on webhooks
)

// OrgKeyCapabilities lists every capability an organization key may hold.
var OrgKeyCapabilities = []string{
	InboxesManage, ApplicationsManage, AgentsManage, AuditRead,
	VaultManage, MachinesManage, PhoneManage, SocialManage,
}

// NormalizeScopes checks, de-duplicates and sorts requested capabilities
// against the allowed list. It names the first unknown one.
func NormalizeScopes(requested, allowed []string) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	for _, s := range requested {
		s = strings.TrimSpace(s)
		if !slices.Contains(allowed, s) {
			return nil, fmt.Errorf("unknown capability %q (allowed: %s)", s, strings.Join(allowed, ", "))
		}
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out, nil
}

// implied maps a scope to the scopes it grants as well.
var implied = map[string][]string{
	IdentityShareOwner: {IdentitySignIn},
}
