package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/auth"
)

type teamReadIn struct {
	ID   string `path:"id" doc:"Thread id (thr_…)."`
	Body struct {
		Read bool `json:"read" doc:"The team members' read flag to set."`
	}
}

// registerTeamRead adds the team members' side of a thread's read state
// (the agent's side is PATCH /threads/{id} read).
func (s *Server) registerTeamRead() {
	register(s, huma.Operation{OperationID: "setThreadTeamRead", Method: http.MethodPost, Path: "/api/v1/threads/{id}/team-read", Tags: []string{"Mail"},
		Summary: "Set the team members' read flag",
		Description: "For team members: sets the thread's `team_read`, kept apart from the agent's `read` (PATCH). New mail in the thread " +
			"clears both. A change appends `thread.updated` with `changes: [\"team_read\"]`. Agent tokens get 403."},
		orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *teamReadIn) (*threadOut, error) {
			t, err := s.deps.Mailbox.SetTeamRead(ctx, auth.FromContext(ctx), in.ID, in.Body.Read)
			if err != nil {
				return nil, err
			}
			return &threadOut{Body: t}, nil
		})
}
