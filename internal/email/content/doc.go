// Package content turns raw email into what the mailbox stores and shows, and
// pulls useful things out of it. Everything here is a pure function of its
// input: no database, no network, no clock (except the time limit on PDF text
// extraction), so the SMTP ingest path, the API and the screening component can
// all call it and tests can exercise it directly.
//
//   - Parse reads an RFC 5322 / MIME message with enmime and never drops a
//     message for being malformed: it returns what it could read plus warnings.
//   - SanitizeHTML applies the email HTML policy (bluemonday) and points inline
//     cid: images at the caller's attachment URLs.
//   - HTMLToText renders the visible text of an HTML body.
//   - ExtractText gives attachment text (PDF, CSV, JSON, HTML, text/*) under
//     size and time limits.
//   - ExtractCode finds a one-time code and a confirmation link that the mail
//     itself contains; it never makes one up.
package content
