package httpapi_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/ids"
)

// The sending side's rows, added to the auth matrix.
func init() {
	for k, v := range outboundMatrix {
		matrix[k] = v
	}
}

func (f *fixture) upload(a apptest.Agent) string {
	r := f.env.Must(201, f.env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/uploads", a.Token,
		map[string]any{"filename": "f.txt", "content_base64": "aGVsbG8="}))
	return r.JSON()["id"].(string)
}

func (f *fixture) draft(a apptest.Agent) string {
	r := f.env.Must(201, f.env.Do("POST", "/api/v1/inboxes/"+a.InboxID+"/drafts", a.Token, map[string]any{"subject": "draft"}))
	return r.JSON()["id"].(string)
}

func (f *fixture) domain(key string) string {
	r := f.env.Must(201, f.env.Do("POST", "/api/v1/domains", key, map[string]any{"name": f.unique("matrix") + ".example"}))
	return r.JSON()["id"].(string)
}

func (f *fixture) recipient(key string) string {
	r := f.env.Must(201, f.env.Do("POST", "/api/v1/verified-recipients", key, map[string]any{"address": f.unique("r") + "@example.test"}))
	return r.JSON()["id"].(string)
}

// confirmCode stores a pending recipient with a known code.
func (f *fixture) confirmCode() string {
	code := f.unique("code-") + fmt.Sprint(time.Now().UnixNano())
	sum := sha256.Sum256([]byte(code))
	_, err := f.env.App.DB.ExecContext(context.Background(), `INSERT INTO verified_recipients (id, org_id, address, token_hash, verified_at, created_at)
		VALUES ($1, $2, $3, $4, 0, 1)`, ids.New("vrc"), f.env.Creds.OrganizationID, code+"@example.test", hex.EncodeToString(sum[:]))
	if err != nil {
		f.env.T.Fatal(err)
	}
	return code
}

var outboundMatrix = map[string]matrixRow{
	"POST /api/v1/inboxes/{id}/uploads": {201, inboxRoute("/uploads", `{"filename":"a.txt","content_base64":"aGk="}`)},
	"DELETE /api/v1/uploads/{id}": {204, func(f *fixture) target {
		return target{path: "/api/v1/uploads/" + f.upload(f.agent), foreignPath: "/api/v1/uploads/" + f.upload(f.other)}
	}},
	"POST /api/v1/inboxes/{id}/drafts": {201, inboxRoute("/drafts", `{"to":["a@example.test"],"subject":"s"}`)},
	"GET /api/v1/inboxes/{id}/drafts":  {200, inboxRoute("/drafts", "")},
	"GET /api/v1/drafts/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/drafts/" + f.draft(f.agent), foreignPath: "/api/v1/drafts/" + f.draft(f.other)}
	}},
	"DELETE /api/v1/drafts/{id}": {204, func(f *fixture) target {
		return target{path: "/api/v1/drafts/" + f.draft(f.agent), foreignPath: "/api/v1/drafts/" + f.draft(f.other)}
	}},
	"POST /api/v1/inboxes/{id}/messages": {202, func(f *fixture) target {
		return inboxRoute("/messages", fmt.Sprintf(`{"to":["a@example.test"],"subject":%q,"text":"x"}`, f.unique("s")))(f)
	}},
	"POST /api/v1/messages/{id}/reply": {202, func(f *fixture) target {
		return target{path: "/api/v1/messages/" + f.mail(f.agent, false, "").msg + "/reply", body: `{"text":"ok"}`,
			foreignPath: "/api/v1/messages/" + f.mail(f.other, false, "").msg + "/reply"}
	}},
	"POST /api/v1/messages/{id}/forward": {202, func(f *fixture) target {
		return target{path: "/api/v1/messages/" + f.mail(f.agent, false, "").msg + "/forward", body: `{"to":["b@example.test"],"text":"fyi"}`,
			foreignPath: "/api/v1/messages/" + f.mail(f.other, false, "").msg + "/forward"}
	}},
	"GET /api/v1/messages/{id}/deliveries": {200, func(f *fixture) target {
		return target{path: "/api/v1/messages/" + f.mail(f.agent, false, "").msg + "/deliveries",
			foreignPath: "/api/v1/messages/" + f.mail(f.other, false, "").msg + "/deliveries"}
	}},
	"POST /api/v1/domains": {201, func(f *fixture) target {
		return target{path: "/api/v1/domains", body: fmt.Sprintf(`{"name":"%s.example"}`, f.unique("dom"))}
	}},
	"GET /api/v1/domains": {200, static("/api/v1/domains")},
	"GET /api/v1/domains/{id}": {200, func(f *fixture) target {
		return target{path: "/api/v1/domains/" + f.domain(f.key), foreignPath: "/api/v1/domains/" + f.domain(f.foreignKey())}
	}},
	"POST /api/v1/domains/{id}/verify": {200, func(f *fixture) target {
		return target{path: "/api/v1/domains/" + f.domain(f.key) + "/verify", foreignPath: "/api/v1/domains/" + f.domain(f.foreignKey()) + "/verify"}
	}},
	"DELETE /api/v1/domains/{id}": {204, func(f *fixture) target {
		return target{path: "/api/v1/domains/" + f.domain(f.key), foreignPath: "/api/v1/domains/" + f.domain(f.foreignKey())}
	}},
	"POST /api/v1/verified-recipients": {201, func(f *fixture) target {
		return target{path: "/api/v1/verified-recipients", body: fmt.Sprintf(`{"address":"%s@example.test"}`, f.unique("v"))}
	}},
	"GET /api/v1/verified-recipients": {200, static("/api/v1/verified-recipients")},
	"DELETE /api/v1/verified-recipients/{id}": {204, func(f *fixture) target {
		return target{path: "/api/v1/verified-recipients/" + f.recipient(f.key), foreignPath: "/api/v1/verified-recipients/" + f.recipient(f.foreignKey())}
	}},
	"GET /api/v1/verified-recipients/confirm": {200, func(f *fixture) target {
		return target{path: "/api/v1/verified-recipients/confirm?code=" + f.confirmCode()}
	}},
	"GET /api/v1/outbound-captures": {200, static("/api/v1/outbound-captures")},
}
