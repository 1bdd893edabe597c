package httpapi

import (
	"context"
	"net/http"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/delivery"
	"github.com/agentsvc/agentsvc/internal/email/outbound"
	"github.com/agentsvc/agentsvc/internal/ids"
)

// maxUploadBody is the body limit of uploads: 10 MB in base64 plus JSON.
const maxUploadBody = outbound.MaxUploadBase64 + outbound.MaxUploadBase64/38 + 64<<10

type uploadIn struct {
	ID   string `path:"id" doc:"Inbox id (inb_…)."`
	Body struct {
		Filename      string `json:"filename" minLength:"1" maxLength:"255" doc:"File name shown to recipients; a path is cut to its last element."`
		ContentBase64 string `json:"content_base64" doc:"The file, base64 (standard alphabet, padded; line breaks allowed). At most 10 MB decoded."`
	}
}

type uploadOut struct{ Body outbound.Upload }

type idIn struct {
	ID string `path:"id"`
}

type draftCreateIn struct {
	ID   string `path:"id" doc:"Inbox id (inb_…)."`
	Body struct {
		To               []string `json:"to,omitempty" maxItems:"50" doc:"Plain addresses or RFC 5322 name-and-address (\"Ada <ada@example.com>\")."`
		Subject          string   `json:"subject,omitempty" maxLength:"998"`
		Text             string   `json:"text,omitempty"`
		HTML             string   `json:"html,omitempty"`
		AttachmentIDs    []string `json:"attachment_ids,omitempty" maxItems:"10" doc:"Upload ids; the draft holds them (they no longer expire) until it is sent or deleted."`
		ReplyToMessageID string   `json:"reply_to_message_id,omitempty" doc:"A message of this inbox: the draft joins its thread and, when sent, carries In-Reply-To and References."`
	}
}

type draftOut struct{ Body outbound.Draft }

type listDraftsIn struct {
	ID string `path:"id" doc:"Inbox id (inb_…)."`
	PageParams
}

type listDraftsOut struct{ Body *Page[outbound.Draft] }

type sendIn struct {
	ID   string `path:"id" doc:"Inbox id (inb_…)."`
	Body struct {
		To             []string `json:"to,omitempty" maxItems:"50" doc:"Required unless draft_id gives it. Plain addresses or RFC 5322 name-and-address."`
		Subject        string   `json:"subject,omitempty" maxLength:"998" doc:"Required unless draft_id gives it. No line breaks."`
		Text           string   `json:"text,omitempty" doc:"Plain text; derived from html when only html is given."`
		HTML           string   `json:"html,omitempty"`
		IdempotencyKey string   `json:"idempotency_key,omitempty" maxLength:"255" doc:"Same key and body on retry: the original result; same key, other body: 409 idempotency_conflict."`
		AttachmentIDs  []string `json:"attachment_ids,omitempty" maxItems:"10" doc:"Upload ids of this inbox; at most 10 and 10 MB in total; paid plan only."`
		Labels         []string `json:"labels,omitempty" maxItems:"20" doc:"Added to the outbound thread at once."`
		DraftID        string   `json:"draft_id,omitempty" doc:"A draft of this inbox: fields missing here are taken from it, and it is removed in the same transaction as the send, also when the send is a deduplicated retry."`
	}
}

type sentOut struct {
	Replayed string `header:"Idempotent-Replayed"`
	Body     outbound.Sent
}

type replyIn struct {
	ID   string `path:"id" doc:"Message id (msg_…) to answer."`
	Body struct {
		Text           string   `json:"text,omitempty"`
		HTML           string   `json:"html,omitempty"`
		ReplyAll       bool     `json:"reply_all,omitempty" doc:"Also to the message's other recipients (To and Cc), except this inbox."`
		IdempotencyKey string   `json:"idempotency_key,omitempty" maxLength:"255"`
		AttachmentIDs  []string `json:"attachment_ids,omitempty" maxItems:"10"`
		Labels         []string `json:"labels,omitempty" maxItems:"20"`
	}
}

type forwardIn struct {
	ID   string `path:"id" doc:"Message id (msg_…) to forward."`
	Body struct {
		To             []string `json:"to" minItems:"1" maxItems:"50"`
		Text           string   `json:"text,omitempty" doc:"Written above the quoted original."`
		IdempotencyKey string   `json:"idempotency_key,omitempty" maxLength:"255"`
	}
}

type deliveriesOut struct {
	Body struct {
		Data []delivery.Recipient `json:"data"`
	}
}

type domainAddIn struct {
	Body struct {
		Name string `json:"name" minLength:"3" maxLength:"253" doc:"The domain, for example mail.example.com."`
	}
}

type domainOut struct{ Body outbound.Domain }

type listDomainsOut struct{ Body *Page[outbound.Domain] }

type recipientAddIn struct {
	Body struct {
		Address string `json:"address" minLength:"3" maxLength:"254"`
	}
}

type recipientOut struct{ Body outbound.VerifiedRecipient }

type listRecipientsOut struct {
	Body *Page[outbound.VerifiedRecipient]
}

type confirmIn struct {
	Token string `query:"code" maxLength:"100" doc:"The code from the confirmation link."`
}

type listCapturesOut struct{ Body *Page[outbound.Capture] }

func validID(prefix, id, kind string) error {
	if !ids.Valid(prefix, id) {
		return apierr.NotFound(kind)
	}
	return nil
}

func replayed(ok bool) string {
	if ok {
		return "true"
	}
	return ""
}

func (s *Server) registerOutbound() {
	svc := s.deps.Outbound
	register(s, huma.Operation{
		OperationID: "createUpload", Method: http.MethodPost, Path: "/api/v1/inboxes/{id}/uploads", Tags: []string{"Sending"},
		Summary: "Upload a file to attach",
		Description: "Stores a file for this inbox and returns its id for `attachment_ids`. At most 10 MB decoded (413 `payload_too_large`, " +
			"checked on the encoded length before decoding). An upload no draft holds is removed 24 hours after it was made. " +
			"No idempotency key: a retried upload makes a second one, which expires unused.",
		DefaultStatus: http.StatusCreated, MaxBodyBytes: maxUploadBody,
	}, agentWith(auth.EmailSend), func(ctx context.Context, in *uploadIn) (*uploadOut, error) {
		if err := validInbox(in.ID); err != nil {
			return nil, err
		}
		u, err := svc.CreateUpload(ctx, auth.FromContext(ctx), in.ID, in.Body.Filename, in.Body.ContentBase64)
		if err != nil {
			return nil, err
		}
		return &uploadOut{Body: u}, nil
	})
	register(s, huma.Operation{
		OperationID: "deleteUpload", Errors: []int{409}, Method: http.MethodDelete, Path: "/api/v1/uploads/{id}", Tags: []string{"Sending"},
		Summary:       "Remove an unused upload",
		Description:   "409 `invalid_state` while a draft holds it (delete the draft instead).",
		DefaultStatus: http.StatusNoContent,
	}, agentWith(auth.EmailSend), func(ctx context.Context, in *idIn) (*struct{}, error) {
		if err := validID("upl", in.ID, "upload"); err != nil {
			return nil, err
		}
		return nil, svc.DeleteUpload(ctx, auth.FromContext(ctx), in.ID)
	})

	register(s, huma.Operation{
		OperationID: "createDraft", Method: http.MethodPost, Path: "/api/v1/inboxes/{id}/drafts", Tags: []string{"Drafts"},
		Summary:       "Create a draft",
		Description:   "A draft is what a person reviews before it goes: it stays until sent (send with `draft_id`) or deleted. Every field is optional; addresses and uploads are checked now, the rest when it is sent.",
		DefaultStatus: http.StatusCreated,
	}, agentWith(auth.EmailSend), func(ctx context.Context, in *draftCreateIn) (*draftOut, error) {
		if err := validInbox(in.ID); err != nil {
			return nil, err
		}
		d, err := svc.CreateDraft(ctx, auth.FromContext(ctx), in.ID, outbound.DraftInput{To: in.Body.To, Subject: in.Body.Subject,
			Text: in.Body.Text, HTML: in.Body.HTML, AttachmentIDs: in.Body.AttachmentIDs, ReplyToMessageID: in.Body.ReplyToMessageID})
		if err != nil {
			return nil, err
		}
		return &draftOut{Body: d}, nil
	})
	register(s, huma.Operation{
		OperationID: "listDrafts", Method: http.MethodGet, Path: "/api/v1/inboxes/{id}/drafts", Tags: []string{"Drafts"},
		Summary: "List drafts", Description: "Newest first, with their fields and held uploads.",
	}, agentWith(auth.EmailRead), func(ctx context.Context, in *listDraftsIn) (*listDraftsOut, error) {
		if err := validInbox(in.ID); err != nil {
			return nil, err
		}
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		items, err := svc.ListDrafts(ctx, auth.FromContext(ctx), in.ID, in.Limit+1, after)
		if err != nil {
			return nil, err
		}
		return &listDraftsOut{Body: pageOf(items, in.Limit, func(d outbound.Draft) string { return d.ID })}, nil
	})
	register(s, huma.Operation{
		OperationID: "getDraft", Method: http.MethodGet, Path: "/api/v1/drafts/{id}", Tags: []string{"Drafts"},
		Summary: "Read a draft",
	}, agentWith(auth.EmailRead), func(ctx context.Context, in *idIn) (*draftOut, error) {
		if err := validID("drf", in.ID, "draft"); err != nil {
			return nil, err
		}
		d, err := svc.GetDraft(ctx, auth.FromContext(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		return &draftOut{Body: d}, nil
	})
	register(s, huma.Operation{
		OperationID: "deleteDraft", Method: http.MethodDelete, Path: "/api/v1/drafts/{id}", Tags: []string{"Drafts"},
		Summary: "Delete a draft", Description: "Permanently removes the draft and the uploads it held.",
		DefaultStatus: http.StatusNoContent,
	}, agentWith(auth.EmailSend), func(ctx context.Context, in *idIn) (*struct{}, error) {
		if err := validID("drf", in.ID, "draft"); err != nil {
			return nil, err
		}
		return nil, svc.DeleteDraft(ctx, auth.FromContext(ctx), in.ID)
	})

	sentDoc := " Answers 202 with `{id, thread_id, inbox_id, status: \"queued\", message_id_header, recipients[]}`: the message is stored in the outbound thread and queued; " +
		"delivery follows (events message.delivered, message.delivery_delayed, message.bounced, message.failed; GET /api/v1/messages/{id}/deliveries). " +
		"The message is DKIM-signed for the inbox's domain. Over a plan limit the answer is 402 `quota_exceeded` naming the quota " +
		"(sends_per_day, sends_per_month, outbound_recipients, outbound_attachments, verified_recipients) and nothing is queued. " +
		"`idempotency_key`: a retry with the same body returns the original answer (header Idempotent-Replayed: true); another body is 409 `idempotency_conflict`."
	register(s, huma.Operation{
		OperationID: "sendMessage", Errors: []int{402}, Method: http.MethodPost, Path: "/api/v1/inboxes/{id}/messages", Tags: []string{"Sending"},
		Summary:       "Send a message",
		Description:   "Sends a new message from the inbox." + sentDoc,
		DefaultStatus: http.StatusAccepted,
	}, agentWith(auth.EmailSend), func(ctx context.Context, in *sendIn) (*sentOut, error) {
		if err := validInbox(in.ID); err != nil {
			return nil, err
		}
		b := in.Body
		sent, dup, err := svc.Send(ctx, auth.FromContext(ctx), in.ID, outbound.SendRequest{To: b.To, Subject: b.Subject, Text: b.Text, HTML: b.HTML,
			IdempotencyKey: b.IdempotencyKey, AttachmentIDs: b.AttachmentIDs, Labels: b.Labels, DraftID: b.DraftID})
		if err != nil {
			return nil, err
		}
		return &sentOut{Replayed: replayed(dup), Body: sent}, nil
	})
	register(s, huma.Operation{
		OperationID: "replyToMessage", Errors: []int{402}, Method: http.MethodPost, Path: "/api/v1/messages/{id}/reply", Tags: []string{"Sending"},
		Summary: "Reply to a message",
		Description: "Answers to the message's Reply-To (else its sender; for a message this inbox sent, its recipients), with `Re:` and the threading " +
			"headers In-Reply-To and References; `reply_all` adds its To and Cc, leaving out this inbox." + sentDoc,
		DefaultStatus: http.StatusAccepted,
	}, agentWith(auth.EmailSend), func(ctx context.Context, in *replyIn) (*sentOut, error) {
		if err := validID("msg", in.ID, "message"); err != nil {
			return nil, err
		}
		b := in.Body
		sent, dup, err := svc.Reply(ctx, auth.FromContext(ctx), in.ID, outbound.ReplyRequest{Text: b.Text, HTML: b.HTML, ReplyAll: b.ReplyAll,
			IdempotencyKey: b.IdempotencyKey, AttachmentIDs: b.AttachmentIDs, Labels: b.Labels})
		if err != nil {
			return nil, err
		}
		return &sentOut{Replayed: replayed(dup), Body: sent}, nil
	})
	register(s, huma.Operation{
		OperationID: "forwardMessage", Errors: []int{402}, Method: http.MethodPost, Path: "/api/v1/messages/{id}/forward", Tags: []string{"Sending"},
		Summary: "Forward a message",
		Description: "Sends the message on with `Fwd:`: `text` first, then the original quoted with its From, Date, Subject and To; " +
			"its attachments go along (paid plan)." + sentDoc,
		DefaultStatus: http.StatusAccepted,
	}, agentWith(auth.EmailSend), func(ctx context.Context, in *forwardIn) (*sentOut, error) {
		if err := validID("msg", in.ID, "message"); err != nil {
			return nil, err
		}
		sent, dup, err := svc.Forward(ctx, auth.FromContext(ctx), in.ID, outbound.ForwardRequest{To: in.Body.To, Text: in.Body.Text,
			IdempotencyKey: in.Body.IdempotencyKey})
		if err != nil {
			return nil, err
		}
		return &sentOut{Replayed: replayed(dup), Body: sent}, nil
	})
	register(s, huma.Operation{
		OperationID: "listDeliveries", Method: http.MethodGet, Path: "/api/v1/messages/{id}/deliveries", Tags: []string{"Sending"},
		Summary:     "Delivery status of a sent message",
		Description: "One item per recipient: status queued, delivered, bounced or failed, attempts, the last SMTP code and reply.",
	}, agentWith(auth.EmailRead), func(ctx context.Context, in *idIn) (*deliveriesOut, error) {
		if err := validID("msg", in.ID, "message"); err != nil {
			return nil, err
		}
		list, err := svc.Deliveries(ctx, auth.FromContext(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		out := &deliveriesOut{}
		out.Body.Data = list
		return out, nil
	})

	register(s, huma.Operation{
		OperationID: "addDomain", Method: http.MethodPost, Path: "/api/v1/domains", Tags: []string{"Domains"},
		Summary: "Add a custom sending domain",
		Description: "Generates a DKIM key (RSA 2048, stored sealed) and returns the DNS records to publish: MX, SPF, DKIM and DMARC. " +
			"Then call verify. 409 `already_exists` when any organization registered the name.",
		DefaultStatus: http.StatusCreated,
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *domainAddIn) (*domainOut, error) {
		d, err := svc.AddDomain(ctx, auth.FromContext(ctx), in.Body.Name)
		if err != nil {
			return nil, err
		}
		return &domainOut{Body: d}, nil
	})
	register(s, huma.Operation{
		OperationID: "listDomains", Method: http.MethodGet, Path: "/api/v1/domains", Tags: []string{"Domains"},
		Summary: "List sending domains", Description: "The organization's mail domain (`default`) and its custom domains, newest first.",
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *PageParams) (*listDomainsOut, error) {
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		items, err := svc.ListDomains(ctx, auth.FromContext(ctx), in.Limit+1, after)
		if err != nil {
			return nil, err
		}
		return &listDomainsOut{Body: pageOf(items, in.Limit, func(d outbound.Domain) string { return d.ID })}, nil
	})
	register(s, huma.Operation{
		OperationID: "getDomain", Method: http.MethodGet, Path: "/api/v1/domains/{id}", Tags: []string{"Domains"},
		Summary: "Read a domain with its DNS records",
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *idIn) (*domainOut, error) {
		if err := validID("dom", in.ID, "domain"); err != nil {
			return nil, err
		}
		d, err := svc.GetDomain(ctx, auth.FromContext(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		return &domainOut{Body: d}, nil
	})
	register(s, huma.Operation{
		OperationID: "verifyDomain", Method: http.MethodPost, Path: "/api/v1/domains/{id}/verify", Tags: []string{"Domains"},
		Summary: "Check a domain's DNS records",
		Description: "Looks up the four records; each gets status ok, missing or mismatch. When all are ok the domain becomes verified " +
			"and domain.verified is appended (once).",
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *idIn) (*domainOut, error) {
		if err := validID("dom", in.ID, "domain"); err != nil {
			return nil, err
		}
		d, err := svc.VerifyDomain(ctx, auth.FromContext(ctx), in.ID)
		if err != nil {
			return nil, err
		}
		return &domainOut{Body: d}, nil
	})
	register(s, huma.Operation{
		OperationID: "deleteDomain", Errors: []int{409}, Method: http.MethodDelete, Path: "/api/v1/domains/{id}", Tags: []string{"Domains"},
		Summary: "Remove a custom domain", Description: "The organization's mail domain cannot be removed (409 `invalid_state`).",
		DefaultStatus: http.StatusNoContent,
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *idIn) (*struct{}, error) {
		if err := validID("dom", in.ID, "domain"); err != nil {
			return nil, err
		}
		return nil, svc.DeleteDomain(ctx, auth.FromContext(ctx), in.ID)
	})

	register(s, huma.Operation{
		OperationID: "addVerifiedRecipient", Method: http.MethodPost, Path: "/api/v1/verified-recipients", Tags: []string{"Sending"},
		Summary: "Add a recipient a sandbox organization may send to",
		Description: "Mails the address a confirmation link; once opened, the address is verified. Adding an unconfirmed address again " +
			"sends a new link (the old one stops working). 409 `already_exists` when it is verified already. " +
			"The sandbox plan sends only to verified recipients and to the organization's own inboxes.",
		DefaultStatus: http.StatusCreated,
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *recipientAddIn) (*recipientOut, error) {
		v, err := svc.AddRecipient(ctx, auth.FromContext(ctx), in.Body.Address)
		if err != nil {
			return nil, err
		}
		return &recipientOut{Body: v}, nil
	})
	register(s, huma.Operation{
		OperationID: "listVerifiedRecipients", Method: http.MethodGet, Path: "/api/v1/verified-recipients", Tags: []string{"Sending"},
		Summary: "List verified and pending recipients",
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *PageParams) (*listRecipientsOut, error) {
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		items, err := svc.ListRecipients(ctx, auth.FromContext(ctx), in.Limit+1, after)
		if err != nil {
			return nil, err
		}
		return &listRecipientsOut{Body: pageOf(items, in.Limit, func(v outbound.VerifiedRecipient) string { return v.ID })}, nil
	})
	register(s, huma.Operation{
		OperationID: "deleteVerifiedRecipient", Method: http.MethodDelete, Path: "/api/v1/verified-recipients/{id}", Tags: []string{"Sending"},
		Summary: "Remove a verified recipient", DefaultStatus: http.StatusNoContent,
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *idIn) (*struct{}, error) {
		if err := validID("vrc", in.ID, "verified recipient"); err != nil {
			return nil, err
		}
		return nil, svc.DeleteRecipient(ctx, auth.FromContext(ctx), in.ID)
	})
	register(s, huma.Operation{
		OperationID: "confirmVerifiedRecipient", Errors: []int{404}, Method: http.MethodGet, Path: "/api/v1/verified-recipients/confirm", Tags: []string{"Sending"},
		Summary:     "Confirm a recipient (the link in the confirmation mail)",
		Description: "Opened by the recipient from the confirmation mail. 404 for an unknown or replaced link; opening it twice is harmless.",
	}, public(), func(ctx context.Context, in *confirmIn) (*recipientOut, error) {
		v, err := svc.ConfirmRecipient(ctx, in.Token)
		if err != nil {
			return nil, err
		}
		return &recipientOut{Body: v}, nil
	})

	register(s, huma.Operation{
		OperationID: "listOutboundCaptures", Method: http.MethodGet, Path: "/api/v1/outbound-captures", Tags: []string{"Sending"},
		Summary: "Mail kept instead of sent (dev mode)",
		Description: "With no --smtp-relay in dev mode, mail to addresses outside this service is not sent but kept here, newest first, " +
			"with the raw signed message.",
	}, orgKeyWith(auth.InboxesManage), func(ctx context.Context, in *PageParams) (*listCapturesOut, error) {
		after, err := in.after()
		if err != nil {
			return nil, err
		}
		items, err := svc.ListCaptures(ctx, auth.FromContext(ctx), in.Limit+1, after)
		if err != nil {
			return nil, err
		}
		return &listCapturesOut{Body: pageOf(items, in.Limit, func(c outbound.Capture) string { return c.ID })}, nil
	})
}
