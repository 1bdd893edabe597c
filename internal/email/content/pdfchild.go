package content

// PDF text is read in a child process. The PDF library is not hardened
// against hostile files: a few hundred crafted bytes make it loop for ever,
// recurse until the Go runtime dies of a stack overflow, or allocate until
// the process is out of memory, and neither a goroutine that loops nor a
// fatal runtime error can be stopped or recovered in-process. One such mail
// attachment would take the server down. So the server re-executes its own
// binary as a PDF reader (pdfChildEnv selects it in init, before any main
// runs, so any binary that links this package can serve as one, test
// binaries included): the file goes in on stdin, the text comes back on
// stdout, and the child is killed at the caller's timeout and limited in
// memory and stack, so whatever the library does ends with the child.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
)

// pdfChildEnv, set to the output limit in bytes, makes the process a PDF
// reader (pdfChildMain) instead of what it was built as.
const pdfChildEnv = "AGENTSVC_PDF_TEXT_CHILD"

// Limits of a PDF reader process: address space (a real PDF of the largest
// accepted size reads in far less), goroutine stack (deep recursion is a
// hostile file), and how many run at once (each is a process).
const (
	pdfChildAddressSpace = 4 << 30
	pdfChildMaxStack     = 64 << 20
	pdfChildParallel     = 4
)

// Exit codes of a PDF reader: the file is not a PDF it can read.
const pdfChildMalformed = 3

func init() {
	if v, ok := os.LookupEnv(pdfChildEnv); ok {
		os.Exit(pdfChildMain(v, os.Stdin, os.Stdout, os.Stderr))
	}
}

// pdfChildMain confines this process as a PDF reader and serves one file.
func pdfChildMain(maxOutput string, in io.Reader, out, errOut io.Writer) int {
	limit := syscall.Rlimit{Cur: pdfChildAddressSpace, Max: pdfChildAddressSpace}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &limit)
	debug.SetMaxStack(pdfChildMaxStack)
	runtime.GOMAXPROCS(1)
	return servePDF(maxOutput, in, out, errOut)
}

// servePDF reads a PDF from in and writes its text, at most maxOutput
// bytes, to out; it returns the process's exit code.
func servePDF(maxOutput string, in io.Reader, out, errOut io.Writer) int {
	n, err := strconv.Atoi(maxOutput)
	if err != nil || n <= 0 {
		fmt.Fprintln(errOut, "bad output limit")
		return 2
	}
	data, err := io.ReadAll(in)
	if err != nil {
		fmt.Fprintln(errOut, err)
		return 2
	}
	text, err := readPDFRecovered(data, n)
	if err != nil {
		fmt.Fprintln(errOut, err)
		return pdfChildMalformed
	}
	_, _ = io.WriteString(out, text)
	return 0
}

// readPDFRecovered is readPDF with a panic turned into an error.
func readPDFRecovered(data []byte, maxOutput int) (text string, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reader failed: %v", r)
		}
	}()
	return readPDF(data, maxOutput)
}

var (
	// pdfSlots bounds the PDF reader processes running at once.
	pdfSlots = make(chan struct{}, pdfChildParallel)
	// pdfRunning counts them (tests check that none outlives its call).
	pdfRunning atomic.Int64
)

// pdfText runs a PDF reader process on data under limits.Timeout.
func pdfText(data []byte, limits Limits) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limits.Timeout)
	defer cancel()
	select {
	case pdfSlots <- struct{}{}:
		defer func() { <-pdfSlots }()
	case <-ctx.Done():
		return "", fmt.Errorf("%w: waiting for a PDF reader for %s", ErrTimeout, limits.Timeout)
	}
	exe, err := selfExecutable()
	if err != nil {
		return "", fmt.Errorf("pdf reader: %w", err)
	}
	cmd := exec.CommandContext(ctx, exe)
	cmd.Env = []string{pdfChildEnv + "=" + strconv.Itoa(limits.MaxOutput), "GOTRACEBACK=none"}
	cmd.Stdin = bytes.NewReader(data)
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &limitedBuffer{buf: &stdout, max: limits.MaxOutput + utf8Slack}
	cmd.Stderr = &limitedBuffer{buf: &stderr, max: 4 << 10}
	pdfRunning.Add(1)
	err = cmd.Run() // kills the child when ctx ends, and waits for it
	pdfRunning.Add(-1)
	var exit *exec.ExitError
	switch {
	case err == nil:
		return stdout.String(), nil
	case ctx.Err() != nil:
		return "", fmt.Errorf("%w: after %s", ErrTimeout, limits.Timeout)
	case errors.As(err, &exit) && exit.ExitCode() == pdfChildMalformed:
		return "", fmt.Errorf("%w: pdf: %s", ErrMalformed, strings.TrimSpace(stderr.String()))
	case errors.As(err, &exit):
		// Crashed: out of memory, stack overflow, a fatal runtime error.
		return "", fmt.Errorf("%w: pdf reader crashed (%s)", ErrMalformed, exit.ProcessState)
	default:
		return "", fmt.Errorf("pdf reader: %w", err)
	}
}

// selfExecutable is the running program: /proc/self/exe on Linux, which
// still names this image after an upgrade replaced or deleted the file on
// disk, else what os.Executable finds.
func selfExecutable() (string, error) {
	if _, err := os.Stat("/proc/self/exe"); err == nil {
		return "/proc/self/exe", nil
	}
	return os.Executable()
}

// utf8Slack lets the child finish the last character past the limit.
const utf8Slack = 4

// limitedBuffer keeps the first max bytes written and discards the rest,
// so a child cannot make the parent hold more than it asked for.
type limitedBuffer struct {
	buf *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room > 0 {
		l.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
