package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
)

// Me is the body of GET /api/v1/me.
type Me struct {
	OrganizationID string        `json:"organization_id"`
	Agent          org.Agent     `json:"agent"`
	Inboxes        []email.Inbox `json:"inboxes" doc:"Inboxes equipped on the agent (up to 100)."`
	Token          MeToken       `json:"token"`
}

// MeToken describes the token used for the call.
type MeToken struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Capabilities []string `json:"capabilities"`
}

type meOut struct{ Body Me }

type issueTokenIn struct {
	ID   string `path:"id" doc:"Agent id (agt_…)."`
	Body struct {
		Name         string   `json:"name" minLength:"1" maxLength:"200" doc:"A name that says where the token is used."`
		Capabilities []string `json:"capabilities" maxItems:"20" doc:"Scopes from the reference's scope table, e.g. email:read."`
	}
}

// IssuedToken is the response of token creation: the only time the value is shown.
type IssuedToken struct {
	auth.AgentToken
	Token string `json:"token" doc:"The secret (ast_…). Shown only in this response; store it now."`
}

type issueTokenOut struct{ Body IssuedToken }

func (s *Server) registerIdentity() {
	register(s, huma.Operation{
		OperationID: "getMe", Method: http.MethodGet, Path: "/api/v1/me", Tags: []string{"Identity"},
		Summary:     "The calling agent",
		Description: "Returns the agent behind the token, its inboxes and the token's capabilities.",
	}, anyAgent(), func(ctx context.Context, _ *struct{}) (*meOut, error) {
		p := auth.FromContext(ctx)
		a, inboxes, err := s.deps.Inboxes.AgentWithInboxes(ctx, p.OrgID, p.AgentID)
		if err != nil {
			return nil, err
		}
		return &meOut{Body: Me{OrganizationID: p.OrgID, Agent: a, Inboxes: inboxes,
			Token: MeToken{ID: p.CredentialID, Name: p.Name, Capabilities: p.Capabilities()}}}, nil
	})

	register(s, huma.Operation{
		OperationID: "createAgentToken", Method: http.MethodPost, Path: "/api/v1/agents/{id}/tokens", Tags: []string{"Agents"},
		Summary:       "Issue an agent token",
		Description:   "Creates a token for the agent with the given capabilities. The token value is returned once and stored only as a hash. `identity:share_owner` implies `identity:sign_in`.",
		DefaultStatus: http.StatusCreated,
	}, orgKeyWith(auth.AgentsManage), func(ctx context.Context, in *issueTokenIn) (*issueTokenOut, error) {
		if !ids.Valid("agt", in.ID) {
			return nil, apierr.NotFound("agent")
		}
		p := auth.FromContext(ctx)
		tok, secret, err := s.deps.Orgs.IssueToken(ctx, p, in.ID, in.Body.Name, in.Body.Capabilities)
		if err != nil {
			return nil, err
		}
		return &issueTokenOut{Body: IssuedToken{AgentToken: tok, Token: secret}}, nil
	})
}
