package webhooks

import (
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/events"
)

// SMS and social event types (the reference's table; nothing emits them yet,
// endpoints may subscribe to them already).
const (
	SMSReceived               = "sms.received"
	SMSQuarantined            = "sms.quarantined"
	SMSSent                   = "sms.sent"
	SMSDelivered              = "sms.delivered"
	SMSFailed                 = "sms.failed"
	SocialAccountConnected    = "social.account_connected"
	SocialAccountDisconnected = "social.account_disconnected"
	SocialPostPublished       = "social.post_published"
	SocialPostFailed          = "social.post_failed"
	SocialMessageReceived     = "social.message_received"
	SocialCommentReceived     = "social.comment_received"
)

// TestEventType is the type of the deliveries POST /webhooks/{id}/test
// queues. It reaches the endpoint whatever its event_types; receivers that
// do not know it should answer 2xx and ignore it.
const TestEventType = "webhook.test"

// MailTypes, SMSTypes and SocialTypes are the event types endpoints accept
// in event_types, by family.
var (
	MailTypes = []string{events.MessageReceived, events.MessageQuarantined, events.MessageSent, events.MessageDelivered,
		events.MessageDeliveryDelayed, events.MessageBounced, events.MessageComplained, events.MessageFailed,
		events.ThreadUpdated, events.InboxCreated, events.InboxDeleted, events.DomainVerified}
	SMSTypes    = []string{SMSReceived, SMSQuarantined, SMSSent, SMSDelivered, SMSFailed}
	SocialTypes = []string{SocialAccountConnected, SocialAccountDisconnected, SocialPostPublished, SocialPostFailed,
		SocialMessageReceived, SocialCommentReceived}
)

// AllTypes lists every type an endpoint may name.
func AllTypes() []string { return slices.Concat(MailTypes, SMSTypes, SocialTypes) }

func isSMS(t string) bool    { return strings.HasPrefix(t, "sms.") }
func isSocial(t string) bool { return strings.HasPrefix(t, "social.") }
func known(t string) bool    { return slices.Contains(AllTypes(), t) }

// quarantined says whether an event is about quarantined mail or SMS:
// those reach key-created endpoints with sender, subject and snippet
// removed. Besides the quarantine types themselves, that is thread.updated
// of a thread in quarantine (a label or read flag set on held mail), whose
// data carries the held mail's subject.
func quarantined(ev events.Event) bool {
	switch ev.Type {
	case events.MessageQuarantined, SMSQuarantined:
		return true
	case events.ThreadUpdated:
		return ev.Data["folder"] == "quarantine"
	}
	return false
}

// redactedFields are removed from the data of quarantined events for
// endpoints created by an organization key.
var redactedFields = []string{"from", "subject", "snippet"}

// Endpoint statuses.
const (
	EndpointActive   = "active"
	EndpointPaused   = "paused"
	EndpointDisabled = "disabled"
)

// Delivery statuses.
const (
	StatusPending   = "pending"
	StatusSucceeded = "succeeded"
	StatusFailed    = "failed"
	StatusDead      = "dead"
	StatusSkipped   = "skipped"
)

// Limits of the reference.
const (
	MaxEndpoints        = 20
	MaxAttempts         = 10
	RotationOverlap     = 24 * time.Hour
	DisableAfter        = 72 * time.Hour
	DisableMinFailures  = 20
	Retention           = 30 * 24 * time.Hour
	TestBudgetPerHour   = 100
	RedeliverPerHour    = 5000
	RedeliverPerCall    = 1000
	PerEndpointInFlight = 4
	DefaultTimeout      = 10 * time.Second
)

// Schedule is the wait after failed attempt n (index n-1), before jitter.
var Schedule = []time.Duration{5 * time.Second, time.Minute, 5 * time.Minute, 30 * time.Minute,
	time.Hour, 2 * time.Hour, 4 * time.Hour, 8 * time.Hour, 8 * time.Hour}

// WebhookEndpoint is an endpoint as the API shows it (never the secret). The
// names carry "Webhook" because OpenAPI schema names are global.
type WebhookEndpoint struct {
	ID                      string     `json:"id"`
	URL                     string     `json:"url"`
	Description             string     `json:"description"`
	EventTypes              []string   `json:"event_types" doc:"Types delivered; empty means every type the endpoint may receive."`
	InboxID                 *string    `json:"inbox_id" doc:"Only events of this inbox; null for every inbox (and for SMS and social events, which carry no inbox)."`
	Status                  string     `json:"status" enum:"active,paused,disabled"`
	FailingSince            *time.Time `json:"failing_since" doc:"Start of the current run of failures; null when the last attempt succeeded."`
	PreviousSecretExpiresAt *time.Time `json:"previous_secret_expires_at" doc:"Until then deliveries also carry X-Service-Signature-Previous."`
	CreatedAt               time.Time  `json:"created_at"`
	UpdatedAt               time.Time  `json:"updated_at"`

	orgID        string
	creatorType  string
	canSMS       bool
	canSocial    bool
	startSeq     int64
	failingSince int64
	failed       int
	secretSealed []byte
	prevSealed   []byte
	prevExpires  int64
}

// WebhookWithSecret is an endpoint with its secret, returned once at creation.
type WebhookWithSecret struct {
	WebhookEndpoint
	Secret string `json:"secret" doc:"The signing secret (whsec_…). Shown only now: store it."`
}

// RotatedSecret is the answer of a rotation.
type RotatedSecret struct {
	Secret                  string    `json:"secret" doc:"The new signing secret (whsec_…). Shown only now."`
	PreviousSecretExpiresAt time.Time `json:"previous_secret_expires_at" doc:"Until then deliveries are signed with both secrets."`
}

// WebhookDelivery is one event sent (or to be sent) to one endpoint.
type WebhookDelivery struct {
	ID             string     `json:"id"`
	EndpointID     string     `json:"endpoint_id"`
	EventID        string     `json:"event_id"`
	EventType      string     `json:"event_type"`
	Sequence       string     `json:"sequence" doc:"The event's position in the log (decimal string); \"0\" for test deliveries."`
	Status         string     `json:"status" enum:"pending,succeeded,failed,dead,skipped"`
	Attempts       int        `json:"attempts"`
	NextAttemptAt  *time.Time `json:"next_attempt_at" doc:"When the next attempt is due (pending and failed only)."`
	LastAttemptAt  *time.Time `json:"last_attempt_at"`
	LastStatusCode int        `json:"last_status_code,omitempty" doc:"HTTP status of the last answer; absent when there was none."`
	LastError      string     `json:"last_error,omitempty" doc:"Why the last attempt failed."`
	CreatedAt      time.Time  `json:"created_at"`
	UpdatedAt      time.Time  `json:"updated_at"`
}

// Config wires the service.
type Config struct {
	// Dev allows plain http and loopback receivers (dev mode only).
	Dev bool
	// AttemptTimeout bounds one attempt (default 10 s, the reference's).
	AttemptTimeout time.Duration
	// Now is the clock (default time.Now); tests pass a fake one.
	Now func() time.Time
	// Notifier tells the owners when an endpoint is disabled.
	Notifier OwnerNotifier
	// Resolver checks host names when an endpoint is saved (default
	// net.DefaultResolver). The dial-time check does not use it.
	Resolver Resolver
	// Workers is how many attempts may be in flight on this node (default 64).
	Workers int
	// PollInterval is how often due retries are looked for without a
	// notification (default 1 s).
	PollInterval time.Duration
	Logger       *slog.Logger
}
