package senderauth

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"time"

	"github.com/emersion/go-msgauth/authres"
)

// Result values, as used in Authentication-Results (RFC 8601 section 2.7).
const (
	Pass      = "pass"
	Fail      = "fail"
	SoftFail  = "softfail"
	Neutral   = "neutral"
	None      = "none"
	TempError = "temperror"
	PermError = "permerror"
)

// Defaults for Checker fields left zero.
const (
	DefaultLookupTimeout = 5 * time.Second
	DefaultCheckTimeout  = 20 * time.Second
	// DefaultMaxSignatures bounds the DKIM signatures verified per message:
	// each costs a DNS lookup and a public-key operation, and a hostile
	// message can carry hundreds.
	DefaultMaxSignatures = 5
)

// Checker computes sender authentication results. The zero value is not
// usable: Resolver is required.
type Checker struct {
	// Resolver answers every DNS query of a check.
	Resolver Resolver
	// AuthServID names this receiving host in the Authentication-Results
	// header (RFC 8601 section 2.5), for example the MX host name.
	AuthServID string
	// LookupTimeout bounds each single DNS lookup (default 5 s).
	LookupTimeout time.Duration
	// CheckTimeout bounds a whole Check (default 20 s).
	CheckTimeout time.Duration
	// MaxSignatures bounds the DKIM signatures verified (default 5).
	MaxSignatures int
}

// Input is what the SMTP session knows about a message.
type Input struct {
	RemoteIP net.IP
	Helo     string
	// MailFrom is the envelope sender (reverse path); empty for the null
	// sender of bounces, in which case SPF checks the HELO identity.
	MailFrom string
	// Raw is the whole message, header and body, as received.
	Raw []byte
}

// Results holds the outcome of the three methods. Values are the RFC 8601
// result names: SPF one of pass, fail, softfail, neutral, none, temperror,
// permerror; DKIM pass, fail, none, temperror, permerror (pass when at
// least one signature verifies); DMARC pass, fail, none, temperror,
// permerror.
type Results struct {
	SPF   string
	DKIM  string
	DMARC string
	// DMARCPolicy is the policy the From domain publishes for this message
	// (p=, or sp= when the record came from the organizational domain of a
	// subdomain): none, quarantine or reject; empty when no record exists.
	// It is reported whatever the DMARC result, so the caller decides what a
	// failure means.
	DMARCPolicy string
	// DKIMDomains are the d= domains of the signatures that verified.
	DKIMDomains []string
	Details     Details
	// AuthenticationResults is the value of an Authentication-Results
	// header field for these results, ready to store with the message.
	AuthenticationResults string
}

// Details explains the results, for logs, the message's stored record and
// screening reasons.
type Details struct {
	// SPFDomain is the domain whose SPF policy was evaluated: the MAIL FROM
	// domain, or the HELO name for the null sender.
	SPFDomain string
	SPFError  string
	// DKIMSignatures has one entry per verified (or attempted) signature.
	DKIMSignatures []DKIMSignature
	DKIMError      string
	// FromDomain is the domain of the RFC 5322 From address.
	FromDomain string
	// DMARCRecordDomain is where the DMARC record was found: FromDomain or
	// its organizational domain.
	DMARCRecordDomain string
	// DMARCPercent is the record's pct= (100 when absent).
	DMARCPercent int
	SPFAligned   bool
	DKIMAligned  bool
	DMARCError   string
}

// DKIMSignature is the result of one DKIM-Signature header field.
type DKIMSignature struct {
	Domain     string
	Identifier string
	Result     string
	Error      string
}

// Check authenticates the sender of in. It never returns an error: lookup
// and parse problems are reported as temperror or permerror results.
func (c *Checker) Check(ctx context.Context, in Input) Results {
	timeout := c.CheckTimeout
	if timeout <= 0 {
		timeout = DefaultCheckTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	lookupTimeout := c.LookupTimeout
	if lookupTimeout <= 0 {
		lookupTimeout = DefaultLookupTimeout
	}
	res := timeoutResolver{r: c.Resolver, timeout: lookupTimeout}
	if c.Resolver == nil {
		// A programming error, but a check must still produce results.
		return c.finish(Results{
			SPF: TempError, DKIM: TempError, DMARC: TempError,
			Details: Details{SPFError: errNoResolver.Error(), DKIMError: errNoResolver.Error(), DMARCError: errNoResolver.Error()},
		}, in)
	}

	var r Results
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.SPF, r.Details.SPFDomain, r.Details.SPFError = checkSPF(ctx, res, in)
	}()
	maxSigs := c.MaxSignatures
	if maxSigs <= 0 {
		maxSigs = DefaultMaxSignatures
	}
	r.DKIM, r.Details.DKIMSignatures, r.Details.DKIMError = checkDKIM(ctx, res, in.Raw, maxSigs)
	wg.Wait()
	for _, s := range r.Details.DKIMSignatures {
		if s.Result == Pass {
			r.DKIMDomains = append(r.DKIMDomains, s.Domain)
		}
	}

	checkDMARC(ctx, res, in.Raw, &r)
	return c.finish(r, in)
}

var errNoResolver = errors.New("senderauth: no resolver configured")

func (c *Checker) finish(r Results, in Input) Results {
	r.AuthenticationResults = r.Header(c.AuthServID, in)
	return r
}

// Header formats r as the value of an Authentication-Results header field
// (RFC 8601) naming authServID as the host that made the checks.
func (r Results) Header(authServID string, in Input) string {
	if authServID == "" {
		authServID = "localhost"
	}
	var results []authres.Result
	spf := &authres.SPFResult{Value: authres.ResultValue(r.SPF), Reason: r.Details.SPFError}
	if in.MailFrom != "" {
		spf.From = in.MailFrom
	} else {
		spf.Helo = in.Helo
	}
	results = append(results, spf)
	if len(r.Details.DKIMSignatures) == 0 {
		results = append(results, &authres.DKIMResult{Value: authres.ResultValue(r.DKIM), Reason: r.Details.DKIMError})
	}
	for _, s := range r.Details.DKIMSignatures {
		results = append(results, &authres.DKIMResult{
			Value:      authres.ResultValue(s.Result),
			Reason:     s.Error,
			Domain:     s.Domain,
			Identifier: s.Identifier,
		})
	}
	reason := r.Details.DMARCError
	if reason == "" && r.DMARCPolicy != "" {
		reason = "p=" + strings.ToUpper(r.DMARCPolicy)
	}
	results = append(results, &authres.DMARCResult{
		Value:  authres.ResultValue(r.DMARC),
		Reason: reason,
		From:   r.Details.FromDomain,
	})
	return authres.Format(authServID, results)
}
