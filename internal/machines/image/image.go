// Package image builds and locates the base root filesystems that machines
// boot from.
//
// A base image is a plain directory tree made by debootstrap. It is built once
// per (suite, variant), cached under DATA_DIR/images/<suite>-<variant>, and
// shared read-only by every machine: the sandbox runtime layers a per-machine
// writable overlay on top, so an image is never copied per machine.
//
// A build runs in a temporary sibling directory and is renamed into place only
// after debootstrap succeeded and the marker file was written, so a crash or a
// cancelled build never leaves a half-made image that looks usable.
package image

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// Variant selects the package set of an image.
type Variant string

const (
	// Base has the tools an agent expects in a shell: bash, coreutils, curl,
	// git, python3 and basic networking and process tools.
	Base Variant = "base"
	// Desktop adds an X server, a window manager, a VNC server and noVNC so a
	// browser can show the machine's screen.
	Desktop Variant = "desktop"
)

// MarkerFile is written inside a finished image; its absence means the
// directory is not a usable image.
const MarkerFile = ".agentsvc-image"

// DefaultMirror is used when no mirror is configured and none can be found in
// the host's apt sources.
const DefaultMirror = "http://deb.debian.org/debian"

// basePackages are installed on top of debootstrap's minbase. iproute2 and
// procps make the sandbox debuggable (ip, ps, kill); tini-like init is not
// needed because the runtime's init is `sleep infinity` from coreutils.
var basePackages = []string{
	"bash", "coreutils", "curl", "ca-certificates", "git", "python3",
	"iproute2", "procps", "less", "xz-utils",
}

// desktopPackages are added for the Desktop variant. openbox is a small
// window manager available in both Debian and Ubuntu; x11vnc serves the Xvfb
// display and novnc + websockify put it in a browser.
var desktopPackages = []string{
	"xvfb", "openbox", "x11vnc", "novnc", "websockify", "xterm",
}

// Options configure Build.
type Options struct {
	// DataDir is agentsvc's data directory; images live in DataDir/images.
	DataDir string
	// Suite is the distribution release: "bookworm" (Debian) or "noble"
	// (Ubuntu).
	Suite string
	// Mirror is the archive URL. Empty means HostMirror's answer.
	Mirror string
	// Components are the archive components to enable, for example
	// main,universe on Ubuntu where x11vnc lives in universe. Empty means
	// "main" (plus "universe" when the mirror looks like Ubuntu's).
	Components []string
	// Variant selects the package set; empty means Base.
	Variant Variant
	// Debootstrap is the debootstrap binary; empty means "debootstrap" on PATH.
	Debootstrap string
	// Logger receives progress; nil discards it.
	Logger *slog.Logger
}

// ErrUnknownVariant is returned for a Variant that is neither Base nor
// Desktop.
var ErrUnknownVariant = errors.New("image: unknown variant")

// Dir is where the image for suite and variant lives (built or not).
func Dir(dataDir, suite string, variant Variant) string {
	return filepath.Join(dataDir, "images", suite+"-"+string(variant))
}

// Ready reports the image directory and whether a finished image is there.
func Ready(dataDir, suite string, variant Variant) (string, bool) {
	dir := Dir(dataDir, suite, variant)
	_, err := os.Stat(filepath.Join(dir, MarkerFile))
	return dir, err == nil
}

// Build makes the image for opts unless it already exists, and returns its
// directory. It needs root (debootstrap chroots and creates device nodes).
func Build(ctx context.Context, opts Options) (string, error) {
	if opts.DataDir == "" || opts.Suite == "" {
		return "", errors.New("image: DataDir and Suite are required")
	}
	if opts.Variant == "" {
		opts.Variant = Base
	}
	extra, err := packagesFor(opts.Variant)
	if err != nil {
		return "", err
	}
	extra = extra[len(basePackages):]
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	dir, ok := Ready(opts.DataDir, opts.Suite, opts.Variant)
	if ok {
		return dir, nil
	}
	if opts.Mirror == "" {
		opts.Mirror = HostMirror()
	}
	comps := opts.Components
	if len(comps) == 0 {
		comps = []string{"main"}
		if strings.Contains(opts.Mirror, "ubuntu") {
			comps = append(comps, "universe")
		}
	}
	bin := opts.Debootstrap
	if bin == "" {
		bin = "debootstrap"
	}
	if _, err := exec.LookPath(bin); err != nil {
		return "", fmt.Errorf("image: debootstrap not found (apt-get install -y debootstrap): %w", err)
	}

	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return "", fmt.Errorf("image: %w", err)
	}
	// A leftover from an interrupted build is removed rather than resumed:
	// debootstrap cannot continue a half-finished target reliably.
	tmp := dir + ".tmp"
	if err := removeBuild(tmp); err != nil {
		return "", fmt.Errorf("image: removing stale build: %w", err)
	}

	start := time.Now()
	log.Info("building machine image", "suite", opts.Suite, "variant", opts.Variant, "mirror", opts.Mirror, "dir", dir)
	args := []string{
		"--variant=minbase",
		"--components=" + strings.Join(comps, ","),
		"--include=" + strings.Join(basePackages, ","),
		opts.Suite, tmp, opts.Mirror,
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	out := &tailWriter{max: 8 << 10}
	cmd.Stdout = out
	cmd.Stderr = out
	if err := cmd.Run(); err != nil {
		_ = removeBuild(tmp)
		return "", fmt.Errorf("image: debootstrap %s: %w\n%s", opts.Suite, err, out.String())
	}
	if len(extra) > 0 {
		// debootstrap's --include resolves dependencies poorly for large
		// sets (the desktop's failed configuring python3-cryptography), so
		// extra packages come from apt inside the new tree.
		log.Info("installing variant packages", "variant", opts.Variant, "packages", extra)
		if err := aptInstall(ctx, tmp, extra, out); err != nil {
			_ = removeBuild(tmp)
			return "", fmt.Errorf("image: %w\n%s", err, out.String())
		}
	}
	if err := finish(tmp); err != nil {
		_ = removeBuild(tmp)
		return "", err
	}
	marker := fmt.Sprintf("suite=%s\nvariant=%s\nmirror=%s\nbuilt=%s\n",
		opts.Suite, opts.Variant, opts.Mirror, time.Now().UTC().Format(time.RFC3339))
	if err := os.WriteFile(filepath.Join(tmp, MarkerFile), []byte(marker), 0o644); err != nil {
		_ = removeBuild(tmp)
		return "", fmt.Errorf("image: writing marker: %w", err)
	}
	// Another builder may have won the race; its image is as good as ours.
	if err := os.Rename(tmp, dir); err != nil {
		_ = removeBuild(tmp)
		if _, ok := Ready(opts.DataDir, opts.Suite, opts.Variant); ok {
			return dir, nil
		}
		return "", fmt.Errorf("image: installing %s: %w", dir, err)
	}
	log.Info("machine image built", "dir", dir, "took", time.Since(start).Round(time.Second))
	return dir, nil
}

// aptInstall runs apt-get install in the chroot root with /proc mounted
// (maintainer scripts need it), unmounting it again in every case.
func aptInstall(ctx context.Context, root string, pkgs []string, out io.Writer) error {
	proc := filepath.Join(root, "proc")
	if err := exec.CommandContext(ctx, "mount", "-t", "proc", "proc", proc).Run(); err != nil {
		return fmt.Errorf("mounting /proc in the image: %w", err)
	}
	defer exec.Command("umount", "-l", proc).Run()
	for _, args := range [][]string{
		{"apt-get", "update"},
		append([]string{"apt-get", "install", "-y", "--no-install-recommends"}, pkgs...),
	} {
		cmd := exec.CommandContext(ctx, "chroot", append([]string{root}, args...)...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s in the image: %w", strings.Join(args, " "), err)
		}
	}
	return nil
}

func packagesFor(v Variant) ([]string, error) {
	switch v {
	case Base:
		return basePackages, nil
	case Desktop:
		return append(append([]string{}, basePackages...), desktopPackages...), nil
	default:
		return nil, fmt.Errorf("%w %q", ErrUnknownVariant, v)
	}
}

// finish trims a fresh debootstrap tree: downloaded .deb files and apt lists
// are only useful to apt-get inside the machine, which refreshes them anyway,
// and they double the image size.
func finish(root string) error {
	for _, pattern := range []string{
		"var/cache/apt/archives/*.deb",
		"var/cache/apt/*.bin",
		"var/lib/apt/lists/*_Packages",
	} {
		matches, err := filepath.Glob(filepath.Join(root, pattern))
		if err != nil {
			return fmt.Errorf("image: %w", err)
		}
		for _, m := range matches {
			if err := os.Remove(m); err != nil {
				return fmt.Errorf("image: trimming: %w", err)
			}
		}
	}
	// The sandbox gets its own resolv.conf and hostname at start; start from
	// a neutral value rather than the build host's.
	if err := os.WriteFile(filepath.Join(root, "etc/hostname"), []byte("machine\n"), 0o644); err != nil {
		return fmt.Errorf("image: %w", err)
	}
	return nil
}

// HostMirror returns the first Debian archive URI configured in the host's apt
// sources (both one-line and deb822 formats), or DefaultMirror. Security and
// update suites are skipped because debootstrap needs the main archive.
func HostMirror() string {
	files, _ := filepath.Glob("/etc/apt/sources.list.d/*")
	files = append([]string{"/etc/apt/sources.list"}, files...)
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			continue
		}
		m := mirrorFrom(fh)
		fh.Close()
		if m != "" {
			return m
		}
	}
	return DefaultMirror
}

// mirrorFrom extracts the first plausible archive URI from an apt sources
// file in either format.
func mirrorFrom(r io.Reader) string {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		var uris []string
		fields := strings.Fields(line)
		switch {
		case strings.HasPrefix(line, "URIs:"):
			uris = fields[1:]
		case fields[0] == "deb":
			// deb [options] uri suite components...
			for _, f := range fields[1:] {
				if strings.Contains(f, "://") {
					uris = append(uris, f)
					break
				}
			}
		}
		for _, u := range uris {
			if isArchive(u) {
				return strings.TrimSuffix(u, "/")
			}
		}
	}
	return ""
}

func isArchive(u string) bool {
	u = strings.TrimSuffix(u, "/")
	if strings.Contains(u, "security") {
		return false
	}
	return strings.HasSuffix(u, "/debian") || strings.HasSuffix(u, "/ubuntu")
}

// tailWriter keeps the last max bytes written, enough to explain a failure
// without holding debootstrap's whole log in memory.
type tailWriter struct {
	max int
	buf []byte
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.buf = append(w.buf, p...)
	if len(w.buf) > w.max {
		w.buf = w.buf[len(w.buf)-w.max:]
	}
	return len(p), nil
}

func (w *tailWriter) String() string { return string(w.buf) }

// removeBuild deletes a build directory. debootstrap mounts /proc (and may
// mount /sys) inside its target; a build that was killed leaves them
// mounted, and a plain RemoveAll would walk into the host's live proc and
// sysfs. Mounts below dir are unmounted first, deepest first.
func removeBuild(dir string) error {
	raw, err := os.ReadFile("/proc/self/mounts")
	if err == nil {
		var mounts []string
		prefix := filepath.Clean(dir) + "/"
		for _, line := range strings.Split(string(raw), "\n") {
			f := strings.Fields(line)
			if len(f) >= 2 && strings.HasPrefix(f[1]+"/", prefix) {
				mounts = append(mounts, f[1])
			}
		}
		sort.Sort(sort.Reverse(sort.StringSlice(mounts)))
		for _, m := range mounts {
			if err := syscall.Unmount(m, syscall.MNT_DETACH); err != nil {
				return fmt.Errorf("unmounting %s: %w", m, err)
			}
		}
	}
	return os.RemoveAll(dir)
}
