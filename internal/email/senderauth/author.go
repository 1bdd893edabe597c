package senderauth

import "fmt"

// AuthorFailure reports why r shows that a message did not come from the
// domain of from, the From address a caller acts on (for example to apply
// an allow rule), or "" when nothing in r speaks against it. A failure is:
//   - SPF fail or softfail for an envelope domain aligned (relaxed, RFC 7489
//     section 3.1) with from's domain: the From domain's owner says this host
//     may not send its mail; a failing unrelated envelope domain says nothing
//     about From;
//   - DKIM fail: a signature was tampered with or forged;
//   - DMARC fail: neither SPF nor DKIM vouched for the From domain, and it
//     publishes a policy;
//   - DMARC could not be applied to the domain of from: the message has no
//     single From domain (several From fields or domains), or the one DMARC
//     judged differs from from's (the caller's parser read another address
//     than RFC 7489 section 6.6.1's); then no result above is about from.
//
// Results that only say nothing (none, neutral, temperror, a broken record)
// are not failures: a sender without SPF, DKIM or DMARC cannot be told from
// a forger by these checks.
func (r Results) AuthorFailure(from string) string {
	domain := domainOf(from)
	if domain == "" {
		return ""
	}
	switch {
	case (r.SPF == Fail || r.SPF == SoftFail) && aligned(r.Details.SPFDomain, domain, false):
		return fmt.Sprintf("SPF %s for %s", r.SPF, normalizeDomain(r.Details.SPFDomain))
	case r.DKIM == Fail:
		return "DKIM fail"
	case r.DMARC == Fail:
		return "DMARC fail for " + domain
	case r.Details.FromDomain == "" && r.DMARC == PermError:
		return "DMARC permerror: " + r.Details.DMARCError
	case r.Details.FromDomain != "" && r.Details.FromDomain != domain:
		return fmt.Sprintf("authentication judged the From domain %s, not %s", r.Details.FromDomain, domain)
	}
	return ""
}
