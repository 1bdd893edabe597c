package screen

import (
	"encoding/csv"
	"io"
	"regexp"
	"strings"
)

// Where screening looks for text, beyond the body: who relays it, and how
// structured attachments are laid out for reading.

// relaysOutsiders reports an automated sender of the organization's own
// domain that passes on what outsiders typed: a contact form, a no-reply
// notifier. Its mail carries the words of whoever filled in the form, so
// it is not the organization speaking to its agent.
func relaysOutsiders(addr string) bool {
	local, _, ok := strings.Cut(strings.ToLower(addr), "@")
	return ok && relayLocal.MatchString(local)
}

// repliesOutside reports mail from the organization's own domain whose
// replies go to someone outside it: what a web form sends on behalf of the
// visitor who filled it in (Reply-To: the visitor), not what a colleague
// writes.
func repliesOutside(m Message, org []string) bool {
	for _, a := range m.ReplyTo {
		if a.Address != "" && !inDomains(domainOf(a.Address), org) {
			return true
		}
	}
	return false
}

var relayLocal = regexp.MustCompile(`^(?:no-?reply|do-?not-?reply|donotreply|noreply-.*|web-?forms?|forms?|contact-?forms?|kontaktformular|formular|formularz|formulario|formulaire|formulier|forma|lomake|website|wordpress|typo3|webmaster|www-data|apache|nginx|mailer|notifications?|notify)(?:[.+_-].*)?$`)

// csvCells puts every cell of a CSV attachment on a line of its own and
// every row in a paragraph of its own, so that a cell reading "Note for the
// AI assistant: …" opens a line as it would in a spreadsheet. Text that is
// not valid CSV is returned as it is.
func csvCells(t string) string {
	rd := csv.NewReader(strings.NewReader(t))
	// Much of Europe separates fields with semicolons, decimals with commas.
	first, _, _ := strings.Cut(t, "\n")
	if strings.Count(first, ";") > strings.Count(first, ",") {
		rd.Comma = ';'
	} else if strings.Count(first, "\t") > strings.Count(first, ",") {
		rd.Comma = '\t'
	}
	rd.FieldsPerRecord = -1
	rd.LazyQuotes = true
	var b strings.Builder
	for {
		rec, err := rd.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return t
		}
		for _, c := range rec {
			if c = strings.TrimSpace(c); c != "" {
				b.WriteString(c)
				b.WriteByte('\n')
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}
