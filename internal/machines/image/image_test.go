package image

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestMirrorFrom(t *testing.T) {
	tests := []struct {
		name, sources, want string
	}{
		{"deb822", "Types: deb\n# http://snapshot.debian.org/archive/debian/2025\nURIs: http://deb.debian.org/debian\nSuites: bookworm\n", "http://deb.debian.org/debian"},
		{"one line with options", "deb [arch=amd64 signed-by=/k.gpg] http://mirror.example/debian/ bookworm main\n", "http://mirror.example/debian"},
		{"security skipped", "deb http://deb.debian.org/debian-security bookworm-security main\ndeb http://ftp.de.debian.org/debian bookworm main\n", "http://ftp.de.debian.org/debian"},
		{"ubuntu", "deb http://archive.ubuntu.com/ubuntu noble main universe\n", "http://archive.ubuntu.com/ubuntu"},
		{"third-party only", "deb https://packages.cloud.google.com/apt cloud-sdk-bookworm main\n", ""},
		{"comments only", "# deb http://deb.debian.org/debian bookworm main\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mirrorFrom(strings.NewReader(tt.sources)); got != tt.want {
				t.Errorf("mirrorFrom = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPackagesFor(t *testing.T) {
	base, err := packagesFor(Base)
	if err != nil {
		t.Fatal(err)
	}
	desk, err := packagesFor(Desktop)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"bash", "coreutils", "curl", "ca-certificates", "git", "python3"} {
		if !contains(base, p) || !contains(desk, p) {
			t.Errorf("%s missing from an image", p)
		}
	}
	for _, p := range []string{"xvfb", "x11vnc", "novnc", "websockify"} {
		if !contains(desk, p) || contains(base, p) {
			t.Errorf("%s belongs to the desktop image only", p)
		}
	}
	if _, err := packagesFor("gui"); !errors.Is(err, ErrUnknownVariant) {
		t.Errorf("unknown variant: %v", err)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestReadyNeedsMarker(t *testing.T) {
	dir := t.TempDir()
	img := Dir(dir, "bookworm", Base)
	if err := os.MkdirAll(filepath.Join(img, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, ok := Ready(dir, "bookworm", Base); ok {
		t.Error("a directory without the marker (an interrupted build) counts as ready")
	}
	if err := os.WriteFile(filepath.Join(img, MarkerFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, ok := Ready(dir, "bookworm", Base)
	if !ok || got != img {
		t.Errorf("Ready = %q %v", got, ok)
	}
	// Build returns a ready image without running debootstrap.
	path, err := Build(context.Background(), Options{DataDir: dir, Suite: "bookworm", Debootstrap: "/nonexistent"})
	if err != nil || path != img {
		t.Errorf("Build of a built image = %q, %v", path, err)
	}
}

func TestBuildFailureLeavesNoImage(t *testing.T) {
	dir := t.TempDir()
	// "false" stands in for a debootstrap that fails half-way.
	_, err := Build(context.Background(), Options{DataDir: dir, Suite: "bookworm", Mirror: "http://127.0.0.1:1/debian", Debootstrap: "false"})
	if err == nil {
		t.Fatal("Build succeeded with a failing debootstrap")
	}
	if _, ok := Ready(dir, "bookworm", Base); ok {
		t.Error("failed build left a ready image")
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "images")); len(entries) != 0 {
		t.Errorf("failed build left %v", entries)
	}
}

// TestRemoveBuildUnmountsFirst: a killed build leaves proc mounted in its
// target; removing the build unmounts it instead of walking into it.
func TestRemoveBuildUnmountsFirst(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting needs root")
	}
	dir := filepath.Join(t.TempDir(), "img.tmp")
	proc := filepath.Join(dir, "proc")
	if err := os.MkdirAll(proc, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("proc", proc, "proc", 0, ""); err != nil {
		t.Skipf("cannot mount proc here: %v", err)
	}
	if err := removeBuild(dir); err != nil {
		t.Fatalf("removeBuild: %v", err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("build dir still there: %v", err)
	}
	raw, _ := os.ReadFile("/proc/self/mounts")
	if strings.Contains(string(raw), proc) {
		t.Fatalf("proc still mounted at %s", proc)
	}
}
