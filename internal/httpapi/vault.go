package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/vault"
)

// secretResponses are POST paths whose response may carry a generated
// password: the idempotency layer refuses keys there rather than store the
// response (and the password) in the clear.
var secretResponses = map[string]bool{"/api/v1/vault": true, "/api/v1/org/vault": true}

// GenerateFields are the password generator options of create and PATCH.
type GenerateFields struct {
	Generate        bool `json:"generate,omitempty" doc:"true makes the vault generate the password (kind login), returned once in this response. Mutually exclusive with password."`
	GenerateLength  int  `json:"generate_length,omitempty" minimum:"12" maximum:"128" doc:"Length of a generated password (default 32)."`
	GenerateDigits  *int `json:"generate_digits,omitempty" minimum:"0" maximum:"64" doc:"Digits in a generated password (default 6)."`
	GenerateSymbols *int `json:"generate_symbols,omitempty" minimum:"0" maximum:"64" doc:"Symbols in a generated password (default 6; 0 for sites that refuse symbols)."`
	GenerateNoUpper bool `json:"generate_no_upper,omitempty" doc:"Only lower-case letters in a generated password."`
}

func (g GenerateFields) options() vault.PasswordOptions {
	return vault.PasswordOptions{Length: g.GenerateLength, Digits: g.GenerateDigits, Symbols: g.GenerateSymbols, NoUpper: g.GenerateNoUpper}
}

// TOTPFields accompany a base32 secret.
type TOTPFields struct {
	Secret        *string `json:"secret,omitempty" maxLength:"2048" doc:"TOTP secret: base32 (spaces and padding allowed), or an otpauth://totp/ URI whose algorithm, digits and period are then used (other URI parameters are refused by name). Never returned by any endpoint."`
	TOTPAlgorithm string  `json:"totp_algorithm,omitempty" enum:"SHA1,SHA256,SHA512" doc:"For a base32 secret (default SHA1)."`
	TOTPDigits    int     `json:"totp_digits,omitempty" enum:"6,8" doc:"For a base32 secret (default 6)."`
	TOTPPeriod    int     `json:"totp_period,omitempty" minimum:"1" maximum:"3600" doc:"Seconds per code, for a base32 secret (default 30)."`
}

func (t TOTPFields) options() vault.TOTPOptions {
	return vault.TOTPOptions{Algorithm: t.TOTPAlgorithm, Digits: t.TOTPDigits, Period: t.TOTPPeriod}
}

type createCredentialBody struct {
	Name           string   `json:"name" minLength:"1" maxLength:"200" doc:"Required."`
	Kind           string   `json:"kind,omitempty" enum:"login,api_key,totp" doc:"Default login."`
	Username       string   `json:"username,omitempty" maxLength:"512" doc:"For kind login."`
	AgentReadable  *bool    `json:"agent_readable,omitempty" doc:"Whether agents may read the value (default true). When false the value is never returned by any endpoint (403); TOTP codes still are."`
	Password       *string  `json:"password,omitempty" maxLength:"16384" doc:"The password (login) or key (api_key). Mutually exclusive with generate."`
	AllowedOrigins []string `json:"allowed_origins,omitempty" maxItems:"20" doc:"Origins (scheme://host[:port], no path) where the local connector may use the credential."`
	GenerateFields
	TOTPFields
}

func (b createCredentialBody) toNew() vault.NewCredential {
	return vault.NewCredential{Name: b.Name, Kind: b.Kind, Username: b.Username, AgentReadable: b.AgentReadable, Password: b.Password,
		Generate: b.Generate, PasswordOpts: b.GenerateFields.options(), AllowedOrigins: b.AllowedOrigins, Secret: b.Secret, TOTP: b.TOTPFields.options()}
}

type createCredentialIn struct{ Body createCredentialBody }

type updateCredentialBody struct {
	Name           *string   `json:"name,omitempty" minLength:"1" maxLength:"200"`
	Username       *string   `json:"username,omitempty" maxLength:"512"`
	AgentReadable  *bool     `json:"agent_readable,omitempty"`
	Password       *string   `json:"password,omitempty" maxLength:"16384" doc:"Rotates the password (login) or key (api_key). Mutually exclusive with generate."`
	AllowedOrigins *[]string `json:"allowed_origins,omitempty" maxItems:"20" doc:"Replaces the whole list."`
	GenerateFields
	TOTPFields
}

func (b updateCredentialBody) toUpdate() vault.Update {
	return vault.Update{Name: b.Name, Username: b.Username, AgentReadable: b.AgentReadable, AllowedOrigins: b.AllowedOrigins,
		Password: b.Password, Generate: b.Generate, PasswordOpts: b.GenerateFields.options(), Secret: b.Secret, TOTP: b.TOTPFields.options()}
}

type updateCredentialIn struct {
	ID   string `path:"id" doc:"Credential id (crd_…)."`
	Body updateCredentialBody
}

type credentialIDIn struct {
	ID string `path:"id" doc:"Credential id (crd_…)."`
}

type withSecretOut struct{ Body vault.WithSecret }

type credentialOut struct{ Body vault.Credential }

type listCredentialsIn struct{ PageParams }

type listCredentialsOut struct{ Body *Page[vault.Credential] }

type totpOut struct{ Body vault.TOTPCode }

type equipIn struct {
	AgentID      string `path:"id" doc:"Agent id (agt_…)."`
	CredentialID string `path:"credential_id" doc:"Credential id (crd_…)."`
}

type vaultHistoryIn struct {
	PageParams
	CredentialID string    `query:"credential_id" maxLength:"64" doc:"Only entries about this credential."`
	AgentID      string    `query:"agent_id" maxLength:"64" doc:"Only entries by this agent (or key id)."`
	Since        time.Time `query:"since" doc:"Only entries at or after this time (RFC 3339)."`
	Until        time.Time `query:"until" doc:"Only entries before this time (RFC 3339)."`
}

type vaultHistoryOut struct{ Body *Page[audit.Entry] }

const vaultPasswordDoc = " To rotate a password send `password` (the new value) or `generate: true` (the new one is returned once, in `value`). " +
	"To add or replace a TOTP secret send `secret`."

func (s *Server) registerVault() {
	tags := []string{"Vault"}
	listCredentials := func(ctx context.Context, in *listCredentialsIn) (*listCredentialsOut, error) {
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		items, err := s.deps.Vault.List(ctx, auth.FromContext(ctx), in.Limit+1, after)
		if err != nil {
			return nil, err
		}
		return &listCredentialsOut{Body: pageOf(items, in.Limit, func(c vault.Credential) string { return c.ID })}, nil
	}
	createCredential := func(ctx context.Context, in *createCredentialIn) (*withSecretOut, error) {
		c, err := s.deps.Vault.Create(ctx, auth.FromContext(ctx), in.Body.toNew())
		if err != nil {
			return nil, err
		}
		return &withSecretOut{Body: c}, nil
	}
	updateCredential := func(ctx context.Context, in *updateCredentialIn) (*withSecretOut, error) {
		c, err := s.deps.Vault.Update(ctx, auth.FromContext(ctx), in.ID, in.Body.toUpdate())
		if err != nil {
			return nil, err
		}
		return &withSecretOut{Body: c}, nil
	}
	deleteCredential := func(ctx context.Context, in *credentialIDIn) (*struct{}, error) {
		return nil, s.deps.Vault.Delete(ctx, auth.FromContext(ctx), in.ID)
	}

	register(s, huma.Operation{OperationID: "listVault", Method: http.MethodGet, Path: "/api/v1/vault", Tags: tags,
		Summary:     "Credentials of the calling agent",
		Description: "Metadata only (id, name, kind, username, agent_readable, allowed_origins, has_value, has_totp), never values or secrets, of the credentials equipped on the agent; newest first."},
		agentWith(auth.VaultMetadata), listCredentials)

	register(s, huma.Operation{OperationID: "createCredential", Method: http.MethodPost, Path: "/api/v1/vault", Tags: tags,
		Summary: "Store a credential", DefaultStatus: http.StatusCreated,
		Description: "Stores a login (username + password, optionally a TOTP secret), an api_key, or a totp secret, equipped on the calling agent. " +
			"`password` and `generate` are mutually exclusive; a generated password is returned once, in `value`. " +
			"The TOTP secret is sealed and never returned by any endpoint. Values and secrets are sealed at rest (AES-256-GCM). Logged as vault.create."},
		agentWith(auth.VaultWrite), createCredential)

	register(s, huma.Operation{OperationID: "readCredential", Errors: []int{409}, Method: http.MethodGet, Path: "/api/v1/vault/{id}", Tags: tags,
		Summary: "Read a credential's value",
		Description: "Returns the credential with its `value` (the password or key), and logs vault.read in the audit history; the entry is committed before the value is returned. " +
			"404 when the credential is not equipped on the agent. 403 `forbidden` when it is not agent-readable: its value is never returned by any endpoint (the refusal is logged as vault.read_denied), though TOTP codes are. " +
			"409 `invalid_state` for a totp credential, which has no value."},
		agentWith(auth.VaultUse), func(ctx context.Context, in *credentialIDIn) (*withSecretOut, error) {
			c, err := s.deps.Vault.Read(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &withSecretOut{Body: c}, nil
		})

	register(s, huma.Operation{OperationID: "updateCredential", Method: http.MethodPatch, Path: "/api/v1/vault/{id}", Tags: tags,
		Summary: "Update a credential",
		Description: "Changes name, username, agent_readable or allowed_origins; omitted fields keep their value." + vaultPasswordDoc +
			" An agent changes only credentials it created (403 for one the organization equipped on it). Logged as vault.update."},
		agentWith(auth.VaultWrite), updateCredential)

	register(s, huma.Operation{OperationID: "deleteCredential", Method: http.MethodDelete, Path: "/api/v1/vault/{id}", Tags: tags,
		Summary: "Delete a credential", DefaultStatus: http.StatusNoContent,
		Description: "Deletes a credential the agent created, for good. Logged as vault.delete."},
		agentWith(auth.VaultWrite), deleteCredential)

	register(s, huma.Operation{OperationID: "getTOTPCode", Errors: []int{409}, Method: http.MethodGet, Path: "/api/v1/vault/{id}/totp", Tags: tags,
		Summary: "Current TOTP code",
		Description: "RFC 6238 code of the credential's TOTP secret with `valid_until` (end of the current time step) and `period`. " +
			"Works for credentials that are not agent-readable too. 409 `invalid_state` when there is no secret. Logged as vault.totp."},
		agentWith(auth.VaultUse), func(ctx context.Context, in *credentialIDIn) (*totpOut, error) {
			c, err := s.deps.Vault.TOTP(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &totpOut{Body: c}, nil
		})

	manage := orgKeyWith(auth.VaultManage)
	register(s, huma.Operation{OperationID: "listOrgVault", Method: http.MethodGet, Path: "/api/v1/org/vault", Tags: tags,
		Summary: "All credentials of the organization", Description: "Metadata and the agents each is equipped on (agent_ids); never values. Newest first."},
		manage, listCredentials)

	register(s, huma.Operation{OperationID: "createOrgCredential", Method: http.MethodPost, Path: "/api/v1/org/vault", Tags: tags,
		Summary: "Store a credential for the organization", DefaultStatus: http.StatusCreated,
		Description: "Same body as POST /api/v1/vault. The credential is equipped on no agent: equip it with PUT /api/v1/agents/{id}/vault/{credential_id}."},
		manage, createCredential)

	register(s, huma.Operation{OperationID: "updateOrgCredential", Method: http.MethodPatch, Path: "/api/v1/org/vault/{id}", Tags: tags,
		Summary: "Update any credential of the organization", Description: "Same body as PATCH /api/v1/vault/{id}." + vaultPasswordDoc},
		manage, updateCredential)

	register(s, huma.Operation{OperationID: "deleteOrgCredential", Method: http.MethodDelete, Path: "/api/v1/org/vault/{id}", Tags: tags,
		Summary: "Delete any credential of the organization", DefaultStatus: http.StatusNoContent},
		manage, deleteCredential)

	equipOp := func(on bool) func(ctx context.Context, in *equipIn) (*credentialOut, error) {
		return func(ctx context.Context, in *equipIn) (*credentialOut, error) {
			if !ids.Valid("agt", in.AgentID) {
				return nil, apierr.NotFound("agent")
			}
			var c vault.Credential
			var err error
			if on {
				c, err = s.deps.Vault.Equip(ctx, auth.FromContext(ctx), in.AgentID, in.CredentialID)
			} else {
				c, err = s.deps.Vault.Unequip(ctx, auth.FromContext(ctx), in.AgentID, in.CredentialID)
			}
			if err != nil {
				return nil, err
			}
			return &credentialOut{Body: c}, nil
		}
	}
	register(s, huma.Operation{OperationID: "equipCredential", Method: http.MethodPut, Path: "/api/v1/agents/{id}/vault/{credential_id}", Tags: tags,
		Summary: "Equip a credential on an agent", Description: "The agent then sees and uses it. Equipping twice is not an error. Logged as vault.equip."},
		manage, equipOp(true))

	register(s, huma.Operation{OperationID: "unequipCredential", Method: http.MethodDelete, Path: "/api/v1/agents/{id}/vault/{credential_id}", Tags: tags,
		Summary: "Unequip a credential from an agent", Description: "The agent no longer sees it (404). Unequipping twice is not an error. Logged as vault.unequip."},
		manage, equipOp(false))

	register(s, huma.Operation{OperationID: "listVaultHistory", Method: http.MethodGet, Path: "/api/v1/org/vault/audit", Tags: tags,
		Summary: "Audit history of the vault",
		Description: "Every vault.* entry of the audit history (read, read_denied, totp, inject, create, update, delete, equip, unequip) with the agent (actor_id), " +
			"the token or key (credential_id), the credential (target_id) and the time; newest first, filterable."},
		manage, func(ctx context.Context, in *vaultHistoryIn) (*vaultHistoryOut, error) {
			after, err := in.after()
			if err != nil {
				return nil, err
			}
			items, err := s.deps.Vault.History(ctx, auth.FromContext(ctx), vault.HistoryFilter{CredentialID: in.CredentialID, AgentID: in.AgentID,
				Since: in.Since, Until: in.Until}, in.Limit+1, after)
			if err != nil {
				return nil, err
			}
			return &vaultHistoryOut{Body: pageOf(items, in.Limit, func(e audit.Entry) string { return e.ID })}, nil
		})
}
