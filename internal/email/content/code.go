package content

import (
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// ExtractCode finds the one-time code and the confirmation (or magic sign-in)
// link in a message, for agents completing a sign-up. It only ever returns
// text copied from the message, and it returns nothing rather than a guess: a
// number counts as a code only when the mail labels it as one (in the same
// sentence, on the line just before it, or right after it: "Your code is",
// "Ihr Code lautet", "Votre code", "验证码", ...), and numbers that look like
// years, dates, times, prices, phone numbers, postal codes or labelled
// order/invoice/account numbers are skipped. Digit groups written with a
// space or hyphen ("123 456") are returned without the separator, as a code
// field expects them; letter-and-digit codes ("AB12-CD34") are returned as
// written and need a close label.
//
// The link is the best http(s) link whose text or URL speaks of verifying,
// confirming, activating, signing in or resetting; unsubscribe, privacy,
// social and "this wasn't me" links never qualify.
//
// text and html are the message bodies as received; hidden HTML text (see
// HTMLToText) is not searched, so text a reader cannot see cannot plant a
// code.
func ExtractCode(subject, text, html string) (code, link string) {
	body := text
	fromHTML := ""
	if html != "" {
		fromHTML = HTMLToText(html)
	}
	if strings.TrimSpace(body) == "" {
		body = fromHTML
	}
	code = findCode(subject, body)
	if code == "" && fromHTML != "" && fromHTML != body {
		// Some senders put a stub ("view this mail in HTML") in text/plain.
		code = findCode(subject, fromHTML)
	}
	return code, findLink(text, html)
}

// markerSet finds the terms of one list. Bounded terms must start and end at
// a word boundary (short words like "pin" or "tel" would match inside
// others); free terms may sit inside compounds ("Bestätigungscode",
// "验证码"). The two kinds are separate patterns, searched separately, and
// every match is kept: in one alternation the first alternative that matches
// wins, so the bounded "zip" used to hide the free "zip code" and leave its
// "code" to label the postal code that follows.
type markerSet struct{ bounded, free *regexp.Regexp }

func markerRe(bounded, free []string) markerSet {
	quote := func(ts []string) string {
		q := make([]string, len(ts))
		for i, t := range ts {
			// Any run of spaces (a non-breaking one from HTML too) between
			// the words of a term: "zip  code", "Zip&nbsp;code".
			q[i] = strings.ReplaceAll(regexp.QuoteMeta(t), " ", `[\s\x{00a0}]+`)
		}
		// Longest first so "promo code" wins over "promo".
		slices.SortFunc(q, func(a, b string) int { return len(b) - len(a) })
		return strings.Join(q, "|")
	}
	return markerSet{
		bounded: regexp.MustCompile(`(?i)(?:^|[^\p{L}\p{N}])(` + quote(bounded) + `)(?:$|[^\p{L}\p{N}])`),
		free:    regexp.MustCompile(`(?i)(` + quote(free) + `)`),
	}
}

// find returns the spans of all terms in line, by start (longest first when
// two start together). Each search resumes where the last term ended, not
// after the boundary character its match consumed, so adjacent terms ("tel
// fax") are all found. Resuming mid-line lets ^ match there, but only a
// boundary character follows a bounded term and no term starts with one.
func (m markerSet) find(line string) []span {
	var out []span
	for _, re := range []*regexp.Regexp{m.bounded, m.free} {
		for pos := 0; pos < len(line); {
			loc := re.FindStringSubmatchIndex(line[pos:])
			if loc == nil {
				break
			}
			s := span{pos + loc[2], pos + loc[3]}
			out = append(out, s)
			pos = max(s.end, pos+1)
		}
	}
	slices.SortFunc(out, func(a, b span) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return b.end - a.end
	})
	return out
}

// codeWords label a one-time code.
var codeWords = markerRe(
	[]string{"otp", "pin", "tan", "2fa", "mfa", "mã", "one-time", "one time", "einmalcode", "einmalpasswort",
		"engångskod", "engangskode", "two-factor", "2-step", "kod", "kode", "koodi", "kód", "код", "passcode"},
	[]string{"code", "codice", "código", "codigo", "verif", "vérif", "confirm", "bestätig", "authentif", "authentic",
		"bekräft", "bekreft", "bekræft", "vahvist", "doğrula", "weryfik", "подтвер", "ověř", "potvrz", "bevestig",
		"コード", "認証", "確認番号", "验证码", "驗證碼", "校验码", "动态码", "确认码", "인증", "รหัส", "رمز", "קוד"},
)

// notCodeWords label numbers that are not one-time codes. A code word inside
// one of these ("promo code", "postcode") does not count.
var notCodeWords = markerRe(
	[]string{"order", "card", "tel", "fax", "call", "zip", "plz", "id", "ref", "case", "claim", "policy", "suite", "apt",
		"floor", "room", "box", "no.", "nr.", "gift", "ip", "version", "build", "model", "total", "qty", "sku", "isbn",
		"vat", "tax", "iban", "bic", "swift", "routing", "flight", "flug", "vol", "seat", "gate", "room", "step"},
	[]string{"promo code", "promo-code", "promotional code", "coupon code", "discount code", "voucher code", "gift code",
		"referral code", "tracking code", "source code", "dress code", "code of conduct", "zip code", "postal code",
		"area code", "country code", "qr code", "qr-code", "bar code", "barcode", "postcode", "zipcode", "rabattcode",
		"gutscheincode", "aktionscode", "code promo", "code postal", "código postal", "codice sconto", "codice postale",
		"código promocional", "code de réduction", "unicode", "encode", "decode", "codec",
		"confirmation number", "bestätigungsnummer", "numéro de confirmation", "número de confirmación",
		"promo", "coupon", "gutschein", "rabatt", "discount", "voucher", "referral", "tracking", "sendungs",
		"bestell", "commande", "pedido", "ordine", "заказ", "注文", "订单", "invoice", "rechnung", "factur", "fattura",
		"receipt", "quittung", "ticket", "booking", "buchung", "reserv", "account", "konto", "compte", "customer",
		"kunden", "member", "mitglied", "phone", "telefon", "téléphone", "postal", "postleitzahl", "reference",
		"referenz", "référence", "referencia", "serial", "street", "straße", "strasse", "avenue", "price", "preis",
		"prix", "precio", "amount", "betrag", "montant", "balance", "saldo", "copyright", "©", "ending in", "endet auf"},
)

type span struct{ start, end int }

// markers finds the code words in a line that are not part of a non-code
// term, and the non-code terms.
func markers(line string) (code, notCode []span) {
	notCode = notCodeWords.find(line)
	for _, s := range codeWords.find(line) {
		if !slices.ContainsFunc(notCode, func(n span) bool { return s.start < n.end && n.start < s.end }) {
			code = append(code, s)
		}
	}
	return code, notCode
}

// codeToken finds code-like tokens: ASCII letters and digits with inner
// hyphens. Other scripts act as separators, so "验证码123456" yields 123456.
var codeToken = regexp.MustCompile(`[0-9A-Za-z]+(?:-[0-9A-Za-z]+)*`)

var (
	digitsOnly   = regexp.MustCompile(`^[0-9]{4,8}$`)
	digitGroups  = regexp.MustCompile(`^[0-9]{3,4}-[0-9]{3,4}$`)
	googleStyle  = regexp.MustCompile(`^[A-Z]-[0-9]{4,8}$`)
	alnumCode    = regexp.MustCompile(`^[A-Z0-9]{2,}(?:-[A-Z0-9]{2,}){0,3}$`)
	sentenceStop = regexp.MustCompile(`[.!?。！？]\s`)
)

// unitWords after a number mean it is a quantity, not a code.
var unitWords = map[string]bool{
	"usd": true, "eur": true, "gbp": true, "chf": true, "sek": true, "nok": true, "dkk": true, "pln": true,
	"jpy": true, "cad": true, "aud": true, "inr": true, "rub": true, "kr": true, "zł": true, "руб": true,
	"yen": true, "euro": true, "euros": true, "dollars": true, "€": true, "$": true, "£": true,
	"minutes": true, "minute": true, "min": true, "mins": true, "hours": true, "hour": true, "hrs": true,
	"seconds": true, "sec": true, "days": true, "minuten": true, "stunden": true, "sekunden": true, "tage": true,
	"heures": true, "jours": true, "minutos": true, "horas": true, "días": true, "minuti": true, "ore": true,
	"giorni": true, "минут": true, "дней": true, "mb": true, "gb": true, "kb": true, "km": true, "kg": true,
	"miles": true, "points": true, "punkte": true, "pts": true, "items": true, "artikel": true,
}

var monthWords = map[string]bool{
	"jan": true, "january": true, "feb": true, "february": true, "mar": true, "march": true, "apr": true,
	"april": true, "may": true, "jun": true, "june": true, "jul": true, "july": true, "aug": true, "august": true,
	"sep": true, "sept": true, "september": true, "oct": true, "october": true, "nov": true, "november": true,
	"dec": true, "december": true, "januar": true, "februar": true, "märz": true, "mai": true, "juni": true,
	"juli": true, "oktober": true, "dezember": true, "janvier": true, "février": true, "mars": true, "avril": true,
	"juin": true, "juillet": true, "août": true, "septembre": true, "octobre": true, "novembre": true,
	"décembre": true, "enero": true, "febrero": true, "marzo": true, "abril": true, "mayo": true, "junio": true,
	"julio": true, "agosto": true, "septiembre": true, "octubre": true, "noviembre": true, "diciembre": true,
}

type codeCandidate struct {
	value string
	alnum bool
	year  bool
	score int
	order int
}

// Scores: how a candidate is labelled.
const (
	scoreTight    = 10 // "code: 123456", "Ihr Code lautet 123456"
	scorePrevLine = 9  // label line, then the code alone on its own line
	scoreSameLine = 8  // label earlier in the same sentence
	scoreAfter    = 7  // "123456 is your verification code"
	scoreSubject  = 3  // code alone on a line, subject speaks of a code
	minAlnumScore = scorePrevLine
)

func findCode(subject, body string) string {
	lines := make([]string, 0, 64)
	lines = append(lines, subject)
	lines = append(lines, strings.Split(normalizeNewlines(body), "\n")...)
	subjectCode, subjectNot := markers(subject)
	subjectSaysCode := len(subjectCode) > 0 && len(subjectNot) == 0

	var best *codeCandidate
	order := 0
	prevLabel := false // the last non-empty line ends in a code label
	prevDist := 0      // lines since that label
	for li, line := range lines {
		if strings.TrimSpace(line) == "" {
			if li > 0 {
				prevDist++
			}
			continue
		}
		codeM, notM := markers(line)
		for _, c := range lineCandidates(line) {
			order++
			c.order = order
			c.score = scoreCandidate(line, c, codeM, notM, prevLabel && prevDist <= 3, subjectSaysCode)
			if c.alnum && c.score < minAlnumScore || c.year && c.score < scoreTight || c.score == 0 {
				continue
			}
			if best == nil || c.score > best.score {
				cc := c.codeCandidate
				best = &cc
			}
		}
		if li == 0 {
			// The subject does not label the first body line.
			prevLabel, prevDist = false, 0
			continue
		}
		prevLabel = lastMarkerIsCode(codeM, notM)
		prevDist = 0
	}
	if best == nil {
		return ""
	}
	return best.value
}

func lastMarkerIsCode(codeM, notM []span) bool {
	if len(codeM) == 0 {
		return false
	}
	return len(notM) == 0 || codeM[len(codeM)-1].start > notM[len(notM)-1].start
}

type lineCandidate struct {
	codeCandidate
	start, end int // byte span in the line
}

// lineCandidates lists the tokens on a line that could be a code and are
// not obviously something else.
func lineCandidates(line string) []lineCandidate {
	toks := codeToken.FindAllStringIndex(line, -1)
	var out []lineCandidate
	for i := 0; i < len(toks); i++ {
		s, e := toks[i][0], toks[i][1]
		tok := line[s:e]
		var c lineCandidate
		switch {
		case len(tok) >= 3 && len(tok) <= 4 && allDigits(tok) && i+1 < len(toks) &&
			toks[i+1][0] == e+1 && line[e] == ' ' &&
			toks[i+1][1]-toks[i+1][0] >= 3 && toks[i+1][1]-toks[i+1][0] <= 4 &&
			allDigits(line[toks[i+1][0]:toks[i+1][1]]):
			// "123 456": two groups of 3-4 digits, one space apart.
			c = lineCandidate{codeCandidate{value: tok + line[toks[i+1][0]:toks[i+1][1]]}, s, toks[i+1][1]}
			i++
		case digitsOnly.MatchString(tok):
			c = lineCandidate{codeCandidate{value: tok, year: isYear(tok)}, s, e}
		case len(tok) >= 7 && len(tok) <= 9 && digitGroups.MatchString(tok):
			c = lineCandidate{codeCandidate{value: strings.ReplaceAll(tok, "-", "")}, s, e}
		case googleStyle.MatchString(tok):
			// "G-123456": the letter names the sender; the code is the digits.
			c = lineCandidate{codeCandidate{value: tok[2:]}, s, e}
		case isAlnumCode(tok):
			c = lineCandidate{codeCandidate{value: tok, alnum: true}, s, e}
		default:
			continue
		}
		if partOfLargerNumber(line, c.start, c.end) || quantityOrDate(line, c.start, c.end) {
			continue
		}
		out = append(out, c)
	}
	return out
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isYear(tok string) bool {
	return len(tok) == 4 && (strings.HasPrefix(tok, "19") || strings.HasPrefix(tok, "20"))
}

func isAlnumCode(tok string) bool {
	if !alnumCode.MatchString(tok) {
		return false
	}
	n := len(strings.ReplaceAll(tok, "-", ""))
	return n >= 4 && n <= 16 && strings.ContainsAny(tok, "0123456789") &&
		strings.ContainsAny(tok, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
}

// partOfLargerNumber rejects tokens that belong to a phone number, date,
// time, decimal, IP address or card number: digits joined by separators.
func partOfLargerNumber(line string, s, e int) bool {
	before, after := line[:s], line[e:]
	if b, _ := utf8.DecodeLastRuneInString(before); b != utf8.RuneError {
		switch {
		case strings.ContainsRune("#+№$€£¥₹₽@", b):
			return true
		case strings.ContainsRune("./:,-", b):
			if rest := before[:len(before)-1]; rest != "" && isDigitByte(rest[len(rest)-1]) {
				return true
			}
		case b == ' ' || b == '\u00a0':
			rest := strings.TrimRight(before, " \u00a0")
			if rest != "" && (isDigitByte(rest[len(rest)-1]) || rest[len(rest)-1] == ')') {
				return true
			}
		}
	}
	if a, _ := utf8.DecodeRuneInString(after); a != utf8.RuneError {
		switch {
		case a == '%' || a == '@' || a == '#': // 4455# is keyed into a phone
			return true
		case strings.ContainsRune("./:,-", a):
			if len(after) > 1 && isDigitByte(after[1]) {
				return true
			}
		case a == ' ' || a == '\u00a0':
			rest := strings.TrimLeft(after, " \u00a0")
			if rest != "" && isDigitByte(rest[0]) {
				return true
			}
		}
	}
	return false
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

// quantityOrDate rejects numbers next to a unit, currency or month name, and
// US-style postal codes ("CA 94107").
func quantityOrDate(line string, s, e int) bool {
	prevWord, nextWord := lastWord(line[:s]), firstWord(line[e:])
	if unitWords[nextWord] || unitWords[prevWord] || monthWords[nextWord] || monthWords[prevWord] {
		return true
	}
	if e-s == 5 && allDigits(line[s:e]) {
		prev := strings.TrimRight(line[:s], " ")
		if len(prev) >= 2 {
			p := prev[len(prev)-2:]
			if p[0] >= 'A' && p[0] <= 'Z' && p[1] >= 'A' && p[1] <= 'Z' &&
				(len(prev) == 2 || prev[len(prev)-3] == ' ' || prev[len(prev)-3] == ',') {
				return true
			}
		}
	}
	return false
}

func lastWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.Trim(f[len(f)-1], ".,:;()[]"))
}

func firstWord(s string) string {
	f := strings.Fields(s)
	if len(f) == 0 {
		return ""
	}
	return strings.ToLower(strings.Trim(f[0], ".,:;()[]"))
}

// scoreCandidate says how clearly the line labels the candidate as a code; 0
// means not at all.
func scoreCandidate(line string, c lineCandidate, codeM, notM []span, prevLabel, subjectSaysCode bool) int {
	// The nearest marker before the candidate decides: "Order number 12345,
	// use code 678901" labels only the second number.
	var near span
	nearIsCode, found := false, false
	for _, m := range codeM {
		if m.end <= c.start && (!found || m.end > near.end) {
			near, nearIsCode, found = m, true, true
		}
	}
	for _, m := range notM {
		if m.end <= c.start && (!found || m.end > near.end) {
			near, nearIsCode, found = m, false, true
		}
	}
	if found && !nearIsCode && c.start-near.end < 40 {
		return 0
	}
	if found && nearIsCode {
		gap := line[near.end:c.start]
		if !sentenceStop.MatchString(gap) {
			switch g := utf8.RuneCountInString(gap); {
			case g <= 20:
				return scoreTight
			case g <= 60:
				return scoreSameLine
			}
		}
	}
	alone := aloneOnLine(line, c.start, c.end)
	if alone && prevLabel {
		return scorePrevLine
	}
	// "123456 is your verification code": the first marker after it.
	for _, m := range notM {
		if m.start >= c.end && m.start-c.end < 40 {
			return 0
		}
	}
	for _, m := range codeM {
		if m.start >= c.end && m.start-c.end <= 40 && !sentenceStop.MatchString(line[c.end:m.start]) {
			return scoreAfter
		}
	}
	if alone && subjectSaysCode && !c.alnum && len(c.value) >= 6 {
		return scoreSubject
	}
	return 0
}

// aloneOnLine reports whether only punctuation or markup surrounds the
// candidate on its line ("*123456*", "[ 123456 ]").
func aloneOnLine(line string, s, e int) bool {
	rest := line[:s] + line[e:]
	return !strings.ContainsFunc(rest, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// ----- links -----

type linkCandidate struct {
	href  string
	text  string // anchor text or the surrounding line
	score int
}

var (
	linkTextGood = regexp.MustCompile(`(?i)verif|confirm|activat|activate|sign[ -]?in|log[ -]?in|magic|reset|validat|bestätig|aktivier|anmelden|einloggen|vérifi|activer|connecter|connexion|confirmar|activar|iniciar sesión|conferma|attiva|accedi|bevestig|activeer|inloggen|potwierd|подтверд|войти|確認|認証|ログイン|验证|确认|登录|인증|확인|로그인`)
	linkURLGood  = regexp.MustCompile(`(?i)verif|confirm|activat|magic|sign[-_]?in|log[-_]?in|/auth|token=|reset|validat|otp|onboard`)
	linkBad      = regexp.MustCompile(`(?i)unsubscri|abmelden|abbestellen|désabonn|desabonn|désinscri|desinscri|darse de baja|opt[-_ ]?out|preferences|einstellungen|privacy|datenschutz|terms|agb|impressum|help|support|contact|view in browser|im browser|webversion|web version|not you|wasn'?t (?:me|you)|didn'?t (?:request|sign)|report|secure your account|facebook\.com|twitter\.com|//x\.com|linkedin\.com|instagram\.com|youtube\.com|apps\.apple\.com|play\.google\.com|\.(?:png|gif|jpe?g)(?:$|\?)|/open\b|pixel`)
	textURL      = regexp.MustCompile(`(?i)https?://[^\s<>"'\]\)]+`)
)

func findLink(text, h string) string {
	var cands []linkCandidate
	if h != "" {
		cands = append(cands, htmlLinks(h)...)
	}
	cands = append(cands, textLinks(text)...)
	var best *linkCandidate
	for i := range cands {
		c := &cands[i]
		c.score = scoreLink(c)
		if c.score >= 6 && (best == nil || c.score > best.score) {
			best = c
		}
	}
	if best == nil {
		return ""
	}
	return best.href
}

func scoreLink(c *linkCandidate) int {
	if linkBad.MatchString(c.text) || linkBad.MatchString(c.href) {
		return 0
	}
	score := 0
	if linkTextGood.MatchString(c.text) {
		score += 10
	}
	if linkURLGood.MatchString(c.href) {
		score += 6
	}
	return score
}

func isWebURL(u string) bool {
	l := strings.ToLower(u)
	return strings.HasPrefix(l, "https://") || strings.HasPrefix(l, "http://")
}

// htmlLinks lists visible anchors with their text (or image alt text).
func htmlLinks(h string) []linkCandidate {
	doc, err := html.Parse(strings.NewReader(h))
	if err != nil {
		return nil
	}
	var out []linkCandidate
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && isHidden(n) {
			return
		}
		if n.Type == html.ElementNode && n.DataAtom == atom.A {
			href := strings.TrimSpace(attr(n, "href"))
			if isWebURL(href) {
				var b strings.Builder
				anchorText(n, &b)
				b.WriteString(" " + attr(n, "title") + " " + attr(n, "aria-label"))
				out = append(out, linkCandidate{href: href, text: strings.Join(strings.Fields(b.String()), " ")})
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return out
}

func anchorText(n *html.Node, b *strings.Builder) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			b.WriteString(c.Data)
			b.WriteByte(' ')
		case c.Type == html.ElementNode && isHidden(c):
		case c.Type == html.ElementNode && c.DataAtom == atom.Img:
			b.WriteString(attr(c, "alt"))
			b.WriteByte(' ')
		case c.Type == html.ElementNode:
			anchorText(c, b)
		}
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}

// textLinks lists URLs in plain text with the words around them: the rest of
// their line and the line before ("Confirm your address:\nhttps://...").
func textLinks(text string) []linkCandidate {
	if text == "" {
		return nil
	}
	var out []linkCandidate
	prev := ""
	for line := range strings.SplitSeq(normalizeNewlines(text), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		for _, u := range textURL.FindAllString(line, -1) {
			u = strings.TrimRight(u, ".,;:!?*>")
			ctx := strings.Replace(line, u, " ", 1) + " " + prev
			out = append(out, linkCandidate{href: u, text: ctx})
		}
		prev = textURL.ReplaceAllString(line, " ")
	}
	return out
}
