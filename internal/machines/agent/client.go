package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"syscall"
	"time"
)

// Client talks to the agent of one sandbox.
//
// Every request opens its own connection (no keep-alive): a connection to
// the sandbox's netstack costs well under a millisecond, and an idle
// connection could be stale without the client knowing yet (the agent was
// killed and restarted, or the sandbox was checkpointed), which would fail a
// POST that the transport must not retry.
type Client struct {
	base  string
	token string
	http  *http.Client
	tr    *http.Transport
	// dialWait is how long a request keeps retrying a refused or
	// unreachable connection: right after a start or restore the agent (or
	// the sandbox's network) may not be up yet.
	dialWait time.Duration
}

// NewClient returns a client for the agent at addr (host:port). dialWait
// bounds how long a connection that is refused is retried.
func NewClient(addr, token string, dialWait time.Duration) *Client {
	c := &Client{base: "http://" + addr, token: token, dialWait: dialWait}
	d := &net.Dialer{Timeout: time.Second}
	c.tr = &http.Transport{
		DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			deadline := time.Now().Add(c.dialWait)
			for {
				conn, err := d.DialContext(ctx, network, a)
				if err == nil || !retryable(err) || time.Now().After(deadline) || ctx.Err() != nil {
					return conn, err
				}
				select {
				case <-time.After(2 * time.Millisecond):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
		},
		MaxIdleConnsPerHost: 16,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
		DisableKeepAlives:   true,
	}
	c.http = &http.Client{Transport: c.tr}
	return c
}

// retryable reports dial errors that mean "not listening yet".
func retryable(err error) bool {
	return errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.ECONNRESET)
}

// Close drops the client's idle connections (there are none unless a
// response was not read to the end).
func (c *Client) Close() { c.tr.CloseIdleConnections() }

// IsUnreachable reports whether err means the agent could not be reached at
// all (no request was delivered), as opposed to a failed request.
func IsUnreachable(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}

func (c *Client) do(ctx context.Context, method, path string, body []byte, ctype string) (*http.Response, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, rd)
	if err != nil {
		return nil, fmt.Errorf("agent: %w", err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("agent: %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		defer resp.Body.Close()
		e := &Error{Status: resp.StatusCode}
		raw, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		if json.Unmarshal(raw, e) != nil || e.Code == "" {
			e.Code, e.Message = CodeFailed, fmt.Sprintf("status %d: %s", resp.StatusCode, bytes.TrimSpace(raw))
		}
		return nil, e
	}
	return resp, nil
}

// Ping checks that the agent answers and accepts the token.
func (c *Client) Ping(ctx context.Context) error {
	resp, err := c.do(ctx, http.MethodGet, "/v1/ping", nil, "")
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}

// Exec runs req and returns its result. The caller bounds the wait with ctx;
// the agent itself enforces req's timeout.
func (c *Client) Exec(ctx context.Context, req ExecRequest) (ExecResult, error) {
	var res ExecResult
	body, err := json.Marshal(req)
	if err != nil {
		return res, fmt.Errorf("agent: %w", err)
	}
	resp, err := c.do(ctx, http.MethodPost, "/v1/exec", body, "application/json")
	if err != nil {
		return res, err
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return res, fmt.Errorf("agent: exec result: %w", err)
	}
	return res, nil
}

// ReadFile returns the content of path, at most max bytes (an *Error with
// CodeTooLarge when larger).
func (c *Client) ReadFile(ctx context.Context, path string, max int64) ([]byte, error) {
	q := url.Values{"path": {path}, "max": {strconv.FormatInt(max, 10)}}
	resp, err := c.do(ctx, http.MethodGet, "/v1/file?"+q.Encode(), nil, "")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, fmt.Errorf("agent: reading %s: %w", path, err)
	}
	return data, nil
}

// WriteFile replaces path with data (mode: permission bits), creating
// parent directories.
func (c *Client) WriteFile(ctx context.Context, path string, data []byte, mode uint32) error {
	q := url.Values{"path": {path}, "mode": {strconv.FormatUint(uint64(mode&0o777), 8)}}
	if data == nil {
		data = []byte{}
	}
	resp, err := c.do(ctx, http.MethodPut, "/v1/file?"+q.Encode(), data, "application/octet-stream")
	if err != nil {
		return err
	}
	resp.Body.Close()
	return nil
}
