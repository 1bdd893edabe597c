package httpapi

import (
	"encoding/base64"
	"errors"
	"strings"

	"github.com/agentsvc/agentsvc/internal/apierr"
)

// List cursors are opaque to clients: base64url of a version tag and the
// sort key of the last item returned. The tag lets the format change without
// old cursors being misread. (The events API's cursor is not opaque: it is
// the log sequence as a decimal string, the webhook sequence; its old
// encoded form is still read, see parseEventCursor.)
const cursorTag = "c1:"

// EncodeCursor makes the cursor that continues after key.
func EncodeCursor(key string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(cursorTag + key))
}

var errBadCursor = errors.New("bad cursor")

// DecodeCursor returns the key inside a cursor; "" decodes to "" (first page).
func DecodeCursor(c string) (string, error) {
	if c == "" {
		return "", nil
	}
	if len(c) > 256 {
		return "", errBadCursor
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(c)
	if err != nil {
		return "", errBadCursor
	}
	s := string(raw)
	if !strings.HasPrefix(s, cursorTag) {
		return "", errBadCursor
	}
	key := s[len(cursorTag):]
	if key == "" {
		return "", errBadCursor
	}
	for _, r := range key {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return "", errBadCursor
		}
	}
	return key, nil
}

// PageParams are the query parameters of every list.
type PageParams struct {
	Limit  int    `query:"limit" minimum:"1" maximum:"100" default:"20" doc:"Items per page, 1-100."`
	Cursor string `query:"cursor" maxLength:"256" doc:"The next_cursor of the previous page; omit for the first page."`
}

// after decodes the cursor into the key to continue after.
func (p PageParams) after() (string, error) {
	k, err := DecodeCursor(p.Cursor)
	if err != nil {
		return "", apierr.Invalid("cursor", "is not a cursor this list returned").WithHint("pass next_cursor from the previous page unchanged")
	}
	return k, nil
}

// Page is the body of every list response.
type Page[T any] struct {
	Data       []T    `json:"data"`
	NextCursor string `json:"next_cursor,omitempty" doc:"Present only when there is a next page."`
}

// pageOf trims a result fetched with limit+1 rows into a page, setting
// next_cursor when the extra row shows there is more.
func pageOf[T any](items []T, limit int, key func(T) string) *Page[T] {
	p := &Page[T]{Data: items}
	if len(items) > limit {
		p.Data = items[:limit]
		p.NextCursor = EncodeCursor(key(items[limit-1]))
	}
	return p
}
