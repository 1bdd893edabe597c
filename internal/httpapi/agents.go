package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/org"
)

type agentIDIn struct {
	ID string `path:"id" doc:"Agent id (agt_…)."`
}

type agentOut struct{ Body org.Agent }

type listAgentsIn struct{ PageParams }

type listAgentsOut struct{ Body *Page[org.Agent] }

type updateAgentIn struct {
	ID   string `path:"id" doc:"Agent id (agt_…)."`
	Body struct {
		Name     *string        `json:"name,omitempty" maxLength:"200" doc:"New name."`
		Metadata map[string]any `json:"metadata,omitempty" doc:"Replaces the whole metadata object."`
	}
}

type listTokensIn struct {
	ID string `path:"id" doc:"Agent id (agt_…)."`
	PageParams
}

type listTokensOut struct{ Body *Page[auth.AgentToken] }

type tokenIDIn struct {
	ID      string `path:"id" doc:"Agent id (agt_…)."`
	TokenID string `path:"token_id" doc:"Token id (tok_…)."`
}

type tokenOut struct{ Body auth.AgentToken }

func validAgentID(id string) error {
	if !ids.Valid("agt", id) {
		return apierr.NotFound("agent")
	}
	return nil
}

func (s *Server) registerAgents() {
	tags := []string{"Agents"}
	manage := orgKeyWith(auth.AgentsManage)

	register(s, huma.Operation{OperationID: "listAgents", Method: http.MethodGet, Path: "/api/v1/agents", Tags: tags,
		Summary: "List agents", Description: "The organization's agents, newest first."},
		manage, func(ctx context.Context, in *listAgentsIn) (*listAgentsOut, error) {
			after, err := in.after()
			if err != nil {
				return nil, err
			}
			items, err := s.deps.Orgs.ListAgents(ctx, auth.FromContext(ctx), in.Limit+1, after)
			if err != nil {
				return nil, err
			}
			return &listAgentsOut{Body: pageOf(items, in.Limit, func(a org.Agent) string { return a.ID })}, nil
		})

	register(s, huma.Operation{OperationID: "getAgent", Method: http.MethodGet, Path: "/api/v1/agents/{id}", Tags: tags,
		Summary: "Read an agent"},
		manage, func(ctx context.Context, in *agentIDIn) (*agentOut, error) {
			if err := validAgentID(in.ID); err != nil {
				return nil, err
			}
			a, err := s.deps.Orgs.Agent(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &agentOut{Body: a}, nil
		})

	register(s, huma.Operation{OperationID: "updateAgent", Method: http.MethodPatch, Path: "/api/v1/agents/{id}", Tags: tags,
		Summary: "Update an agent", Description: "Changes the name and/or replaces the metadata; omitted fields keep their value."},
		manage, func(ctx context.Context, in *updateAgentIn) (*agentOut, error) {
			if err := validAgentID(in.ID); err != nil {
				return nil, err
			}
			a, err := s.deps.Orgs.UpdateAgent(ctx, auth.FromContext(ctx), in.ID, org.AgentUpdate{Name: in.Body.Name, Metadata: in.Body.Metadata})
			if err != nil {
				return nil, err
			}
			return &agentOut{Body: a}, nil
		})

	register(s, huma.Operation{OperationID: "deleteAgent", Method: http.MethodDelete, Path: "/api/v1/agents/{id}", Tags: tags,
		Summary: "Delete an agent", DefaultStatus: http.StatusNoContent,
		Description: "Deletes the agent, its inboxes and its tokens (which stop working on the next request). Logs inbox.deleted for each inbox. Cannot be undone."},
		manage, func(ctx context.Context, in *agentIDIn) (*struct{}, error) {
			if err := validAgentID(in.ID); err != nil {
				return nil, err
			}
			p := auth.FromContext(ctx)
			if err := s.deps.Orgs.DeleteAgent(ctx, p, in.ID, s.deps.Inboxes.BeforeAgentDelete(p.OrgID, in.ID)); err != nil {
				return nil, err
			}
			return nil, nil
		})

	register(s, huma.Operation{OperationID: "listAgentTokens", Method: http.MethodGet, Path: "/api/v1/agents/{id}/tokens", Tags: tags,
		Summary: "List an agent's tokens", Description: "Newest first, revoked ones included; never the token values."},
		manage, func(ctx context.Context, in *listTokensIn) (*listTokensOut, error) {
			if err := validAgentID(in.ID); err != nil {
				return nil, err
			}
			after, err := in.after()
			if err != nil {
				return nil, err
			}
			items, err := s.deps.Orgs.ListTokens(ctx, auth.FromContext(ctx), in.ID, in.Limit+1, after)
			if err != nil {
				return nil, err
			}
			return &listTokensOut{Body: pageOf(items, in.Limit, func(t auth.AgentToken) string { return t.ID })}, nil
		})

	register(s, huma.Operation{OperationID: "revokeAgentToken", Method: http.MethodDelete, Path: "/api/v1/agents/{id}/tokens/{token_id}", Tags: tags,
		Summary: "Revoke a token", Description: "The token stops working on the very next request, on every server node. Revoking twice is not an error; the response shows the token with revoked_at."},
		manage, func(ctx context.Context, in *tokenIDIn) (*tokenOut, error) {
			if err := validAgentID(in.ID); err != nil {
				return nil, err
			}
			if !ids.Valid("tok", in.TokenID) {
				return nil, apierr.NotFound("token")
			}
			t, err := s.deps.Orgs.RevokeToken(ctx, auth.FromContext(ctx), in.ID, in.TokenID)
			if err != nil {
				return nil, err
			}
			return &tokenOut{Body: t}, nil
		})
}
