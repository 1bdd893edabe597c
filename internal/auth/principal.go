package auth

import (
	"context"
	"slices"
)

// Kind is the kind of credential behind a request.
type Kind string

const (
	KindAgent  Kind = "agent"   // an agent token
	KindOrgKey Kind = "org_key" // an organization key
	KindMember Kind = "member"  // a team member signed in to the dashboard
)

// Principal is the authenticated caller.
type Principal struct {
	Kind  Kind
	OrgID string
	// AgentID is set for agent tokens.
	AgentID string
	// CredentialID is the token or key id (tok_, key_), or the member id.
	CredentialID string
	// Name of the token or key.
	Name string
	caps []string
}

// NewPrincipal builds a principal holding the given capabilities.
func NewPrincipal(kind Kind, orgID, agentID, credentialID, name string, caps []string) *Principal {
	return &Principal{Kind: kind, OrgID: orgID, AgentID: agentID, CredentialID: credentialID, Name: name, caps: slices.Clone(caps)}
}

// Has reports whether the principal holds capability c, directly or through a
// scope that implies it (identity:share_owner implies identity:sign_in).
// Members act through their role, which the dashboard checks; here they hold
// every organization capability.
func (p *Principal) Has(c string) bool {
	if p == nil {
		return false
	}
	if p.Kind == KindMember {
		return slices.Contains(OrgKeyCapabilities, c)
	}
	for _, have := range p.caps {
		if have == c || slices.Contains(implied[have], c) {
			return true
		}
	}
	return false
}

// Capabilities returns the capabilities as granted.
func (p *Principal) Capabilities() []string { return slices.Clone(p.caps) }

// ActorID is who acts, for the audit history: the agent for an agent token,
// the key or member otherwise.
func (p *Principal) ActorID() string {
	if p.Kind == KindAgent {
		return p.AgentID
	}
	return p.CredentialID
}

type principalKey struct{}

// WithPrincipal stores the caller in the context.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// FromContext returns the caller, or nil.
func FromContext(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
