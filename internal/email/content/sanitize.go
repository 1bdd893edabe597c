package content

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/microcosm-cc/bluemonday"
	"github.com/microcosm-cc/bluemonday/css"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// emailPolicy is built once and then only read: a bluemonday Policy is safe
// for concurrent use after construction, and building it compiles regular
// expressions, which is too slow to repeat for every message shown. It is a
// constant in all but syntax, so the no-globals rule does not bite.
var emailPolicy = sync.OnceValue(newEmailPolicy)

// allowedStyles are the inline CSS properties kept: presentation only. Each
// value must pass bluemonday's per-property validator AND contain nothing that
// can load or run anything (cssLoads). Left out on purpose: background and
// background-image (url()), list-style-image, content, cursor, behavior,
// position/z-index/opacity/display/visibility (overlaying or hiding content:
// a reader should see every word the agent sees), and all at-rules, since
// style elements are dropped entirely.
var allowedStyles = []string{
	"color", "background-color",
	"font-family", "font-size", "font-style", "font-weight", "font-variant",
	"line-height", "letter-spacing", "word-spacing",
	"text-align", "text-decoration", "text-indent", "text-transform",
	"vertical-align", "white-space", "word-wrap", "word-break",
	"direction",
	"margin", "margin-top", "margin-right", "margin-bottom", "margin-left",
	"padding", "padding-top", "padding-right", "padding-bottom", "padding-left",
	"border", "border-top", "border-right", "border-bottom", "border-left",
	"border-color", "border-style", "border-width",
	"border-top-color", "border-right-color", "border-bottom-color", "border-left-color",
	"border-top-style", "border-right-style", "border-bottom-style", "border-left-style",
	"border-top-width", "border-right-width", "border-bottom-width", "border-left-width",
	"border-radius", "border-collapse", "border-spacing",
	"width", "height", "max-width", "min-width", "max-height", "min-height",
	"table-layout", "list-style-type",
}

// cssLoadsRe matches CSS that fetches or executes something, or escapes that
// could spell it. It is a second line after bluemonday's value validators.
var cssLoadsRe = regexp.MustCompile(`(?i)url\s*\(|image-set|image\s*\(|@import|expression|behavio|javascript|vbscript|-moz-binding|\\|/\*`)

func cssLoads(v string) bool { return cssLoadsRe.MatchString(v) }

// hidesText reports a presentation value that would keep words from a
// person reading the mail while the agent reads them: text shrunk to
// nothing, a transparent colour, or text pushed off the page by a large
// negative indent, margin or spacing. Dropping the value shows the text
// as the agent sees it. (Text coloured like its background is not caught
// here: the two colours sit on different elements; screening reports it as
// hidden text.)
func hidesText(prop, v string) bool {
	v = strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "!important")))
	switch prop {
	case "color":
		return invisibleColor(v)
	case "font-size":
		n, unit, ok := cssLength(v)
		return ok && tooSmall(n, unit, 6, 0.4, 40)
	case "text-indent", "margin", "margin-top", "margin-right", "margin-bottom", "margin-left":
		for _, f := range strings.Fields(v) {
			if n, unit, ok := cssLength(f); ok && n < 0 && !tooSmall(-n, unit, 100, 5, 50) {
				return true
			}
		}
	case "letter-spacing", "word-spacing":
		if n, unit, ok := cssLength(v); ok && n < 0 && !tooSmall(-n, unit, 4, 0.3, 30) {
			return true
		}
	}
	return false
}

// tooSmall compares a length with a floor per kind of unit: absolute (px,
// pt and unitless), relative to the font (em, rem, ch, ex), or percent.
func tooSmall(n float64, unit string, abs, rel, pct float64) bool {
	switch unit {
	case "em", "rem", "ch", "ex":
		return n < rel
	case "%":
		return n < pct
	case "vw", "vh", "vmin", "vmax":
		return n < 1
	default:
		return n < abs
	}
}

// cssLength reads a CSS length such as "-12.5px", "0", "0.1em".
func cssLength(v string) (float64, string, bool) {
	i := 0
	for i < len(v) && (v[i] == '-' || v[i] == '+' || v[i] == '.' || v[i] >= '0' && v[i] <= '9') {
		i++
	}
	if i == 0 {
		return 0, "", false
	}
	n, err := strconv.ParseFloat(v[:i], 64)
	if err != nil {
		return 0, "", false
	}
	return n, v[i:], true
}

// invisibleColor reports a colour with (almost) no opacity.
func invisibleColor(v string) bool {
	if v == "transparent" {
		return true
	}
	if strings.HasPrefix(v, "#") {
		h := v[1:]
		switch len(h) {
		case 4:
			return h[3] == '0' || h[3] == '1'
		case 8:
			a, err := strconv.ParseUint(h[6:], 16, 8)
			return err == nil && a < 0x1a
		}
		return false
	}
	if open := strings.IndexByte(v, '('); open > 0 && strings.HasSuffix(v, ")") {
		args := strings.FieldsFunc(v[open+1:len(v)-1], func(r rune) bool { return r == ',' || r == '/' || r == ' ' })
		fn := strings.TrimSpace(v[:open])
		if len(args) == 4 && (fn == "rgba" || fn == "hsla" || fn == "rgb" || fn == "hsl") {
			a := args[3]
			if strings.HasSuffix(a, "%") {
				n, err := strconv.ParseFloat(strings.TrimSuffix(a, "%"), 64)
				return err == nil && n < 10
			}
			n, err := strconv.ParseFloat(a, 64)
			return err == nil && n < 0.1
		}
	}
	return false
}

var (
	colorAttr  = regexp.MustCompile(`^(?i:#[0-9a-f]{3,8}|[a-z]{3,20})$`)
	lengthAttr = regexp.MustCompile(`^[0-9]{1,5}(?:%|px)?$`)
	numberAttr = regexp.MustCompile(`^[0-9]{1,4}$`)
	alignAttr  = regexp.MustCompile(`^(?i:left|right|center|justify|top|middle|bottom|baseline)$`)
	dirAttr    = regexp.MustCompile(`^(?i:ltr|rtl|auto)$`)
	langAttr   = regexp.MustCompile(`^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8}){0,3}$`)
	faceAttr   = regexp.MustCompile(`^[A-Za-z0-9 ,'"-]{1,100}$`)
)

func newEmailPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()

	// URLs: absolute http(s) and mailto links; cid: only so that inline
	// images survive until rewriteImages points them at attachment URLs. No
	// relative URLs (they would resolve against our own origin), no data:,
	// javascript:, vbscript: or anything else.
	p.RequireParseableURLs(true)
	p.AllowRelativeURLs(false)
	p.AllowURLSchemes("http", "https", "mailto", "cid")
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true) // also adds rel="noopener"
	p.AddSpaceWhenStrippingTag(true)

	p.AllowElements(
		"a", "abbr", "acronym", "address", "article", "aside", "b", "bdi", "bdo", "big",
		"blockquote", "br", "caption", "center", "cite", "code", "col", "colgroup",
		"dd", "del", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "font",
		"footer", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr", "i", "img",
		"ins", "kbd", "li", "main", "mark", "ol", "p", "pre", "q", "rp", "rt", "ruby",
		"s", "samp", "section", "small", "span", "strike", "strong", "sub", "summary",
		"details", "sup", "table", "tbody", "td", "tfoot", "th", "thead", "time",
		"tr", "tt", "u", "ul", "var", "wbr",
	)
	p.AllowAttrs("href").OnElements("a")
	p.AllowAttrs("src").OnElements("img")
	p.AllowAttrs("alt").Matching(regexp.MustCompile(`^[^<>]*$`)).OnElements("img")
	p.AllowAttrs("title").Matching(regexp.MustCompile(`^[^<>]*$`)).Globally()
	p.AllowAttrs("dir").Matching(dirAttr).Globally()
	p.AllowAttrs("lang").Matching(langAttr).Globally()
	p.AllowAttrs("align").Matching(alignAttr).Globally()
	p.AllowAttrs("valign").Matching(alignAttr).OnElements("td", "th", "tr", "tbody", "thead", "tfoot", "col", "colgroup")
	p.AllowAttrs("width", "height").Matching(lengthAttr).OnElements("img", "table", "td", "th", "tr", "col", "colgroup", "hr")
	p.AllowAttrs("border", "cellpadding", "cellspacing").Matching(numberAttr).OnElements("table", "img")
	p.AllowAttrs("colspan", "rowspan", "span").Matching(numberAttr).OnElements("td", "th", "col", "colgroup")
	p.AllowAttrs("bgcolor").Matching(colorAttr).OnElements("table", "td", "th", "tr", "tbody")
	p.AllowAttrs("color").Matching(colorAttr).OnElements("font")
	p.AllowAttrs("face").Matching(faceAttr).OnElements("font")
	p.AllowAttrs("size").Matching(regexp.MustCompile(`^[+-]?[1-7]$`)).OnElements("font")
	p.AllowAttrs("nowrap").Matching(regexp.MustCompile(`^(?i:nowrap)?$`)).OnElements("td", "th")
	p.AllowAttrs("start").Matching(numberAttr).OnElements("ol")
	p.AllowAttrs("datetime").Matching(regexp.MustCompile(`^[0-9T:+\-. Z]{1,40}$`)).OnElements("time", "del", "ins")

	for _, prop := range allowedStyles {
		validate := css.GetDefaultHandler(prop)
		p.AllowStyles(prop).MatchingHandler(func(v string) bool {
			return !cssLoads(v) && !hidesText(prop, v) && validate(v)
		}).Globally()
	}
	return p
}

// SanitizeHTML returns the HTML of a message made safe to show in a browser
// next to the service's own pages. It removes scripts, event handlers, forms
// and inputs, frames, objects and embeds, style elements, CSS that loads or
// runs anything, and URLs other than http(s)/mailto. Images are kept only when
// they are inline parts of the message: src="cid:X" is rewritten to cidURL(X),
// and images with any other source (remote tracking pixels included) or an
// unknown cid are removed. Links get rel="noreferrer", and absolute web
// links target="_blank" with rel="noreferrer noopener". Styles that would
// hide text from a person (see hidesText) are dropped.
//
// cidURL may be nil, in which case no image is kept.
func SanitizeHTML(h string, cidURL func(contentID string) (url string, ok bool)) string {
	return Sanitize(h).WithImages(cidURL)
}

// SafeHTML is HTML that has been through the email policy, its cid: image
// sources not yet resolved. The policy pass is most of SanitizeHTML's cost
// and depends only on the HTML, while resolving images depends on where the
// copy is stored (each inbox names its attachments differently): a message
// for several inboxes is sanitized once and resolved per inbox. Only
// Sanitize makes a non-empty SafeHTML, so holding one means the policy ran.
type SafeHTML struct{ h string }

// Sanitize runs the email policy of SanitizeHTML over h.
func Sanitize(h string) SafeHTML {
	if h == "" {
		return SafeHTML{}
	}
	return SafeHTML{h: emailPolicy().Sanitize(h)}
}

// WithImages finishes SanitizeHTML: inline images whose cid: source cidURL
// can serve point there, and every other image is removed.
func (s SafeHTML) WithImages(cidURL func(contentID string) (url string, ok bool)) string {
	return rewriteImages(s.h, cidURL)
}

// rewriteImages walks the sanitizer's output token by token (it is already
// safe markup with no raw-text elements, so tokenizing it is exact) and keeps
// only images whose cid: source the caller can serve. It works on tokens
// rather than a parsed tree so the sanitizer's output is not restructured.
func rewriteImages(h string, cidURL func(string) (string, bool)) string {
	if !strings.Contains(h, "<img") {
		return h
	}
	var b strings.Builder
	b.Grow(len(h))
	z := html.NewTokenizer(strings.NewReader(h))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return b.String()
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			b.Write(z.Raw())
			continue
		}
		tok := z.Token()
		if tok.DataAtom != atom.Img {
			b.Write(z.Raw())
			continue
		}
		keep := false
		attrs := tok.Attr[:0]
		for _, a := range tok.Attr {
			if a.Key != "src" {
				attrs = append(attrs, a)
				continue
			}
			if keep {
				continue // a second src: never let it through
			}
			src := strings.TrimSpace(a.Val)
			if len(src) > 4 && strings.EqualFold(src[:4], "cid:") && cidURL != nil {
				id := src[4:]
				if un, err := url.PathUnescape(id); err == nil {
					id = un // RFC 2392: cid URLs are %-encoded Content-IDs
				}
				if u, ok := cidURL(strings.Trim(id, "<>")); ok && u != "" {
					a.Val = u
					attrs = append(attrs, a)
					keep = true
				}
			}
		}
		tok.Attr = attrs
		if keep {
			b.WriteString(tok.String())
		}
	}
}
