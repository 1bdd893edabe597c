// Package httpapi is the REST adapter: routing, authentication and scope
// checks, the error errorEnvelope, pagination, idempotency, rate limits, metrics
// and the OpenAPI document, all generated from the same operation
// definitions (huma) so the document cannot drift from what is served.
package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/email"
	"github.com/agentsvc/agentsvc/internal/email/mailbox"
	"github.com/agentsvc/agentsvc/internal/email/outbound"
	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/org"
	"github.com/agentsvc/agentsvc/internal/store"
	"github.com/agentsvc/agentsvc/internal/vault"
	"github.com/agentsvc/agentsvc/internal/webhooks"
)

// Deps are the domain services the API translates to.
type Deps struct {
	DB      *store.DB
	Authn   *auth.Authenticator
	Orgs    *org.Service
	Inboxes *email.Service
	Vault   *vault.Service
	Mailbox *mailbox.Service
	Logger  *slog.Logger
	// Metrics receives the request metrics; nil means none.
	Metrics prometheus.Registerer
	Version string

	// Machines is the machines feature.
	Machines *machines.Service
	// Outbound is the sending side (uploads, drafts, send, domains).
	Outbound *outbound.Service
	Webhooks *webhooks.Service
}

// Options tune limits.
type Options struct {
	// RateLimit is the sustained requests per second allowed per credential
	// (or per client address without one); 0 disables rate limiting.
	RateLimit float64
	// RateBurst is how many requests may come at once above the rate.
	RateBurst int
	// MaxBodyBytes caps request bodies (default 1 MiB).
	MaxBodyBytes int64
}

// Server is the REST API.
type Server struct {
	deps    Deps
	opts    Options
	log     *slog.Logger
	mux     *http.ServeMux
	api     huma.API
	routes  []Route
	limiter *rateLimiter
	idem    *idempotency
	metrics *metrics
	handler http.Handler
}

// Route describes one operation, for the auth-matrix test and the README.
type Route struct {
	Method string
	Path   string
	Access Access
}

func init() { hookHumaErrors() }

// New builds the API.
func New(deps Deps, opts Options) *Server {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = 1 << 20
	}
	if deps.Logger == nil {
		deps.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Server{deps: deps, opts: opts, log: deps.Logger, mux: http.NewServeMux()}
	s.limiter = newRateLimiter(opts.RateLimit, opts.RateBurst)
	s.idem = &idempotency{db: deps.DB, log: deps.Logger}
	s.metrics = newMetrics(deps.Metrics)

	cfg := huma.DefaultConfig("agentsvc API", deps.Version)
	cfg.OpenAPIPath = "/api/v1/openapi"
	cfg.DocsPath = ""
	cfg.SchemasPath = ""
	cfg.CreateHooks = nil // no $schema links in bodies
	cfg.Info.Description = "Email, vault, machines and sign-in for software agents. " +
		"Every request carries Authorization: Bearer <token>: an agent token (ast_…) or an organization key (osk_…). " +
		"Errors have the body {\"error\":{\"code\",\"message\",\"hint\"}}."
	cfg.Components.SecuritySchemes = map[string]*huma.SecurityScheme{
		"bearer": {Type: "http", Scheme: "bearer", Description: "An agent token (ast_…) or an organization key (osk_…)."},
	}
	s.api = humago.New(s.mux, cfg)

	s.registerIdentity()
	s.registerInboxes()
	s.registerAgents()
	s.registerAudit()
	s.registerWebhooks()
	s.registerVault()
	s.registerMailbox()
	s.registerMailEvents()
	s.registerTeamRead()
	s.registerMachines()
	if deps.Outbound != nil {
		s.registerOutbound()
	}
	markNullObjects(s.api.OpenAPI().Components.Schemas)

	s.handler = s.chain(http.HandlerFunc(s.route))
	return s
}

// Handler is the http.Handler of the API (with /healthz and /readyz).
func (s *Server) Handler() http.Handler { return s.handler }

// API exposes the huma API so later features register their operations.
func (s *Server) API() huma.API { return s.api }

// Routes lists every operation with its access rule, sorted.
func (s *Server) Routes() []Route {
	out := append([]Route(nil), s.routes...)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// route dispatches to the mux, answering unknown routes and wrong methods
// with the errorEnvelope instead of the mux's plain text.
func (s *Server) route(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/healthz":
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{\"status\":\"ok\"}\n"))
		return
	case "/readyz":
		if err := s.deps.DB.Ping(r.Context()); err != nil {
			writeError(w, apierr.Unavailable("database unavailable", ""))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte("{\"status\":\"ready\"}\n"))
		return
	}
	h, pattern := s.mux.Handler(r)
	if pattern == "" {
		rec := &statusRecorder{header: http.Header{}}
		h.ServeHTTP(rec, r)
		switch rec.status {
		case http.StatusMethodNotAllowed:
			if allow := rec.header.Get("Allow"); allow != "" {
				w.Header().Set("Allow", allow)
			}
			writeError(w, &apierr.Error{Status: 405, Code: apierr.CodeMethodNotAllowed,
				Message: r.Method + " is not allowed on " + r.URL.Path, Hint: "allowed: " + rec.header.Get("Allow")})
		default:
			// Not found, and also paths the mux would redirect to a cleaned
			// form: an API answers errors, not redirects.
			writeError(w, &apierr.Error{Status: 404, Code: apierr.CodeNotFound, Message: "no route " + r.Method + " " + r.URL.Path,
				Hint: "the OpenAPI document at /api/v1/openapi.json lists every route"})
		}
		return
	}
	s.mux.ServeHTTP(w, r)
	if info := infoFrom(r.Context()); info != nil {
		info.pattern = r.Pattern
	}
}

// statusRecorder captures what the mux would answer for an unmatched request.
type statusRecorder struct {
	header http.Header
	status int
}

func (r *statusRecorder) Header() http.Header         { return r.header }
func (r *statusRecorder) Write(b []byte) (int, error) { return len(b), nil }
func (r *statusRecorder) WriteHeader(status int)      { r.status = status }

// Access is who may call an operation.
type Access struct {
	// Public operations need no token.
	Public bool
	// Kind is the credential kind required: auth.KindAgent or auth.KindOrgKey.
	Kind auth.Kind
	// Capability the credential must hold; "" for any.
	Capability string
	// AnyOf, when set, admits a credential holding at least one of these
	// capabilities; the handler then checks per field which one each part of
	// the request needs (PATCH of a thread: folder needs email:send, read
	// and labels email:read).
	AnyOf []string
}

func agentWith(scope string) Access { return Access{Kind: auth.KindAgent, Capability: scope} }
func orgKeyWith(cap string) Access  { return Access{Kind: auth.KindOrgKey, Capability: cap} }
func anyAgent() Access              { return Access{Kind: auth.KindAgent} }
func public() Access                { return Access{Public: true} }

// agentWithAnyOf admits agent tokens holding any of scopes; the handler
// checks which one each field needs.
func agentWithAnyOf(scopes ...string) Access { return Access{Kind: auth.KindAgent, AnyOf: scopes} }

func (a Access) credentialName() string {
	switch a.Kind {
	case auth.KindAgent:
		return "agent token"
	case auth.KindOrgKey:
		return "organization key"
	}
	return "token"
}

// describe is the sentence added to each operation's description.
func (a Access) describe() string {
	if a.Public {
		return "No authentication."
	}
	s := "Requires an " + a.credentialName()
	if a.Kind == auth.KindOrgKey {
		s = "Requires an organization key"
	}
	if a.Capability != "" {
		s += " with `" + a.Capability + "`"
	}
	if len(a.AnyOf) > 0 {
		s += " with `" + strings.Join(a.AnyOf, "` or `") + "` (which one depends on the fields sent)"
	}
	return s + "."
}

// anyOfNames is "a or b" for messages.
func anyOfNames(caps []string) string { return strings.Join(caps, " or ") }

// register adds an operation with its access rule. Errors returned by the
// handler become the errorEnvelope here, in one place.
func register[I, O any](s *Server, op huma.Operation, a Access, h func(context.Context, *I) (*O, error)) {
	if op.OperationID == "" {
		panic("operation without id: " + op.Method + " " + op.Path)
	}
	op.Description = strings.TrimSpace(op.Description + "\n\n" + a.describe())
	if op.Extensions == nil {
		op.Extensions = map[string]any{}
	}
	if !a.Public {
		op.Security = []map[string][]string{{"bearer": {}}}
		ext := map[string]any{"credential": string(a.Kind)}
		if a.Capability != "" {
			ext["capability"] = a.Capability
		}
		if len(a.AnyOf) > 0 {
			ext["capability_any_of"] = a.AnyOf
		}
		op.Extensions["x-agentsvc-auth"] = ext
	}
	op.Errors = errorStatuses[I](op, a)
	if op.MaxBodyBytes == 0 {
		op.MaxBodyBytes = s.opts.MaxBodyBytes
	}
	op.Middlewares = append(huma.Middlewares{s.authorize(a)}, op.Middlewares...)
	s.routes = append(s.routes, Route{Method: op.Method, Path: op.Path, Access: a})
	defer s.pruneErrors(op)
	huma.Register(s.api, op, func(ctx context.Context, in *I) (*O, error) {
		out, err := h(ctx, in)
		if err != nil {
			e := apierr.From(err)
			switch {
			case e.Status >= 500 && ctx.Err() != nil && errors.Is(err, ctx.Err()):
				// The client went away (or its deadline passed) while the
				// request waited: nobody reads the answer, and it is not a
				// server fault worth an error line.
				s.log.DebugContext(ctx, "request abandoned by the client", "err", err, "request_id", requestID(ctx))
			case e.Status >= 500:
				s.log.ErrorContext(ctx, "request failed", "err", err, "request_id", requestID(ctx))
			}
			return nil, fromAPIError(e)
		}
		return out, nil
	})
}

// errorStatuses is every error status an operation can answer, so the
// OpenAPI document declares what clients will meet: the statuses the
// operation lists itself (409 for a state conflict, 422 for unreadable
// content, ...), plus those that follow from its shape, decided here once:
//   - 400 (invalid parameters) and 429, 500 for every operation;
//   - 401 and 403 unless public;
//   - 404 when the path names a resource ({id}): missing or not visible;
//   - 413 when it takes a body (the body size limit), and 415 when that body
//     is JSON (authorize refuses other content types);
//   - 409 for every POST: the idempotency layer answers idempotency_conflict
//     and idempotency_in_progress.
func errorStatuses[I any](op huma.Operation, a Access) []int {
	out := append([]int(nil), op.Errors...)
	out = append(out, 400, 429, 500)
	if !a.Public {
		out = append(out, 401, 403)
	}
	if strings.Contains(op.Path, "{") {
		out = append(out, 404)
	}
	in := reflect.TypeFor[I]()
	if f, ok := in.FieldByName("Body"); ok {
		out = append(out, 413)
		if f.Type.Kind() != reflect.Slice || f.Type.Elem().Kind() != reflect.Uint8 {
			out = append(out, 415)
		}
	} else if _, ok := in.FieldByName("RawBody"); ok {
		out = append(out, 413)
	}
	if op.Method == http.MethodPost {
		out = append(out, 409)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// pruneErrors removes from the document the error responses huma adds on
// its own but this API never answers: huma declares 422 for every operation
// with parameters or a body, while our validation errors are 400 (see
// hookHumaErrors); only operations that list 422 themselves keep it.
func (s *Server) pruneErrors(op huma.Operation) {
	pi := s.api.OpenAPI().Paths[op.Path]
	if pi == nil {
		return
	}
	var doc *huma.Operation
	switch op.Method {
	case http.MethodGet:
		doc = pi.Get
	case http.MethodPost:
		doc = pi.Post
	case http.MethodPut:
		doc = pi.Put
	case http.MethodPatch:
		doc = pi.Patch
	case http.MethodDelete:
		doc = pi.Delete
	}
	if doc == nil {
		panic("operation not in the document: " + op.Method + " " + op.Path)
	}
	for code := range doc.Responses {
		n, err := strconv.Atoi(code)
		if err == nil && n >= 400 && !slices.Contains(op.Errors, n) {
			delete(doc.Responses, code)
		}
	}
	doc.Errors = op.Errors
}

// authorize enforces an operation's access rule and its content type.
func (s *Server) authorize(a Access) func(huma.Context, func(huma.Context)) {
	return func(ctx huma.Context, next func(huma.Context)) {
		if rb := ctx.Operation().RequestBody; rb != nil && rb.Content["application/json"] != nil && ctx.Header("Content-Length") != "0" {
			ct := ctx.Header("Content-Type")
			mt, _, _ := strings.Cut(ct, ";")
			mt = strings.TrimSpace(strings.ToLower(mt))
			if ct != "" && mt != "application/json" && !strings.HasSuffix(mt, "+json") {
				s.writeHuma(ctx, &apierr.Error{Status: 415, Code: apierr.CodeUnsupportedMediaType,
					Message: "request body must be application/json, not " + ct, Hint: "send Content-Type: application/json"})
				return
			}
		}
		if a.Public {
			next(ctx)
			return
		}
		p := auth.FromContext(ctx.Context())
		if p == nil {
			s.writeHuma(ctx, apierr.Unauthorized("missing bearer token", "send the header Authorization: Bearer <token>"))
			return
		}
		if a.Kind != "" && p.Kind != a.Kind {
			s.writeHuma(ctx, apierr.Forbidden("this endpoint needs an "+a.credentialName()+", not an "+kindName(p.Kind),
				"call it with an "+a.credentialName()))
			return
		}
		if a.Capability != "" && !p.Has(a.Capability) {
			s.writeHuma(ctx, apierr.Forbidden("the "+kindName(p.Kind)+" lacks the capability "+a.Capability,
				"issue a credential that includes "+a.Capability))
			return
		}
		if len(a.AnyOf) > 0 && !slices.ContainsFunc(a.AnyOf, p.Has) {
			s.writeHuma(ctx, apierr.Forbidden("the "+kindName(p.Kind)+" lacks the capability "+anyOfNames(a.AnyOf)+" that this endpoint needs",
				"issue a credential that includes "+anyOfNames(a.AnyOf)))
			return
		}
		next(ctx)
	}
}

func kindName(k auth.Kind) string {
	switch k {
	case auth.KindAgent:
		return "agent token"
	case auth.KindOrgKey:
		return "organization key"
	}
	return string(k)
}

func (s *Server) writeHuma(ctx huma.Context, e *apierr.Error) {
	env := fromAPIError(e)
	for k, v := range env.headers {
		for _, vv := range v {
			ctx.AppendHeader(k, vv)
		}
	}
	ctx.SetHeader("Content-Type", "application/json")
	ctx.SetStatus(e.Status)
	_ = huma.DefaultJSONFormat.Marshal(ctx.BodyWriter(), env.ErrorBody)
}
