package httpapi_test

import (
	"encoding/json"
	"slices"
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
