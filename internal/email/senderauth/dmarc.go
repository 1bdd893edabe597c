package senderauth

import (
	"bytes"
	"context"
	"errors"
	"net/mail"
	"strings"

	"github.com/emersion/go-msgauth/dmarc"

	"github.com/agentsvc/agentsvc/internal/email/content"
)

// checkDMARC fills the DMARC fields of r from the message's From domain, the
// published policy and the SPF and DKIM results already in r (RFC 7489
// section 6.6).
func checkDMARC(ctx context.Context, res Resolver, raw []byte, r *Results) {
	from, err := fromDomain(raw)
	if err != nil {
		// RFC 7489 section 6.6.1: without exactly one author domain
		// DMARC cannot be applied.
		r.DMARC = PermError
		r.Details.DMARCError = clean(err.Error())
		return
	}
	r.Details.FromDomain = from

	rec, recDomain, err := lookupDMARC(ctx, res, from)
	switch {
	case errors.Is(err, dmarc.ErrNoPolicy):
		r.DMARC = None
		return
	case err != nil && dmarc.IsTempFail(err):
		r.DMARC = TempError
		r.Details.DMARCError = clean(err.Error())
		return
	case err != nil:
		r.DMARC = PermError
		r.Details.DMARCError = clean(err.Error())
		return
	}
	r.Details.DMARCRecordDomain = recDomain
	r.DMARCPolicy = string(rec.Policy)
	if recDomain != from && rec.SubdomainPolicy != "" {
		// RFC 7489 section 6.6.3: a record found at the organizational
		// domain applies its sp= to subdomains.
		r.DMARCPolicy = string(rec.SubdomainPolicy)
	}
	r.Details.DMARCPercent = 100
	if rec.Percent != nil {
		r.Details.DMARCPercent = *rec.Percent
	}

	spfStrict := rec.SPFAlignment == dmarc.AlignmentStrict
	dkimStrict := rec.DKIMAlignment == dmarc.AlignmentStrict
	spfAligned := aligned(r.Details.SPFDomain, from, spfStrict)
	r.Details.SPFAligned = r.SPF == Pass && spfAligned
	tempAligned := r.SPF == TempError && spfAligned
	for _, s := range r.Details.DKIMSignatures {
		if !aligned(s.Domain, from, dkimStrict) {
			continue
		}
		switch s.Result {
		case Pass:
			r.Details.DKIMAligned = true
		case TempError:
			tempAligned = true
		}
	}
	switch {
	case r.Details.SPFAligned || r.Details.DKIMAligned:
		r.DMARC = Pass
	case tempAligned:
		// An aligned identifier could not be checked for now; failing
		// the message on a DNS hiccup would apply the policy wrongly.
		r.DMARC = TempError
	default:
		r.DMARC = Fail
	}
}

// lookupDMARC finds the policy record for the From domain, falling back to
// its organizational domain (RFC 7489 section 6.6.3). It returns the record
// and the domain it was found at.
func lookupDMARC(ctx context.Context, res Resolver, from string) (*dmarc.Record, string, error) {
	opts := &dmarc.LookupOptions{LookupTXT: func(name string) ([]string, error) {
		return res.LookupTXT(ctx, name)
	}}
	rec, err := dmarc.LookupWithOptions(from, opts)
	if err == nil {
		return rec, from, nil
	}
	org := organizationalDomain(from)
	if !errors.Is(err, dmarc.ErrNoPolicy) || org == from {
		return nil, "", err
	}
	rec, err = dmarc.LookupWithOptions(org, opts)
	if err != nil {
		return nil, "", err
	}
	return rec, org, nil
}

var (
	errNoFrom         = errors.New("no From header field")
	errManyFrom       = errors.New("more than one From header field")
	errNoFromDomain   = errors.New("From address has no domain")
	errManyFromDomain = errors.New("From addresses of more than one domain")
)

// fromDomain returns the single author domain of the message (RFC 7489
// section 6.6.1). Several addresses of one domain are accepted.
func fromDomain(raw []byte) (string, error) {
	values := headerValues(raw, "From")
	switch len(values) {
	case 0:
		return "", errNoFrom
	case 1:
	default:
		return "", errManyFrom
	}
	var domain string
	for _, addr := range fromAddresses(values[0]) {
		d := domainOf(addr)
		if d == "" {
			return "", errNoFromDomain
		}
		if domain != "" && d != domain {
			return "", errManyFromDomain
		}
		domain = d
	}
	if domain == "" {
		return "", errNoFromDomain
	}
	return domain, nil
}

// fromAddresses parses a From field value. Mail in the wild often breaks RFC
// 5322 (unquoted specials in display names, unknown charsets), so when the
// strict parser gives up, the address in the last angle brackets (or the
// whole value) is taken.
func fromAddresses(v string) []string {
	list, err := mail.ParseAddressList(v)
	if err != nil {
		// The same reading of comments as the message parser's, so that
		// DMARC judges the From domain the reader (and a sender rule) sees.
		v = content.WithoutComments(v)
		list, err = mail.ParseAddressList(v)
	}
	if err == nil {
		out := make([]string, 0, len(list))
		for _, a := range list {
			out = append(out, a.Address)
		}
		return out
	}
	v = strings.TrimSpace(v)
	if i := strings.LastIndexByte(v, '<'); i >= 0 {
		rest := v[i+1:]
		if j := strings.IndexByte(rest, '>'); j >= 0 {
			return []string{strings.TrimSpace(rest[:j])}
		}
	}
	return []string{v}
}

// headerValues returns the unfolded values of every header field called
// name. It reads the header section leniently, line by line, because a
// malformed line elsewhere must not hide the From field.
func headerValues(raw []byte, name string) []string {
	var out []string
	var cur []byte
	inField := false
	flush := func() {
		if inField {
			out = append(out, strings.TrimSpace(string(cur)))
		}
		inField = false
		cur = cur[:0]
	}
	for len(raw) > 0 {
		line := raw
		if i := bytes.IndexByte(raw, '\n'); i >= 0 {
			line, raw = raw[:i], raw[i+1:]
		} else {
			raw = nil
		}
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			break // end of the header section
		}
		if line[0] == ' ' || line[0] == '\t' {
			if inField {
				cur = append(cur, line...)
			}
			continue
		}
		flush()
		k, v, ok := bytes.Cut(line, []byte(":"))
		if ok && strings.EqualFold(string(bytes.TrimSpace(k)), name) {
			inField = true
			cur = append(cur, v...)
		}
	}
	flush()
	return out
}
