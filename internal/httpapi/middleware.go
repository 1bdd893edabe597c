package httpapi

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"runtime/debug"
	"strings"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
)

// reqInfo travels in the request context so that the outer middleware can
// log and count what inner layers learned (the route, the caller).
type reqInfo struct {
	id        string
	pattern   string
	principal *auth.Principal
}

type infoKey struct{}

func infoFrom(ctx context.Context) *reqInfo {
	i, _ := ctx.Value(infoKey{}).(*reqInfo)
	return i
}

func requestID(ctx context.Context) string {
	if i := infoFrom(ctx); i != nil {
		return i.id
	}
	return ""
}

// chain wraps the router in the middleware every request passes:
// request id, recovery, logging and metrics; then authentication, rate
// limiting and idempotency.
func (s *Server) chain(h http.Handler) http.Handler {
	h = s.idempotent(h)
	h = s.rateLimit(h)
	h = s.authenticate(h)
	return s.observe(h)
}

// responseWriter remembers the status for logs and metrics.
type responseWriter struct {
	http.ResponseWriter
	status int
	bytes  int
}

func (w *responseWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *responseWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	n, err := w.ResponseWriter.Write(b)
	w.bytes += n
	return n, err
}

func (w *responseWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (w *responseWriter) Flush() {
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

func validRequestID(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &reqInfo{id: r.Header.Get("X-Request-Id")}
		if !validRequestID(info.id) {
			info.id = newRequestID()
		}
		w.Header().Set("X-Request-Id", info.id)
		rw := &responseWriter{ResponseWriter: w}
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.log.Error("panic while serving", "request_id", info.id, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
				if rw.status == 0 {
					writeError(rw, apierr.Internal(fmt.Errorf("panic: %v", v)))
				}
			}
			route := info.pattern
			if route == "" {
				route = "unmatched"
			}
			elapsed := time.Since(start)
			s.metrics.observe(route, r.Method, rw.status, elapsed)
			attrs := []any{"request_id", info.id, "method", r.Method, "route", route, "path", r.URL.Path,
				"status", rw.status, "duration_ms", float64(elapsed.Microseconds()) / 1000}
			if p := info.principal; p != nil {
				attrs = append(attrs, "org_id", p.OrgID, "credential_id", p.CredentialID)
			}
			s.log.Info("request", attrs...)
		}()
		next.ServeHTTP(rw, r)
	})
}

// tokenParams are query parameter names that would carry a credential.
var tokenParams = []string{"access_token", "token", "api_key", "apikey", "key", "bearer", "authorization"}

func (s *Server) authenticate(next http.Handler) http.Handler {
	const hint = "send the token in the header Authorization: Bearer <token>; query strings and cookies end up in logs and browser history"
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		for _, name := range tokenParams {
			if q.Has(name) {
				writeError(w, apierr.Unauthorized("credentials are not accepted in the query string (parameter "+name+")", hint))
				return
			}
		}
		for _, vs := range q {
			for _, v := range vs {
				if auth.LooksLikeSecret(v) {
					writeError(w, apierr.Unauthorized("credentials are not accepted in the query string", hint))
					return
				}
			}
		}
		for _, c := range r.Cookies() {
			if auth.LooksLikeSecret(c.Value) || strings.EqualFold(c.Name, "authorization") || strings.EqualFold(c.Name, "token") {
				writeError(w, apierr.Unauthorized("credentials are not accepted in cookies", hint))
				return
			}
		}
		header := r.Header.Get("Authorization")
		if header == "" {
			next.ServeHTTP(w, r)
			return
		}
		scheme, token, ok := strings.Cut(header, " ")
		if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
			writeError(w, apierr.Unauthorized("malformed Authorization header", "use the form: Authorization: Bearer <token>"))
			return
		}
		p, err := s.deps.Authn.Authenticate(r.Context(), strings.TrimSpace(token))
		if err != nil {
			e := apierr.From(err)
			if e.Status >= 500 {
				s.log.Error("authentication failed", "err", err, "request_id", requestID(r.Context()))
			}
			writeError(w, e)
			return
		}
		if info := infoFrom(r.Context()); info != nil {
			info.principal = p
		}
		next.ServeHTTP(w, r.WithContext(auth.WithPrincipal(r.Context(), p)))
	})
}

func (s *Server) rateLimit(next http.Handler) http.Handler {
	if s.limiter == nil {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		key := "ip:" + clientIP(r)
		if p := auth.FromContext(r.Context()); p != nil {
			key = "cred:" + p.CredentialID
		}
		if wait, ok := s.limiter.allow(key); !ok {
			writeError(w, apierr.RateLimited(wait))
			return
		}
		next.ServeHTTP(w, r)
	})
}

func clientIP(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
