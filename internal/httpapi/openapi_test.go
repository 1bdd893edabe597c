package httpapi_test

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	"github.com/pb33f/libopenapi-validator/schema_validation"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/store"
)

// TestOpenAPIDocument checks that /api/v1/openapi.json is a valid OpenAPI 3.1
// document that describes every routed operation with its scope and the
// error envelope.
func TestOpenAPIDocument(t *testing.T) {
	env := apptest.Start(t, store.SQLite)
	r := env.Must(200, env.Do("GET", "/api/v1/openapi.json", "", nil))

	doc, err := libopenapi.NewDocument(r.Body)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if ok, errs := schema_validation.ValidateOpenAPIDocument(doc); !ok {
		for _, e := range errs {
			t.Errorf("invalid OpenAPI: %s: %s", e.Message, e.Reason)
			for _, se := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s", se.Reason, se.FieldPath)
			}
		}
	}

	var spec struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			Security []map[string][]string `json:"security"`
			Auth     struct {
				Credential string   `json:"credential"`
				Capability string   `json:"capability"`
				AnyOf      []string `json:"capability_any_of"`
			} `json:"x-agentsvc-auth"`
			Responses map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	r.Decode(t, &spec)
	if spec.OpenAPI != "3.1.0" {
		t.Errorf("openapi = %q, want 3.1.0", spec.OpenAPI)
	}
	for _, rt := range env.App.API.Routes() {
		ops, ok := spec.Paths[rt.Path]
		if !ok {
			t.Errorf("%s %s is routed but not in the document", rt.Method, rt.Path)
			continue
		}
		op, ok := ops[lower(rt.Method)]
		if !ok {
			t.Errorf("%s %s is routed but the document lacks the method", rt.Method, rt.Path)
			continue
		}
		if rt.Access.Public {
			continue
		}
		if len(op.Security) == 0 {
			t.Errorf("%s %s: no security requirement", rt.Method, rt.Path)
		}
		if op.Auth.Capability != rt.Access.Capability || op.Auth.Credential != string(rt.Access.Kind) || !slices.Equal(op.Auth.AnyOf, rt.Access.AnyOf) {
			t.Errorf("%s %s: x-agentsvc-auth = %+v, want %s/%s/%v", rt.Method, rt.Path, op.Auth, rt.Access.Kind, rt.Access.Capability, rt.Access.AnyOf)
		}
		for _, code := range []string{"400", "401", "403"} {
			if _, ok := op.Responses[code]; !ok {
				t.Errorf("%s %s: no %s response described", rt.Method, rt.Path, code)
			}
		}
	}
	if _, ok := spec.Components.Schemas["ErrorEnvelope"]; !ok {
		t.Errorf("the error envelope schema ErrorEnvelope is not in components")
	}
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// TestOpenAPIErrorResponses checks that the error statuses the document
// declares match what operations answer: 404 on every operation naming a
// resource in its path, the 409, 413, 415 and 422 of the mail operations
// that return them, no 422 where validation errors are 400, and every error
// status a description mentions declared as a response.
func TestOpenAPIErrorResponses(t *testing.T) {
	env := apptest.Start(t, store.SQLite)
	var spec struct {
		Paths map[string]map[string]struct {
			OperationID string                     `json:"operationId"`
			Description string                     `json:"description"`
			Responses   map[string]json.RawMessage `json:"responses"`
		} `json:"paths"`
	}
	env.Must(200, env.Do("GET", "/api/v1/openapi.json", "", nil)).Decode(t, &spec)

	must := map[string][]string{
		"deleteThread":      {"404", "409"},
		"releaseThread":     {"404", "409"},
		"updateThread":      {"404", "409"},
		"createSenderRule":  {"404", "409"},
		"getAttachment":     {"404", "409"},
		"getAttachmentText": {"404", "409", "413", "415", "422"},
		"getMessageRaw":     {"404", "409"},
		"getMessage":        {"404"},
		"waitForMail":       {"404", "413", "415"},
	}
	// 422 is answered only when a stored file cannot be read; validation
	// failures are 400.
	with422 := map[string]bool{"getAttachmentText": true}
	mentioned := regexp.MustCompile(`\b([45][0-9][0-9])\b`)

	seen := map[string]bool{}
	for path, ops := range spec.Paths {
		for method, op := range ops {
			name := op.OperationID
			seen[name] = true
			declared := func(code string) bool { _, ok := op.Responses[code]; return ok }
			if strings.Contains(path, "{") && !declared("404") {
				t.Errorf("%s (%s %s) names a resource but declares no 404", name, method, path)
			}
			if declared("422") != with422[name] {
				t.Errorf("%s: declares 422 = %v, answers it = %v", name, declared("422"), with422[name])
			}
			for _, code := range must[name] {
				if !declared(code) {
					t.Errorf("%s: no %s response declared", name, code)
				}
			}
			for _, m := range mentioned.FindAllStringSubmatch(op.Description, -1) {
				if !declared(m[1]) {
					t.Errorf("%s: the description mentions %s but no such response is declared", name, m[1])
				}
			}
		}
	}
	for name := range must {
		if !seen[name] {
			t.Errorf("operation %s not in the document", name)
		}
	}
}
