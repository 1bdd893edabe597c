package outbound

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// DraftInput is the body that creates a draft. Every field is optional: a
// draft is work in progress that a person reviews; sending checks it fully.
type DraftInput struct {
	To               []string
	Subject          string
	Text, HTML       string
	AttachmentIDs    []string
	ReplyToMessageID string
}

// Draft is a stored draft.
type Draft struct {
	ID               string    `json:"id"`
	InboxID          string    `json:"inbox_id"`
	To               []string  `json:"to"`
	Subject          string    `json:"subject"`
	Text             string    `json:"text"`
	HTML             string    `json:"html"`
	AttachmentIDs    []string  `json:"attachment_ids"`
	Attachments      []Upload  `json:"attachments"`
	ReplyToMessageID string    `json:"reply_to_message_id,omitempty"`
	ThreadID         string    `json:"thread_id,omitempty" doc:"The thread of reply_to_message_id: the draft is part of that conversation."`
	CreatedAt        time.Time `json:"created_at"`
	UpdatedAt        time.Time `json:"updated_at"`
}

type draftRow struct {
	Draft
	orgID, agentID string
}

const draftCols = `d.id, d.org_id, d.inbox_id, i.agent_id, d.to_json, d.subject, d.text_body, d.html_body, d.attachment_ids, d.reply_to_message_id, d.thread_id, d.created_at, d.updated_at`

func scanDraft(r interface{ Scan(...any) error }) (draftRow, error) {
	var (
		d               draftRow
		to, atts        string
		created, update int64
	)
	err := r.Scan(&d.ID, &d.orgID, &d.InboxID, &d.agentID, &to, &d.Subject, &d.Text, &d.HTML, &atts, &d.ReplyToMessageID, &d.ThreadID, &created, &update)
	_ = json.Unmarshal([]byte(to), &d.To)
	_ = json.Unmarshal([]byte(atts), &d.AttachmentIDs)
	d.CreatedAt, d.UpdatedAt = store.Time(created), store.Time(update)
	return d, err
}

// visibleDraft returns a draft the principal may see (404 otherwise).
func (s *Service) visibleDraft(ctx context.Context, q store.Querier, p *auth.Principal, id string) (draftRow, error) {
	d, err := scanDraft(q.QueryRowContext(ctx, `SELECT `+draftCols+` FROM drafts d JOIN inboxes i ON i.id = d.inbox_id WHERE d.id = $1 AND d.org_id = $2`, id, p.OrgID))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && p.Kind == auth.KindAgent && d.agentID != p.AgentID) {
		return draftRow{}, apierr.NotFound("draft")
	}
	if err != nil {
		return draftRow{}, fmt.Errorf("read draft: %w", err)
	}
	return d, nil
}

func (s *Service) withUploads(ctx context.Context, q store.Querier, d *Draft) error {
	d.Attachments = []Upload{}
	rows, err := q.QueryContext(ctx, `SELECT `+uploadCols+` FROM uploads u JOIN inboxes i ON i.id = u.inbox_id WHERE u.draft_id = $1 ORDER BY u.id`, d.ID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		u, err := scanUpload(rows)
		if err != nil {
			return err
		}
		d.Attachments = append(d.Attachments, u.Upload)
	}
	return rows.Err()
}

// CreateDraft stores a draft; its uploads are held (no expiry) until the
// draft is sent or deleted.
func (s *Service) CreateDraft(ctx context.Context, p *auth.Principal, inboxID string, in DraftInput) (Draft, error) {
	inbox, err := s.inboxes.Inbox(ctx, p, inboxID)
	if err != nil {
		return Draft{}, err
	}
	to, err := parseAddresses("to", in.To)
	if err != nil {
		return Draft{}, err
	}
	if len(to) > MaxRecipients {
		return Draft{}, apierr.Invalid("to", "at most %d recipients", MaxRecipients)
	}
	if err := checkHeaderText("subject", in.Subject, maxSubjectRunes); err != nil {
		return Draft{}, err
	}
	if len(in.Text) > maxBodyBytes || len(in.HTML) > maxBodyBytes {
		return Draft{}, apierr.Invalid("text", "text and html may be at most %d bytes each", maxBodyBytes)
	}
	if _, _, err := s.loadFiles(ctx, p, inbox.ID, "", in.AttachmentIDs, false); err != nil {
		return Draft{}, err
	}
	threadID := ""
	if in.ReplyToMessageID != "" {
		m, err := s.mb.Message(ctx, p, in.ReplyToMessageID)
		if err != nil || m.InboxID != inbox.ID {
			return Draft{}, apierr.Invalid("reply_to_message_id", "no message %s in this inbox", in.ReplyToMessageID)
		}
		threadID = m.ThreadID
	}
	toList := make([]string, len(to))
	for i, a := range to {
		toList[i] = a.String()
	}
	atts := dedupe(in.AttachmentIDs)
	now := s.now().UTC()
	d := Draft{ID: ids.New("drf"), InboxID: inbox.ID, To: toList, Subject: in.Subject, Text: in.Text, HTML: in.HTML,
		AttachmentIDs: atts, ReplyToMessageID: in.ReplyToMessageID, ThreadID: threadID, CreatedAt: now, UpdatedAt: now}
	err = s.db.InTx(ctx, func(tx *store.Tx) error {
		to, _ := json.Marshal(d.To)
		ids, _ := json.Marshal(d.AttachmentIDs)
		if _, err := tx.ExecContext(ctx, `INSERT INTO drafts (id, org_id, inbox_id, to_json, subject, text_body, html_body, attachment_ids, reply_to_message_id, thread_id, created_at, updated_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $11)`, d.ID, p.OrgID, inbox.ID, string(to), d.Subject, d.Text, d.HTML, string(ids),
			d.ReplyToMessageID, threadID, store.Micros(now)); err != nil {
			return fmt.Errorf("insert draft: %w", err)
		}
		for _, id := range atts {
			// Claimed only if still unused: two drafts racing for one upload
			// cannot both hold it.
			res, err := tx.ExecContext(ctx, `UPDATE uploads SET draft_id = $2 WHERE id = $1 AND draft_id = ''`, id, d.ID)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n != 1 {
				return apierr.Conflict(apierr.CodeInvalidState, "upload %s is attached to another draft", id)
			}
		}
		return s.withUploads(ctx, tx, &d)
	})
	return d, err
}

func dedupe(v []string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, s := range v {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// GetDraft returns a draft.
func (s *Service) GetDraft(ctx context.Context, p *auth.Principal, id string) (Draft, error) {
	d, err := s.visibleDraft(ctx, s.db, p, id)
	if err != nil {
		return Draft{}, err
	}
	err = s.withUploads(ctx, s.db, &d.Draft)
	return d.Draft, err
}

// ListDrafts lists an inbox's drafts, newest first.
func (s *Service) ListDrafts(ctx context.Context, p *auth.Principal, inboxID string, limit int, after string) ([]Draft, error) {
	if _, err := s.inboxes.Inbox(ctx, p, inboxID); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+draftCols+` FROM drafts d JOIN inboxes i ON i.id = d.inbox_id
		WHERE d.inbox_id = $1 AND ($2 = '' OR d.id < $2) ORDER BY d.id DESC LIMIT $3`, inboxID, after, limit)
	if err != nil {
		return nil, fmt.Errorf("list drafts: %w", err)
	}
	drs, err := store.ScanAll(rows, scanDraft)
	if err != nil {
		return nil, err
	}
	out := make([]Draft, len(drs))
	for i := range drs {
		out[i] = drs[i].Draft
		if err := s.withUploads(ctx, s.db, &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// DeleteDraft removes a draft and the uploads it held.
func (s *Service) DeleteDraft(ctx context.Context, p *auth.Principal, id string) error {
	var blobs []string
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		if _, err := s.visibleDraft(ctx, tx, p, id); err != nil {
			return err
		}
		var err error
		blobs, err = deleteDraft(ctx, tx, id)
		return err
	})
	if err == nil {
		s.removeBlobs(blobs)
	}
	return err
}

// deleteDraft removes a draft and its uploads' rows in tx; it returns the
// upload files to remove once tx committed.
func deleteDraft(ctx context.Context, tx *store.Tx, id string) ([]string, error) {
	blobs, err := store.Strings(ctx, tx, `SELECT blob_path FROM uploads WHERE draft_id = $1`, id)
	if err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM uploads WHERE draft_id = $1`, id); err != nil {
		return nil, err
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM drafts WHERE id = $1`, id); err != nil {
		return nil, err
	}
	return blobs, nil
}

func (s *Service) removeBlobs(blobs []string) {
	for _, b := range blobs {
		if err := s.blobs.Remove(b); err != nil {
			s.log.Warn("outbound: remove file", "path", b, "err", err)
		}
	}
}
