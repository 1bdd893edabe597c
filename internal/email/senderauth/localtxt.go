package senderauth

import "context"

// LocalTXT is a Resolver that answers TXT queries from Local first and asks
// Resolver for everything else. The service uses it for the records of keys
// it holds itself (its DKIM keys), which public DNS may not carry.
type LocalTXT struct {
	Resolver
	// Local returns the records for name and true when it knows them.
	Local func(ctx context.Context, name string) (record string, ok bool, err error)
}

// LookupTXT implements Resolver.
func (l LocalTXT) LookupTXT(ctx context.Context, name string) ([]string, error) {
	if l.Local != nil {
		rec, ok, err := l.Local(ctx, name)
		if err != nil {
			return nil, err
		}
		if ok {
			return []string{rec}, nil
		}
	}
	return l.Resolver.LookupTXT(ctx, name)
}
