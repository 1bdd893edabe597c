package senderauth

import (
	"bytes"
	"context"
	"errors"

	"github.com/emersion/go-msgauth/dkim"
)

// checkDKIM verifies the message's DKIM signatures (RFC 6376). The overall
// result is pass when any signature verifies; otherwise temperror when any
// key lookup failed temporarily (a retry could pass), fail when a signature
// did not verify, permerror when signatures were unusable, and none when the
// message carries no signature.
func checkDKIM(ctx context.Context, r Resolver, raw []byte, maxSigs int) (result string, sigs []DKIMSignature, reason string) {
	opts := &dkim.VerifyOptions{
		// dkim has no context parameter; the closure carries ours so each
		// key lookup is bounded and cancelled with the check.
		LookupTXT: func(name string) ([]string, error) {
			return r.LookupTXT(ctx, name)
		},
		MaxVerifications: maxSigs,
	}
	verifs, err := dkim.VerifyWithOptions(bytes.NewReader(raw), opts)
	if err != nil && !errors.Is(err, dkim.ErrTooManySignatures) {
		// The header could not be read at all. Only an attempted signature
		// makes that a DKIM error; an unsigned broken message has no DKIM.
		if hasSignatureField(raw) {
			return PermError, nil, clean(err.Error())
		}
		return None, nil, ""
	}
	if errors.Is(err, dkim.ErrTooManySignatures) {
		reason = clean(err.Error())
	}
	if len(verifs) == 0 {
		return None, nil, reason
	}
	var anyPass, anyTemp, anyFail bool
	for _, v := range verifs {
		s := DKIMSignature{Domain: normalizeDomain(v.Domain), Identifier: v.Identifier}
		switch {
		case v.Err == nil:
			s.Result = Pass
			anyPass = true
		case dkim.IsTempFail(v.Err):
			s.Result = TempError
			anyTemp = true
		case dkim.IsPermFail(v.Err):
			s.Result = PermError
		default:
			// The remaining errors are verification failures: body hash
			// or signature mismatch.
			s.Result = Fail
			anyFail = true
		}
		if v.Err != nil {
			s.Error = clean(v.Err.Error())
		}
		sigs = append(sigs, s)
	}
	switch {
	case anyPass:
		result = Pass
	case anyTemp:
		result = TempError
	case anyFail:
		result = Fail
	default:
		result = PermError
	}
	return result, sigs, reason
}

// hasSignatureField reports whether the header section mentions a
// DKIM-Signature field, for messages too broken for the DKIM parser.
func hasSignatureField(raw []byte) bool {
	head := raw
	if i := bytes.Index(raw, []byte("\r\n\r\n")); i >= 0 {
		head = raw[:i]
	} else if i := bytes.Index(raw, []byte("\n\n")); i >= 0 {
		head = raw[:i]
	}
	return bytes.Contains(bytes.ToLower(head), []byte("dkim-signature:"))
}
