package screen

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// Chinese names whatever processes the mail by a grammar rather than a
// fixed phrase: a verb (处理, 整理, 查看 …), optionally "this" or "your",
// a mail noun (邮件, 信箱, 来信, 信 …), the attributive 的 (Cantonese 嘅)
// and who does it (同事, 人员, 程式, 系统 …): "整理本信箱的程式",
// "處理這封信的同仁", "負責整理你郵件嘅同事". The word table (lexdata.go)
// can only list such phrases one by one, and the combinations run to tens
// of thousands. Two more shapes name a person or a machine at once — "the
// colleague or system" (同事或系统), which only a writer unsure that a
// person reads the mail says — and "when (it is) processed automatically"
// (由自动化系统处理时). A hit counts as an lcHandler word:
// weakly addressed, and flagging only with what it is asked to do.
var cjkHandlerPhrases = regexp.MustCompile(
	// verb + (determiner) + mail noun + 的/嘅 + agent
	`(?:处理|處理|整理|阅读|閱讀|读取|讀取|查看|查收|打理|管理|分拣|分揀|分类|分類|接收|回复|回覆|筛选|篩選|负责|負責|睇)` +
		`(?:这封|這封|此封|本封|这个|這個|这些|這些|此|本|该|該|我们的|我們的|你们的?|你們的?|您的?|你的?|贵司的?|貴司的?|公司的?)?` +
		`(?:邮件|郵件|电邮|電郵|来信|來信|信件|信箱|邮箱|郵箱|收件箱|收件匣|信)` +
		`(?:的|嘅)` +
		`(?:同事|同仁|人员|人員|人|程式|程序|系统|系統|机器人|機器人|助手|助理|软件|軟體|工具|ai)` +
		// a person or a machine, named together
		`|(?:同事|同仁|人员|人員|员工|員工)(?:或者|或是|还是|還是|或)(?:系统|系統|程式|程序|机器人|機器人|ai|助手|助理|自动化|自動化)` +
		// "when (the mail) is processed automatically": a notice that mail is
		// handled automatically ("由系统自动发送", "本邮件是自动回复") is
		// not spoken to anything, so only the conditional counts
		`|(?:由|被)(?:贵司的?|貴司的?|你们的?|你們的?|您的?)?(?:自动化|自動化|自动|自動)(?:系统|系統|程式|程序)?(?:处理|處理|读取|讀取)(?:时|時|的时候|的時候|的话|的話)`)

// matchCJKHandlers adds the phrases of cjkHandlerPhrases in folded (the
// paragraph, matched as matchSubstr does) to t's lcHandler hits.
func matchCJKHandlers(t *lexText, folded string, inQuote func(int) bool) {
	// Every shape holds one of these characters; most paragraphs hold none.
	if !strings.ContainsAny(folded, "的嘅或还還由被") {
		return
	}
	for _, m := range cjkHandlerPhrases.FindAllStringIndex(folded, 4) {
		if len(t.hits[lcHandler]) >= lexMaxHits {
			return
		}
		start := utf8.RuneCountInString(folded[:m[0]])
		t.addSpanHit(lcHandler, start, start+utf8.RuneCountInString(folded[m[0]:m[1]]), inQuote(start))
	}
}
