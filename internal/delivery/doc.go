// Package delivery moves outbound mail from the durable queue to its
// recipients: inboxes of this service through the full inbound pipeline,
// everyone else directly (MX lookup, A/AAAA fallback, opportunistic
// STARTTLS), through a configured relay (AUTH PLAIN only over TLS), or, in
// dev mode without a relay, into a local capture table.
//
// The life of one queue row (one recipient of one message):
//
//	send transaction ── Enqueue: row state=queued, next_attempt_at=now (commit)
//	                        │ notify
//	dispatcher ──────── claim due rows (FOR UPDATE SKIP LOCKED on PostgreSQL),
//	                    lease them (next_attempt_at = now + lease, leased)
//	worker ──────────── local inbox?   ─ inbound pipeline Deliver (spooled) ─┐
//	                    capture (dev)? ─ outbound_captures row ─────────────┤
//	                    relay or MX    ─ SMTP: EHLO, STARTTLS, MAIL, RCPT, DATA
//	                        │ 250                      │ 4xx / network         │ 5xx
//	                        ▼                          ▼                       ▼
//	                    delivered              queued again with backoff   bounced
//	                    message.delivered      message.delivery_delayed    message.bounced
//	                                           (past RetryFor: failed, message.failed)
//
// Later reports come back to the per-recipient return path
// bounces+<row id>@<domain>: the SMTP server's Backend is wrapped
// (Service.Backend) so a DSN (RFC 3464) to that address turns the row to
// bounced (message.bounced) and an ARF report (RFC 5965) appends
// message.complained.
//
// Claims and outcomes are batched: one transaction leases up to 64 due
// rows, and one recorder goroutine commits all outcomes that are ready in
// one transaction (under load at most one such commit per 25 ms, leaving
// SQLite's one writer to the sends). Rows of a fresh send skip the claim:
// Service.Enqueue leases them to this process's workers at insert and
// hands them over, with the signed message, right after the send commits
// (handoff.go). SMTP sessions are reused per destination (pool.go).
//
// Crash safety: the row is committed in the send transaction, before the API
// answers. A row is marked delivered by the recorder's next commit right
// after the receiver's 250; a crash in the window between that 250 and the
// commit (milliseconds; under load up to 25 ms more) makes the message go out once more after the restart:
// delivery is at-least-once, which is all SMTP allows (RFC 5321 section
// 6.1; the receiver deduplicates by Message-ID at best). Nothing queued is
// ever lost: a leased row whose worker died is taken again when its lease
// lapses (on SQLite at once on restart, where one process owns the
// database).
package delivery
