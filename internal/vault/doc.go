// Package vault keeps the logins, API keys and TOTP secrets agents use,
// without letting them leak.
//
// Rules, in one place:
//   - values (passwords, API keys) and TOTP secrets are sealed at rest with
//     internal/seal, bound to the credential id and field;
//   - an agent sees only credentials equipped on it (others are 404); a
//     credential an agent creates is equipped on it; an organization key
//     (vault:manage) creates credentials for the organization and equips or
//     unequips them on agents;
//   - a value is returned only to an agent, only when the credential is
//     agent-readable (otherwise 403, and the refusal is audited); a TOTP
//     secret is never returned by any path, only codes;
//   - every create, update, delete, equip, unequip and injection into a
//     machine is written to the audit history in the same transaction as the
//     change; every value read and code read (which change nothing else) is
//     committed to the history before the value is returned, with group
//     commit so concurrent reads share one transaction (recorder.go);
//   - repeated reads are served from a short cache (visibility.go) holding
//     the credential, its opened value and secret and the current code,
//     cleared by every change before the change is answered.
package vault
