package httpapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/ids"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

type webhookIDIn struct {
	ID string `path:"id" doc:"Webhook endpoint id (whe_…)."`
}

type webhookOut struct{ Body webhooks.WebhookEndpoint }

type listWebhooksOut struct {
	Body *Page[webhooks.WebhookEndpoint]
}

type createWebhookIn struct {
	Body struct {
		URL         string   `json:"url" minLength:"1" maxLength:"2048" doc:"HTTPS URL on a public host. Redirects are not followed."`
		Description string   `json:"description,omitempty" maxLength:"500"`
		EventTypes  []string `json:"event_types,omitempty" maxItems:"64" doc:"Event types to deliver; omit for every type the endpoint may receive."`
		InboxID     string   `json:"inbox_id,omitempty" doc:"Only events of this inbox (inb_…). SMS and social events carry no inbox and reach only endpoints without one."`
	}
}

type createWebhookOut struct{ Body webhooks.WebhookWithSecret }

type updateWebhookIn struct {
	ID   string `path:"id" doc:"Webhook endpoint id (whe_…)."`
	Body struct {
		URL         *string   `json:"url,omitempty" maxLength:"2048"`
		Description *string   `json:"description,omitempty" maxLength:"500"`
		EventTypes  *[]string `json:"event_types,omitempty" maxItems:"64" doc:"Replaces the list; [] means every type the endpoint may receive."`
		InboxID     *string   `json:"inbox_id,omitempty" doc:"An inbox id, or \"\" to receive every inbox's events."`
		Status      *string   `json:"status,omitempty" enum:"active,paused" doc:"active or paused. Activating a disabled endpoint resets its failure count."`
	}
}

type rotateWebhookOut struct{ Body webhooks.RotatedSecret }

// DeliveryPageParams are PageParams with the delivery log's larger limit.
type DeliveryPageParams struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"200" default:"20" doc:"Items per page, 1-200."`
	Cursor string `query:"cursor" maxLength:"256" doc:"The next_cursor of the previous page; omit for the first page."`
}

type listDeliveriesIn struct {
	ID string `path:"id" doc:"Webhook endpoint id (whe_…)."`
	DeliveryPageParams
}

type listDeliveriesOut struct {
	Body *Page[webhooks.WebhookDelivery]
}

type deliveryOut struct{ Body webhooks.WebhookDelivery }

type replayIn struct {
	ID string `path:"id" doc:"Delivery id (whd_…)."`
}

type redeliverIn struct {
	ID   string `path:"id" doc:"Webhook endpoint id (whe_…)."`
	Body struct {
		Since    string   `json:"since" minLength:"1" doc:"RFC 3339 time: deliveries created at or after it."`
		Statuses []string `json:"statuses,omitempty" maxItems:"3" doc:"Any of failed, dead, skipped; default all three."`
	}
}

type redeliverOut struct{ Body webhooks.Redelivery }

func validWebhook(id string) error {
	if !ids.Valid("whe", id) {
		return apierr.NotFound("webhook endpoint")
	}
	return nil
}

func (s *Server) registerWebhooks() {
	tags := []string{"Webhooks"}
	manage := orgKeyWith(auth.InboxesManage)
	wh := func() *webhooks.Service { return s.deps.Webhooks }

	register(s, huma.Operation{OperationID: "listWebhooks", Method: http.MethodGet, Path: "/api/v1/webhooks", Tags: tags,
		Summary: "List webhook endpoints", Description: "The organization's endpoints, newest first (at most 20, so always one page)."},
		manage, func(ctx context.Context, _ *struct{}) (*listWebhooksOut, error) {
			eps, err := wh().List(ctx, auth.FromContext(ctx))
			if err != nil {
				return nil, err
			}
			return &listWebhooksOut{Body: &Page[webhooks.WebhookEndpoint]{Data: eps}}, nil
		})

	register(s, huma.Operation{OperationID: "createWebhook", Method: http.MethodPost, Path: "/api/v1/webhooks", Tags: tags,
		Summary: "Create a webhook endpoint",
		Description: "Registers a receiver for the organization's events from now on. `url` must be HTTPS on a public host " +
			"(an address literal or a name resolving to loopback, private, link-local, multicast or metadata addresses is refused; " +
			"the address is checked again at every connection). The answer carries `secret` (whsec_…) once: deliveries are signed " +
			"with it (X-Service-Signature). Endpoints created by an organization key receive SMS events only if the key holds " +
			"`phone:manage`, social events only with `social:manage`, and quarantined mail (`message.quarantined`, `sms.quarantined`, and " +
			"`thread.updated` of a thread in quarantine) without sender, subject and snippet. " +
			"At most 20 endpoints per organization (409 `conflict`).",
		DefaultStatus: http.StatusCreated},
		manage, func(ctx context.Context, in *createWebhookIn) (*createWebhookOut, error) {
			e, err := wh().Create(ctx, auth.FromContext(ctx), webhooks.NewEndpoint{URL: in.Body.URL, Description: in.Body.Description,
				EventTypes: in.Body.EventTypes, InboxID: in.Body.InboxID})
			if err != nil {
				return nil, err
			}
			return &createWebhookOut{Body: e}, nil
		})

	register(s, huma.Operation{OperationID: "getWebhook", Method: http.MethodGet, Path: "/api/v1/webhooks/{id}", Tags: tags,
		Summary: "Read a webhook endpoint", Description: "The endpoint, without its secret."},
		manage, func(ctx context.Context, in *webhookIDIn) (*webhookOut, error) {
			if err := validWebhook(in.ID); err != nil {
				return nil, err
			}
			e, err := wh().Get(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &webhookOut{Body: e}, nil
		})

	register(s, huma.Operation{OperationID: "updateWebhook", Method: http.MethodPatch, Path: "/api/v1/webhooks/{id}", Tags: tags,
		Summary: "Change a webhook endpoint",
		Description: "Changes url, description, event_types, inbox_id (\"\" removes the filter) or status (`active` or `paused`). " +
			"While paused or disabled, new events become `skipped` deliveries (redeliver them later). Pending deliveries whose " +
			"type or inbox the endpoint no longer takes become `dead`."},
		manage, func(ctx context.Context, in *updateWebhookIn) (*webhookOut, error) {
			if err := validWebhook(in.ID); err != nil {
				return nil, err
			}
			b := in.Body
			e, err := wh().Update(ctx, auth.FromContext(ctx), in.ID, webhooks.EndpointPatch{URL: b.URL, Description: b.Description,
				EventTypes: b.EventTypes, InboxID: b.InboxID, Status: b.Status})
			if err != nil {
				return nil, err
			}
			return &webhookOut{Body: e}, nil
		})

	register(s, huma.Operation{OperationID: "deleteWebhook", Method: http.MethodDelete, Path: "/api/v1/webhooks/{id}", Tags: tags,
		Summary: "Delete a webhook endpoint", Description: "Deletes the endpoint and its delivery log.", DefaultStatus: http.StatusNoContent},
		manage, func(ctx context.Context, in *webhookIDIn) (*struct{}, error) {
			if err := validWebhook(in.ID); err != nil {
				return nil, err
			}
			return nil, wh().Delete(ctx, auth.FromContext(ctx), in.ID)
		})

	register(s, huma.Operation{OperationID: "testWebhook", Method: http.MethodPost, Path: "/api/v1/webhooks/{id}/test", Tags: tags,
		Summary: "Queue a test delivery",
		Description: "Queues a delivery of type `webhook.test` (sequence \"0\", data {endpoint_id, test: true}) whatever the " +
			"endpoint's event_types, and returns it (202). Needs an active endpoint (409 `invalid_state`). Tests and single " +
			"replays share a budget of 100 per organization per hour (429 with Retry-After).",
		DefaultStatus: http.StatusAccepted},
		manage, func(ctx context.Context, in *webhookIDIn) (*deliveryOut, error) {
			if err := validWebhook(in.ID); err != nil {
				return nil, err
			}
			d, err := wh().Test(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &deliveryOut{Body: d}, nil
		})

	register(s, huma.Operation{OperationID: "rotateWebhookSecret", Method: http.MethodPost, Path: "/api/v1/webhooks/{id}/rotate", Tags: tags,
		Summary: "Rotate the signing secret",
		Description: "Returns a new secret (once) and `previous_secret_expires_at`: for 24 hours deliveries carry the old " +
			"secret's signature in X-Service-Signature-Previous. Rotating again within those hours drops the older overlap."},
		manage, func(ctx context.Context, in *webhookIDIn) (*rotateWebhookOut, error) {
			if err := validWebhook(in.ID); err != nil {
				return nil, err
			}
			r, err := wh().Rotate(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &rotateWebhookOut{Body: r}, nil
		})

	register(s, huma.Operation{OperationID: "listWebhookDeliveries", Method: http.MethodGet, Path: "/api/v1/webhooks/{id}/deliveries", Tags: tags,
		Summary: "Delivery log",
		Description: "The endpoint's deliveries of the last 30 days, newest first, 1-200 per page (default 20): status " +
			"(pending, succeeded, failed, dead, skipped), attempts, next_attempt_at, the last answer's status code or error."},
		manage, func(ctx context.Context, in *listDeliveriesIn) (*listDeliveriesOut, error) {
			if err := validWebhook(in.ID); err != nil {
				return nil, err
			}
			after, err := PageParams{Cursor: in.Cursor}.after()
			if err != nil {
				return nil, err
			}
			items, err := wh().Deliveries(ctx, auth.FromContext(ctx), in.ID, in.Limit+1, after)
			if err != nil {
				return nil, err
			}
			return &listDeliveriesOut{Body: pageOf(items, in.Limit, func(d webhooks.WebhookDelivery) string { return d.ID })}, nil
		})

	register(s, huma.Operation{OperationID: "replayWebhookDelivery", Method: http.MethodPost, Path: "/api/v1/webhook-deliveries/{id}/replay", Tags: tags,
		Summary: "Send one delivery again",
		Description: "Moves a failed, dead or skipped delivery back to pending with a fresh series of attempts, signed with the " +
			"current secret; answers 202 with the delivery. 409 `invalid_state` when it is pending or succeeded, or the endpoint " +
			"is not active. Shares the tests budget (100 per organization per hour; 429 with Retry-After).",
		DefaultStatus: http.StatusAccepted},
		manage, func(ctx context.Context, in *replayIn) (*deliveryOut, error) {
			if !ids.Valid("whd", in.ID) {
				return nil, apierr.NotFound("webhook delivery")
			}
			d, err := wh().Replay(ctx, auth.FromContext(ctx), in.ID)
			if err != nil {
				return nil, err
			}
			return &deliveryOut{Body: d}, nil
		})

	register(s, huma.Operation{OperationID: "redeliverWebhook", Method: http.MethodPost, Path: "/api/v1/webhooks/{id}/redeliver", Tags: tags,
		Summary: "Redeliver missed events",
		Description: "Queues the endpoint's deliveries created at or after `since` whose status is one of `statuses` (default " +
			"failed, dead, skipped), oldest first, up to 1,000 per call: 202 with `queued` and `has_more` (call again with the " +
			"same since for the rest). Only for an active endpoint (409 `invalid_state` when paused or disabled). Budget: 5,000 " +
			"per organization per hour; a call queues what is left of it and 429 (Retry-After) when nothing is.",
		DefaultStatus: http.StatusAccepted},
		manage, func(ctx context.Context, in *redeliverIn) (*redeliverOut, error) {
			if err := validWebhook(in.ID); err != nil {
				return nil, err
			}
			since, err := time.Parse(time.RFC3339Nano, strings.TrimSpace(in.Body.Since))
			if err != nil {
				return nil, apierr.Invalid("since", "must be an ISO 8601 (RFC 3339) time such as 2026-01-02T15:04:05Z")
			}
			r, err := wh().Redeliver(ctx, auth.FromContext(ctx), in.ID, since, in.Body.Statuses)
			if err != nil {
				return nil, err
			}
			return &redeliverOut{Body: r}, nil
		})
}
