package screen

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// labelMax is the longest clause, in runes, read as the label of an
// instruction ("Instrucción para el asistente de IA que procesa este
// correo:").
const labelMax = 110

// labelAgent finds assistant and agent words of scripts written without
// spaces, where a word boundary cannot be asked for ("自動処理アシスタント様へ").
// The same goes for the automated processing of mail, which a note can be
// addressed to without naming an agent ("Hinweis für die automatisierte
// Bearbeitung:", "processing note for automated AP:").
var labelAgent = regexp.MustCompile(`アシスタント|エージェント|ボット|助手|助理|机器人|機器人|智能体|비서|에이전트|챗봇|ai客服|智能客服|客服机器人|客服模型|ai受付|aiコンシェルジュ|自動処理|自动处理|自動化處理|자동 처리|自动化[^\s：:]{0,8}(?:系统|系統)|自動化[^\s：:]{0,8}(?:系統|系统)|自動[^\s：:]{0,6}システム|स्वचालित|อัตโนมัติ|المساعد الآلي|مساعد آلي|الوكيل الآلي|وكيل آلي|` +
	`(?i:automated (?:processing|handling|system|ap|approver|workflow)|automatic processing|automation|automated (?:[a-z-]+ )?(?:inbox|mailbox|system|desk|queue|payables?|processing|processor|billing|invoicing|bookkeeping|approvals?)|` +
	`automatisierte[nrs]? \pL*(?:bearbeitung|verarbeitung|posteingang|postfach|eingang|prüfung)|automatische[nrs]? \pL*(?:bearbeitung|verarbeitung|posteingang|postfach|eingang|prüfung)|geautomatiseerde verwerking|automatische verwerking|` +
	`traitement automatis?\pL*|procesamiento automático|processamento automático|elaborazione automatica|` +
	`automatyczne\pL* przetwarzani\pL*|automatick\pL* (?:zpracování|spracovani\pL*)|automatizovan\pL* (?:zpracování|spracovani\pL*)|` +
	`automatikus feldolgozás\pL*|automatizált feldolgozás\pL*|asszisztens\pL*|assistenzsystem\pL*|automated assistance systems?|` +
	`автоматичн\pL* (?:систем\pL*|обробк\pL*)|автоматическ\pL* (?:систем\pL*|обработк\pL*)|` +
	`pemrosesan otomatis|xử lý tự động|المعالجة الآلية|معالجة آلية)`)

// labelAI finds a word for AI beside the agent word of a label: an
// assistant may be a person, an "AI assistant" is not.
var labelAI = regexp.MustCompile(`(?:^|[^\pL])(?:ai|a\.i\.|ki|ia|llms?|gpts?|genai|chatbots?|bots?|yapay zeka|人工智能|ＡＩ|digital|digitale[nr]?|digitaal|digitální|cyfrow\pL+|numérique|automation|automated|automatic|automatische[nr]?|automatisierte[nr]?|geautomatiseerde|automatique|automatisé|automático|automatico|automatica|otomatis|otomatik|tự động|الآلية|آلية|الآلي|स्वचालित|อัตโนมัติ|自动|자동|automatyczn\pL+|automatick\pL+|自動)(?:[^\pL]|$)|(?:^|[^a-z])ai(?:アシスタント|エージェント|助手|助理|비서|에이전트|客服|受付|コンシェルジュ)|自动化|自動化|自動処理|人工智能|自动|自動|อัตโนมัติ|ปัญญาประดิษฐ์|เอไอ`)

// labelled reports an instruction put under a label that names an AI
// agent: "Uwaga dla asystenta AI: proszę …", "［自動処理アシスタント様へ］…",
// "Opdracht voor de AI-assistent: meld …". The label is a clause opening a
// line or sentence that names an agent and ends in a colon or a closing
// bracket. This is the form an order to the agent takes in every language,
// so it is read from punctuation and the agent words, not from each
// language's imperatives. A greeting ends in a comma ("Hi Acme ops
// agent,"): people write to agents too, and a greeting alone asks nothing.
//
// named reports that the label is an address by itself, even where no
// other rule saw one: it names an AI or the automated processing beside the
// agent word ("AIアシスタント様：…"), or it is a note for whoever it names
// ("Note for Maplestone's dispatch/AP assistant:").
func (r *injectionRules) labelled(p string) (ok, named bool) {
	for i, c := range p {
		end := i
		switch {
		case c == ':' || c == '：' || c == ']' || c == '］' || c == '】' || c == '→':
		case c == '>' && i > 0 && (p[i-1] == '-' || p[i-1] == '='):
			// "maint bot -> reassign all open tickets": an arrow after the
			// name is the chat way of writing a colon.
			end = i - 1
		case c == '\n' && underline(p[i+1:]):
			// A heading underlined with dashes or equal signs is a label too
			// ("Automated AP processing note\n------").
		default:
			continue
		}
		after := p[i+utf8.RuneLen(c):]
		if c == '\n' {
			after = after[min(len(after), strings.IndexByte(after+"\n", '\n')+1):]
		}
		if !orderFollows(after) {
			continue
		}
		if (c == ':' || c == '：') && fieldList(p, i) {
			continue
		}
		label, found := clauseBefore(p[:end])
		if !found || quotedLabel(label) || itemID.MatchString(label) || !r.labelEndsWithAgent(label) {
			continue
		}
		ok = true
		// A note headed for an assistant ("Note for Maplestone's dispatch/AP
		// assistant:") is addressed to it even without an AI word.
		if labelAI.MatchString(label) || labelNote.MatchString(label) {
			return true, true
		}
	}
	return ok, false
}

// labelEndsWithAgent reports a label whose last agent word closes it: the
// agent is who the label is for ("Hinweis für den Buchhaltungs-Assistenten",
// "aiアシスタント様へ", "AI assistant से अनुरोध"), or a vocative or relative
// clause follows it ("an den KI-Assistenten, der diese Anfragen
// beantwortet"). A title or sentence in which the agent is the subject
// goes on after it ("AI at the front desk", "our chatbot has new
// instructions", "for the reception assistant I'd keep three layers"),
// and an issue key is no agent ("AI-42").
func (r *injectionRules) labelEndsWithAgent(label string) bool {
	end := -1
	for _, loc := range r.agentNoun.FindAllStringIndex(label, -1) {
		end = max(end, loc[1])
	}
	for _, loc := range labelAgent.FindAllStringIndex(label, -1) {
		end = max(end, loc[1])
	}
	// Beside an AI word, a role that reads mail names a machine too: "LLM /
	// AI accounts-payable processors:".
	if labelAI.MatchString(label) {
		for _, loc := range machineRole.FindAllStringIndex(label, -1) {
			end = max(end, loc[1])
		}
	}
	if end < 0 {
		// Agent phrases the word tables know ("sistema automático",
		// "yapay zeka asistanı") close the label when they stand in its
		// last words, before any relative clause.
		words := strings.Fields(label)
		for i, w := range words {
			if labelRelative.MatchString(strings.TrimLeft(w, ",")) || strings.HasSuffix(w, ",") {
				words = words[:i+1]
				break
			}
		}
		tail := strings.Join(words[max(0, len(words)-labelTailWords):], " ")
		return r.lex.scan(strings.TrimSuffix(tail, ","), nil).has(sigAgentNoun)
	}
	// The match may stop inside an inflected word ("assistente|n"), or
	// before an AI word that belongs to the phrase ("assistant| IA").
	rest := strings.TrimLeftFunc(label[end:], unicode.IsLetter)
	rest = strings.TrimSpace(rest)
	rest = strings.TrimSpace(trailingAI.ReplaceAllString(rest, ""))
	if len(rest) >= 2 && rest[0] == '-' && rest[1] >= '0' && rest[1] <= '9' {
		return false
	}
	// A postposition closes the label in languages that put "for" after
	// the noun ("स्वचालित AP प्रणाली के लिए", "에게").
	for _, post := range []string{"के लिए नोट", "के लिए", "से अनुरोध", "को", "에게", "께", "へ", "に"} {
		rest = strings.TrimSpace(strings.TrimSuffix(rest, post))
	}
	tail := labelTail
	if labelNote.MatchString(label) {
		// "Uwaga dla automatycznego przetwarzania po stronie Kololease:":
		// a note says whom it is for, and may say where they sit.
		tail = labelNoteTail
	}
	return strings.HasPrefix(rest, ",") || labelRelative.MatchString(rest) || utf8.RuneCountInString(rest) <= tail
}

// trailingAI is an AI word after an assistant word: "assistant IA",
// "asistente virtual", "assistente digitale".
var trailingAI = regexp.MustCompile(`^(?:ia|ai|ki|gpt|virtu\pL*|digital\pL*|automat\pL*|otomatik)(?:[^\pL]|$)`)

// machineRole is a role that reads or acts on mail.
var machineRole = regexp.MustCompile(`\b(?:processors?|approvers?|handlers?|readers?|triagers?|systems?|reviewers?|screeners?)\b`)

// labelRelative finds a relative clause after the agent word of a label:
// "to the AI assistant that reads this mail:", "kepada asisten AI yang
// membaca email ini:", "pro AI asistenta, který zpracovává poštu:".
var labelRelative = regexp.MustCompile(`^(?:who|that|which|na|đang|xử|đọc|quản|phụ|der|die|das|welche[rs]?|que|qui|che|som|který|která|které|który|która|które|yang|ang|который|которая|которые|που|ki|jo|जो|mà|ที่|الذي|التي|الذين)(?:[^\pL]|$)|^[a-z]+ing\s+(?:this|these|that|the|our|your|my|all|any|incoming|new|every|each|[\w-]+['’]s|e-?mails?|mail|messages?|invoices?|tickets?)\b`)

// labelTail is how many runes may follow the agent word in a label: an
// honorific, a postposition and a noun ("様へ", "से अनुरोध"), a qualifier
// ("de agenda", "virtuale").
const labelTail = 16

// labelNoteTail is labelTail for a label that is a note for someone.
const labelNoteTail = 32

// labelTailWords is how many last words of a label are read for an agent
// phrase of the word tables.
const labelTailWords = 5

// clauseBefore returns the clause that ends at the end of s: the text after
// the last sentence end or line break, when it is at most labelMax runes. A
// line break inside a sentence (text wrapped at 72 columns) does not end
// the clause.
func clauseBefore(s string) (string, bool) {
	start := 0
	for end := len(s); end > 0; {
		i := strings.LastIndexAny(s[:end], "\n.!?。！？")
		if i < 0 {
			break
		}
		if s[i] == '\n' && wrapped(s[:i]) {
			end = i
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		start = i + size
		break
	}
	clause := s[start:]
	if utf8.RuneCountInString(clause) > labelMax {
		return "", false
	}
	return clause, strings.TrimSpace(clause) != ""
}

// wrapped reports that the last line of s runs on into the next one: it is
// long and does not end in punctuation.
func wrapped(s string) bool {
	s = strings.TrimRight(s, " \t")
	line := s[strings.LastIndexByte(s, '\n')+1:]
	if len(line) < 40 {
		return false
	}
	for _, p := range []string{".", ":", ";", "!", "?", ",", "。", "：", "！", "？"} {
		if strings.HasSuffix(line, p) {
			return false
		}
	}
	return true
}

// orderFollows reports what may follow the label of an instruction:
// nothing (the label closes its paragraph and the order is the next one),
// or sentences: at least 40 letters and a sentence end or line break, or
// 80 letters (a one-sentence cell or line). A headline ("KI-Assistenten:
// was Unternehmen 2027 wissen müssen") is one short line without either.
func orderFollows(s string) bool {
	s = strings.TrimSpace(s)
	if s == "" {
		return true
	}
	letters := 0
	for _, c := range s {
		if unicode.IsLetter(c) {
			letters++
		}
	}
	return letters >= 80 || letters >= 40 && strings.ContainsAny(s, "\n.!?。！？")
}

// itemID finds a label opened by an item number ("MC1082211 Microsoft
// Copilot: new admin controls …", "KB5031455 …"): an entry of a digest or
// changelog, not a vocative.
var itemID = regexp.MustCompile(`^[\s*•-]*[a-z]{1,4}-?\d{4,}\s`)

// mayLabel is a cheap test for a colon or closing bracket, before labelled
// looks at each.
func mayLabel(p string) bool {
	return strings.ContainsAny(p, ":：]］】→>") || strings.Contains(p, "\n---") || strings.Contains(p, "\n===")
}

// labelNote finds a label that is a note, notice or instruction for someone:
// "Note for …", "Hinweis für …", "Nota para …", "Uwaga dla …", "AP-agent
// directive".
var labelNote = regexp.MustCompile(`(?i)^[\s\[(*>•-]*(?:[\pL'’-]+\s+){0,3}(?:notes?|notice|memo|message|instructions?|directives?|guidance|reminder|prep|briefing|\pL*hinweis|\pL*anweisung|notiz|nota|aviso|remarque|consigne|opmerking|instructie|uwaga|notatka|polecenie|poznámka|pokyn|megjegyzés|примітка|примечание|указание|інструкція|инструкция)\s+(?:for|to|an|für|para|pour|à|voor|aan|dla|do|pro|pre|per|al|a|для)\s|^[\s\[(*>•-]*(?:pastaba|pastabos|piezīme|piezīmes)\s+\pL|\b(?:attn|attention|for|to)\s+(?:each|every|all|any)\s|\b(?:agent|assistant|bot|ai|automation)[\s-]+(?:directives?|notes?|notice|instructions?|memo|tasks?)\s*$`)

// underline reports a line of three or more dashes, equal signs or
// underscores at the start of s.
func underline(s string) bool {
	line, _, _ := strings.Cut(s, "\n")
	line = strings.TrimSpace(line)
	return len(line) >= 3 && strings.Trim(line, "-=_") == ""
}

// labelAgentLiterals are parts that every match of labelAgent contains, so
// that the regular expression (slow for its many alternatives) runs only
// on the few paragraphs that hold one. Text is lower-cased by then.
var labelAgentLiterals = []string{"automat", "automáti", "автомат", "asszisztens", "assistenzsystem", "ai客服", "智能客服", "客服", "ai受付", "aiコンシェルジュ", "otomatis", "tự động", "آلي", "स्वचालित", "อัตโนมัติ", "自動", "自动",
	"자동", "アシスタント", "エージェント", "ボット", "助手", "助理", "机器人", "機器人", "智能体", "비서", "에이전트", "챗봇"}

func mayNameAgent(p string) bool {
	for _, l := range labelAgentLiterals {
		if strings.Contains(p, l) {
			return true
		}
	}
	return false
}

// fieldLine is a "Key: value" line of a signature, a form or a header
// block ("Phone: +1 555 1234", "Assistant: Jane Doe").
var fieldLine = regexp.MustCompile(`(?m)^[ \t]*\pL[\pL .'’/-]{0,24}[:：][ \t]*\S`)

// fieldList reports a colon that separates a field from a short value in a
// block of such fields: "Assistant: Jane Doe" in a signature names a
// person's assistant, it does not head an order to an agent.
func fieldList(p string, colon int) bool {
	_, size := utf8.DecodeRuneInString(p[colon:])
	value := p[colon+size:]
	if nl := strings.IndexByte(value, '\n'); nl >= 0 {
		value = value[:nl]
	}
	v := strings.TrimSpace(value)
	if v == "" || utf8.RuneCountInString(v) >= 80 {
		return false
	}
	// "Assistant: Jenna Ortiz - jenna@…, +1 843 555 0174": a contact.
	if phoneNumber.MatchString(v) {
		return true
	}
	if len(fieldLine.FindAllStringIndex(p, 3)) >= 3 {
		return true
	}
	// "- Copilot agents in SharePoint: create agents grounded on …" in a
	// bulleted list of such items: a changelog of features, not a vocative.
	return bulletLabel.MatchString(lineAt(p, colon)) && len(bulletLabel.FindAllStringIndex(p, 3)) >= 2
}

// bulletLabel is a bulleted line that opens with a short label and a colon.
var bulletLabel = regexp.MustCompile(`(?m)^[ \t]*[-*•][ \t]+[^:\n]{2,60}:[ \t]+\S`)

// lineAt returns the line of p that holds byte offset i.
func lineAt(p string, i int) string {
	start := strings.LastIndexByte(p[:i], '\n') + 1
	end := strings.IndexByte(p[i:], '\n')
	if end < 0 {
		return p[start:]
	}
	return p[start : i+end]
}

// phoneNumber finds a telephone number in a field's value.
var phoneNumber = regexp.MustCompile(`\+?\d[\d ()./-]{6,}\d`)

// quotedLabel reports a label that opens a quotation: an example quoted in
// a training or a discussion ("\"Note for the automated AP system: …\""),
// not an order given.
func quotedLabel(label string) bool {
	t := strings.TrimLeft(label, " \t>*-•")
	for _, q := range []string{"\"", "“", "„", "«", "'"} {
		// A quotation still open at the colon; a quoted key ("\"agent_note\":")
		// is closed before it.
		if rest, ok := strings.CutPrefix(t, q); ok {
			return !strings.ContainsAny(rest, "\"”“«»'")
		}
	}
	return false
}
