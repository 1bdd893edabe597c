package httpapi

import (
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/agentsvc/agentsvc/internal/apierr"
)

// ErrorBody is the errorEnvelope of every non-2xx response.
type ErrorBody struct {
	Error ErrorDetail `json:"error"`
}

// ErrorDetail is the inside of the errorEnvelope.
type ErrorDetail struct {
	Code    string `json:"code" doc:"Stable error code; the README lists them all." example:"invalid_request"`
	Message string `json:"message" doc:"What went wrong, for people."`
	Hint    string `json:"hint,omitempty" doc:"What to do about it, when we know."`
}

// errorEnvelope is the error value huma writes. It carries its status and headers.
type errorEnvelope struct {
	status  int
	headers http.Header
	ErrorBody
}

func (e *errorEnvelope) Error() string {
	return e.ErrorBody.Error.Code + ": " + e.ErrorBody.Error.Message
}
func (e *errorEnvelope) GetStatus() int          { return e.status }
func (e *errorEnvelope) GetHeaders() http.Header { return e.headers }

// ContentType makes huma label error bodies as JSON like every other body.
func (e *errorEnvelope) ContentType(string) string { return "application/json" }

func fromAPIError(e *apierr.Error) *errorEnvelope {
	return &errorEnvelope{status: e.Status, headers: e.Headers(), ErrorBody: ErrorBody{ErrorDetail{Code: e.Code, Message: e.Message, Hint: e.Hint}}}
}

// statusCodes names the code for errors huma raises itself (validation,
// parsing, size), keyed by status.
var statusCodes = map[int]string{
	400: apierr.CodeInvalidRequest,
	401: apierr.CodeUnauthorized,
	403: apierr.CodeForbidden,
	404: apierr.CodeNotFound,
	405: apierr.CodeMethodNotAllowed,
	409: apierr.CodeConflict,
	413: apierr.CodePayloadTooLarge,
	415: apierr.CodeUnsupportedMediaType,
	429: apierr.CodeRateLimited,
	500: apierr.CodeInternal,
	503: apierr.CodeUnavailable,
}

// hookHumaErrors makes huma build our errorEnvelope for the errors it raises by
// itself. Huma has 422 for validation failures; our contract says 400.
func hookHumaErrors() {
	huma.NewError = func(status int, msg string, errs ...error) huma.StatusError {
		if status == http.StatusUnprocessableEntity {
			status = http.StatusBadRequest
		}
		var details []string
		for _, err := range errs {
			if err == nil {
				continue
			}
			var d *huma.ErrorDetail
			if errors.As(err, &d) {
				details = append(details, describeDetail(d))
				continue
			}
			details = append(details, err.Error())
		}
		if len(details) > 0 {
			if msg == "validation failed" || msg == "" {
				msg = strings.Join(details, "; ")
			} else {
				msg = msg + ": " + strings.Join(details, "; ")
			}
		}
		code := statusCodes[status]
		if code == "" {
			code = apierr.CodeInvalidRequest
			if status >= 500 {
				code = apierr.CodeInternal
			}
		}
		e := &errorEnvelope{status: status, ErrorBody: ErrorBody{ErrorDetail{Code: code, Message: msg}}}
		if status == http.StatusBadRequest && strings.Contains(msg, "unexpected property") {
			e.ErrorBody.Error.Hint = "remove the fields this endpoint does not know; the OpenAPI document at /api/v1/openapi.json lists them"
		}
		return e
	}
}

// describeDetail renders "body.name: expected string" — the field first,
// since that is what a client must fix.
func describeDetail(d *huma.ErrorDetail) string {
	if d.Location == "" {
		return d.Message
	}
	return d.Location + ": " + d.Message
}

// writeError writes the errorEnvelope outside huma (middleware, unknown routes).
func writeError(w http.ResponseWriter, e *apierr.Error) {
	h := w.Header()
	for k, v := range e.Headers() {
		h[k] = v
	}
	h.Set("Content-Type", "application/json")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(e.Status)
	_ = json.NewEncoder(w).Encode(ErrorBody{ErrorDetail{Code: e.Code, Message: e.Message, Hint: e.Hint}})
}
