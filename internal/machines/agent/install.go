package agent

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The agent binary lives in the base image, so every sandbox sees it at the
// same path across stop, resume and fork without a mount of its own:
//
//	IMAGE/.agentsvc/agent-<sha256 prefix>   the binary, never modified once written
//	IMAGE/.agentsvc/agent                    symlink to the current one
//
// A sandbox starts the binary by its content-named path (resolved from the
// symlink when the sandbox is created), so installing a newer agent never
// changes a file that a running or checkpointed sandbox has mapped; old
// binaries are left in place for those sandboxes.
const (
	imageDir  = ".agentsvc"
	linkName  = "agent"
	cmdImport = "github.com/agentsvc/agentsvc/internal/machines/agent/cmd/agentsvc-agent"
)

// Build compiles the agent statically (CGO_ENABLED=0) into out with the Go
// toolchain; the working directory must be inside this module.
func Build(ctx context.Context, out string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", out, cmdImport)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("agent: go build: %w: %s", err, strings.TrimSpace(string(b)))
	}
	return nil
}

// Install copies the agent binary into the image directory under its content
// name and points the symlink at it. It is idempotent and safe against
// concurrent installs (both renames are atomic). It returns the path inside
// the sandbox.
func Install(image, binary string) (string, error) {
	data, err := os.ReadFile(binary)
	if err != nil {
		return "", fmt.Errorf("agent: %w", err)
	}
	sum := sha256.Sum256(data)
	name := linkName + "-" + hex.EncodeToString(sum[:8])
	dir := filepath.Join(image, imageDir)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("agent: %w", err)
	}
	dst := filepath.Join(dir, name)
	if _, err := os.Stat(dst); errors.Is(err, fs.ErrNotExist) {
		tmp, err := os.CreateTemp(dir, ".tmp-*")
		if err != nil {
			return "", fmt.Errorf("agent: %w", err)
		}
		_, err = tmp.Write(data)
		if err == nil {
			err = tmp.Chmod(0o755)
		}
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), dst)
		}
		if err != nil {
			_ = os.Remove(tmp.Name())
			return "", fmt.Errorf("agent: installing: %w", err)
		}
	}
	if cur, err := os.Readlink(filepath.Join(dir, linkName)); err != nil || cur != name {
		tmpLink := filepath.Join(dir, ".link-"+name)
		_ = os.Remove(tmpLink)
		if err := os.Symlink(name, tmpLink); err != nil {
			return "", fmt.Errorf("agent: %w", err)
		}
		if err := os.Rename(tmpLink, filepath.Join(dir, linkName)); err != nil {
			return "", fmt.Errorf("agent: %w", err)
		}
	}
	return "/" + imageDir + "/" + name, nil
}

// InImage returns the path inside a sandbox of the image's current agent, or
// "" when the image has none (an image built before the agent existed:
// commands then take the slower FIFO path).
func InImage(image string) string {
	dir := filepath.Join(image, imageDir)
	name, err := os.Readlink(filepath.Join(dir, linkName))
	if err != nil || strings.Contains(name, "/") {
		return ""
	}
	if st, err := os.Stat(filepath.Join(dir, name)); err != nil || !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0 {
		return ""
	}
	return "/" + imageDir + "/" + name
}

// EnsureInstalled builds the agent once and installs it into every image
// directory given (the tests' and the benchmark's setup).
func EnsureInstalled(ctx context.Context, images ...string) error {
	if len(images) == 0 {
		return nil
	}
	tmp, err := os.MkdirTemp("", "agentsvc-agent-")
	if err != nil {
		return fmt.Errorf("agent: %w", err)
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "agentsvc-agent")
	if err := Build(ctx, bin); err != nil {
		return err
	}
	for _, img := range images {
		if _, err := Install(img, bin); err != nil {
			return err
		}
	}
	return nil
}
