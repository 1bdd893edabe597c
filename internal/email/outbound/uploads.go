package outbound

import (
	"context"
	"database/sql"
	"encoding/base64"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"path"
	"path/filepath"
	"strings"
	"time"
	"unicode"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Upload is a file uploaded to attach to a draft or a message.
type Upload struct {
	ID          string     `json:"id"`
	InboxID     string     `json:"inbox_id"`
	Filename    string     `json:"filename"`
	ContentType string     `json:"content_type"`
	Size        int64      `json:"size"`
	DraftID     string     `json:"draft_id,omitempty" doc:"The draft holding it; held uploads do not expire."`
	CreatedAt   time.Time  `json:"created_at"`
	ExpiresAt   *time.Time `json:"expires_at,omitempty" doc:"When an unused upload is removed (24 hours after upload)."`
}

type uploadRow struct {
	Upload
	orgID, agentID, blobPath string
}

func scanUpload(r interface{ Scan(...any) error }) (uploadRow, error) {
	var u uploadRow
	var created, expires int64
	err := r.Scan(&u.ID, &u.orgID, &u.InboxID, &u.agentID, &u.Filename, &u.ContentType, &u.Size, &u.blobPath, &u.DraftID, &created, &expires)
	u.CreatedAt = store.Time(created)
	if u.DraftID == "" {
		t := store.Time(expires)
		u.ExpiresAt = &t
	}
	return u, err
}

const uploadCols = `u.id, u.org_id, u.inbox_id, i.agent_id, u.filename, u.content_type, u.size, u.blob_path, u.draft_id, u.created_at, u.expires_at`

// visibleUpload returns an upload the principal may use: in its
// organization, on an inbox of the agent. Anything else is 404.
func (s *Service) visibleUpload(ctx context.Context, q store.Querier, p *auth.Principal, id string) (uploadRow, error) {
	u, err := scanUpload(q.QueryRowContext(ctx, `SELECT `+uploadCols+` FROM uploads u JOIN inboxes i ON i.id = u.inbox_id
		WHERE u.id = $1 AND u.org_id = $2`, id, p.OrgID))
	if errors.Is(err, sql.ErrNoRows) || (err == nil && p.Kind == auth.KindAgent && u.agentID != p.AgentID) {
		return uploadRow{}, apierr.NotFound("upload")
	}
	if err != nil {
		return uploadRow{}, fmt.Errorf("read upload: %w", err)
	}
	return u, nil
}

// cleanFilename keeps the last path element and drops control characters
// (the name ends up in a MIME header, encoded, and in downloads).
func cleanFilename(name string) (string, error) {
	name = strings.TrimSpace(filepath.Base(strings.ReplaceAll(name, "\\", "/")))
	name = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, name)
	if name == "" || name == "." || name == "/" {
		return "", apierr.Invalid("filename", "is required")
	}
	if len([]rune(name)) > maxFilenameRunes {
		return "", apierr.Invalid("filename", "must be at most %d characters", maxFilenameRunes)
	}
	return name, nil
}

// CreateUpload stores a file for an inbox. The encoded length is checked
// before anything is decoded.
func (s *Service) CreateUpload(ctx context.Context, p *auth.Principal, inboxID, filename, contentBase64 string) (Upload, error) {
	in, err := s.inboxes.Inbox(ctx, p, inboxID)
	if err != nil {
		return Upload{}, err
	}
	name, err := cleanFilename(filename)
	if err != nil {
		return Upload{}, err
	}
	if len(contentBase64) > MaxUploadBase64+MaxUploadBase64/76*2+4 { // allow line breaks
		return Upload{}, &apierr.Error{Status: 413, Code: apierr.CodePayloadTooLarge,
			Message: fmt.Sprintf("an upload may hold at most %d bytes (10 MB)", MaxAttachmentBytes)}
	}
	data, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(contentBase64), ""))
	if err != nil {
		return Upload{}, apierr.Invalid("content_base64", "is not valid base64 (standard alphabet, with padding)")
	}
	if len(data) > MaxAttachmentBytes {
		return Upload{}, &apierr.Error{Status: 413, Code: apierr.CodePayloadTooLarge,
			Message: fmt.Sprintf("an upload may hold at most %d bytes (10 MB)", MaxAttachmentBytes)}
	}
	ct := mime.TypeByExtension(strings.ToLower(path.Ext(name)))
	if ct == "" {
		ct = http.DetectContentType(data)
	}
	if mt, _, err := mime.ParseMediaType(ct); err == nil {
		ct = mt
	}
	now := s.now().UTC()
	u := Upload{ID: ids.New("upl"), InboxID: in.ID, Filename: name, ContentType: ct, Size: int64(len(data)), CreatedAt: now}
	exp := now.Add(UploadLifetime)
	u.ExpiresAt = &exp
	blob := path.Join("uploads", now.Format("2006/01/02"), u.ID)
	if err := s.blobs.Write(blob, data); err != nil {
		return Upload{}, err
	}
	_, err = s.db.ExecContext(ctx, `INSERT INTO uploads (id, org_id, inbox_id, filename, content_type, size, blob_path, draft_id, created_at, expires_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, '', $8, $9)`, u.ID, p.OrgID, in.ID, name, ct, u.Size, blob, store.Micros(now), store.Micros(exp))
	if err != nil {
		_ = s.blobs.Remove(blob)
		return Upload{}, fmt.Errorf("insert upload: %w", err)
	}
	return u, nil
}

// DeleteUpload removes an unused upload. One held by a draft is released
// by deleting the draft.
func (s *Service) DeleteUpload(ctx context.Context, p *auth.Principal, id string) error {
	u, err := s.visibleUpload(ctx, s.db, p, id)
	if err != nil {
		return err
	}
	if u.DraftID != "" {
		return apierr.Conflict(apierr.CodeInvalidState, "the upload is attached to draft %s", u.DraftID).
			WithHint("delete the draft (or send it) to release its files")
	}
	if _, err := s.db.ExecContext(ctx, `DELETE FROM uploads WHERE id = $1`, id); err != nil {
		return fmt.Errorf("delete upload: %w", err)
	}
	if err := s.blobs.Remove(u.blobPath); err != nil {
		s.log.Warn("outbound: remove upload file", "upload_id", id, "err", err)
	}
	return nil
}

// SweepUploads removes uploads unused for 24 hours; it returns how many.
func (s *Service) SweepUploads(ctx context.Context) (int, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT id, blob_path FROM uploads WHERE draft_id = '' AND expires_at < $1 LIMIT 1000`, store.Micros(s.now()))
	if err != nil {
		return 0, fmt.Errorf("expired uploads: %w", err)
	}
	type gone struct{ id, blob string }
	var list []gone
	for rows.Next() {
		var g gone
		if err := rows.Scan(&g.id, &g.blob); err != nil {
			rows.Close()
			return 0, err
		}
		list = append(list, g)
	}
	rows.Close()
	n := 0
	for _, g := range list {
		res, err := s.db.ExecContext(ctx, `DELETE FROM uploads WHERE id = $1 AND draft_id = ''`, g.id)
		if err != nil {
			return n, err
		}
		if k, _ := res.RowsAffected(); k == 1 {
			n++
			_ = s.blobs.Remove(g.blob)
		}
	}
	return n, nil
}

// loadFiles reads the uploads named by ids for a message or draft of
// inboxID, checking the reference's limits. draftID is the draft whose
// held uploads may be used (besides unused ones).
func (s *Service) loadFiles(ctx context.Context, p *auth.Principal, inboxID, draftID string, uploadIDs []string, read bool) ([]file, []uploadRow, error) {
	if len(uploadIDs) > MaxAttachments {
		return nil, nil, apierr.Invalid("attachment_ids", "at most %d attachments per message (got %d)", MaxAttachments, len(uploadIDs))
	}
	var (
		files []file
		rows  []uploadRow
		total int64
		seen  = map[string]bool{}
	)
	now := s.now()
	for _, id := range uploadIDs {
		if seen[id] {
			continue
		}
		seen[id] = true
		u, err := s.visibleUpload(ctx, s.db, p, id)
		if err != nil || u.InboxID != inboxID {
			return nil, nil, apierr.NotFound("upload " + id).WithHint("uploads belong to the inbox they were uploaded to")
		}
		if u.DraftID == "" && u.ExpiresAt != nil && now.After(*u.ExpiresAt) {
			return nil, nil, apierr.NotFound("upload " + id).WithHint("unused uploads expire after 24 hours; upload the file again")
		}
		if u.DraftID != "" && u.DraftID != draftID {
			return nil, nil, apierr.Conflict(apierr.CodeInvalidState, "upload %s is attached to draft %s", id, u.DraftID).
				WithHint("send that draft with draft_id, or delete it first")
		}
		total += u.Size
		if total > MaxAttachmentBytes {
			return nil, nil, &apierr.Error{Status: 413, Code: apierr.CodePayloadTooLarge,
				Message: fmt.Sprintf("attachments may total at most %d bytes (10 MB)", MaxAttachmentBytes)}
		}
		rows = append(rows, u)
		if read {
			data, err := s.blobs.Read(u.blobPath)
			if err != nil {
				return nil, nil, fmt.Errorf("read upload %s: %w", id, err)
			}
			files = append(files, file{Filename: u.Filename, ContentType: u.ContentType, Data: data})
		}
	}
	return files, rows, nil
}
