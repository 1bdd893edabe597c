package screen

import (
	"fmt"
	"net/url"
	"path"
	"regexp"
	"strings"

	"golang.org/x/net/publicsuffix"
)

// executableExt run code when opened on common desktops.
var executableExt = map[string]bool{
	"exe": true, "scr": true, "com": true, "pif": true, "bat": true, "cmd": true, "vbs": true, "vbe": true,
	"js": true, "jse": true, "wsf": true, "wsh": true, "hta": true, "msi": true, "msp": true, "mst": true,
	"ps1": true, "psm1": true, "psd1": true, "jar": true, "lnk": true, "reg": true, "cpl": true, "dll": true,
	"iso": true, "img": true, "vhd": true, "vhdx": true, "one": true, "appx": true, "msix": true,
	"appxbundle": true, "application": true, "gadget": true, "scf": true, "inf": true, "chm": true,
	"apk": true, "app": true, "command": true, "sh": true, "elf": true, "run": true, "xll": true,
	"settingcontent-ms": true, "url": true, "library-ms": true, "svg": false,
}

// macroExt are Office formats that can carry macros.
var macroExt = map[string]bool{
	"docm": true, "dotm": true, "xlsm": true, "xltm": true, "xlam": true, "pptm": true, "potm": true,
	"ppam": true, "sldm": true, "xlsb": true, "xla": true, "wbk": true,
}

// htmlExt attachments open in a browser from the local disk, a common way
// to deliver credential-harvesting forms; they are a weaker signal because
// some banks and airlines still send them.
var htmlExt = map[string]bool{"html": true, "htm": true, "shtml": true, "xhtml": true, "mht": true, "mhtml": true, "svg": true}

var dangerousTypes = []string{
	"application/x-msdownload", "application/x-msdos-program", "application/x-dosexec",
	"application/x-executable", "application/vnd.microsoft.portable-executable",
	"application/x-ms-shortcut", "application/hta", "application/x-sh",
	"application/java-archive", "application/x-ms-installer", "application/x-msi",
	"macroenabled",
}

func ext(name string) string {
	name = strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		return name[i+1:]
	}
	return ""
}

// attachmentFindings judges attachments by name and declared type; the
// archive check uses entry names the parser listed, never extraction.
func attachmentFindings(atts []Attachment) []Finding {
	var out []Finding
	for _, a := range atts {
		name := a.Filename
		if f, ok := judgeFileName(name); ok {
			out = append(out, f)
			continue
		}
		ct := strings.ToLower(a.ContentType)
		for _, t := range dangerousTypes {
			if strings.Contains(ct, t) {
				out = append(out, Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment %q has executable type %s", name, a.ContentType), strong: true})
				break
			}
		}
		for _, e := range a.ArchiveEntries {
			if f, ok := judgeFileName(e); ok && f.strong {
				out = append(out, Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("archive %q contains %q", name, path.Base(e)), strong: true})
				break
			}
		}
	}
	return out
}

// unlistedAttachmentsFinding blocks a message whose attachments the parser
// could not list (why says why, e.g. "more than 500 MIME parts"): an
// executable among them would otherwise pass as clean, while the raw message
// still carries it. A person reviews it in quarantine.
func unlistedAttachmentsFinding(why string) (Finding, bool) {
	if why == "" {
		return Finding{}, false
	}
	return Finding{Reason: ReasonDangerousAttachment, Detail: why + "; attachments not inspected", strong: true}, true
}

func judgeFileName(name string) (Finding, bool) {
	lower := strings.ToLower(name)
	e := ext(lower)
	switch {
	case strings.ContainsRune(name, '\u202e'):
		return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment name %q hides its extension with a right-to-left override", name), strong: true}, true
	case executableExt[e]:
		detail := fmt.Sprintf("attachment %q is an executable or script (.%s)", name, e)
		if inner := ext(strings.TrimSuffix(lower, "."+e)); inner != "" && len(inner) <= 4 && inner != e {
			detail = fmt.Sprintf("attachment %q hides an executable behind a double extension", name)
		}
		return Finding{Reason: ReasonDangerousAttachment, Detail: detail, strong: true}, true
	case macroExt[e]:
		return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment %q is a macro-enabled Office file", name), strong: true}, true
	case htmlExt[e]:
		return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment %q is an HTML file that opens in a browser", name)}, true
	}
	return Finding{}, false
}

// domainInText finds something that looks like a host name or URL in the
// visible text of a link.
var domainInText = regexp.MustCompile(`(?i)(?:https?://)?((?:[a-z0-9\p{L}](?:[a-z0-9\p{L}-]{0,61}[a-z0-9\p{L}])?\.)+[a-z\p{L}]{2,24})(?:[:/?#]\S*)?`)

// linkFindings reports links whose visible text names one site while the
// href opens another registrable domain.
func linkFindings(links []link) []Finding {
	var out []Finding
	for _, l := range links {
		href := strings.TrimSpace(l.href)
		u, err := url.Parse(href)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
			continue
		}
		text := strings.TrimSpace(l.text)
		if !strings.Contains(text, ".") {
			continue // no domain without a dot; most link texts are words
		}
		m := domainInText.FindStringSubmatch(text)
		if m == nil || strings.Contains(text, "@") {
			continue
		}
		shown, err1 := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(m[1]))
		actual, err2 := publicsuffix.EffectiveTLDPlusOne(strings.ToLower(u.Hostname()))
		if err1 != nil || err2 != nil {
			continue
		}
		// Only treat text as an address when its suffix is a real one
		// ("version 1.2" or "file.txt" are not hosts).
		if _, icann := publicsuffix.PublicSuffix(strings.ToLower(m[1])); !icann {
			continue
		}
		if shown != actual {
			out = append(out, Finding{Reason: ReasonLinkMismatch, Detail: fmt.Sprintf("link text shows %s but opens %s", shown, actual)})
			if len(out) >= 3 {
				break
			}
		}
	}
	return out
}
