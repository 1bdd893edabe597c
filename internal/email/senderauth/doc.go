// Package senderauth authenticates the sender of an inbound message: SPF
// (RFC 7208) for the SMTP envelope, DKIM (RFC 6376) for the message's
// signatures, and DMARC (RFC 7489) for the policy of the domain in the From
// header and the alignment of the other two with it.
//
// The flow of one Check:
//
//	SPF(ip, helo, mail from) ─┐   run in parallel: both are DNS-bound
//	DKIM(raw message)        ─┤
//	                          └─▶ DMARC(From domain, SPF domain+result, DKIM d= passes)
//	                               ├─ policy record at _dmarc.<From domain>
//	                               ├─ else at _dmarc.<organizational domain> (sp= applies)
//	                               └─ pass if SPF or DKIM passed for an aligned domain
//
// A check never fails as a whole: DNS trouble becomes "temperror" and broken
// records or messages become "permerror" in the affected method, so the
// caller always has something to store and screen on. All DNS goes through
// the Resolver given to the Checker, each lookup bounded in time.
package senderauth
