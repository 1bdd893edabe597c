package httpapi

import (
	"bytes"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"time"

	"github.com/agentsvc/agentsvc/internal/apierr"
	"github.com/agentsvc/agentsvc/internal/auth"
	"github.com/agentsvc/agentsvc/internal/store"
)

// Idempotency, for every POST: a client that sends an Idempotency-Key header,
// or an idempotency_key field at the top of its JSON body (the reference's
// spelling for send, reply and create_machine), may retry safely.
//
//   - The first request runs and, when it succeeds (2xx), its status, body and
//     content type are kept for 24 hours under (caller, method, path, key).
//   - A retry with the identical body gets the kept response again, with the
//     header Idempotent-Replayed: true; nothing runs twice.
//   - The same key with a different body is 409 idempotency_conflict.
//   - While the first request still runs, a retry waits up to 5 seconds, then
//     gets 409 idempotency_in_progress.
//   - A failed request (4xx, 5xx) keeps nothing: the client may fix it and
//     retry with the same key.
//
// The caller is the agent (for agent tokens) or the key, so retrying with a
// second token of the same agent is still recognised. An operation that must
// be exactly-once with its own writes (send with draft_id) records its key in
// its own transaction as well; this layer is what every POST gets.
type idempotency struct {
	db  *store.DB
	log *slog.Logger
}

const (
	idemTTL      = 24 * time.Hour
	idemStale    = 2 * time.Minute // a pending row this old belongs to a crashed request
	idemWait     = 5 * time.Second
	maxKeyLength = 255
)

type idemRecord struct {
	hash    string
	state   string
	status  int
	headers string
	body    []byte
	created time.Time
}

var errInProgress = errors.New("in progress")

// begin claims scope for a new request, or returns the record of an earlier one.
func (i *idempotency) begin(ctx context.Context, scope, hash string) (*idemRecord, error) {
	var existing *idemRecord
	err := i.db.InTx(ctx, func(tx *store.Tx) error {
		existing = nil
		var (
			rec     idemRecord
			created int64
		)
		err := tx.QueryRowContext(ctx, `SELECT request_hash, state, response_status, response_headers, response_body, created_at FROM idempotency_keys WHERE scope = $1`, scope).
			Scan(&rec.hash, &rec.state, &rec.status, &rec.headers, &rec.body, &created)
		now := time.Now()
		if err == nil {
			rec.created = store.Time(created)
			expired := now.Sub(rec.created) > idemTTL
			stale := rec.state == "pending" && now.Sub(rec.created) > idemStale
			if !expired && !stale {
				existing = &rec
				return nil
			}
			if _, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE scope = $1`, scope); err != nil {
				return err
			}
		} else if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO idempotency_keys (scope, request_hash, state, response_status, response_headers, response_body, created_at)
			VALUES ($1, $2, 'pending', 0, '{}', NULL, $3)`, scope, hash, store.Micros(now))
		if store.IsUniqueViolation(err) {
			return errInProgress
		}
		return err
	})
	return existing, err
}

func (i *idempotency) complete(ctx context.Context, scope string, status int, headers http.Header, body []byte) error {
	h, _ := json.Marshal(headers)
	return i.db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `UPDATE idempotency_keys SET state = 'done', response_status = $1, response_headers = $2, response_body = $3 WHERE scope = $4`,
			status, string(h), body, scope)
		return err
	})
}

func (i *idempotency) release(ctx context.Context, scope string) error {
	return i.db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE scope = $1 AND state = 'pending'`, scope)
		return err
	})
}

// Sweep deletes records older than 24 hours.
func (i *idempotency) Sweep(ctx context.Context) error {
	return i.db.InTx(ctx, func(tx *store.Tx) error {
		_, err := tx.ExecContext(ctx, `DELETE FROM idempotency_keys WHERE created_at < $1`, store.Micros(time.Now().Add(-idemTTL)))
		return err
	})
}

// SweepIdempotency removes expired idempotency records; the app calls it
// periodically.
func (s *Server) SweepIdempotency(ctx context.Context) error { return s.idem.Sweep(ctx) }

// keptHeaders are the response headers a replay repeats.
var keptHeaders = []string{"Content-Type", "Location"}

func (s *Server) idempotent(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := auth.FromContext(r.Context())
		if r.Method != http.MethodPost || p == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, s.opts.MaxBodyBytes+1))
		if err != nil {
			writeError(w, apierr.Invalid("", "could not read the request body"))
			return
		}
		if int64(len(body)) > s.opts.MaxBodyBytes {
			// Larger than any JSON body: the operation applies its own limit
			// (uploads allow more; everything else answers 413). Such
			// requests are not deduplicated here.
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(body), r.Body), r.Body}
			next.ServeHTTP(w, r)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		key := r.Header.Get("Idempotency-Key")
		if key == "" {
			key = bodyKey(r.Header.Get("Content-Type"), body)
		}
		if key == "" {
			next.ServeHTTP(w, r)
			return
		}
		if secretResponses[r.URL.Path] {
			writeError(w, apierr.Invalid("idempotency_key", "is not accepted on %s: its response may carry a generated secret, which is never stored", r.URL.Path).
				WithHint("retry without the key; list the credentials to see whether the first attempt was stored"))
			return
		}
		if len(key) > maxKeyLength {
			writeError(w, apierr.Invalid("idempotency_key", "must be at most %d characters", maxKeyLength))
			return
		}
		sum := sha256.Sum256(append([]byte(r.URL.RawQuery+"\n"), body...))
		hash := hex.EncodeToString(sum[:])
		scope := p.OrgID + "|" + p.ActorID() + "|" + r.Method + " " + r.URL.Path + "|" + key

		deadline := time.Now().Add(idemWait)
		for {
			rec, err := s.idem.begin(r.Context(), scope, hash)
			switch {
			case errors.Is(err, errInProgress) || (err == nil && rec != nil && rec.state == "pending" && rec.hash == hash):
				if time.Now().After(deadline) {
					writeError(w, apierr.Conflict(apierr.CodeIdempotencyInProgress, "a request with this idempotency key is still running").
						WithHint("retry in a few seconds"))
					return
				}
				select {
				case <-r.Context().Done():
					return
				case <-time.After(100 * time.Millisecond):
				}
				continue
			case err != nil:
				writeError(w, apierr.Internal(err))
				return
			case rec != nil && rec.hash != hash:
				writeError(w, apierr.Conflict(apierr.CodeIdempotencyConflict, "this idempotency key was used with a different request").
					WithHint("use a new idempotency key for a new action"))
				return
			case rec != nil: // done: replay
				var h http.Header
				_ = json.Unmarshal([]byte(rec.headers), &h)
				for _, k := range keptHeaders {
					if v := h.Get(k); v != "" {
						w.Header().Set(k, v)
					}
				}
				w.Header().Set("Idempotent-Replayed", "true")
				w.WriteHeader(rec.status)
				_, _ = w.Write(rec.body)
				return
			}
			break
		}

		capture := &captureWriter{ResponseWriter: w}
		completed := false
		defer func() {
			if completed {
				return
			}
			// The handler failed or panicked: free the key for a retry.
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
			defer cancel()
			if err := s.idem.release(ctx, scope); err != nil {
				s.log.Warn("could not release idempotency key", "err", err)
			}
		}()
		next.ServeHTTP(capture, r)
		if capture.status >= 200 && capture.status < 300 {
			ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 5*time.Second)
			defer cancel()
			kept := http.Header{}
			for _, k := range keptHeaders {
				if v := capture.Header().Get(k); v != "" {
					kept.Set(k, v)
				}
			}
			if err := s.idem.complete(ctx, scope, capture.status, kept, capture.buf.Bytes()); err != nil {
				s.log.Error("could not keep idempotent response", "err", err)
			} else {
				completed = true
			}
		}
	})
}

// bodyKey finds a top-level "idempotency_key" string in a JSON body.
func bodyKey(contentType string, body []byte) string {
	if len(body) == 0 {
		return ""
	}
	if mt, _, _ := mime.ParseMediaType(contentType); contentType != "" && mt != "application/json" {
		return ""
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(body, &top) != nil {
		return ""
	}
	var key string
	if raw, ok := top["idempotency_key"]; ok && json.Unmarshal(raw, &key) == nil {
		return key
	}
	return ""
}

// captureWriter passes the response through and keeps a copy of it.
type captureWriter struct {
	http.ResponseWriter
	status int
	buf    bytes.Buffer
}

func (c *captureWriter) WriteHeader(status int) {
	if c.status == 0 {
		c.status = status
	}
	c.ResponseWriter.WriteHeader(status)
}

func (c *captureWriter) Write(b []byte) (int, error) {
	if c.status == 0 {
		c.status = http.StatusOK
	}
	c.buf.Write(b)
	return c.ResponseWriter.Write(b)
}

func (c *captureWriter) Unwrap() http.ResponseWriter { return c.ResponseWriter }
