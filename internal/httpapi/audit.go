package httpapi

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
)

type listAuditIn struct {
	PageParams
	TargetID string    `query:"target_id" maxLength:"64" doc:"Only entries about this resource (a credential, agent, inbox, token…)."`
	ActorID  string    `query:"actor_id" maxLength:"64" doc:"Only entries by this agent, key or member."`
	Action   string    `query:"action" maxLength:"64" doc:"Only this action, e.g. token.revoke."`
	Since    time.Time `query:"since" doc:"Only entries at or after this time (RFC 3339)."`
	Until    time.Time `query:"until" doc:"Only entries before this time (RFC 3339)."`
}

type listAuditOut struct{ Body *Page[audit.Entry] }

func (s *Server) registerAudit() {
	register(s, huma.Operation{OperationID: "listAuditEvents", Method: http.MethodGet, Path: "/api/v1/audit-events", Tags: []string{"Audit"},
		Summary:     "The organization's audit history",
		Description: "Append-only: who did what, with which credential, when. Newest first, filterable."},
		orgKeyWith(auth.AuditRead), func(ctx context.Context, in *listAuditIn) (*listAuditOut, error) {
			after, err := in.after()
			if err != nil {
				return nil, err
			}
			p := auth.FromContext(ctx)
			items, err := audit.List(ctx, s.deps.DB, p.OrgID, audit.Filter{TargetID: in.TargetID, ActorID: in.ActorID, Action: in.Action,
				Since: in.Since, Until: in.Until}, in.Limit+1, after)
			if err != nil {
				return nil, err
			}
			return &listAuditOut{Body: pageOf(items, in.Limit, func(e audit.Entry) string { return e.ID })}, nil
		})
}
