// Package mailbox is an inbox's mail: messages, threads, folders, labels,
// read flags, sender rules, quarantine, full-text search, per-folder counts,
// and the inbox's event feed with long-polling (wait for mail, extract a
// one-time code).
//
// The inbound pipeline (package inbound) stores messages through
// InsertMessage; the sending side shares threads through the same function.
// Service methods open transactions and check who may see what; helpers take
// a *store.Tx or store.Querier.
//
// Folder rules (the reference's "Thread folders"):
//
//	new inbound mail ──blocked (rule or screening)──▶ quarantine (own thread, never joined)
//	        │ otherwise
//	        ▼
//	joins its thread (Message-ID / In-Reply-To / References, else same
//	normalized subject and correspondent within 30 days) or starts one in inbox;
//	a reply to an archived thread brings it back to inbox; trash and spam stay.
//
//	PATCH folder (email:send): inbox ⇄ archive ⇄ trash ⇄ spam (never quarantine)
//	release (team members, org key inboxes:manage): quarantine ─▶ inbox
//	DELETE (?confirm=true): only from trash or spam; permanent
package mailbox

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email/content"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Folders.
const (
	FolderInbox      = "inbox"
	FolderArchive    = "archive"
	FolderTrash      = "trash"
	FolderSpam       = "spam"
	FolderQuarantine = "quarantine"
)

// Folders lists every folder, in display order.
var Folders = []string{FolderInbox, FolderArchive, FolderTrash, FolderSpam, FolderQuarantine}

// Directions.
const (
	Inbound  = "inbound"
	Outbound = "outbound"
)

// Address is a mailbox with its display name.
type Address = content.Address

// Finding is one screening detector firing, safe to show.
type Finding struct {
	Reason string `json:"reason"`
	Detail string `json:"detail"`
}

// Screening is the verdict of the screening component on an inbound message.
type Screening struct {
	Verdict  string    `json:"verdict" enum:"clean,suspicious,blocked"`
	Reasons  []string  `json:"reasons" doc:"Reason codes, for example prompt_injection, lookalike_domain, sender_blocked."`
	Findings []Finding `json:"findings,omitempty" doc:"What each detector saw, in a few words."`
}

// Authentication holds the sender authentication results of an inbound
// message (RFC 8601 result names).
type Authentication struct {
	SPF         string `json:"spf"`
	DKIM        string `json:"dkim"`
	DMARC       string `json:"dmarc"`
	DMARCPolicy string `json:"dmarc_policy,omitempty"`
	// Results is the Authentication-Results header value this server computed.
	Results string `json:"authentication_results,omitempty"`
}

// Attachment is an attachment's metadata; its bytes are at
// /api/v1/attachments/{id}.
type Attachment struct {
	ID          string `json:"id"`
	Filename    string `json:"filename"`
	ContentType string `json:"content_type"`
	Size        int64  `json:"size"`
	Inline      bool   `json:"inline" doc:"An inline part (usually an image the HTML shows)."`
	ContentID   string `json:"content_id,omitempty"`
	partID      string
	messageID   string
	inboxID     string
}

// MessageSummary is a message in lists and event-driven answers: no bodies.
type MessageSummary struct {
	ID          string         `json:"id"`
	InboxID     string         `json:"inbox_id"`
	ThreadID    string         `json:"thread_id"`
	Direction   string         `json:"direction" enum:"inbound,outbound"`
	From        Address        `json:"from"`
	To          []Address      `json:"to"`
	Cc          []Address      `json:"cc,omitempty"`
	Subject     string         `json:"subject"`
	Snippet     string         `json:"snippet" doc:"Start of the visible text; empty while quarantined."`
	Screening   Screening      `json:"screening"`
	Quarantined bool           `json:"quarantined" doc:"Held for a team member; bodies and attachments are withheld until released."`
	Attachments []Attachment   `json:"attachments"`
	Auth        Authentication `json:"authentication"`
	ReceivedAt  time.Time      `json:"received_at"`
	Size        int64          `json:"size"`
}

// Message is a message with its bodies.
type Message struct {
	MessageSummary
	ReplyTo    []Address  `json:"reply_to,omitempty"`
	Text       string     `json:"text"`
	HTML       string     `json:"html" doc:"Sanitized HTML; inline images point at /api/v1/attachments/{id}; external images removed."`
	HeaderID   string     `json:"message_id_header,omitempty" doc:"The RFC 5322 Message-ID, without angle brackets."`
	InReplyTo  string     `json:"in_reply_to,omitempty"`
	References []string   `json:"references,omitempty"`
	SentAt     *time.Time `json:"sent_at,omitempty" doc:"The Date header."`
	Warnings   []string   `json:"warnings,omitempty" doc:"What was malformed in the MIME structure and how it was read anyway."`
	Hint       string     `json:"hint,omitempty"`
}

// quarantineHint tells an agent why a message shows no content.
const quarantineHint = "this message is in quarantine: its content is withheld from agents until a team member releases it (POST /api/v1/threads/{id}/release with an organization key)"

// Thread is a conversation in one inbox.
type Thread struct {
	ID            string    `json:"id"`
	InboxID       string    `json:"inbox_id"`
	Folder        string    `json:"folder" enum:"inbox,archive,trash,spam,quarantine"`
	Subject       string    `json:"subject"`
	Snippet       string    `json:"snippet"`
	LastFrom      Address   `json:"last_from"`
	MessageCount  int       `json:"message_count"`
	Labels        []string  `json:"labels"`
	Read          bool      `json:"read" doc:"Read flag of the agent."`
	TeamRead      bool      `json:"team_read" doc:"Read flag of the team members (kept separately)."`
	LastMessageAt time.Time `json:"last_message_at"`
	CreatedAt     time.Time `json:"created_at"`
	UpdatedAt     time.Time `json:"updated_at"`
}

// Service is the mailbox.
type Service struct {
	db    *store.DB
	log   *slog.Logger
	blobs Blobs
	hub   *Hub
	now   func() time.Time
}

// NewService wires the mailbox. dataDir holds the raw-message blobs; hub
// wakes long-polls (it may be nil in tools, where waits return at their
// deadline).
func NewService(db *store.DB, dataDir string, hub *Hub, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, log: log, blobs: Blobs{Dir: filepath.Join(dataDir, "blobs"), DB: db}, hub: hub, now: time.Now}
}

// Blobs returns the blob store holding raw messages.
func (s *Service) Blobs() Blobs { return s.blobs }

// DB returns the database (for the inbound pipeline).
func (s *Service) DB() *store.DB { return s.db }

// inboxRow is what access checks need of an inbox.
type inboxRow struct {
	ID, OrgID, AgentID, Address string
}

func getInbox(ctx context.Context, q store.Querier, orgID, id string) (inboxRow, error) {
	var in inboxRow
	err := q.QueryRowContext(ctx, `SELECT id, org_id, agent_id, address FROM inboxes WHERE org_id = $1 AND id = $2`, orgID, id).
		Scan(&in.ID, &in.OrgID, &in.AgentID, &in.Address)
	if errors.Is(err, sql.ErrNoRows) {
		return in, apierr.NotFound("inbox")
	}
	if err != nil {
		return in, fmt.Errorf("read inbox: %w", err)
	}
	return in, nil
}

// visibleInbox returns the inbox if p may see it: an agent sees only its own
// inboxes, an organization key or member every inbox of the organization.
// Anything else is 404 so ids of others leak nothing.
func visibleInbox(ctx context.Context, q store.Querier, p *auth.Principal, id string) (inboxRow, error) {
	in, err := getInbox(ctx, q, p.OrgID, id)
	if err != nil {
		return in, err
	}
	if !canSee(p, in) {
		return inboxRow{}, apierr.NotFound("inbox")
	}
	return in, nil
}

func canSee(p *auth.Principal, in inboxRow) bool {
	return p.Kind != auth.KindAgent || in.AgentID == p.AgentID
}

// VisibleInbox checks that p may see the inbox (404 otherwise).
func (s *Service) VisibleInbox(ctx context.Context, p *auth.Principal, inboxID string) error {
	_, err := visibleInbox(ctx, s.db, p, inboxID)
	return err
}

// Blobs keeps raw messages as files under Dir, or (paths starting with
// DBPrefix, written by WriteTx) as rows of blob_data in DB. Paths stored in
// rows are relative to Dir, so the data dir can move.
//
// Why two places: a file costs a create, a file fsync and a directory fsync
// before it is durable, which for a small message costs more than the rest
// of storing it; a row written in the caller's own transaction is durable
// with its commit, which group commit shares between many messages. Sent
// mail and inbound mail (spooled before the SMTP 250) are written as rows;
// files remain for uploads and for messages stored by older versions.
type Blobs struct {
	Dir string
	// DB holds blobs written by WriteTx (nil: files only).
	DB *store.DB
}

// DBPrefix marks a blob path stored in the database.
const DBPrefix = "db:"

// WriteTx stores data in tx under DBPrefix+rel and returns that path: it is
// durable when tx commits and gone if tx rolls back.
func (b Blobs) WriteTx(ctx context.Context, tx *store.Tx, rel string, data []byte) (string, error) {
	p := DBPrefix + rel
	if _, err := tx.ExecContext(ctx, `INSERT INTO blob_data (path, data) VALUES ($1, $2)`, p, data); err != nil {
		return "", fmt.Errorf("blob write: %w", err)
	}
	return p, nil
}

// ReadContext returns the blob at rel, from the database or a file.
func (b Blobs) ReadContext(ctx context.Context, rel string) ([]byte, error) {
	if !strings.HasPrefix(rel, DBPrefix) {
		return b.Read(rel)
	}
	if b.DB == nil {
		return nil, fmt.Errorf("blob read %s: no database", rel)
	}
	var data []byte
	if err := b.DB.QueryRowContext(ctx, `SELECT data FROM blob_data WHERE path = $1`, rel).Scan(&data); err != nil {
		return nil, fmt.Errorf("blob read %s: %w", rel, err)
	}
	return data, nil
}

// RemoveContext deletes the blob at rel wherever it is; a missing blob is
// not an error.
func (b Blobs) RemoveContext(ctx context.Context, rel string) error {
	if !strings.HasPrefix(rel, DBPrefix) {
		return b.Remove(rel)
	}
	if b.DB == nil {
		return fmt.Errorf("blob remove %s: no database", rel)
	}
	if _, err := b.DB.ExecContext(ctx, `DELETE FROM blob_data WHERE path = $1`, rel); err != nil {
		return fmt.Errorf("blob remove: %w", err)
	}
	return nil
}

// Write stores data at rel durably: written to a temporary file, fsynced,
// renamed into place, and the directory fsynced, so after Write returns the
// file survives a crash or power cut.
func (b Blobs) Write(rel string, data []byte) error {
	path := filepath.Join(b.Dir, rel)
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("blob dir: %w", err)
	}
	f, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("blob create: %w", err)
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("blob write: %w", err)
	}
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("blob dir sync: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("blob dir sync: %w", err)
	}
	return nil
}

// Read returns the blob at rel.
func (b Blobs) Read(rel string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(b.Dir, rel))
	if err != nil {
		return nil, fmt.Errorf("blob read: %w", err)
	}
	return data, nil
}

// Remove deletes the blob at rel; a missing blob is not an error.
func (b Blobs) Remove(rel string) error {
	err := os.Remove(filepath.Join(b.Dir, rel))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}
