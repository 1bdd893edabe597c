package content

import (
	"regexp"
	"strings"

	"github.com/inbucket/html2text"
	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// HTMLToText renders the text a reader of the HTML would see, with links as
// "text ( url )". Content a mail client would not show is left out: head,
// style, script, comments, and elements hidden with the hidden attribute or
// inline CSS (display:none, visibility:hidden, zero font size, opacity 0).
// Screening looks at that hidden text separately; it must not leak into the
// body an agent reads as if the sender had shown it.
func HTMLToText(h string) string {
	if strings.TrimSpace(h) == "" {
		return ""
	}
	doc, err := html.Parse(strings.NewReader(h))
	if err != nil {
		// html.Parse only fails on reader errors; a strings.Reader has none.
		return ""
	}
	prepareForText(doc)
	text, err := html2text.FromHTMLNode(doc)
	if err != nil {
		return ""
	}
	return normalizeNewlines(text)
}

// hiddenStyle matches inline CSS that hides an element from a reader.
var hiddenStyle = regexp.MustCompile(`(?i)(?:^|;|\s)(?:display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0+(?:\.0+)?(?:px|pt|em|rem|%)?\s*(?:;|$|!)|opacity\s*:\s*0+(?:\.0+)?\s*(?:;|$|!)|max-height\s*:\s*0+(?:px)?\s*(?:;|$|!))`)

// prepareForText removes what a reader would not see and puts separators
// between table cells and rows (html2text runs cells together otherwise, which
// glues "Code" and "123456" into one word in table-laid-out mail).
func prepareForText(n *html.Node) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		switch {
		case c.Type == html.CommentNode:
			n.RemoveChild(c)
		case c.Type == html.ElementNode && isHidden(c):
			n.RemoveChild(c)
		default:
			prepareForText(c)
			if c.Type == html.ElementNode {
				switch c.DataAtom {
				case atom.Td, atom.Th:
					c.AppendChild(&html.Node{Type: html.TextNode, Data: " "})
				case atom.Tr:
					c.AppendChild(&html.Node{Type: html.ElementNode, DataAtom: atom.Br, Data: "br"})
				}
			}
		}
		c = next
	}
}

func isHidden(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Head, atom.Style, atom.Script, atom.Template, atom.Noscript, atom.Title, atom.Object, atom.Iframe:
		return true
	}
	for _, a := range n.Attr {
		switch strings.ToLower(a.Key) {
		case "hidden":
			return true
		case "style":
			if hiddenStyle.MatchString(a.Val) {
				return true
			}
		}
	}
	return false
}
