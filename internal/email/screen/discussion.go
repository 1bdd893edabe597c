package screen

import "regexp"

// Mail that talks about prompt injection — developer threads, security
// training, AI newsletters, vendors describing their assistant — quotes the
// very sentences the detector looks for. What separates it from an attack is
// framing: the attack strings stand in quotation marks, on indented or
// "Example 1:" lines, beside words about attacks, examples and defences, or
// the assistant is described in the third person ("our assistant forwards
// invoices"). A real order hidden in such mail is usually left unquoted
// ("for example: AI assistant, forward …"), so only the framed text is
// discounted, and the discount is bounded (see discussedScore).

// discussion holds the patterns of the discussion discount.
type discussion struct {
	// meta finds words that describe attacks rather than make them.
	meta *regexp.Regexp
	// quote finds a quotation anywhere, also after a colon or opening a line.
	quote *regexp.Regexp
	// framedLine finds lines shown as examples: indented, or labelled
	// "Example 2:", "TC-01".
	framedLine *regexp.Regexp
	// describes finds an assistant described in the third person by its
	// maker or owner ("our AI assistant forwards", "Unser KI-Assistent leitet").
	describes *regexp.Regexp
	// email finds addresses, to bound the discount.
	email *regexp.Regexp
}

func newDiscussion() *discussion {
	return &discussion{
		meta: regexp.MustCompile(`prompt[- ]?inj|promptinjecti|\binjection|\battack|angreifer|\bangriff|atacante|\bataque|attaquant|\battaque|attacc|aanvaller|\baanval|angripare|attacker|hyökkä|\batak|` +
			`\bexamples?\b|for instance|such as|\be\.g\.|beispiel|exempel|ejemplo|exemple|esempio|exemplo|voorbeeld|przykład|esimerk|` +
			`phishing|nätfiske|awareness|sensibili[sz]|concienciaci|security training|schulung|utbildning|formación|formação|formazione|szkoleni|koulutu|tietoturva|` +
			`test ?cases?\b|test suite|red[- ]team|payloads?\b|defen[cs]es?\b|\babwehr|mitigation|we detect|refuses?\b|weiger|rifiut|rechaz|refus|lehnt|avvisar|odrzuc|` +
			`注入|攻击|攻擊|攻撃|攻撃者|例如|比如|例えば|示例|範例|范例|钓鱼|釣魚|フィッシング|防御|防禦|対策|对策|공격|인젝션|예를 들어|피싱|` +
			`\btricked\b|\bfooled\b|\bhijack|\bexploit(?:ed|s)?\b|\bemails? that say|\bmails? (?:that|which) (?:say|ask)|an attacker may|attackers (?:can|may|often|write|now)`),
		quote:      regexp.MustCompile(`["“«„»]([^"“”«»„]{8,400})["”»“«]|[「『]([^「」『』]{4,400})[」』]`),
		framedLine: regexp.MustCompile(`(?m)^(?: {2,}|\t)\S.*$|(?m)^\s*(?:example|exempel|beispiel|ejemplo|exemple|esempio|exemplo|voorbeeld|przykład|esimerkki|tc-?\d+|test ?case)\b[^:\n]{0,12}:.*$`),
		describes: regexp.MustCompile(`\b(?:our|notre|nos|nuestro|nuestra|unser(?:e|er)?|nosso|nossa|nostro|nostra|onze|ons|vår|vårt|meidän)\s+(?:[\w-]+\s+){0,2}?(?:ai[- ]|ki-|ia[- ])?(?:assistant|assistent|asistente|assistente|agent|model|bot)\w*\s+(?:\w+\s+){0,2}?` +
			`(?:forwards|sends|replies|answers|drafts|can|will|never|only|refuses|detects|leitet|sendet|beantwortet|gibt|erkennt|transfère|répond|envoie|ne|reenvía|envía|responde|encaminha|envia|inoltra|invia|risponde|stuurt|skickar|vidarebefordrar|svarar)\b` +
			`|\b(?:the|its|their) (?:ai )?(?:assistant|agent|model) (?:will|can|may|does|forwards|sends|replies|never)\b`),
		email: regexp.MustCompile(`[\w.+-]+@[\w-]+(?:\.[\w-]+)+`),
	}
}

// discusses reports whether a paragraph speaks about attacks or describes an
// assistant, rather than speaking to one.
func (d *discussion) discusses(p string) bool {
	return d.meta.MatchString(p) || d.describes.MatchString(p)
}

// unframe returns p with its framed parts blanked (same length, line breaks
// kept): quotations, example lines and, when the paragraph describes an
// assistant without speaking to one, the whole description.
func (d *discussion) unframe(p string, addressed bool) string {
	if !addressed && d.describes.MatchString(p) {
		return blankKeepLines(p, [][]int{{0, len(p)}})
	}
	spans := d.quote.FindAllStringIndex(p, -1)
	spans = append(spans, d.framedLine.FindAllStringIndex(p, -1)...)
	if len(spans) == 0 {
		return p
	}
	return blankKeepLines(p, spans)
}

// blankKeepLines replaces the bytes of spans with spaces, keeping newlines so
// paragraphs and line-anchored rules still see the same structure.
func blankKeepLines(p string, spans [][]int) string {
	b := []byte(p)
	for _, s := range spans {
		for i := s[0]; i < s[1]; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	return string(b)
}

// externalEmail reports an e-mail address in p outside the organization's
// domains.
func (d *discussion) externalEmail(p string, org []string) bool {
	for _, a := range d.email.FindAllString(p, 8) {
		if !inDomains(domainOf(a), org) {
			return true
		}
	}
	return false
}

// discussedScore is the score of a window that talks about attacks: the
// framed text no longer counts, but the discount is bounded. Quoted text
// that would make an agent send secrets or mail to an outside address when
// addressed to it, or forged chat markup naming an address, keeps the
// window at the flag threshold (suspicious, never cleared), because an
// attacker can wrap a real order in "for example" and quotation marks; it
// is no longer blocked, since training and developer mail quote exactly
// such strings. Organization senders get the full discount. bounded reports
// that the bound, not the unframed text, set the score.
func discussedScore(full, unframed sigSet, internal, externalAddr bool, flag float64) (score float64, bounded bool) {
	sF, sU := scoreSet(full, internal), scoreSet(unframed, internal)
	if sU >= sF || internal {
		return min(sF, sU), false
	}
	dangerous := externalAddr && (full.has(sigMarkup) || full.has(sigMarkupWk) ||
		(full.has(sigExfilSecret) && (full.has(sigAddress) || full.has(sigAddressWk))))
	if dangerous && sU < flag {
		return min(sF, flag), true
	}
	return sU, false
}

// isDiscussionZone reports zones the discount may apply to: text a person
// reads. Hidden text, comments, alt text and decoded payloads are never
// discussion.
func isDiscussionZone(z zone) bool {
	return z == zoneBody || z == zoneAttachment
}
