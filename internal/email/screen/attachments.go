package screen

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/url"
	"regexp"
	"slices"
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

// attachmentFindings judges attachments by name, declared type, the binary
// format of their bytes (Executable) and the names and formats inside ZIP
// archives (ArchiveEntries, ArchiveExecutables).
func attachmentFindings(atts []Attachment) []Finding {
	var out []Finding
	for _, a := range atts {
		if f, ok := attachmentFinding(a); ok {
			out = append(out, f)
		}
	}
	return out
}

// attachmentFinding returns the strongest finding for one attachment: a
// name that only opens in a browser (weak) must not hide executable bytes
// or an executable inside (strong).
func attachmentFinding(a Attachment) (Finding, bool) {
	name := a.Filename
	weak, hasWeak := judgeFileName(name)
	if hasWeak && weak.strong {
		return weak, true
	}
	if a.Executable != "" {
		return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment %q is a %s executable, whatever its name says", name, a.Executable), strong: true}, true
	}
	ct := strings.ToLower(a.ContentType)
	for _, t := range dangerousTypes {
		if strings.Contains(ct, t) {
			return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment %q has executable type %s", name, a.ContentType), strong: true}, true
		}
	}
	for _, e := range a.ArchiveEntries {
		if f, ok := judgeFileName(e); ok && f.strong {
			return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("archive %q contains %q", name, e), strong: true}, true
		}
	}
	if len(a.ArchiveExecutables) > 0 {
		return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("archive %q contains %q, an executable whatever its name says", name, a.ArchiveExecutables[0]), strong: true}, true
	}
	return weak, hasWeak
}

// savedNames are the names a file called name may be saved under on
// Windows, which is where most executables in mail are aimed: the name
// itself; the last path element (some mailers send `C:\dir\x.exe`); the
// part before a colon, since "x.exe::$DATA" and "x.exe:zone.identifier"
// name an NTFS alternate stream of x.exe; each with trailing spaces and
// dots dropped, as Windows drops them ("setup.exe." is saved as
// setup.exe). A colon may also just be part of a subject-like name ("Re:
// invoice.exe", saved as "Re_ invoice.exe"), so the full name is judged too.
func savedNames(name string) []string {
	trim := func(s string) string { return strings.TrimRight(s, " .\t") }
	base := name
	if i := strings.LastIndexAny(base, "/\\"); i >= 0 && i+1 < len(base) {
		base = base[i+1:]
	}
	out := []string{trim(name)}
	if b := trim(base); b != out[0] {
		out = append(out, b)
	}
	if i := strings.IndexByte(base, ':'); i > 0 {
		if s := trim(base[:i]); s != "" && !slices.Contains(out, s) {
			out = append(out, s)
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
	if strings.ContainsRune(name, '\u202e') {
		return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment name %q hides its extension with a right-to-left override", name), strong: true}, true
	}
	var weak Finding
	hasWeak := false
	for _, saved := range savedNames(name) {
		lower := strings.ToLower(saved)
		e := ext(lower)
		switch {
		case executableExt[e]:
			detail := fmt.Sprintf("attachment %q is an executable or script (.%s)", name, e)
			if inner := ext(strings.TrimSuffix(lower, "."+e)); inner != "" && len(inner) <= 4 && inner != e {
				detail = fmt.Sprintf("attachment %q hides an executable behind a double extension", name)
			}
			if saved != strings.TrimSpace(name) {
				detail += fmt.Sprintf(" (saved as %q)", saved)
			}
			return Finding{Reason: ReasonDangerousAttachment, Detail: detail, strong: true}, true
		case macroExt[e]:
			return Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment %q is a macro-enabled Office file", name), strong: true}, true
		case htmlExt[e] && !hasWeak:
			weak, hasWeak = Finding{Reason: ReasonDangerousAttachment, Detail: fmt.Sprintf("attachment %q is an HTML file that opens in a browser", name)}, true
		}
	}
	return weak, hasWeak
}

// ExecutableFormat names the binary executable format data starts with
// ("PE", "ELF", "Mach-O"), or returns "" when it is none of them. It looks
// at magic numbers only, so a renamed executable ("invoice.pdf" holding a
// PE file) is still one. Scripts ("#!") are left out: their danger is in
// the name a desktop runs them by, which judgeFileName already reads, and
// plain text starting with "#!" is common.
func ExecutableFormat(data []byte) string {
	switch {
	case len(data) >= 0x40 && data[0] == 'M' && data[1] == 'Z':
		// A DOS header alone (MZ) is any file starting with those two
		// letters; a Windows executable has "PE\0\0" at the offset stored
		// at 0x3c (e_lfanew; PE format, "MS-DOS Stub").
		off := binary.LittleEndian.Uint32(data[0x3c:])
		if off >= 4 && uint64(off)+4 <= uint64(len(data)) && string(data[off:off+4]) == "PE\x00\x00" {
			return "PE"
		}
	case len(data) >= 4 && string(data[:4]) == "\x7fELF":
		return "ELF"
	case len(data) >= 4:
		switch binary.BigEndian.Uint32(data) {
		case 0xfeedface, 0xfeedfacf, 0xcefaedfe, 0xcffaedfe:
			return "Mach-O"
		case 0xcafebabe, 0xcafebabf:
			// Java class files share 0xcafebabe; there the next word is the
			// class version (45 and up), in a universal binary the number
			// of architectures (a handful). The test file(1) uses.
			if len(data) >= 8 {
				if n := binary.BigEndian.Uint32(data[4:]); n >= 1 && n < 20 {
					return "Mach-O"
				}
			}
		}
	}
	return ""
}

// Bounds of InspectArchive: a ZIP is read for screening, never unpacked,
// and a small crafted archive (a zip bomb, or archives nested to any
// depth) must cost little.
const (
	maxArchiveDepth   = 3       // archives opened, the attachment included
	maxArchiveEntries = 1000    // names listed in all of them together
	maxArchiveBytes   = 4 << 20 // decompressed in all of them together
	archiveHeadBytes  = 1 << 10 // read of each entry to tell its format
)

// InspectArchive lists the file names inside a ZIP archive and inside the
// ZIPs nested in it (as "inner.zip/setup.scr"), and names the entries whose
// bytes are a binary executable (ExecutableFormat) whatever they are
// called. It reads the first KiB of each entry and the whole of a nested
// archive, up to maxArchiveDepth levels, maxArchiveEntries names and
// maxArchiveBytes decompressed bytes in total; past those it stops
// looking, it never fails. Data that is no ZIP gives nothing.
func InspectArchive(data []byte) (entries, executables []string) {
	budget := int64(maxArchiveBytes)
	var walk func(data []byte, prefix string, depth int)
	walk = func(data []byte, prefix string, depth int) {
		zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
		if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
			return
		}
		for _, f := range zr.File {
			if len(entries) >= maxArchiveEntries {
				return
			}
			name := prefix + f.Name
			entries = append(entries, name)
			if f.FileInfo().IsDir() || budget <= 0 {
				continue
			}
			rc, err := f.Open()
			if err != nil {
				continue // encrypted or an unknown method: the name is all there is
			}
			head, _ := io.ReadAll(io.LimitReader(rc, min(archiveHeadBytes, budget)))
			budget -= int64(len(head))
			if ExecutableFormat(head) != "" {
				executables = append(executables, name)
			}
			// A nested archive is read whole, when it fits what is left.
			if depth < maxArchiveDepth && bytes.HasPrefix(head, []byte("PK\x03\x04")) && f.UncompressedSize64 <= uint64(len(head))+uint64(max(budget, 0)) {
				rest, _ := io.ReadAll(io.LimitReader(rc, budget+1))
				budget -= int64(len(rest))
				if budget >= 0 {
					walk(append(head, rest...), name+"/", depth+1)
				}
			}
			rc.Close()
		}
	}
	walk(data, "", 1)
	return entries, executables
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
