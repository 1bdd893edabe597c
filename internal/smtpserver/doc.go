// Package smtpserver is the inbound SMTP adapter: it speaks SMTP (RFC 5321)
// to the internet on behalf of a Backend that knows the local recipients and
// makes accepted messages durable. Protocol parsing is emersion/go-smtp; this
// package adds the policy around it: connection limits, recipient checks,
// size limits read through a bounded reader, a Received trace header, one
// mapping from domain errors to SMTP replies (errors.go), and a graceful
// shutdown.
//
// A connection goes through these states:
//
//	accept ──over a limit──▶ 421 and close (never reaches go-smtp)
//	  │
//	  ▼
//	greeting 220 ─▶ EHLO ─▶ [STARTTLS ─▶ EHLO] ─▶ idle
//	                                               │ MAIL FROM (count ≤ MaxMessagesPerConn)
//	                                               ▼
//	                                     in transaction: RCPT TO ── Backend.CheckRecipient
//	                                               │         (after MaxFailedRecipients refused
//	                                               │          on the connection: 421 and close)
//	                                               │ DATA / BDAT
//	                                               ▼
//	                          read ≤ MaxMessageBytes ─▶ prepend Received ─▶ Backend.Deliver
//	                                               │ returned nil           │ returned an error
//	                                               ▼                        ▼
//	                                         250 2.0.0, idle        4xx (or 5xx if permanent), idle
//
// The 250 reply is written only after Deliver returned nil, so a message the
// client considers delivered is always durable (Backend's contract).
//
// Shutdown stops accepting, lets transactions in flight finish, and ends
// idle sessions at once with a 421 reply; at the caller's deadline whatever
// is left is closed and Deliver calls still running see their context
// cancelled, so no 250 is sent for them.
package smtpserver
