package screen

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// peBytes is the start of a Windows executable: a DOS header whose e_lfanew
// (0x3c) points at the "PE\0\0" signature.
func peBytes() []byte {
	b := make([]byte, 0x200)
	copy(b, "MZ\x90\x00\x03")
	binary.LittleEndian.PutUint32(b[0x3c:], 0x80)
	copy(b[0x80:], "PE\x00\x00\x4c\x01")
	return b
}

// zipOf builds a ZIP holding the given names and contents, in order.
func zipOf(t testing.TB, files ...any) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for i := 0; i+1 < len(files); i += 2 {
		w, err := zw.Create(files[i].(string))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(files[i+1].([]byte)); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestDangerousAttachmentSavedNames covers names that Windows saves as an
// executable although their last extension is not one: trailing dots and
// spaces (dropped on save) and NTFS alternate-stream suffixes.
func TestDangerousAttachmentSavedNames(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"setup.exe.", true},
		{"setup.exe . . ", true},
		{"setup.exe...", true},
		{"invoice.pdf.scr.", true},
		{"setup.exe::$DATA", true},
		{"a.exe:zone.identifier", true},
		{"report.docm:x", true},
		{"Re: invoice.exe", true},
		{`C:\Users\bob\run.js.`, true},
		{"notes.txt.", false},
		{"Meeting 10:30.pdf", false},
		{"minutes:v2.docx", false},
		{"photo.jpg::$DATA", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := attachmentFindings([]Attachment{{Filename: tc.name, ContentType: "application/octet-stream"}})
			if got := len(f) > 0 && f[0].strong; got != tc.want {
				t.Fatalf("flagged strong = %v, want %v (%+v)", got, tc.want, f)
			}
		})
	}
}

func TestExecutableFormat(t *testing.T) {
	machO := make([]byte, 64)
	copy(machO, "\xcf\xfa\xed\xfe") // 64-bit, little-endian (MH_CIGAM_64 read big-endian)
	fat := append([]byte("\xca\xfe\xba\xbe\x00\x00\x00\x02"), make([]byte, 56)...)
	class := append([]byte("\xca\xfe\xba\xbe\x00\x00\x00\x34"), make([]byte, 56)...) // Java class file, version 52
	dosOnly := append([]byte("MZ\x90\x00\x03"), make([]byte, 100)...)                // e_lfanew 0: no PE header
	badOffset := peBytes()
	binary.LittleEndian.PutUint32(badOffset[0x3c:], 0xfffffff0)
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"pe", peBytes(), "PE"},
		{"elf", append([]byte("\x7fELF\x02\x01\x01"), make([]byte, 57)...), "ELF"},
		{"mach-o", machO, "Mach-O"},
		{"mach-o 32 big-endian", append([]byte("\xfe\xed\xfa\xce"), make([]byte, 60)...), "Mach-O"},
		{"universal", fat, "Mach-O"},
		{"java class", class, ""},
		{"dos header only", dosOnly, ""},
		{"pe offset past the end", badOffset, ""},
		{"MZ text", []byte("MZ is how this memo starts, and it is long enough to pass the header size check easily."), ""},
		{"shell script", []byte("#!/bin/sh\necho hello\n"), ""},
		{"pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n"), ""},
		{"short", []byte("MZ"), ""},
		{"empty", nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ExecutableFormat(tc.data); got != tc.want {
				t.Fatalf("ExecutableFormat = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestExecutableContentWhateverTheName: the bytes decide, so an executable
// called invoice.pdf, or with no extension, or with an HTML name (a weak
// finding on its own), is blocked.
func TestExecutableContentWhateverTheName(t *testing.T) {
	for _, a := range []Attachment{
		{Filename: "invoice.pdf", ContentType: "application/pdf", Executable: "PE"},
		{Filename: "document", ContentType: "application/octet-stream", Executable: "ELF"},
		{Filename: "statement.html", ContentType: "text/html", Executable: "Mach-O"},
		{Filename: "docs.zip", ContentType: "application/zip", ArchiveEntries: []string{"scan.pdf"}, ArchiveExecutables: []string{"scan.pdf"}},
	} {
		t.Run(a.Filename, func(t *testing.T) {
			r := NewDetector().Screen(Message{From: Address{Address: "bob@example.org"}, Attachments: []Attachment{a}}, acme)
			if r.Verdict != VerdictBlocked || !r.Has(ReasonDangerousAttachment) {
				t.Fatalf("verdict %s, reasons %v: want blocked with dangerous_attachment", r.Verdict, r.Reasons)
			}
		})
	}
	r := NewDetector().Screen(Message{From: Address{Address: "bob@example.org"}, Attachments: []Attachment{{Filename: "invoice.pdf", ContentType: "application/pdf"}}}, acme)
	if r.Verdict != VerdictClean {
		t.Fatalf("a PDF without executable bytes: %s %v", r.Verdict, r.Reasons)
	}
}

func TestInspectArchive(t *testing.T) {
	inner := zipOf(t, "setup.scr", []byte("x"))
	middle := zipOf(t, "readme.txt", []byte("hello"), "inner.zip", inner)
	t.Run("nested", func(t *testing.T) {
		entries, _ := InspectArchive(zipOf(t, "docs/middle.zip", middle))
		want := "docs/middle.zip docs/middle.zip/readme.txt docs/middle.zip/inner.zip docs/middle.zip/inner.zip/setup.scr"
		if got := strings.Join(entries, " "); got != want {
			t.Fatalf("entries = %s, want %s", got, want)
		}
		f := attachmentFindings([]Attachment{{Filename: "docs.zip", ArchiveEntries: entries}})
		if len(f) != 1 || !f[0].strong || !strings.Contains(f[0].Detail, "inner.zip/setup.scr") {
			t.Fatalf("findings = %+v", f)
		}
	})
	t.Run("nested archive without a zip name", func(t *testing.T) {
		entries, _ := InspectArchive(zipOf(t, "scan.dat", inner))
		if len(entries) != 2 || entries[1] != "scan.dat/setup.scr" {
			t.Fatalf("entries = %v", entries)
		}
	})
	t.Run("executable bytes inside", func(t *testing.T) {
		entries, exes := InspectArchive(zipOf(t, "a.txt", []byte("hi"), "invoice.pdf", peBytes(), "more.zip", zipOf(t, "x", append([]byte("\x7fELF"), make([]byte, 60)...))))
		if strings.Join(exes, " ") != "invoice.pdf more.zip/x" || len(entries) != 4 {
			t.Fatalf("entries %v, executables %v", entries, exes)
		}
	})
	t.Run("depth bounded", func(t *testing.T) {
		z := zipOf(t, "deep.scr", []byte("x"))
		for i := 0; i < 4; i++ {
			z = zipOf(t, fmt.Sprintf("level%d.zip", i), z)
		}
		// Five archives inside each other: the attachment and the two
		// archives nested in it are opened, no more.
		entries, _ := InspectArchive(z)
		if len(entries) != 3 || strings.Contains(strings.Join(entries, " "), "deep.scr") {
			t.Fatalf("entries = %v, want three levels", entries)
		}
	})
	t.Run("entries bounded", func(t *testing.T) {
		var files []any
		for i := 0; i < 1200; i++ {
			files = append(files, fmt.Sprintf("f%d.txt", i), []byte("x"))
		}
		// 1000 files in a nested archive, 200 beside it.
		entries, _ := InspectArchive(zipOf(t, append([]any{"inner.zip", zipOf(t, files[:2000]...)}, files[2000:]...)...))
		if len(entries) != 1000 {
			t.Fatalf("%d entries listed, want 1000", len(entries))
		}
	})
	t.Run("not a zip", func(t *testing.T) {
		if e, x := InspectArchive([]byte("PK\x03\x04 but nothing else")); e != nil || x != nil {
			t.Fatalf("entries %v, executables %v", e, x)
		}
	})
}

// TestInspectArchiveZipBomb: entries that decompress to 256 MiB and look
// like nested archives are not unpacked, nor is more than the total budget
// of smaller ones; the archive is still listed.
func TestInspectArchiveZipBomb(t *testing.T) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	zero := make([]byte, 1<<20)
	for i, mib := range []int{256, 3, 3, 3} {
		w, err := zw.Create(fmt.Sprintf("part%d.zip", i))
		if err != nil {
			t.Fatal(err)
		}
		// Starts like a ZIP, so it would be read as a nested archive.
		w.Write([]byte("PK\x03\x04"))
		for j := 0; j < mib; j++ {
			w.Write(zero)
		}
	}
	w, _ := zw.Create("late.scr")
	w.Write([]byte("x"))
	zw.Close()
	bomb := buf.Bytes()

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	entries, _ := InspectArchive(bomb)
	runtime.ReadMemStats(&after)
	if len(entries) != 5 || entries[4] != "late.scr" {
		t.Fatalf("entries = %v", entries)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Fatalf("inspecting a %d-byte archive allocated %d MiB", len(bomb), alloc>>20)
	}
}

// FuzzInspectArchive: any bytes, ZIP or not, are read within the bounds
// and never panic.
func FuzzInspectArchive(f *testing.F) {
	inner := zipOf(f, "setup.scr", peBytes())
	f.Add(zipOf(f, "a/inner.zip", zipOf(f, "x.zip", inner), "b.txt", []byte("hello")))
	f.Add(inner)
	f.Add(peBytes())
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Fuzz(func(t *testing.T, data []byte) {
		entries, exes := InspectArchive(data)
		if len(entries) > maxArchiveEntries || len(exes) > len(entries) {
			t.Fatalf("%d entries, %d executables", len(entries), len(exes))
		}
		ExecutableFormat(data)
	})
}
