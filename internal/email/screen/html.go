package screen

import (
	"regexp"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// metaForAgents finds meta tag names meant for AI readers.
var metaForAgents = regexp.MustCompile(`(?i)(?:^|[^a-z])(?:ai|llm|gpt|agent|assistant|bot|prompt|instructions?)(?:[^a-z]|$)`)

// htmlView is what screening needs from an HTML body: the text a reader
// sees, the text a reader cannot see (but a model reading the source does),
// comments, image alt/title text, and the links.
type htmlView struct {
	visible  string
	hidden   []string
	comments []string
	attrs    []string
	links    []link
}

type link struct {
	text, href string
}

// maxHTML bounds the HTML that is parsed; the rest of a huge body is
// ignored rather than slowing every delivery down.
const maxHTML = 512 << 10

// extractHTML walks the parsed tree once. It tracks, per element, whether
// the element is rendered invisibly and which background it sits on, so
// that text coloured like its background counts as hidden.
func extractHTML(src string) htmlView {
	var v htmlView
	if strings.TrimSpace(src) == "" {
		return v
	}
	if len(src) > maxHTML {
		src = src[:maxHTML]
	}
	root, err := html.Parse(strings.NewReader(src))
	if err != nil {
		return v
	}
	var vis strings.Builder
	hiddenBuf := map[*html.Node]*strings.Builder{}
	var order []*html.Node
	var walk func(n *html.Node, st renderState, hiddenRoot *html.Node, inLink *link)
	walk = func(n *html.Node, st renderState, hiddenRoot *html.Node, inLink *link) {
		switch n.Type {
		case html.CommentNode:
			c := strings.TrimSpace(n.Data)
			// Outlook conditional comments carry layout, not prose.
			if c != "" && !strings.HasPrefix(c, "[if") && !strings.HasPrefix(c, "<![endif]") && !strings.HasPrefix(c, "[endif]") {
				v.comments = append(v.comments, c)
			}
			return
		case html.TextNode:
			if hiddenRoot != nil {
				b := hiddenBuf[hiddenRoot]
				b.WriteString(n.Data)
				b.WriteByte(' ')
			} else {
				vis.WriteString(n.Data)
			}
			if inLink != nil {
				inLink.text += n.Data
			}
			return
		case html.ElementNode:
			switch n.DataAtom {
			case atom.Script, atom.Style, atom.Head, atom.Title, atom.Noscript, atom.Template:
				// Not rendered as text; <title> is mostly the subject again.
				if n.DataAtom != atom.Head {
					return
				}
			case atom.Br, atom.P, atom.Div, atom.Tr, atom.Li, atom.H1, atom.H2, atom.H3, atom.H4, atom.Table, atom.Blockquote, atom.Pre:
				vis.WriteString("\n\n")
			case atom.Td, atom.Th:
				vis.WriteString(" ")
			}
			st = st.child(n)
			if hiddenRoot == nil && st.hidden {
				hiddenRoot = n
				hiddenBuf[n] = &strings.Builder{}
				order = append(order, n)
			}
			for _, a := range n.Attr {
				if (a.Key == "alt" || a.Key == "title" || a.Key == "aria-label") && strings.TrimSpace(a.Val) != "" {
					v.attrs = append(v.attrs, a.Val)
				}
			}
			// <meta name="ai-instructions" content="…">: a header no reader
			// sees, named for the machine that parses the page.
			if n.DataAtom == atom.Meta && metaForAgents.MatchString(attr(n, "name")+" "+attr(n, "property")) {
				if c := attr(n, "content"); strings.TrimSpace(c) != "" {
					v.attrs = append(v.attrs, c)
				}
			}
			if n.DataAtom == atom.A {
				l := &link{href: attr(n, "href")}
				for c := n.FirstChild; c != nil; c = c.NextSibling {
					walk(c, st, hiddenRoot, l)
				}
				if l.href != "" {
					v.links = append(v.links, *l)
				}
				if inLink != nil {
					inLink.text += l.text
				}
				return
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, st, hiddenRoot, inLink)
		}
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.P, atom.Div, atom.Tr, atom.Li, atom.Table, atom.Blockquote:
				vis.WriteString("\n\n")
			}
		}
	}
	walk(root, renderState{bg: rgb{255, 255, 255}, bgKnown: true}, nil, nil)
	v.visible = vis.String()
	for _, n := range order {
		if t := strings.TrimSpace(hiddenBuf[n].String()); t != "" {
			v.hidden = append(v.hidden, t)
		}
	}
	return v
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// renderState is the inherited rendering context of an element.
type renderState struct {
	hidden  bool
	bg      rgb
	bgKnown bool
	fg      rgb
	fgKnown bool
}

func (s renderState) child(n *html.Node) renderState {
	if _, ok := attrOK(n, "hidden"); ok {
		s.hidden = true
	}
	if bg := attr(n, "bgcolor"); bg != "" {
		if c, ok := parseColor(bg); ok {
			s.bg, s.bgKnown = c, true
		}
	}
	if fc := attr(n, "color"); fc != "" && n.DataAtom == atom.Font {
		if c, ok := parseColor(fc); ok {
			s.fg, s.fgKnown = c, true
		}
	}
	style := strings.ToLower(attr(n, "style"))
	if style == "" {
		return s
	}
	decl := parseStyle(style)
	if decl["display"] == "none" || decl["visibility"] == "hidden" || decl["mso-hide"] == "all" {
		s.hidden = true
	}
	if op, ok := decl["opacity"]; ok {
		if f, err := strconv.ParseFloat(op, 64); err == nil && f < 0.1 {
			s.hidden = true
		}
	}
	if fs, ok := decl["font-size"]; ok && tinyLength(fs, 2) {
		s.hidden = true
	}
	clipped := decl["overflow"] == "hidden"
	for _, k := range []string{"max-height", "height", "max-width", "width"} {
		if val, ok := decl[k]; ok && clipped && tinyLength(val, 1) {
			s.hidden = true
		}
	}
	if strings.Contains(decl["position"], "absolute") || strings.Contains(decl["position"], "fixed") {
		for _, k := range []string{"left", "top", "right"} {
			if offscreen(decl[k]) {
				s.hidden = true
			}
		}
	}
	if offscreen(decl["text-indent"]) || strings.HasPrefix(decl["clip"], "rect(0") || strings.Contains(decl["clip-path"], "inset(50%") {
		s.hidden = true
	}
	for _, k := range []string{"background-color", "background"} {
		if val, ok := decl[k]; ok {
			if c, ok := parseColor(firstToken(val)); ok {
				s.bg, s.bgKnown = c, true
			}
		}
	}
	if val, ok := decl["color"]; ok {
		if val == "transparent" {
			s.hidden = true
		} else if c, ok := parseColor(val); ok {
			s.fg, s.fgKnown = c, true
		}
	}
	// Text the same colour as what it sits on cannot be read by a person.
	if s.fgKnown && s.bgKnown && s.fg.near(s.bg) {
		s.hidden = true
	}
	return s
}

func attrOK(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

func parseStyle(style string) map[string]string {
	out := map[string]string{}
	for decl := range strings.SplitSeq(style, ";") {
		k, val, ok := strings.Cut(decl, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(val), "!important"))
		out[strings.TrimSpace(k)] = strings.TrimSpace(val)
	}
	return out
}

func firstToken(s string) string {
	if i := strings.IndexAny(s, " \t"); i >= 0 && !strings.HasPrefix(s, "rgb") {
		return s[:i]
	}
	return s
}

// tinyLength reports whether a CSS length is at most max pixels (or zero in
// any unit).
func tinyLength(v string, max float64) bool {
	v = strings.TrimSpace(v)
	num := strings.TrimRight(v, "abcdefghijklmnopqrstuvwxyz%")
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return false
	}
	unit := v[len(num):]
	switch unit {
	case "", "px":
		return f <= max
	case "pt":
		return f <= max*0.75
	default:
		return f == 0
	}
}

// offscreen reports a large negative offset, the classic way to move text
// out of the viewport.
func offscreen(v string) bool {
	v = strings.TrimSpace(v)
	if !strings.HasPrefix(v, "-") {
		return false
	}
	num := strings.TrimRight(v[1:], "abcdefghijklmnopqrstuvwxyz%")
	f, err := strconv.ParseFloat(num, 64)
	return err == nil && f >= 500
}

type rgb struct{ r, g, b int }

func (c rgb) near(o rgb) bool {
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	return abs(c.r-o.r)+abs(c.g-o.g)+abs(c.b-o.b) <= 30
}

var namedColors = map[string]rgb{
	"white": {255, 255, 255}, "black": {0, 0, 0}, "red": {255, 0, 0}, "green": {0, 128, 0},
	"blue": {0, 0, 255}, "yellow": {255, 255, 0}, "gray": {128, 128, 128}, "grey": {128, 128, 128},
	"silver": {192, 192, 192}, "whitesmoke": {245, 245, 245}, "snow": {255, 250, 250},
	"ivory": {255, 255, 240}, "navy": {0, 0, 128}, "orange": {255, 165, 0},
}

func parseColor(s string) (rgb, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	if c, ok := namedColors[s]; ok {
		return c, true
	}
	if strings.HasPrefix(s, "#") {
		h := s[1:]
		if len(h) == 3 || len(h) == 4 {
			h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
		}
		if len(h) == 8 {
			h = h[:6]
		}
		if len(h) != 6 {
			return rgb{}, false
		}
		n, err := strconv.ParseUint(h, 16, 32)
		if err != nil {
			return rgb{}, false
		}
		return rgb{int(n >> 16 & 0xff), int(n >> 8 & 0xff), int(n & 0xff)}, true
	}
	if strings.HasPrefix(s, "rgb") {
		open, close := strings.IndexByte(s, '('), strings.IndexByte(s, ')')
		if open < 0 || close < open {
			return rgb{}, false
		}
		parts := strings.FieldsFunc(s[open+1:close], func(r rune) bool { return r == ',' || r == ' ' || r == '/' })
		if len(parts) < 3 {
			return rgb{}, false
		}
		var v [3]int
		for i := range 3 {
			n, err := strconv.Atoi(strings.TrimSuffix(parts[i], "%"))
			if err != nil {
				return rgb{}, false
			}
			if strings.HasSuffix(parts[i], "%") {
				n = n * 255 / 100
			}
			v[i] = n
		}
		return rgb{v[0], v[1], v[2]}, true
	}
	return rgb{}, false
}
