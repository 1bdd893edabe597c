package httpapi_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

// TestNullResultsMatchDocument validates real answers of wait and
// extract/code against the served OpenAPI document: on timeout they carry
// null for message (and screening), which the document must allow so that
// generated clients accept it; a matched message validates too, and a body
// the document does not allow is caught (so the check can fail).
func TestNullResultsMatchDocument(t *testing.T) {
	env := apptest.Start(t, store.SQLite)
	doc, err := libopenapi.NewDocument(env.Must(200, env.Do("GET", "/api/v1/openapi.json", "", nil)).Body)
	if err != nil {
		t.Fatal(err)
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		t.Fatalf("validator: %v", errs)
	}
	a := env.NewAgent("nulls", auth.EmailRead)

	call := func(path, body string) (*http.Request, *http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("POST", env.BaseURL+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+a.Token)
		req.Header.Set("Content-Type", "application/json")
		resp, err := env.Client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(raw))
		// The validator reads the request body again.
		req.Body = io.NopCloser(strings.NewReader(body))
		return req, resp, raw
	}
	check := func(label string, req *http.Request, resp *http.Response, raw []byte, wantValid bool) {
		t.Helper()
		ok, verrs := v.ValidateHttpResponse(req, resp)
		if ok != wantValid {
			var why []string
			for _, e := range verrs {
				why = append(why, e.Message+": "+e.Reason)
				for _, se := range e.SchemaValidationErrors {
					why = append(why, "  "+se.Reason+" at "+se.FieldPath)
				}
			}
			t.Errorf("%s: valid = %v, want %v; body %s\n%s", label, ok, wantValid, raw, strings.Join(why, "\n"))
		}
	}

	wait := "/api/v1/inboxes/" + a.InboxID + "/wait"
	extract := "/api/v1/inboxes/" + a.InboxID + "/extract/code"
	req, resp, raw := call(wait, `{"from":"nobody.example"}`)
	if resp.StatusCode != 200 || !bytes.Contains(raw, []byte(`"message":null`)) {
		t.Fatalf("wait timeout: %d %s", resp.StatusCode, raw)
	}
	check("wait, null message", req, resp, raw, true)
	req, resp, raw = call(extract, `{"from":"nobody.example"}`)
	if resp.StatusCode != 200 || !bytes.Contains(raw, []byte(`"screening":null`)) {
		t.Fatalf("extract timeout: %d %s", resp.StatusCode, raw)
	}
	check("extract/code, nulls", req, resp, raw, true)

	// With a match the object validates as well.
	since := time.Now().Add(-time.Second).UTC().Format(time.RFC3339Nano)
	if err := apptest.SendMail(env.SMTPAddr(), "codes@nulls.example", []string{a.Address},
		strings.ReplaceAll("From: codes@nulls.example\nTo: "+a.Address+"\nSubject: Code\nMessage-ID: <n1@nulls.example>\n\nYour code is 246810.\n", "\n", "\r\n")); err != nil {
		t.Fatal(err)
	}
	req, resp, raw = call(extract, `{"from":"nulls.example","wait_seconds":15,"since":"`+since+`"}`)
	if resp.StatusCode != 200 || !bytes.Contains(raw, []byte(`"code":"246810"`)) {
		t.Fatalf("extract: %d %s", resp.StatusCode, raw)
	}
	check("extract/code, match", req, resp, raw, true)

	// A body the document does not allow is reported.
	req, resp, _ = call(wait, `{"from":"nobody.example"}`)
	bad := []byte(`{"message":5}`)
	resp.Body = io.NopCloser(bytes.NewReader(bad))
	check("wait, a number for message", req, resp, bad, false)
}
