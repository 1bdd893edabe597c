package screen

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"go.mau.fi/util/confusable"
	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
	"golang.org/x/text/unicode/norm"
)

//go:embed brands.txt
var brandsFile string

// Brand is a commonly impersonated organization and the registrable
// domains it legitimately sends from.
type Brand struct {
	Name    string
	Domains []string
	// CountrySites: the brand runs country sites under the same label
	// (amazon.de), so that label on a country-code TLD is no TLD swap.
	CountrySites bool
	// CommonWord: the name is an ordinary word ("target", "square"), too
	// ambiguous to judge a display name by.
	CommonWord bool
}

// bundledBrands parses brands.txt. The file is compiled in and covered by a
// test, so a malformed line is skipped rather than reported at run time.
func bundledBrands() []Brand {
	var out []Brand
	for line := range strings.SplitSeq(brandsFile, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) < 2 {
			continue
		}
		b := Brand{Name: f[0]}
		for _, x := range f[1:] {
			switch x {
			case "+cc":
				b.CountrySites = true
			case "~word":
				b.CommonWord = true
			default:
				b.Domains = append(b.Domains, x)
			}
		}
		out = append(out, b)
	}
	return out
}

// target is one domain a sender might imitate.
type target struct {
	domain string // registrable, ASCII
	label  string // registrable minus public suffix, Unicode
	skel   string
	loose  string
	suffix string
	kind   string // "own domain", "known correspondent", "brand"
	cc     bool
	// plainName: a brand whose name is no ordinary word, so the name as a
	// whole hyphen token beside any other words is suspicious.
	plainName bool
}

// senderDomain is a sender's domain in the forms the checks need.
type senderDomain struct {
	ascii, unicode string
	reg, suffix    string // registrable domain (ASCII) and public suffix
	label          string // Unicode label of the registrable domain
	skel           string
	sub            []string // labels left of the registrable domain
	// caseSkel is the skeleton of the label as written, before lower
	// casing: "dhI" (capital i) reads as "dhl", which lower-casing to
	// "dhi" would hide. Empty when the label was written in lower case.
	caseSkel string
}

func parseSenderDomain(domain string) (senderDomain, bool) {
	domain = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(domain)), ".")
	if domain == "" || strings.ContainsAny(domain, " @[]") {
		return senderDomain{}, false
	}
	// The Punycode profile converts without rejecting mixed scripts: those
	// are exactly what must be inspected, not refused.
	ascii, err := idna.Punycode.ToASCII(domain)
	if err != nil {
		return senderDomain{}, false
	}
	ascii = strings.ToLower(ascii)
	uni, err := idna.Punycode.ToUnicode(ascii)
	if err != nil {
		uni = domain
	}
	reg, err := publicsuffix.EffectiveTLDPlusOne(ascii)
	if err != nil {
		return senderDomain{}, false
	}
	suffix, _ := publicsuffix.PublicSuffix(ascii)
	label := strings.TrimSuffix(reg, "."+suffix)
	ulabel, err := idna.Punycode.ToUnicode(label)
	if err != nil {
		ulabel = label
	}
	s := senderDomain{ascii: ascii, unicode: uni, reg: reg, suffix: suffix, label: ulabel, skel: skeleton(ulabel)}
	if rest := strings.TrimSuffix(ascii, reg); rest != "" {
		s.sub = strings.Split(strings.TrimSuffix(rest, "."), ".")
	}
	return s, true
}

// skeleton is the UTS #39 skeleton after case folding, so that "I", "l"
// and "1", or "rn" and "m", compare equal.
func skeleton(s string) string {
	return strings.ToLower(confusable.Skeleton(strings.ToLower(confusable.Skeleton(strings.ToLower(s)))))
}

// looseFold folds letter shapes that UTS #39 keeps apart but that read
// alike in a sans-serif address bar: i and l, "vv" and w, "cl" and d, q and
// g (bookinq), 0 and o.
var looseFold = strings.NewReplacer("vv", "w", "cl", "d", "i", "l", "q", "g", "0", "o")

// looseSkeleton applies looseFold to a skeleton.
func looseSkeleton(skel string) string {
	return looseFold.Replace(skel)
}

func (d *Detector) targets(c Context) []target {
	var out []target
	addDomain := func(dom, kind string, cc bool) {
		sd, ok := parseSenderDomain(dom)
		if !ok {
			return
		}
		out = append(out, target{domain: sd.reg, label: sd.label, skel: sd.skel, loose: looseSkeleton(sd.skel), suffix: sd.suffix, kind: kind, cc: cc})
	}
	for _, x := range c.OrgDomains {
		addDomain(x, "own domain", false)
	}
	for _, x := range c.KnownCorrespondents {
		addDomain(x, "known correspondent", false)
	}
	return append(out, d.brandTargets...)
}

// brandTargetsOf parses the brand list once, when the Detector is built.
func brandTargetsOf(brands []Brand) []target {
	var out []target
	for _, b := range brands {
		for _, x := range b.Domains {
			sd, ok := parseSenderDomain(x)
			if !ok {
				continue
			}
			out = append(out, target{domain: sd.reg, label: sd.label, skel: sd.skel, loose: looseSkeleton(sd.skel),
				suffix: sd.suffix, kind: "brand " + b.Name, cc: b.CountrySites, plainName: !b.CommonWord && sd.label == b.Name})
		}
	}
	return out
}

// lureWords are tokens phishing domains add to a brand name.
var lureWords = map[string]bool{
	"secure": true, "security": true, "login": true, "signin": true, "verify": true, "verification": true,
	"account": true, "accounts": true, "support": true, "service": true, "services": true, "billing": true,
	"update": true, "help": true, "helpdesk": true, "online": true, "auth": true, "id": true, "alert": true,
	"alerts": true, "notice": true, "payment": true, "payments": true, "pay": true, "wallet": true,
	"confirm": true, "recovery": true, "team": true, "mail": true, "center": true, "portal": true,
	"access": true, "customer": true, "invoice": true, "refund": true, "hr": true, "it": true, "admin": true,
	"app": true, "web": true, "cloud": true, "check": true, "safe": true, "session": true, "review": true,
	"unlock": true, "resolution": true, "desk": true, "info": true, "official": true, "notify": true,
	"notification": true, "reset": true, "password": true, "sso": true, "docs": true, "files": true,
	"delivery": true, "tracking": true, "track": true, "parcel": true, "shipping": true, "status": true,
	"order": true, "orders": true, "invoices": true, "document": true, "documents": true, "share": true,
	"sign": true, "esign": true, "meeting": true, "invite": true, "bank": true, "banking": true,
	"verified": true, "secured": true, "server": true, "mailbox": true, "storage": true, "drive": true,
	"payroll": true,
	// Phishing kits translate their lure words: the same ideas (delivery,
	// parcel, account, security, payment, invoice, verification, sign-in,
	// help, refund, customer service) in German, French, Spanish, Italian,
	// Portuguese and Dutch, without accents as domain names write them.
	"zustellung": true, "zustellservice": true, "paket": true, "pakete": true, "sendung": true,
	"sendungsverfolgung": true, "lieferung": true, "kundenservice": true, "kundendienst": true, "konto": true,
	"sicherheit": true, "rechnung": true, "zahlung": true, "verifizierung": true, "bestaetigung": true,
	"anmeldung": true, "hilfe": true, "erstattung": true,
	"livraison": true, "colis": true, "compte": true, "securite": true, "paiement": true, "facture": true,
	"connexion": true, "aide": true, "suivi": true, "remboursement": true, "client": true,
	"entrega": true, "paquete": true, "envio": true, "cuenta": true, "seguridad": true, "pago": true,
	"factura": true, "verificacion": true, "acceso": true, "ayuda": true, "seguimiento": true,
	"reembolso": true, "cliente": true, "soporte": true,
	"consegna": true, "pacco": true, "spedizione": true, "conto": true, "sicurezza": true, "pagamento": true,
	"fattura": true, "verifica": true, "accesso": true, "aiuto": true, "rimborso": true, "assistenza": true,
	"encomenda": true, "conta": true, "seguranca": true, "fatura": true, "verificacao": true, "ajuda": true,
	"suporte":   true,
	"bezorging": true, "pakket": true, "rekening": true, "beveiliging": true, "betaling": true,
	"factuur": true, "verificatie": true, "inloggen": true, "klantenservice": true, "hulp": true,
	"terugbetaling": true,
	// Turkish and Polish, and the words kits put before or after a bank's
	// name to make a business or personal portal of it ("kbc-business",
	// "mijn-ing-zakelijk", "my-dhl"): "business", "my" in six languages.
	"guvenlik": true, "hesap": true, "destek": true, "odeme": true, "giris": true, "dogrulama": true,
	"musteri": true, "kargo": true, "teslimat": true,
	"faktura": true, "przesylka": true, "platnosc": true, "logowanie": true, "bezpieczenstwo": true,
	"business": true, "zakelijk": true, "entreprise": true, "entreprises": true, "empresas": true,
	"negocios": true, "firmenkunden": true, "geschaeftskunden": true, "digital": true,
	"my": true, "mijn": true, "mon": true, "mein": true, "meu": true, "mio": true,
	// Twelfth session: the same ideas in the Nordic languages, Finnish,
	// Estonian, Hungarian, Romanian, Czech and Slovak (five letters or
	// more, except "pank", Estonian for bank, which is the English lure
	// word's twin): phishing kits for those countries' banks, posts and
	// state portals use them (dhl-csomagkovetes.hu, lhv-pank.ee).
	"betalning": true, "sakerhet": true, "leverans": true, "kundtjanst": true, "inloggning": true,
	"verifiering": true, "aterbetalning": true, "forsandelse": true, "foretag": true,
	"sikker": true, "sikkerhet": true, "sikkerhed": true, "fornyelse": true, "levering": true,
	"pakke": true, "kundeservice": true, "innlogging": true, "bekreftelse": true, "bekraeftelse": true,
	"refusjon": true, "refusion": true, "sporing": true, "bedrift": true, "erhverv": true,
	"tunnistus": true, "tunnistautuminen": true, "maksu": true, "maksut": true, "lasku": true,
	"laskut": true, "paketti": true, "toimitus": true, "seuranta": true, "turvallisuus": true,
	"asiakaspalvelu": true, "kirjautuminen": true, "vahvistus": true, "palautus": true,
	"yritys": true, "palvelu": true, "palvelut": true,
	"pank": true, "makse": true, "turvalisus": true, "klienditeenindus": true, "kinnitus": true,
	"sisselogimine": true,
	"csomag":        true, "kovetes": true, "szallitas": true, "fizetes": true, "szamla": true,
	"biztonsag": true, "ugyfelszolgalat": true, "belepes": true, "ellenorzes": true,
	"visszaterites": true,
	"livrare":       true, "colet": true, "securitate": true, "verificare": true, "asistenta": true,
	"rambursare": true, "autentificare": true, "urmarire": true,
	"zasilka": true, "zasielka": true, "platba": true, "bezpecnost": true, "overeni": true,
	"overenie": true, "prihlaseni": true, "prihlasenie": true, "podpora": true, "doruceni": true,
	"dorucenie": true, "sledovani": true, "sledovanie": true,
	// Thirteenth session: Russian kits write their lure words in Latin
	// letters (sberbank-onlain, gosuslugi-oplata): online, payment,
	// delivery, support, security, personal cabinet, account, check,
	// confirmation, refund, parcel, notification.
	"onlain": true, "oplata": true, "dostavka": true, "podderzhka": true, "bezopasnost": true,
	"kabinet": true, "akkaunt": true, "proverka": true, "podtverzhdenie": true, "vozvrat": true,
	"posylka": true, "uvedomlenie": true,
}

// gluedLures are the lure words that still mark phishing when glued to a
// name without a hyphen; short ones ("info", "app") are left out because
// real companies are named that way (zoominfo).
var gluedLures = map[string]bool{
	"secure": true, "security": true, "login": true, "signin": true, "verify": true, "verification": true,
	"account": true, "accounts": true, "billing": true, "update": true, "recovery": true, "wallet": true,
	"payment": true, "payments": true, "support": true, "helpdesk": true, "unlock": true, "confirm": true,
	"password": true, "reset": true, "notification": true, "id": true, "service": true,
}

// genericSuffixes are cheap open TLDs where typo-squats live; a near-miss
// on one of these is suspicious even when the imitated domain uses
// another TLD. A near-miss on a different country's registry usually is a
// different, real organization (paypay.ne.jp is not paypal.com).
var genericSuffixes = map[string]bool{
	"com": true, "net": true, "org": true, "info": true, "biz": true, "co": true, "io": true, "xyz": true,
	"top": true, "online": true, "site": true, "app": true, "dev": true, "shop": true, "live": true,
	"email": true, "support": true, "help": true, "services": true, "club": true, "icu": true, "cc": true,
	"me": true, "us": true, "ai": true, "tech": true, "cloud": true, "link": true, "click": true, "work": true,
}

type lookalikeHit struct {
	detail string
	strong bool
	// words: the imitation adds words to the name (paypal-secure.com)
	// rather than misspelling it.
	words bool
}

// lookalikeFindings compares the From domain, every Reply-To domain, the
// Sender domain and the envelope sender's domain with the organization's
// domains, its correspondents and the brand list.
func (d *Detector) lookalikeFindings(m Message, c Context) []Finding {
	targets := d.targets(c)
	known := make([]string, 0, len(targets))
	for _, t := range targets {
		known = append(known, t.domain)
	}
	var out []Finding
	seen := map[string]bool{}
	check := func(role, addr string) {
		dom := domainOf(addr)
		if dom == "" || seen[dom] {
			return
		}
		seen[dom] = true
		sd, ok := parseSenderDomain(dom)
		if !ok || inDomains(sd.ascii, known) {
			return
		}
		sd.caseSkel = caseSkeleton(addr, sd)
		if h, ok := lookalike(sd, targets); ok {
			// Genuine senders bounce through their own mailing domains, which
			// often carry the name and a word (slack-mail.com,
			// amazonses.com); only a misspelt name is suspicious there.
			// Unless DMARC failed: a genuine sender's mail authenticates for
			// its From domain, so a From that does not, sent from a domain
			// that wraps a known name in words (bank.de mailed from
			// bank-service.de), shows the forger's own domain.
			if h.words && (role == "Return-Path" || role == "Sender") && m.Auth.DMARC != "fail" {
				return
			}
			out = append(out, Finding{Reason: ReasonLookalikeDomain, Detail: role + " domain " + sd.unicode + " " + h.detail, strong: h.strong})
		}
	}
	check("From", m.From.Address)
	for _, a := range m.ReplyTo {
		check("Reply-To", a.Address)
	}
	// The envelope sender is where bounces and SPF point; an attacker who
	// shows a genuine From may still send from a lookalike domain.
	check("Return-Path", m.ReturnPath)
	// Sender names who actually sent the mail on From's behalf (RFC 5322
	// section 3.6.2); clients show it as "on behalf of".
	for _, v := range m.Headers["Sender"] {
		if a, ok := lenientAddress(v); ok {
			check("Sender", a.Address)
		}
	}
	// Mailing lists say who they are (RFC 2919 List-Id, RFC 2369 List-Post).
	fromList := len(m.Headers["List-Id"]) > 0 || len(m.Headers["List-Post"]) > 0
	if f, ok := d.displayNameSpoof(m.From, fromList, targets, known); ok {
		out = append(out, f)
	}
	return out
}

func lookalike(sd senderDomain, targets []target) (lookalikeHit, bool) {
	// A label that any brand runs country sites under is legitimate on
	// every country-code TLD, whichever list (brand or correspondent)
	// the imitated domain came from.
	ccLabels := map[string]bool{}
	for _, t := range targets {
		if t.cc {
			ccLabels[t.label] = true
		}
	}
	if mixedScript([]rune(sd.label)) {
		return lookalikeHit{detail: "mixes scripts (" + sd.reg + ")", strong: true}, true
	}
	var weak *lookalikeHit
	loose := looseSkeleton(sd.skel)
	// Accents are no confusables in UTS #39, but "strípe" reads as
	// "stripe" in an address bar.
	plain := skeleton(foldText(sd.label))
	for _, t := range targets {
		tl := []rune(t.label)
		// Homoglyphs: same skeleton, different spelling.
		if (sd.skel == t.skel || sd.caseSkel == t.skel || plain == t.skel) && sd.label != t.label {
			return lookalikeHit{detail: fmt.Sprintf("uses look-alike characters for %s (%s)", t.domain, t.kind), strong: true}, true
		}
		if weak != nil {
			continue
		}
		switch {
		case len(tl) >= 4 && loose == t.loose && sd.label != t.label && sd.skel != t.skel:
			weak = &lookalikeHit{detail: fmt.Sprintf("uses look-alike letters for %s (%s)", t.domain, t.kind)}
		case sd.label == t.label && sd.suffix != t.suffix:
			if ccLabels[t.label] && countryCode(sd.suffix) {
				continue
			}
			weak = &lookalikeHit{detail: fmt.Sprintf("swaps the TLD of %s (%s)", t.domain, t.kind)}
		case len(tl) >= 4 && strings.ReplaceAll(sd.label, "-", "") == strings.ReplaceAll(t.label, "-", ""):
			weak = &lookalikeHit{detail: fmt.Sprintf("changes the hyphens of %s (%s)", t.domain, t.kind)}
		// Not sameOrCheapSuffix: a whole label one letter from a brand is
		// often a real firm of that country (mail.ru is no gmail.com).
		// The label read without its accents and combining marks too: a
		// mark stacked on a letter (docusgn͗) hides nothing in an address
		// bar but keeps the skeleton two edits away.
		case len(tl) >= 5 && (sd.suffix == t.suffix || genericSuffixes[sd.suffix]) &&
			(nearMiss(sd.skel, t.skel) || plain != sd.skel && nearMiss(plain, t.skel)):
			weak = &lookalikeHit{detail: fmt.Sprintf("is one or two letters away from %s (%s)", t.domain, t.kind)}
		case (len(tl) >= 4 || t.plainName && len(tl) >= 3) && !plainGovWord(sd, t) && embedsTarget(sd.label, sd.suffix, t),
			shortBrandWithLure(sd, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("wraps %s in extra words (%s)", t.domain, t.kind), words: true}
		case sharesLeadWithLure(sd.label, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("pairs the name of %s with a lure word (%s)", t.domain, t.kind), words: true}
		case len(sd.sub) > 0 && subdomainImitates(sd.sub, t.domain):
			weak = &lookalikeHit{detail: fmt.Sprintf("puts %s in front of an unrelated domain %s (%s)", t.domain, sd.reg, t.kind), words: true}
		case len(sd.sub) > 0 && spansLabels(sd, t.domain):
			weak = &lookalikeHit{detail: fmt.Sprintf("spells %s across a label boundary of %s (%s)", t.domain, sd.reg, t.kind), words: true}
		case dotDropped(sd, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("is %s with its dot taken out (%s)", t.domain, t.kind)}
		case dottedAsHyphens(sd, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("spells %s with hyphens for its dots (%s)", t.domain, t.kind)}
		case stemWithLure(sd, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("pairs the name of %s, without its last word, with a lure word (%s)", t.domain, t.kind), words: true}
		case len(tl) >= 5 && gluedHomoglyph(sd, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("spells %s with look-alike characters and adds to it (%s)", t.domain, t.kind)}
		case len(tl) >= 5 && tokenImitates(sd, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("joins a look-alike of %s to other words (%s)", t.domain, t.kind), words: true}
		case len(sd.sub) > 0 && subLabelNames(sd, t):
			weak = &lookalikeHit{detail: fmt.Sprintf("puts the name of %s in a subdomain of an unrelated domain %s (%s)", t.domain, sd.reg, t.kind), words: true}
		}
	}
	if weak == nil && govOutsideRegistry(sd) {
		weak = &lookalikeHit{detail: fmt.Sprintf("puts \"gov\" in %s, a name outside every government registry", sd.reg), words: true}
	}
	if weak != nil {
		return *weak, true
	}
	// Written with a capital I for an l (dhI-express.com), the domain reads
	// as the name it imitates; judge that reading too.
	if sd.caseSkel != "" && sd.caseSkel != sd.skel && isASCIILetters(strings.ReplaceAll(sd.caseSkel, "-", "")) {
		cs := sd
		cs.label, cs.skel, cs.caseSkel = sd.caseSkel, sd.caseSkel, ""
		if h, ok := lookalike(cs, targets); ok {
			return lookalikeHit{detail: "reads, with its capitals, as a domain that " + h.detail, strong: true}, true
		}
	}
	return lookalikeHit{}, false
}

// sameOrCheapSuffix reports a sender suffix on which a misspelling of t
// reads as t: t's own, a cheap generic one, or, for a brand that runs
// country sites (amazon.de), any country code (arnazon-seller.de).
func sameOrCheapSuffix(sd senderDomain, t target) bool {
	return sd.suffix == t.suffix || genericSuffixes[sd.suffix] || t.cc && countryCode(sd.suffix)
}

// govTokens are the words that name a government suffix.
var govTokens = map[string]bool{"gov": true, "govt": true, "gouv": true, "gob": true}

// govOutsideRegistry reports a "gov" token beside other words in a domain
// outside every government registry (neak-gov.eu, ogyei-gov.hu for
// ogyei.gov.hu, podatki-gov.pl): a state body's address is under its
// country's government suffix, so the token imitates that suffix.
func govOutsideRegistry(sd senderDomain) bool {
	if sd.suffix == "gov" || sd.suffix == "mil" {
		return false
	}
	for p := range govTokens {
		if strings.HasPrefix(sd.suffix, p+".") {
			return false
		}
	}
	tokens := strings.Split(sd.label, "-")
	return len(tokens) > 1 && slices.ContainsFunc(tokens, func(tok string) bool { return govTokens[tok] })
}

// dotDropped reports a label that is a known domain with its dot taken
// out (sirocco-rafr.com for sirocco-ra.fr, paypalcom.net).
func dotDropped(sd senderDomain, t target) bool {
	return len(t.label) >= 4 && sd.label == t.label+strings.ReplaceAll(t.suffix, ".", "") && sd.reg != t.domain
}

// countryCode reports a country-code suffix such as "de", "co.uk", "com.au",
// or a regional community TLD (".cat", ".eus", ".scot") that serves a
// language area the way a country code does.
func countryCode(suffix string) bool {
	last := suffix[strings.LastIndexByte(suffix, '.')+1:]
	return len(last) == 2 || regionalTLDs[last]
}

// regionalTLDs are community TLDs of a language or region; brands with
// country sites use them like country codes (google.cat).
var regionalTLDs = map[string]bool{
	"cat": true, "eus": true, "gal": true, "bzh": true, "scot": true, "wales": true, "cymru": true,
	"quebec": true, "bayern": true, "corsica": true, "frl": true, "asia": true, "eu": true,
}

// spansLabels reports a known domain written across a label boundary of
// the sender's host, so that it reads as the start of the address:
// airbnb.com-host-verify.co, paypal.com-login.example.net.
func spansLabels(sd senderDomain, domain string) bool {
	host := sd.ascii
	for i := 0; i < len(host); {
		if strings.HasPrefix(host[i:], domain+"-") {
			return true
		}
		j := strings.IndexByte(host[i:], '.')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return false
}

// nearMiss applies the edit-distance rule on skeletons. Short names only
// count insertions, deletions and transpositions: a changed letter in a
// short name is usually another real company (usps/ups, gitlab/github),
// while typo-squats drop, double or swap letters. Visually similar
// substitutions are already caught by the skeleton comparison.
func nearMiss(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	dist := damerauLevenshtein(ra, rb)
	switch n := len(rb); {
	case dist == 0:
		return false
	case n >= 12:
		return dist <= 2
	case n >= 8:
		return dist == 1
	default:
		if dist != 1 {
			return false
		}
		return isTransposition(ra, rb) || isDeletion(ra, rb) || isDoubling(ra, rb)
	}
}

// isDeletion reports that a is b with one letter dropped.
func isDeletion(a, b []rune) bool {
	if len(a)+1 != len(b) {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	return string(a[i:]) == string(b[i+1:])
}

// isDoubling reports that a is b with one letter typed twice.
func isDoubling(a, b []rune) bool {
	if len(a) != len(b)+1 {
		return false
	}
	for i := 1; i < len(a); i++ {
		if a[i] == a[i-1] && string(a[:i])+string(a[i+1:]) == string(b) {
			return true
		}
	}
	return false
}

func isTransposition(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	var diff []int
	for i := range a {
		if a[i] != b[i] {
			diff = append(diff, i)
		}
	}
	return len(diff) == 2 && diff[1] == diff[0]+1 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
}

// damerauLevenshtein is the optimal-string-alignment distance.
func damerauLevenshtein(a, b []rune) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// embedsTarget catches brand-plus-words domains (paypal-secure-login,
// acme-corp-hr, secure-paypal). For the organization's own domains and its
// correspondents any added word is suspicious; a brand name is also an
// ordinary word often enough ("signal", "square") that it needs a lure word
// beside it.
func embedsTarget(label, suffix string, t target) bool {
	tflat := strings.ReplaceAll(t.label, "-", "")
	flat := strings.ReplaceAll(label, "-", "")
	if flat == tflat || !strings.Contains(flat, tflat) {
		return false
	}
	tokens := strings.Split(label, "-")
	// The target must stand as whole tokens (pay-pal-secure counts as
	// paypal), never inside another word (pineapple is not apple).
	aligned := false
	for i := range tokens {
		joined := ""
		for j := i; j < len(tokens) && len(joined) < len(tflat); j++ {
			joined += tokens[j]
			if joined == tflat {
				aligned = true
			}
		}
	}
	// The name with digits glued on, beside other words, reads as the name
	// (microsoft365-alerts, paypal24-login); alone it may be the brand's
	// own product domain (microsoft365.com).
	if len(tokens) > 1 {
		for _, tok := range tokens {
			if trimmed := strings.TrimRight(tok, "0123456789"); trimmed != tok && trimmed == tflat {
				aligned = true
			}
		}
	}
	// Without hyphens, only a lure word glued to either end counts
	// (paypalsecure, securepaypal).
	glued := gluedLure(flat, tflat)
	// Or one hyphenated word of it: appleid-support, securepaypal-billing.
	for _, tok := range tokens {
		glued = glued || len(tokens) > 1 && gluedLure(tok, tflat)
	}
	if !aligned && !glued {
		return false
	}
	if glued || t.kind == "own domain" {
		return true
	}
	if !strings.HasPrefix(t.kind, "brand") {
		// A correspondent's name put after another word names a different
		// firm as often as an imitation (medsupply-latam.com beside
		// latam.com); imitations lead with the name, add a lure, or put a
		// short prefix before it the way a subdomain would stand
		// (nid-naver.com for nid.naver.com).
		return strings.HasPrefix(flat, tflat) || slices.ContainsFunc(tokens, func(tok string) bool {
			return isLure(tok) || len(tok) <= 3 && !strings.Contains(tflat, tok)
		})
	}
	// A brand whose name is no ordinary word, as whole tokens beside words
	// of any language on a cheap generic TLD (dhl-paket-zustellung.com):
	// phishing kits translate their lure words. A country registry is left
	// to the lure-word rule, since small real firms there name themselves
	// after what they resell (apple-service-center.ie, with a lure).
	if aligned && t.plainName && genericSuffixes[suffix] {
		return true
	}
	return slices.ContainsFunc(tokens, func(tok string) bool { return isLure(tok) })
}

// gluedLure reports word as name with a lure word glued to either end
// (paypalsecure, securepaypal, appleid).
func gluedLure(word, name string) bool {
	return strings.HasPrefix(word, name) && gluedLures[strings.TrimPrefix(word, name)] ||
		strings.HasSuffix(word, name) && gluedLures[strings.TrimSuffix(word, name)]
}

// subdomainImitates reports a known domain spelled out in the subdomain
// labels, as in github.com.session-verify.net.
func subdomainImitates(sub []string, domain string) bool {
	dl := strings.Split(domain, ".")
	for i := 0; i+len(dl) <= len(sub); i++ {
		if slices.Equal(sub[i:i+len(dl)], dl) {
			return true
		}
	}
	return false
}

// displayNameSpoof reports a display name that names a brand while the
// address is on an unrelated domain ("PayPal <service@mail-center.io>"), or
// that is itself an address on a domain the mail is not from (see
// nameAddressSpoof). It is a weaker signal than a lookalike domain:
// newsletters and resellers mention brands in their names too.
func (d *Detector) displayNameSpoof(from Address, fromList bool, targets []target, known []string) (Finding, bool) {
	dom := domainOf(from.Address)
	if dom == "" || from.Name == "" {
		return Finding{}, false
	}
	// Before the known-domain exit below: the classic impersonation is
	// sent from a known domain, a free mailbox ("ceo@ourcompany.com"
	// <attacker@gmail.com>; gmail.com is a brand domain).
	if f, ok := nameAddressSpoof(from, dom, fromList, targets); ok {
		return f, true
	}
	if inDomains(dom, known) {
		return Finding{}, false
	}
	words := strings.FieldsFunc(from.Name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
	if len(words) == 0 {
		return Finding{}, false
	}
	first := strings.ToLower(words[0])
	if utf8.RuneCountInString(first) < 4 {
		return Finding{}, false
	}
	for _, b := range d.brands {
		if b.CommonWord || b.Name != first {
			continue
		}
		return Finding{Reason: ReasonDisplayNameSpoof, Detail: fmt.Sprintf("display name says %q but the address is on %s", from.Name, dom)}, true
	}
	return Finding{}, false
}

// nameAddress finds the domains of addresses written in a display name
// ("ceo@ourcompany.com", "Jane (jane@ourcompany.com)"), after NFKC folding
// so that a fullwidth "＠" counts.
var nameAddress = regexp.MustCompile(`[^\s@<>()\[\]"',;:]+\s*@\s*((?:[\p{L}\p{N}](?:[\p{L}\p{N}-]*[\p{L}\p{N}])?\.)+[\p{L}\p{N}-]{2,63})\.?`)

// viaRelay is the display name mailing lists write when they resend a
// member's mail from their own address so that it passes DMARC
// ("'alice@partner.com' via Team" from Google Groups, "alice@partner.com
// via Builders" from Mailman): the address in it is the author's, shown on
// purpose. It counts only on mail with list headers, which such lists
// always add.
var viaRelay = regexp.MustCompile(`(?i)@\S*\s+via\s+\S`)

// nameAddressSpoof reports a display name holding an address whose
// registrable domain is not the From address's but is one the reader
// trusts: the organization's own, a known correspondent's, or a brand's
// (unless From is on another domain of the same brand: paypal.com shown,
// paypal.de sending). An address on a domain nobody here knows impersonates
// no one the agent trusts, so it is left alone; so is a list's "via" name
// (viaRelay).
func nameAddressSpoof(from Address, dom string, fromList bool, targets []target) (Finding, bool) {
	name := from.Name
	if !strings.ContainsRune(name, '@') {
		name = norm.NFKC.String(name)
		if !strings.ContainsRune(name, '@') {
			return Finding{}, false
		}
	}
	if fromList && viaRelay.MatchString(name) {
		return Finding{}, false
	}
	sender, ok := parseSenderDomain(dom)
	if !ok {
		return Finding{}, false
	}
	for _, m := range nameAddress.FindAllStringSubmatch(name, 5) {
		shown, ok := parseSenderDomain(m[1])
		if !ok || shown.reg == sender.reg {
			continue
		}
		// The shown domain may be on several lists (a brand that is also a
		// correspondent): From on another domain of that brand is fine.
		var trusted *target
		same := false
		for i, t := range targets {
			if t.domain != shown.reg {
				continue
			}
			if trusted == nil {
				trusted = &targets[i]
			}
			same = same || sameBrand(t, sender, targets)
		}
		if trusted == nil || same {
			continue
		}
		kind := "a " + trusted.kind
		if b, ok := strings.CutPrefix(trusted.kind, "brand "); ok {
			kind = "a domain of " + b
		}
		return Finding{Reason: ReasonDisplayNameSpoof, Detail: fmt.Sprintf("display name shows an address on %s (%s) but the mail is from %s", shown.reg, kind, sender.reg)}, true
	}
	return Finding{}, false
}

// sameBrand reports that sender is another domain of the brand whose domain
// t is, or the same name on a country registry for a brand that runs
// country sites.
func sameBrand(t target, sender senderDomain, targets []target) bool {
	if !strings.HasPrefix(t.kind, "brand ") {
		return false
	}
	for _, o := range targets {
		if o.kind == t.kind && (o.domain == sender.reg || o.cc && o.label == sender.label) {
			return true
		}
	}
	return false
}

// caseSkeleton is the skeleton of the registrable label as the sender
// wrote it, when it has capitals: UTS #39 maps a capital I to l, so
// "dhI.com" imitates dhl.com, while lower-casing first turns it into the
// innocent-looking "dhi". Real mail practically never capitalizes a
// domain's letters singly.
func caseSkeleton(addr string, sd senderDomain) string {
	at := strings.LastIndexByte(addr, '@')
	if at < 0 {
		return ""
	}
	raw := strings.Trim(addr[at+1:], " >.")
	if raw == strings.ToLower(raw) || !isASCII(raw) {
		return ""
	}
	// Cut the registrable label out of the domain as written: the same
	// labels, in ASCII, as sd.reg.
	parts := strings.Split(raw, ".")
	n := strings.Count(sd.reg, ".") + 1
	if len(parts) < n {
		return ""
	}
	reg := strings.Join(parts[len(parts)-n:], ".")
	label := strings.TrimSuffix(sd.reg, "."+sd.suffix)
	if !strings.EqualFold(reg, sd.reg) || len(label) > len(reg) || strings.Contains(label, "xn--") {
		return ""
	}
	return strings.ToLower(confusable.Skeleton(reg[:len(label)]))
}

// sharesLeadWithLure catches an organization's or correspondent's
// hyphenated name cut down to its distinctive first word and joined to
// other words with a lure (marengo-assicurazioni-secure.it for
// marengo-insurance.it, tatra-ocel-secure.sk for tatra-steel.sk): the
// added words may be a translation, so only the lead word and the lure
// are required. Brands are left to embedsTarget.
func sharesLeadWithLure(label string, t target) bool {
	if strings.HasPrefix(t.kind, "brand") || !strings.Contains(t.label, "-") || label == t.label {
		return false
	}
	lead := t.label[:strings.IndexByte(t.label, '-')]
	if utf8.RuneCountInString(lead) < 5 {
		return false
	}
	tokens := strings.Split(label, "-")
	if len(tokens) < 2 || tokens[0] != lead {
		return false
	}
	return slices.ContainsFunc(tokens[1:], func(tok string) bool { return isLure(tok) })
}

// tldWords are TLD-looking tokens that phishing hosts glue to a name
// ("zoom-us", "docusign-net", "com-paypal") so that it reads as the
// real domain.
var tldWords = map[string]bool{"com": true, "net": true, "org": true, "co": true, "us": true, "io": true, "app": true}

// cheapTLDs are the new generic TLDs where throw-away phishing hosts
// live; unlike com/net/org, a brand's name in a subdomain of one of them
// is rarely a real vendor's customer site.
var cheapTLDs = map[string]bool{
	"xyz": true, "top": true, "online": true, "site": true, "shop": true, "live": true, "email": true,
	"support": true, "help": true, "services": true, "club": true, "icu": true, "cc": true, "tech": true,
	"cloud": true, "link": true, "click": true, "work": true, "info": true, "biz": true, "page": true,
	"website": true, "store": true, "digital": true, "today": true, "space": true, "fun": true, "buzz": true,
	"rest": true, "monster": true, "cyou": true, "sbs": true, "cfd": true, "lol": true, "quest": true,
}

// imitatesName reports that a token is the target's name written with
// look-alike letters, or (for names of 5+ letters) one dropped, doubled or
// swapped letter away from it. An exact match is not an imitation.
func imitatesName(tok string, t target) bool {
	if tok == t.label || len(tok) < 3 {
		return false
	}
	sk := skeleton(tok)
	return sk == t.skel || looseSkeleton(sk) == t.loose || nearMiss(sk, t.skel)
}

// plainGovWord reports a government domain's label, usually an ordinary
// word ("customs.gov.sg", "tax.gov.ie"), used by a firm beside its own name
// (gulfclear-customs.ae): that imitates nobody. The same word does imitate
// the agency with a lure word, a "gov" token or on the agency's country
// registry (customs-gov-sg.com, sg-customs-refund.com, customs-portal.sg).
func plainGovWord(sd senderDomain, t target) bool {
	gov := false
	for _, p := range []string{"gov.", "gob.", "gouv.", "govt.", "go."} {
		if strings.HasPrefix(t.suffix, p) {
			gov = true
		}
	}
	if !gov {
		return false
	}
	country := t.suffix[strings.LastIndexByte(t.suffix, '.')+1:]
	if sd.suffix == country || strings.HasSuffix(sd.suffix, "."+country) {
		return false
	}
	for _, tok := range strings.Split(sd.label, "-") {
		if lureWords[tok] || tok == "gov" || tok == "gob" || tok == "gouv" || tok == "govt" || tok == country {
			return false
		}
	}
	return true
}

// dottedAsHyphens reports a registrable label that spells the whole target
// domain with hyphens for dots, with or without more words after it
// (sat-gob-mx.com, paypal-com.support): the domain name itself, written so
// it fits in one label, is nothing a real firm is called.
func dottedAsHyphens(sd senderDomain, t target) bool {
	if !strings.Contains(t.domain, ".") {
		return false
	}
	h := strings.ReplaceAll(t.domain, ".", "-")
	if sd.label == h || strings.HasPrefix(sd.label, h+"-") {
		return true
	}
	// Or with the last dot kept, on a target under a two-level suffix
	// (sdl-co.in for sdl.co.in, acme-com.br for acme.com.br).
	return strings.Contains(t.suffix, ".") && sd.reg != t.domain &&
		strings.ReplaceAll(sd.label, "-", ".")+"."+sd.suffix == t.domain
}

// genericTails are words that end many firms' names (siamtrustbank,
// nordgroup); the rest is the name people know.
var genericTails = []string{"bank", "group", "grupo", "gruppe", "groupe", "holding", "holdings"}

// stemWithLure reports the target's name without a generic last word
// (siamtrust of siamtrustbank.co.th), at least five letters long, standing
// as a whole hyphen token beside a lure word on the target's suffix or a
// cheap generic one: siamtrust-alert.net. The name and a lure word
// together are how phishing kits name hosts; a stem alone may be another
// firm.
func stemWithLure(sd senderDomain, t target) bool {
	if !strings.Contains(sd.label, "-") || !sameOrCheapSuffix(sd, t) {
		return false
	}
	flat := strings.ReplaceAll(t.label, "-", "")
	for _, tail := range genericTails {
		stem, ok := strings.CutSuffix(flat, tail)
		if !ok || utf8.RuneCountInString(stem) < 5 {
			continue
		}
		tokens := strings.Split(sd.label, "-")
		return slices.Contains(tokens, stem) &&
			slices.ContainsFunc(tokens, func(tok string) bool { return tok != stem && isLure(tok) })
	}
	return false
}

// shortBrandWithLure reports a three-letter name a brand, a correspondent
// or the organization sends from (aws for Amazon, ups, dpd, vmi.lt)
// standing as a whole hyphen token beside a lure word:
// aws-billing-notice.com, ups-deliveryservice.com, vmi-eds-info.com.
// Three letters are too short for the other word rules, since every
// acronym is somebody's name, but the name and a word about accounts,
// billing or delivery together are how phishing kits name hosts. Until the
// thirteenth session own and correspondent names were left out (an
// organization's short name is often a partner's too); over the hundred
// sets, letting them in found two more and no false positive.
func shortBrandWithLure(sd senderDomain, t target) bool {
	if utf8.RuneCountInString(t.label) != 3 || plainGovWord(sd, t) {
		return false
	}
	tokens := strings.Split(sd.label, "-")
	return len(tokens) > 1 && slices.Contains(tokens, t.label) &&
		slices.ContainsFunc(tokens, func(tok string) bool { return tok != t.label && isLure(tok) })
}

// gluedHomoglyph reports a look-alike spelling of the name glued to other
// characters without a hyphen (micros0ft365.com, paypa1online.com): the
// label as written does not contain the name, its skeleton starts or ends
// with it. Nobody spells their own name with a digit for a letter, so no
// lure word is needed.
func gluedHomoglyph(sd senderDomain, t target) bool {
	// The look-alike must be a digit or a letter of another script: letter
	// pairs that skeletons fold ("rn" and "m") turn ordinary glued names
	// into false hits (usemotion reads as "usernotion").
	if sd.skel == t.skel || strings.Contains(sd.label, t.label) ||
		!strings.ContainsFunc(sd.label, func(r rune) bool { return r > unicode.MaxASCII || unicode.IsDigit(r) }) {
		return false
	}
	for _, sk := range []string{sd.skel, looseSkeleton(sd.skel)} {
		tsk := t.skel
		if sk != sd.skel {
			tsk = t.loose
		}
		if sk != tsk && (strings.HasPrefix(sk, tsk) || strings.HasSuffix(sk, tsk)) {
			return true
		}
	}
	return false
}

// tokenImitates composes two techniques in the registrable label: a
// look-alike spelling of the name as one hyphen token beside other words
// (rnicrosoft-365.com, dropbx-share.com, linkdin-jobs.com). A homoglyph
// spelling needs nothing more; an edit of a short name (5-7 letters) needs
// a lure word beside it, since dropping a letter of a short name often
// leaves an ordinary word ("post" of "posti"). Only on the imitated
// domain's own suffix or a cheap generic one, as for plain near misses.
func tokenImitates(sd senderDomain, t target) bool {
	if !strings.Contains(sd.label, "-") || strings.Contains(t.label, "-") {
		return false
	}
	if !sameOrCheapSuffix(sd, t) {
		return false
	}
	tokens := strings.Split(sd.label, "-")
	lure := slices.ContainsFunc(tokens, func(tok string) bool { return isLure(tok) })
	for _, tok := range tokens {
		// A lure word is never the imitation itself ("cloud" is one letter
		// from "icloud").
		if lureWords[tok] || !imitatesName(tok, t) {
			continue
		}
		if sk := skeleton(tok); sk == t.skel || looseSkeleton(sk) == t.loose {
			return true
		}
		if lure || utf8.RuneCountInString(t.label) >= 8 {
			return true
		}
		// A doubled letter (gooogle, amazzon) makes no ordinary word, unlike
		// a dropped one, so it needs no lure word either.
		if isDoubling([]rune(skeleton(tok)), []rune(t.skel)) {
			return true
		}
	}
	return false
}

// subLabelNames reports the target's name (exact or look-alike) as a
// subdomain label, or a hyphen token of one, of an unrelated registrable
// domain that looks made for phishing: lure words in its name or a cheap
// new TLD (zoom-us.meeting-invite.link, docusign.secure-view.online,
// acme.secure-docs.online). The organization's name on a real SaaS host
// (acme.zendesk.com, acme.okta.com) has neither, and a brand that is an
// ordinary word needs both.
func subLabelNames(sd senderDomain, t target) bool {
	regTokens := strings.Split(sd.label, "-")
	lure := slices.ContainsFunc(regTokens, func(tok string) bool { return isLure(tok) })
	cheap := cheapTLDs[sd.suffix]
	isBrand := strings.HasPrefix(t.kind, "brand")
	switch {
	case isBrand && !t.plainName:
		if !lure || !cheap {
			return false
		}
	case !lure && !cheap:
		return false
	}
	flatT := strings.ReplaceAll(t.label, "-", "")
	tsuf := t.suffix[strings.LastIndexByte(t.suffix, '.')+1:]
	for _, l := range sd.sub {
		var kept []string
		for _, tok := range strings.Split(l, "-") {
			if tok != "" && !tldWords[tok] && tok != tsuf {
				kept = append(kept, tok)
			}
		}
		joined := strings.Join(kept, "")
		if joined == flatT || len(flatT) >= 5 && imitatesName(joined, t) {
			return true
		}
		if len(kept) > 1 && slices.ContainsFunc(kept, func(tok string) bool {
			return tok == flatT || len(flatT) >= 5 && imitatesName(tok, t)
		}) {
			return true
		}
	}
	return false
}

// isLure reports a lure word, or two glued together ("deliveryservice",
// "securelogin"), which is how a hyphen-free phishing name reads.
func isLure(tok string) bool {
	if lureWords[tok] {
		return true
	}
	// Plurals of the lure words ("entregas", "notices", "payments") read
	// the same way; most are not listed separately.
	if s, ok := strings.CutSuffix(tok, "s"); ok && len(s) >= 3 && lureWords[s] {
		return true
	}
	// German and Dutch plurals in -en and -n (rechnungen, zahlungen,
	// betalingen, pakketten is left out: its stem changes).
	if s, ok := strings.CutSuffix(tok, "en"); ok && len(s) >= 5 && lureWords[s] {
		return true
	}
	if s, ok := strings.CutSuffix(tok, "n"); ok && len(s) >= 5 && lureWords[s] {
		return true
	}
	for i := 2; i <= len(tok)-2; i++ {
		if lureWords[tok[:i]] && lureWords[tok[i:]] {
			return true
		}
	}
	return false
}
