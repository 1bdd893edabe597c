// Package outbound is the sending side of an inbox: uploads, drafts, send,
// reply and forward, MIME composition with DKIM signatures, sending domains
// (with their sealed DKIM keys and DNS verification), verified recipients
// and the plan's sending quotas. Composed messages are stored in the
// outbound thread through mailbox.InsertMessage and handed to the durable
// queue of package delivery in the same transaction.
//
// The life of a send:
//
//	request ─ validate (addresses, attachments, labels) ─ idempotency key seen?
//	   │                                   yes, same body: original result (draft removed)
//	   │                                   yes, other body: 409 idempotency_conflict
//	   ▼
//	compose MIME ─ DKIM-sign with the From domain's key (at most GOMAXPROCS at once)
//	   ▼
//	group commit (commit.go): the sends that arrive while a commit runs share
//	the next transaction, each in its own savepoint:
//	quotas (402, nothing queued) ─ sandbox recipients ─ signed message
//	(blob_data row; a file when over 256 KB) ─ message + thread + labels
//	(mailbox) ─ outbound_messages (key) ─ queue rows (delivery, leased to
//	this process's workers) ─ draft removed ─ message.sent ─ commit
//	   ▼
//	202 after the commit; the queue rows go to the delivery workers in memory
package outbound

import (
	"context"
	"crypto"
	"log/slog"
	"net"
	"runtime"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/email"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/seal"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Limits of the reference.
const (
	MaxAttachments      = 10
	MaxAttachmentBytes  = 10 << 20
	UploadLifetime      = 24 * time.Hour
	MaxRecipients       = 50
	maxSubjectRunes     = 998
	maxBodyBytes        = 2 << 20
	maxFilenameRunes    = 255
	maxIdempotencyBytes = 255
	// maxRowBlob is the largest signed message kept in the database
	// (blob_data); larger ones are files.
	maxRowBlob = 256 << 10
)

// MaxUploadBase64 is the longest content_base64 accepted: the base64 size
// of MaxAttachmentBytes (checked before decoding anything).
const MaxUploadBase64 = (MaxAttachmentBytes + 2) / 3 * 4

// Resolver is the DNS access domain verification needs.
type Resolver interface {
	LookupTXT(ctx context.Context, name string) ([]string, error)
	LookupMX(ctx context.Context, name string) ([]*net.MX, error)
}

// Config holds what the sending side needs to know about the deployment.
type Config struct {
	// Hostname is the name of this service's mail server: the MX that
	// custom domains publish and the SPF a: mechanism.
	Hostname string
	// BaseURL is the public origin, for confirmation links.
	BaseURL string
	// Resolver checks custom domains' DNS records (default net.DefaultResolver).
	Resolver Resolver
	// KeyBits is the size of generated RSA DKIM keys (default 2048).
	KeyBits int
}

// Service is the sending side.
type Service struct {
	db      *store.DB
	mb      *mailbox.Service
	inboxes *email.Service
	keys    *seal.Keyring
	blobs   mailbox.Blobs
	cfg     Config
	log     *slog.Logger
	now     func() time.Time

	mu      sync.Mutex
	signers map[string]*domainSigner // by domain name

	group  committer     // SQLite: every send
	groups sync.Map      // PostgreSQL: organization id → *committer
	cpu    chan struct{} // build slots (send.go)
	// delivery takes fresh queue rows in memory (SetDelivery); nil: they
	// wait for a delivery worker's claim.
	delivery *delivery.Service
}

// SetDelivery lets sends hand their queue rows straight to this process's
// delivery workers (delivery.Service.Enqueue).
func (s *Service) SetDelivery(d *delivery.Service) { s.delivery = d }

// New wires the sending side.
func New(db *store.DB, mb *mailbox.Service, inboxes *email.Service, keys *seal.Keyring, cfg Config, log *slog.Logger) *Service {
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.KeyBits == 0 {
		cfg.KeyBits = 2048
	}
	if cfg.Hostname == "" {
		cfg.Hostname = "localhost"
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{db: db, mb: mb, inboxes: inboxes, keys: keys, blobs: mb.Blobs(), cfg: cfg, log: log, now: time.Now,
		signers: map[string]*domainSigner{}, group: committer{db: db},
		cpu: make(chan struct{}, runtime.GOMAXPROCS(0))}
}

// domainSigner is a domain's opened DKIM key.
type domainSigner struct {
	domain, selector string
	key              crypto.Signer
}

// Run expires unused uploads every few minutes until ctx ends.
func (s *Service) Run(ctx context.Context) {
	t := time.NewTicker(5 * time.Minute)
	defer t.Stop()
	for {
		if _, err := s.SweepUploads(ctx); err != nil && ctx.Err() == nil {
			s.log.Warn("outbound: upload sweep", "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// SetBaseURL sets the public origin used in confirmation links, once the
// HTTP listener is bound.
func (s *Service) SetBaseURL(u string) { s.cfg.BaseURL = u }
