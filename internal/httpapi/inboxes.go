package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email"
)

type createInboxIn struct {
	Body struct {
		Username    string         `json:"username" minLength:"1" maxLength:"64" doc:"Local part of the address; lower-cased. Unique on the organization's mail domain."`
		DisplayName string         `json:"display_name,omitempty" maxLength:"200" doc:"Name of the agent and the inbox; defaults to the username."`
		Metadata    map[string]any `json:"metadata,omitempty" doc:"Key-value pairs stored on the agent (at most 64 keys, 16 KiB)."`
	}
}

type createInboxOut struct{ Body email.AgentWithInbox }

type listInboxesIn struct{ PageParams }

type listInboxesOut struct{ Body *Page[email.Inbox] }

func (s *Server) registerInboxes() {
	register(s, huma.Operation{
		OperationID: "createInbox", Errors: []int{402}, Method: http.MethodPost, Path: "/api/v1/inboxes", Tags: []string{"Inboxes"},
		Summary:       "Create an agent with an inbox",
		Description:   "Creates an agent and its inbox `username@<mail domain>`. 409 `already_exists` when the address is taken; 402 `quota_exceeded` when the plan's agent quota is reached. Accepts an `Idempotency-Key` header.",
		DefaultStatus: http.StatusCreated,
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *createInboxIn) (*createInboxOut, error) {
		c, err := s.deps.Inboxes.CreateWithAgent(ctx, auth.FromContext(ctx), email.NewInbox{
			Username: in.Body.Username, DisplayName: in.Body.DisplayName, Metadata: in.Body.Metadata})
		if err != nil {
			return nil, err
		}
		return &createInboxOut{Body: c}, nil
	})

	register(s, huma.Operation{
		OperationID: "listInboxes", Method: http.MethodGet, Path: "/api/v1/inboxes", Tags: []string{"Inboxes"},
		Summary:     "Inboxes of the calling agent",
		Description: "Lists the inboxes equipped on the token's agent, newest first.",
	}, agentWith(auth.EmailRead), func(ctx context.Context, in *listInboxesIn) (*listInboxesOut, error) {
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		p := auth.FromContext(ctx)
		items, err := s.deps.Inboxes.ListForAgent(ctx, p.OrgID, p.AgentID, in.Limit+1, after)
		if err != nil {
			return nil, err
		}
		return &listInboxesOut{Body: pageOf(items, in.Limit, func(i email.Inbox) string { return i.ID })}, nil
	})
}
