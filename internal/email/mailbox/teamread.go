package mailbox

import (
	"context"
	"fmt"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/store"
)

// SetTeamRead sets the team members' read flag of a thread, which is kept
// apart from the agent's (PATCH read). It is for team members: exposed to
// organization keys now, and what the dashboard will call when a member opens
// or marks a thread. A change appends thread.updated with changes
// ["team_read"]; setting the flag it already has changes nothing.
func (s *Service) SetTeamRead(ctx context.Context, p *auth.Principal, id string, read bool) (Thread, error) {
	if p.Kind == auth.KindAgent {
		return Thread{}, apierr.Forbidden("the team read flag is for team members", "agents set their own flag with PATCH read")
	}
	var out Thread
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		t, err := visibleThread(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if t.TeamRead == read {
			out = t
			return nil
		}
		if _, err := tx.ExecContext(ctx, `UPDATE threads SET team_read = $2, updated_at = $3 WHERE id = $1`, id, read, store.Micros(s.now())); err != nil {
			return fmt.Errorf("set team read: %w", err)
		}
		if out, err = getThread(ctx, tx, p.OrgID, id); err != nil {
			return err
		}
		data := threadEventData(out, []string{"team_read"})
		data["team_read"] = out.TeamRead
		_, err = events.Append(ctx, tx, p.OrgID, out.InboxID, events.ThreadUpdated, data)
		return err
	})
	return out, err
}
