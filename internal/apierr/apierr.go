// Package apierr is the one error type that domain code returns when a client
// did something the service refuses. Each adapter (REST, MCP, dashboard)
// translates it once; Message and Hint go to the client, Err only to the log.
package apierr

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// Codes are stable strings clients may switch on. The README lists them all.
const (
	CodeInvalidRequest        = "invalid_request"
	CodeUnauthorized          = "unauthorized"
	CodeForbidden             = "forbidden"
	CodeNotFound              = "not_found"
	CodeMethodNotAllowed      = "method_not_allowed"
	CodeConflict              = "conflict"
	CodeAlreadyExists         = "already_exists"
	CodeInvalidState          = "invalid_state"
	CodeIdempotencyConflict   = "idempotency_conflict"
	CodeIdempotencyInProgress = "idempotency_in_progress"
	CodeQuotaExceeded         = "quota_exceeded"
	CodePayloadTooLarge       = "payload_too_large"
	CodeUnsupportedMediaType  = "unsupported_media_type"
	CodeUnreadableContent     = "unreadable_content"
	CodeRateLimited           = "rate_limited"
	CodeInternal              = "internal_error"
	CodeUnavailable           = "service_unavailable"
)

// Codes lists every code with the HTTP status it travels with, for the README
// and for the test that keeps the two in step.
var Codes = []struct {
	Code   string
	Status int
	Doc    string
}{
	{CodeInvalidRequest, 400, "a parameter or body field is missing, malformed or out of range; the message names it"},
	{CodeUnauthorized, 401, "no bearer token, a malformed, unknown or revoked one, or a token sent in the query string or a cookie"},
	{CodeQuotaExceeded, 402, "a plan quota is reached; the message names the quota"},
	{CodeForbidden, 403, "the token is valid but lacks the capability, or is the wrong kind of credential for the endpoint"},
	{CodeNotFound, 404, "no such resource, or the token cannot see it; also unknown routes"},
	{CodeMethodNotAllowed, 405, "the route exists but not with this method"},
	{CodeConflict, 409, "the request conflicts with current state"},
	{CodeAlreadyExists, 409, "a unique name or address is already taken"},
	{CodeInvalidState, 409, "the resource is not in a state that allows the operation"},
	{CodeIdempotencyConflict, 409, "an idempotency key was reused with a different request"},
	{CodeIdempotencyInProgress, 409, "a request with the same idempotency key is still running"},
	{CodePayloadTooLarge, 413, "the request body exceeds the limit"},
	{CodeUnsupportedMediaType, 415, "the body is not application/json, or a file is of a type the operation cannot read"},
	{CodeUnreadableContent, 422, "a stored file (an attachment) could not be read or took too long to read"},
	{CodeRateLimited, 429, "too many requests; wait for Retry-After seconds"},
	{CodeInternal, 500, "the service failed; the request id in the logs identifies it"},
	{CodeUnavailable, 503, "a dependency of this operation is not available on this installation; the hint says what to do"},
}

// Error is a client-facing failure.
type Error struct {
	Status  int    // HTTP status
	Code    string // stable code
	Message string // for the client
	Hint    string // optional, for the client: what to do about it
	Err     error  // cause, for the log only

	// RetryAfter is set for rate limiting.
	RetryAfter time.Duration
}

func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %s: %v", e.Code, e.Message, e.Err)
	}
	return e.Code + ": " + e.Message
}

func (e *Error) Unwrap() error { return e.Err }

// WithHint returns a copy of e carrying a hint.
func (e *Error) WithHint(hint string) *Error {
	c := *e
	c.Hint = hint
	return &c
}

// Headers are the response headers the error needs (Retry-After).
func (e *Error) Headers() http.Header {
	if e.RetryAfter <= 0 {
		return nil
	}
	secs := int((e.RetryAfter + time.Second - 1) / time.Second)
	return http.Header{"Retry-After": []string{strconv.Itoa(secs)}}
}

func newf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Invalid is a 400 naming the offending field.
func Invalid(field, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	if field != "" {
		msg = field + ": " + msg
	}
	return &Error{Status: 400, Code: CodeInvalidRequest, Message: msg}
}

func Unauthorized(msg, hint string) *Error {
	return &Error{Status: 401, Code: CodeUnauthorized, Message: msg, Hint: hint}
}

func Forbidden(msg, hint string) *Error {
	return &Error{Status: 403, Code: CodeForbidden, Message: msg, Hint: hint}
}

// NotFound says that a resource of the given kind does not exist for the caller.
func NotFound(kind string) *Error { return newf(404, CodeNotFound, "%s not found", kind) }

func Conflict(code, format string, args ...any) *Error {
	return newf(409, code, format, args...)
}

// QuotaExceeded is a 402 naming the quota.
func QuotaExceeded(quota, format string, args ...any) *Error {
	e := newf(402, CodeQuotaExceeded, format, args...)
	e.Message = "quota " + quota + " reached: " + e.Message
	return e
}

func RateLimited(retryAfter time.Duration) *Error {
	return &Error{Status: 429, Code: CodeRateLimited, Message: "too many requests", RetryAfter: retryAfter,
		Hint: "wait for the number of seconds in the Retry-After header"}
}

func Unavailable(msg, hint string) *Error {
	return &Error{Status: 503, Code: CodeUnavailable, Message: msg, Hint: hint}
}

// Internal hides err from the client.
func Internal(err error) *Error {
	return &Error{Status: 500, Code: CodeInternal, Message: "internal error", Err: err}
}

// ErrNotFound is the sentinel storage code wraps when a row is missing; From
// turns it into a 404.
var ErrNotFound = errors.New("not found")

// From converts any error to an *Error: an *Error in the chain is returned
// as is, ErrNotFound becomes a 404, anything else is internal.
func From(err error) *Error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(err, ErrNotFound) {
		return &Error{Status: 404, Code: CodeNotFound, Message: "not found", Err: err}
	}
	return Internal(err)
}
