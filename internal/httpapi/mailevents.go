package httpapi

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/events"
)

type inboxEventsIn struct {
	ID     string `path:"id" doc:"Inbox id (inb_…)."`
	Wait   int    `query:"wait" minimum:"0" maximum:"25" doc:"Seconds to wait for the first event (0-25); 0 answers at once."`
	Cursor string `query:"cursor" maxLength:"256" doc:"A position in the organization's event log, as a decimal string: next_cursor of the previous answer, or the sequence of an event (from this feed or a webhook) to continue after it; 0 for the start of the log. Omit to start from now on. Cursors of the earlier opaque form are still accepted."`
}

// inboxEvent is an event as the events API shows it: the same fields as the
// body of a webhook request, so one decoder reads both, and sequence as the
// same decimal string (the reference's "Webhook request": sequence "equals
// the events API cursor").
type inboxEvent struct {
	ID             string         `json:"id" doc:"Event id (evt_…), the same in webhook deliveries of this event."`
	Type           string         `json:"type" doc:"message.received or thread.updated."`
	OccurredAt     time.Time      `json:"occurred_at"`
	Sequence       string         `json:"sequence" doc:"Decimal string: the event's position in the organization's event log, equal to the webhook sequence of the event. Pass it as cursor to continue after this event; compare as a number."`
	OrganizationID string         `json:"organization_id"`
	InboxID        string         `json:"inbox_id,omitempty"`
	Data           map[string]any `json:"data" doc:"Ids and a short summary, never a body."`
}

func inboxEventOf(e events.Event) inboxEvent {
	return inboxEvent{ID: e.ID, Type: e.Type, OccurredAt: e.OccurredAt.UTC(), Sequence: strconv.FormatInt(e.Seq, 10),
		OrganizationID: e.OrgID, InboxID: e.InboxID, Data: e.Data}
}

type inboxEventsOut struct {
	Body struct {
		Data       []inboxEvent `json:"data" doc:"Events oldest first: message.received and thread.updated, with ids and a short snippet, never a body."`
		NextCursor string       `json:"next_cursor" doc:"Always present: pass it as cursor to continue after these events. A decimal string, the log sequence: the sequence of the last event shown, or the position the feed has read up to when events of other kinds or inboxes came after it."`
	}
}

// parseEventCursor reads the events API cursor: a log sequence as a decimal
// string, or (from clients that kept one) the opaque form this feed returned
// before, base64url of "c1:" and the sequence. A decimal string is never a
// valid old cursor (those decode to text starting "c1:", so they start with
// "Yz"), so the two cannot be confused.
func parseEventCursor(c string) (int64, error) {
	if c != "" && strings.Trim(c, "0123456789") == "" {
		return strconv.ParseInt(c, 10, 64)
	}
	key, err := DecodeCursor(c)
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseInt(key, 10, 64)
	if err == nil && n < 0 {
		err = errBadCursor
	}
	return n, err
}

type mailQueryBody struct {
	From        string `json:"from,omitempty" maxLength:"254" doc:"Sender filter: a full address (alice@example.com) or a domain (example.com or @example.com, subdomains included). Omit for any sender."`
	WaitSeconds int    `json:"wait_seconds,omitempty" minimum:"0" maximum:"25" doc:"How long to wait for matching mail, 0-25 seconds (default 0: look once)."`
	Since       string `json:"since,omitempty" doc:"RFC 3339 time: consider mail received after it. Pass the time you triggered the mail (for example just before submitting a sign-up form) so mail that arrived before this call is found. Default: the time of the call."`
}

type waitIn struct {
	ID   string `path:"id" doc:"Inbox id (inb_…)."`
	Body mailQueryBody
}

type waitOut struct {
	Body struct {
		Message *mailbox.MessageSummary `json:"message" doc:"The first matching inbound message (oldest first after since); null on timeout."`
	}
}

type extractOut struct{ Body mailbox.CodeResult }

func (b mailQueryBody) query() (mailbox.MailQuery, error) {
	since, err := parseSince("since", b.Since)
	if err != nil {
		return mailbox.MailQuery{}, err
	}
	return mailbox.MailQuery{From: b.From, Since: since, Wait: time.Duration(b.WaitSeconds) * time.Second}, nil
}

func (s *Server) registerMailEvents() {
	tags := []string{"Events"}
	mb := func() *mailbox.Service { return s.deps.Mailbox }

	register(s, huma.Operation{OperationID: "inboxEvents", Method: http.MethodGet, Path: "/api/v1/inboxes/{id}/events", Tags: tags,
		Summary: "Inbox events (long-poll)",
		Description: "Events of the inbox after `cursor`: `message.received` (new inbound mail, delivered or flagged; also when a team member " +
			"releases held mail) and `thread.updated` (folder, labels or read state changed, by a PATCH or by mail joining the thread: an archived " +
			"thread back in inbox, the read flag cleared, labels of a send; `data.changes` names what changed). Without `cursor` it starts from now on. " +
			"Cursors are positions in the organization's event log as decimal strings: `next_cursor`, each event's `sequence` and the " +
			"`sequence` of a webhook request are the same numbers, so a client can switch between webhooks and this feed without missing events. " +
			"With `wait` it answers as soon as an event arrives (on any server node) or after `wait` seconds with an empty `data`. " +
			"Mail held in quarantine produces no event for agents, nor does a change to a thread in quarantine (release appends " +
			"`message.received` and `thread.updated`)."},
		agentWith(auth.EmailRead), func(ctx context.Context, in *inboxEventsIn) (*inboxEventsOut, error) {
			if err := validInbox(in.ID); err != nil {
				return nil, err
			}
			var cursor *int64
			if in.Cursor != "" {
				n, err := parseEventCursor(in.Cursor)
				if err != nil {
					return nil, apierr.Invalid("cursor", "must be a log sequence (a decimal string such as 591)").
						WithHint("pass next_cursor from the previous answer, or the sequence of an event")
				}
				cursor = &n
			}
			res, err := mb().Events(ctx, auth.FromContext(ctx), in.ID, cursor, time.Duration(in.Wait)*time.Second)
			if err != nil {
				return nil, err
			}
			out := &inboxEventsOut{}
			out.Body.Data = make([]inboxEvent, len(res.Events))
			for i, e := range res.Events {
				out.Body.Data[i] = inboxEventOf(e)
			}
			out.Body.NextCursor = strconv.FormatInt(res.Next, 10)
			return out, nil
		})

	register(s, huma.Operation{OperationID: "waitForMail", Method: http.MethodPost, Path: "/api/v1/inboxes/{id}/wait", Tags: tags,
		Summary: "Wait for mail",
		Description: "Returns the first inbound message received after `since` (default: now) whose From matches `from`, waiting up to " +
			"`wait_seconds` (0-25) for it; `message` is null on timeout. Quarantined mail does not match until it is released."},
		agentWith(auth.EmailRead), func(ctx context.Context, in *waitIn) (*waitOut, error) {
			if err := validInbox(in.ID); err != nil {
				return nil, err
			}
			q, err := in.Body.query()
			if err != nil {
				return nil, err
			}
			m, err := mb().Wait(ctx, auth.FromContext(ctx), in.ID, q)
			if err != nil {
				return nil, err
			}
			out := &waitOut{}
			out.Body.Message = m
			return out, nil
		})

	register(s, huma.Operation{OperationID: "extractCode", Method: http.MethodPost, Path: "/api/v1/inboxes/{id}/extract/code", Tags: tags,
		Summary: "Get a one-time code or confirmation link from mail",
		Description: "Like wait, for the first matching message that contains a one-time code or a confirmation link: returns `code` and `link` " +
			"copied from the mail (never generated), the message and its `screening` (check it before following a link). " +
			"A numeric code written in digit groups comes without the separator, as a code field expects it (\"123 789\" and \"123-789\" give \"123789\"), " +
			"and a sender prefix is dropped (\"G-123456\" gives \"123456\"); letter-and-digit codes (\"AB12-CD34\") and links are returned as written. " +
			"Numbers labelled as something else (order, invoice or account numbers, ZIP or postal codes, phone numbers, prices, dates) are never returned. " +
			"All null when nothing matched in time. Quarantined mail never gives a code."},
		agentWith(auth.EmailRead), func(ctx context.Context, in *waitIn) (*extractOut, error) {
			if err := validInbox(in.ID); err != nil {
				return nil, err
			}
			q, err := in.Body.query()
			if err != nil {
				return nil, err
			}
			r, err := mb().ExtractCode(ctx, auth.FromContext(ctx), in.ID, q)
			if err != nil {
				return nil, err
			}
			return &extractOut{Body: r}, nil
		})
}
