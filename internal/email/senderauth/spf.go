package senderauth

import (
	"context"
	"strings"

	"blitiri.com.ar/go/spf"
)

// checkSPF evaluates the SPF policy of the envelope sender's domain (RFC 7208
// section 2.4), or of the HELO identity when the reverse path is null (RFC
// 7208 section 2.3). It returns the result, the domain checked and a reason
// for anything but pass.
func checkSPF(ctx context.Context, r Resolver, in Input) (result, domain, reason string) {
	sender := in.MailFrom
	if sender == "" || !strings.Contains(sender, "@") {
		// RFC 7208 section 2.4: with a null reverse path the HELO
		// identity is checked, as "postmaster@<helo>" for macros.
		if in.Helo == "" {
			return None, "", "no sender identity"
		}
		sender = "postmaster@" + in.Helo
	}
	domain = domainOf(sender)
	res, err := spf.CheckHostWithSender(in.RemoteIP, in.Helo, sender,
		spf.WithContext(ctx), spf.WithResolver(r))
	if err != nil && res != spf.Pass {
		reason = clean(err.Error())
	}
	switch res {
	case spf.Pass, spf.Fail, spf.SoftFail, spf.Neutral, spf.None, spf.TempError, spf.PermError:
		return string(res), domain, reason
	default:
		// A result this package does not know: treat the policy as broken
		// rather than guessing in either direction.
		return PermError, domain, "unknown SPF result " + string(res)
	}
}
