package mailbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/audit"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/events"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Label limits.
const (
	MaxLabelLen        = 64
	MaxLabelsPerThread = 50
)

const threadCols = `id, inbox_id, folder, subject, snippet, last_from_name, last_from_address, message_count, agent_read, team_read,
	last_message_at, created_at, updated_at`

func scanThread(r store.Scanner) (Thread, error) {
	var t Thread
	var last, created, updated int64
	err := r.Scan(&t.ID, &t.InboxID, &t.Folder, &t.Subject, &t.Snippet, &t.LastFrom.Name, &t.LastFrom.Address, &t.MessageCount,
		&t.Read, &t.TeamRead, &last, &created, &updated)
	t.LastMessageAt, t.CreatedAt, t.UpdatedAt = store.Time(last), store.Time(created), store.Time(updated)
	t.Labels = []string{}
	return t, err
}

func withLabels(ctx context.Context, q store.Querier, ts []Thread) error {
	if len(ts) == 0 {
		return nil
	}
	args := make([]any, len(ts))
	ph := make([]string, len(ts))
	idx := map[string]int{}
	for i, t := range ts {
		args[i] = t.ID
		ph[i] = "$" + strconv.Itoa(i+1)
		idx[t.ID] = i
	}
	rows, err := q.QueryContext(ctx, `SELECT thread_id, label FROM thread_labels WHERE thread_id IN (`+strings.Join(ph, ", ")+`) ORDER BY label`, args...)
	if err != nil {
		return fmt.Errorf("read labels: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id, l string
		if err := rows.Scan(&id, &l); err != nil {
			return err
		}
		ts[idx[id]].Labels = append(ts[idx[id]].Labels, l)
	}
	return rows.Err()
}

func getThread(ctx context.Context, q store.Querier, orgID, id string) (Thread, error) {
	t, err := scanThread(q.QueryRowContext(ctx, `SELECT `+threadCols+` FROM threads WHERE org_id = $1 AND id = $2`, orgID, id))
	if errors.Is(err, sql.ErrNoRows) {
		return t, apierr.NotFound("thread")
	}
	if err != nil {
		return t, fmt.Errorf("read thread: %w", err)
	}
	ts := []Thread{t}
	if err := withLabels(ctx, q, ts); err != nil {
		return t, err
	}
	return ts[0], nil
}

// visibleThread returns a thread p may see (404 otherwise).
func visibleThread(ctx context.Context, q store.Querier, p *auth.Principal, id string) (Thread, error) {
	if !ids.Valid("thr", id) {
		return Thread{}, apierr.NotFound("thread")
	}
	t, err := getThread(ctx, q, p.OrgID, id)
	if err != nil {
		return t, err
	}
	if _, err := visibleInbox(ctx, q, p, t.InboxID); err != nil {
		return Thread{}, apierr.NotFound("thread")
	}
	return t, nil
}

// ThreadFilter narrows a thread list.
type ThreadFilter struct {
	Folder     string
	Query      string
	UnreadOnly bool
	Label      string
}

// ThreadCursor is the sort key of a thread in lists: last activity, then id.
func ThreadCursor(t Thread) string {
	return strconv.FormatInt(store.Micros(t.LastMessageAt), 10) + "_" + t.ID
}

func parseThreadCursor(c string) (int64, string, error) {
	if c == "" {
		return 0, "", nil
	}
	at, id, ok := strings.Cut(c, "_")
	n, err := strconv.ParseInt(at, 10, 64)
	if !ok || err != nil || !ids.Valid("thr", id) {
		return 0, "", apierr.Invalid("cursor", "is not a cursor this list returned")
	}
	return n, id, nil
}

// ftsQuery turns free text into a search both engines read the same way:
// the words of the text, all required, matched as whole words.
func ftsWords(q string) []string {
	words := strings.FieldsFunc(q, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	if len(words) > 16 {
		words = words[:16]
	}
	return words
}

// ListThreads lists an inbox's threads in a folder, most recent activity
// first. after is the ThreadCursor of the last thread of the previous page.
func (s *Service) ListThreads(ctx context.Context, p *auth.Principal, inboxID string, f ThreadFilter, limit int, after string) ([]Thread, error) {
	if _, err := visibleInbox(ctx, s.db, p, inboxID); err != nil {
		return nil, err
	}
	if f.Folder == "" {
		f.Folder = FolderInbox
	}
	if !slices.Contains(Folders, f.Folder) {
		return nil, apierr.Invalid("folder", "must be one of %s", strings.Join(Folders, ", "))
	}
	if len(f.Query) > 500 {
		return nil, apierr.Invalid("query", "must be at most 500 characters")
	}
	afterAt, afterID, err := parseThreadCursor(after)
	if err != nil {
		return nil, err
	}
	args := []any{inboxID, f.Folder}
	where := []string{"t.inbox_id = $1", "t.folder = $2"}
	arg := func(v any) string {
		args = append(args, v)
		return "$" + strconv.Itoa(len(args))
	}
	if afterID != "" {
		a, b := arg(afterAt), arg(afterID)
		where = append(where, "(t.last_message_at < "+a+" OR (t.last_message_at = "+a+" AND t.id < "+b+"))")
	}
	if f.UnreadOnly {
		where = append(where, "t.agent_read = FALSE")
	}
	if f.Label != "" {
		where = append(where, "EXISTS (SELECT 1 FROM thread_labels l WHERE l.thread_id = t.id AND l.label = "+arg(f.Label)+")")
	}
	if strings.TrimSpace(f.Query) != "" {
		words := ftsWords(f.Query)
		if len(words) == 0 {
			return []Thread{}, nil
		}
		if s.db.Dialect() == store.Postgres {
			where = append(where, "t.id IN (SELECT m.thread_id FROM messages m WHERE m.inbox_id = $1 AND m.search @@ plainto_tsquery('simple', "+arg(strings.Join(words, " "))+"))")
		} else {
			quoted := make([]string, len(words))
			for i, w := range words {
				quoted[i] = `"` + w + `"`
			}
			where = append(where, "t.id IN (SELECT thread_id FROM messages_fts WHERE messages_fts MATCH "+arg(strings.Join(quoted, " "))+")")
		}
	}
	lim := arg(limit)
	rows, err := s.db.QueryContext(ctx, `SELECT `+prefixed(threadCols, "t.")+` FROM threads t WHERE `+strings.Join(where, " AND ")+
		` ORDER BY t.last_message_at DESC, t.id DESC LIMIT `+lim, args...)
	if err != nil {
		return nil, fmt.Errorf("list threads: %w", err)
	}
	out, err := store.ScanAll(rows, scanThread)
	if err != nil {
		return nil, err
	}
	return out, withLabels(ctx, s.db, out)
}

func prefixed(cols, p string) string {
	parts := strings.Split(cols, ",")
	for i, c := range parts {
		parts[i] = p + strings.TrimSpace(c)
	}
	return strings.Join(parts, ", ")
}

// ThreadWithMessages is a thread and one page of its messages.
type ThreadWithMessages struct {
	Thread
	Messages []Message `json:"messages"`
}

// ReadThread returns a thread with up to limit messages oldest first, after
// the message id after. It never changes read flags.
func (s *Service) ReadThread(ctx context.Context, p *auth.Principal, id string, limit int, after string) (ThreadWithMessages, error) {
	t, err := visibleThread(ctx, s.db, p, id)
	if err != nil {
		return ThreadWithMessages{}, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT `+messageCols+` FROM messages WHERE thread_id = $1 AND id > $2 ORDER BY id LIMIT $3`, id, after, limit)
	if err != nil {
		return ThreadWithMessages{}, fmt.Errorf("thread messages: %w", err)
	}
	ms, err := collectMessages(rows)
	if err != nil {
		return ThreadWithMessages{}, err
	}
	if err := withAttachments(ctx, s.db, ms); err != nil {
		return ThreadWithMessages{}, err
	}
	for i := range ms {
		redact(&ms[i])
	}
	return ThreadWithMessages{Thread: t, Messages: ms}, nil
}

// ThreadUpdate is the body of PATCH /threads/{id}; nil fields stay.
type ThreadUpdate struct {
	Folder       *string
	Read         *bool
	AddLabels    []string
	RemoveLabels []string
}

// NormalizeLabel checks a label: 1-64 characters, no control characters,
// surrounding space trimmed. Labels are compared exactly.
func NormalizeLabel(l string) (string, error) {
	l = strings.TrimSpace(l)
	if l == "" || utf8.RuneCountInString(l) > MaxLabelLen {
		return "", apierr.Invalid("labels", "each label must be 1 to %d characters", MaxLabelLen)
	}
	if !utf8.ValidString(l) || strings.IndexFunc(l, unicode.IsControl) >= 0 {
		return "", apierr.Invalid("labels", "a label must not contain control characters")
	}
	return l, nil
}

func addLabel(ctx context.Context, tx *store.Tx, threadID, label string) error {
	_, err := addLabelTo(ctx, tx, threadID, label)
	return err
}

// addLabelTo adds a label to a thread and says whether the thread lacked it
// (the statement's row count, so no read is needed to know).
func addLabelTo(ctx context.Context, tx *store.Tx, threadID, label string) (bool, error) {
	l, err := NormalizeLabel(label)
	if err != nil {
		return false, err
	}
	res, err := tx.ExecContext(ctx, `INSERT INTO thread_labels (thread_id, label) VALUES ($1, $2) ON CONFLICT (thread_id, label) DO NOTHING`, threadID, l)
	if err != nil {
		return false, fmt.Errorf("add label: %w", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return false, fmt.Errorf("add label: %w", err)
	}
	return n > 0, nil
}

// UpdateThread changes a thread's folder, the agent's read flag and labels.
// The reference splits the scopes by field: moving to another folder needs
// email:send, the read flag and labels need email:read, so a send-only
// token can file mail and a read-only one can mark and label it. A body
// with no field changes nothing and only returns the thread, which is a
// read (email:read). Quarantine can be neither chosen nor left this way. A
// change appends thread.updated.
func (s *Service) UpdateThread(ctx context.Context, p *auth.Principal, id string, u ThreadUpdate) (Thread, error) {
	if err := u.authorize(p); err != nil {
		return Thread{}, err
	}
	if u.Folder != nil {
		if *u.Folder == FolderQuarantine {
			return Thread{}, apierr.Invalid("folder", "quarantine cannot be chosen").WithHint("use inbox, archive, trash or spam")
		}
		if !slices.Contains(Folders, *u.Folder) {
			return Thread{}, apierr.Invalid("folder", "must be inbox, archive, trash or spam")
		}
	}
	var add, remove []string
	for _, l := range u.AddLabels {
		n, err := NormalizeLabel(l)
		if err != nil {
			return Thread{}, apierr.Invalid("add_labels", "%s", strings.TrimPrefix(err.(*apierr.Error).Message, "labels: "))
		}
		add = append(add, n)
	}
	for _, l := range u.RemoveLabels {
		remove = append(remove, strings.TrimSpace(l))
	}
	var out Thread
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		t, err := visibleThread(ctx, tx, p, id)
		if err != nil {
			return err
		}
		changes := []string{}
		now := store.Micros(s.now())
		if u.Folder != nil && *u.Folder != t.Folder {
			if t.Folder == FolderQuarantine {
				return apierr.Conflict(apierr.CodeInvalidState, "the thread is in quarantine").
					WithHint("only a team member can release it (POST /api/v1/threads/{id}/release)")
			}
			if _, err := tx.ExecContext(ctx, `UPDATE threads SET folder = $2, updated_at = $3 WHERE id = $1`, id, *u.Folder, now); err != nil {
				return fmt.Errorf("move thread: %w", err)
			}
			changes = append(changes, "folder")
		}
		if u.Read != nil && *u.Read != t.Read {
			if _, err := tx.ExecContext(ctx, `UPDATE threads SET agent_read = $2, updated_at = $3 WHERE id = $1`, id, *u.Read, now); err != nil {
				return fmt.Errorf("mark thread: %w", err)
			}
			changes = append(changes, "read")
		}
		labelsChanged := false
		for _, l := range add {
			if !slices.Contains(t.Labels, l) {
				if err := addLabel(ctx, tx, id, l); err != nil {
					return err
				}
				labelsChanged = true
			}
		}
		for _, l := range remove {
			if slices.Contains(t.Labels, l) {
				if _, err := tx.ExecContext(ctx, `DELETE FROM thread_labels WHERE thread_id = $1 AND label = $2`, id, l); err != nil {
					return fmt.Errorf("remove label: %w", err)
				}
				labelsChanged = true
			}
		}
		if labelsChanged {
			var n int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM thread_labels WHERE thread_id = $1`, id).Scan(&n); err != nil {
				return err
			}
			if n > MaxLabelsPerThread {
				return apierr.Invalid("add_labels", "a thread carries at most %d labels", MaxLabelsPerThread)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE threads SET updated_at = $2 WHERE id = $1`, id, now); err != nil {
				return err
			}
			changes = append(changes, "labels")
		}
		if out, err = getThread(ctx, tx, p.OrgID, id); err != nil {
			return err
		}
		if len(changes) == 0 {
			return nil
		}
		_, err = events.Append(ctx, tx, p.OrgID, out.InboxID, events.ThreadUpdated, threadEventData(out, changes))
		return err
	})
	return out, err
}

// authorize checks that an agent token holds the capability each field
// needs; the 403 names the missing one and the fields that need it.
func (u ThreadUpdate) authorize(p *auth.Principal) error {
	if p.Kind != auth.KindAgent {
		return nil
	}
	if u.Folder != nil && !p.Has(auth.EmailSend) {
		return apierr.Forbidden("the agent token lacks the capability email:send, which moving a thread to another folder needs",
			"issue a token that includes email:send, or leave out folder")
	}
	readFields := u.Read != nil || len(u.AddLabels) > 0 || len(u.RemoveLabels) > 0
	if (readFields || u.Folder == nil) && !p.Has(auth.EmailRead) {
		what := "changing read and labels"
		if !readFields {
			what = "a PATCH without fields (it only reads the thread)"
		}
		return apierr.Forbidden("the agent token lacks the capability email:read, which "+what+" needs",
			"issue a token that includes email:read, or send only folder")
	}
	return nil
}

func threadEventData(t Thread, changes []string) map[string]any {
	return map[string]any{"thread_id": t.ID, "inbox_id": t.InboxID, "folder": t.Folder, "labels": t.Labels, "read": t.Read,
		"subject": t.Subject, "changes": changes}
}

// DeleteThread removes a thread and its messages for good. The thread must be
// in trash or spam, and the caller must confirm.
func (s *Service) DeleteThread(ctx context.Context, p *auth.Principal, id string, confirm bool) error {
	if !confirm {
		return apierr.Invalid("confirm", "must be true: deleting a thread is permanent").WithHint("call DELETE /api/v1/threads/{id}?confirm=true")
	}
	var blobs []string
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		t, err := visibleThread(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if t.Folder != FolderTrash && t.Folder != FolderSpam {
			hint := "move it to trash first (PATCH with folder trash)"
			if t.Folder == FolderQuarantine {
				// A PATCH cannot take a thread out of quarantine, so that
				// hint would lead nowhere: held mail is a team member's call.
				hint = "held mail is handled by team members: one must release it (POST /api/v1/threads/{id}/release with an organization key); " +
					"after that you can move it to trash (PATCH with folder trash) and delete it"
			}
			return apierr.Conflict(apierr.CodeInvalidState, "the thread is in %s; only threads in trash or spam can be deleted", t.Folder).
				WithHint(hint)
		}
		rows, err := tx.QueryContext(ctx, `SELECT blob_path, size FROM messages WHERE thread_id = $1`, id)
		if err != nil {
			return err
		}
		var freed int64
		for rows.Next() {
			var b string
			var n int64
			if err := rows.Scan(&b, &n); err != nil {
				rows.Close()
				return err
			}
			freed += n
			if b != "" {
				blobs = append(blobs, b)
			}
		}
		rows.Close()
		if _, err := tx.ExecContext(ctx, `DELETE FROM messages WHERE thread_id = $1`, id); err != nil {
			return fmt.Errorf("delete messages: %w", err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM threads WHERE id = $1`, id); err != nil {
			return fmt.Errorf("delete thread: %w", err)
		}
		if err := addUsage(ctx, tx, p.OrgID, -freed, false, s.now()); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "thread.delete", audit.Target{Type: "thread", ID: id},
			map[string]any{"inbox_id": t.InboxID, "messages": t.MessageCount})
	})
	if err != nil {
		return err
	}
	// Files go after the commit; a blob still referenced by another message
	// (one SMTP message for several inboxes) stays.
	for _, b := range blobs {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM messages WHERE blob_path = $1`, b).Scan(&n); err == nil && n == 0 {
			if err := s.blobs.RemoveContext(ctx, b); err != nil {
				s.log.Warn("remove blob", "blob", b, "err", err)
			}
		}
	}
	return nil
}

// Release moves a quarantined thread to inbox, for team members (the
// dashboard) and organization keys with inboxes:manage. Its messages become
// readable and message.received is appended for each, so an agent waiting
// for the mail sees it now.
func (s *Service) Release(ctx context.Context, p *auth.Principal, id string) (Thread, error) {
	if p.Kind == auth.KindAgent {
		return Thread{}, apierr.Forbidden("only team members can release mail from quarantine", "use an organization key with inboxes:manage or the dashboard")
	}
	var out Thread
	err := s.db.InTx(ctx, func(tx *store.Tx) error {
		t, err := visibleThread(ctx, tx, p, id)
		if err != nil {
			return err
		}
		if t.Folder != FolderQuarantine {
			return apierr.Conflict(apierr.CodeInvalidState, "the thread is not in quarantine (it is in %s)", t.Folder)
		}
		now := store.Micros(s.now())
		msgs, err := store.Strings(ctx, tx, `SELECT id FROM messages WHERE thread_id = $1 AND quarantined = TRUE ORDER BY id`, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE messages SET quarantined = FALSE WHERE thread_id = $1`, id); err != nil {
			return fmt.Errorf("release messages: %w", err)
		}
		var snippet string
		_ = tx.QueryRowContext(ctx, `SELECT snippet FROM messages WHERE thread_id = $1 ORDER BY id DESC LIMIT 1`, id).Scan(&snippet)
		if _, err := tx.ExecContext(ctx, `UPDATE threads SET folder = 'inbox', snippet = $2, updated_at = $3 WHERE id = $1`, id, snippet, now); err != nil {
			return fmt.Errorf("release thread: %w", err)
		}
		for _, mid := range msgs {
			m, err := getMessage(ctx, tx, p.OrgID, mid)
			if err != nil {
				return err
			}
			data := messageEventData(m.MessageSummary)
			data["released"] = true
			if _, err := events.Append(ctx, tx, p.OrgID, m.InboxID, events.MessageReceived, data); err != nil {
				return err
			}
		}
		if out, err = getThread(ctx, tx, p.OrgID, id); err != nil {
			return err
		}
		if _, err := events.Append(ctx, tx, p.OrgID, out.InboxID, events.ThreadUpdated, threadEventData(out, []string{"folder"})); err != nil {
			return err
		}
		return audit.Record(ctx, tx, p.OrgID, p, "thread.release", audit.Target{Type: "thread", ID: id},
			map[string]any{"inbox_id": out.InboxID, "messages": msgs})
	})
	return out, err
}

// FolderCount is one folder's numbers.
type FolderCount struct {
	Messages      int `json:"messages"`
	Threads       int `json:"threads"`
	UnreadThreads int `json:"unread_threads" doc:"Threads the agent has not read."`
}

// Counts are an inbox's per-folder numbers.
type Counts struct {
	Folders map[string]FolderCount `json:"folders" doc:"Keyed by folder: inbox, archive, trash, spam, quarantine."`
	// UnreadConversations counts unread threads in inbox, the number a mail
	// client shows beside the inbox.
	UnreadConversations int `json:"unread_conversations" doc:"Unread threads in the inbox folder (agent's read flag)."`
}

// Counts returns per-folder message, thread and unread-thread counts.
func (s *Service) Counts(ctx context.Context, p *auth.Principal, inboxID string) (Counts, error) {
	if _, err := visibleInbox(ctx, s.db, p, inboxID); err != nil {
		return Counts{}, err
	}
	c := Counts{Folders: map[string]FolderCount{}}
	for _, f := range Folders {
		c.Folders[f] = FolderCount{}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT folder, COUNT(*), COALESCE(SUM(message_count), 0),
		COALESCE(SUM(CASE WHEN agent_read THEN 0 ELSE 1 END), 0) FROM threads WHERE inbox_id = $1 GROUP BY folder`, inboxID)
	if err != nil {
		return c, fmt.Errorf("counts: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var f string
		var fc FolderCount
		if err := rows.Scan(&f, &fc.Threads, &fc.Messages, &fc.UnreadThreads); err != nil {
			return c, err
		}
		c.Folders[f] = fc
	}
	c.UnreadConversations = c.Folders[FolderInbox].UnreadThreads
	return c, rows.Err()
}
