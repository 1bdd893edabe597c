package gvisor

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/agentsvc/agentsvc/internal/machines"
	"github.com/agentsvc/agentsvc/internal/machines/agent"
)

// Commands and file operations go to the sandbox's agent (package agent)
// over the sandbox's address when it has one; sandboxes created from an
// image without the agent, and any request whose connection cannot be
// opened, use the FIFO path through runsc exec (exec.go).

const (
	// agentDialWait is how long a request retries a refused connection
	// (the network right after a restore, or an agent that a command killed
	// and init restarts within a second) before falling back to the FIFO.
	agentDialWait = 3 * time.Second
	// agentStartWait bounds how long Create waits for a new sandbox's agent.
	agentStartWait = 10 * time.Second
	// sandboxCheckEvery is how often the sandboxes of commands still
	// running are checked (sandboxWatch).
	sandboxCheckEvery = 2 * time.Second
)

// errSandboxGone ends a request whose sandbox died under it.
var errSandboxGone = errors.New("the sandbox stopped while the command ran")

func newToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// agentFor returns the client for m's agent, or nil without one.
func (r *Runtime) agentFor(m *meta) *agent.Client {
	if m.Agent == "" || m.AgentToken == "" {
		return nil
	}
	a, err := addrsFor(r.opts.Subnet, m.Slot)
	if err != nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	c, ok := r.agents[m.ID]
	if !ok {
		c = agent.NewClient(net.JoinHostPort(a.sandbox.String(), strconv.Itoa(agent.Port)), m.AgentToken, agentDialWait)
		r.agents[m.ID] = c
	}
	return c
}

// dropAgent forgets the client of sandbox id and closes its connections.
func (r *Runtime) dropAgent(id string) {
	r.mu.Lock()
	c := r.agents[id]
	delete(r.agents, id)
	r.mu.Unlock()
	if c != nil {
		c.Close()
	}
}

// agentUp waits until the agent of the new sandbox m answers, at most
// agentStartWait.
func (r *Runtime) agentUp(ctx context.Context, m *meta) error {
	c := r.agentFor(m)
	if c == nil {
		return errors.New("no agent")
	}
	wctx, cancel := context.WithTimeout(ctx, agentStartWait)
	defer cancel()
	for {
		err := c.Ping(wctx)
		if err == nil || wctx.Err() != nil || !agent.IsUnreachable(err) {
			return err
		}
		select {
		case <-wctx.Done():
		case <-time.After(5 * time.Millisecond):
		}
	}
}

// waitAgent waits for the agent of the new sandbox m, whose lock the caller
// holds. If it does not come up, m is switched to the FIFO path for good, so
// later commands do not wait for it again.
func (r *Runtime) waitAgent(ctx context.Context, m *meta) {
	if m.Agent == "" {
		return
	}
	if err := r.agentUp(ctx, m); err != nil && ctx.Err() == nil {
		r.useFIFO(m, err)
	}
}

// watchAgent is waitAgent for a sandbox that Create has already returned:
// the agent boots (~30-50 ms) while the service records the machine and the
// first command is on its way (which waits for the agent by retrying the
// refused connection).
func (r *Runtime) watchAgent(m *meta) {
	if m.Agent == "" {
		return
	}
	id, token := m.ID, m.AgentToken
	go func() {
		err := r.agentUp(context.Background(), m)
		if err == nil {
			return
		}
		unlock := r.lock(id)
		defer unlock()
		if cur, merr := r.readMeta(id); merr == nil && cur.Running && cur.AgentToken == token {
			r.useFIFO(cur, err)
		}
	}()
}

// useFIFO records that sandbox m's agent does not answer.
func (r *Runtime) useFIFO(m *meta, cause error) {
	r.log.Warn("machines: sandbox agent did not answer; using the FIFO path", "sandbox", m.ID, "err", cause)
	m.Agent, m.AgentToken = "", ""
	r.dropAgent(m.ID)
	if err := r.writeMeta(m); err != nil {
		r.log.Error("machines: recording the FIFO path", "sandbox", m.ID, "err", err)
	}
}

// runningMeta reads id's meta and checks that it should run.
func (r *Runtime) runningMeta(id string) (*meta, error) {
	if err := r.available(""); err != nil {
		return nil, err
	}
	m, err := r.readMeta(id)
	if err != nil {
		return nil, err
	}
	if !m.Running {
		return nil, fmt.Errorf("%w: %s", machines.ErrNotRunning, id)
	}
	return m, nil
}

// agentExec runs req through the agent. ok is false when the agent could not
// be reached, so the caller falls back to the FIFO path.
func (r *Runtime) agentExec(ctx context.Context, m *meta, req machines.ExecRequest) (res machines.ExecResult, ok bool, err error) {
	c := r.agentFor(m)
	if c == nil {
		return res, false, nil
	}
	// The agent enforces the timeout; the host's deadline only matters
	// when the sandbox stops answering.
	tctx, cancelT := context.WithTimeout(ctx, req.Timeout+killGrace+5*time.Second)
	defer cancelT()
	hctx, cancel := context.WithCancelCause(tctx)
	defer cancel(nil)
	defer r.watchSandbox(m.ID, cancel)()
	start := time.Now()
	ar, err := c.Exec(hctx, agent.ExecRequest{
		Command: req.Command, TimeoutMillis: req.Timeout.Milliseconds(), MaxOutput: req.MaxOutputBytes,
		Stdin: req.Stdin, Env: req.Env, Dir: req.Dir,
	})
	res.Duration = time.Since(start)
	switch {
	case err == nil:
	case errors.Is(context.Cause(hctx), errSandboxGone):
		return res, true, fmt.Errorf("%w: %s: %w", machines.ErrNotRunning, m.ID, errSandboxGone)
	case agent.IsUnreachable(err) && ctx.Err() == nil:
		r.log.Warn("machines: sandbox agent unreachable; using the FIFO path", "sandbox", m.ID, "err", err)
		return res, false, nil
	case hctx.Err() != nil && ctx.Err() == nil:
		res.TimedOut, res.ExitCode = true, -1
		return res, true, nil
	case ctx.Err() != nil:
		return res, true, fmt.Errorf("gvisor: exec in %s: %w", m.ID, ctx.Err())
	default:
		return res, true, r.notRunningOr(m.ID, fmt.Errorf("gvisor: exec in %s: %w", m.ID, err))
	}
	res.ExitCode, res.TimedOut = ar.ExitCode, ar.TimedOut
	res.Stdout, res.StdoutTruncated = ar.Stdout, ar.StdoutTruncated
	res.Stderr, res.StderrTruncated = ar.Stderr, ar.StderrTruncated
	return res, true, nil
}

// sandboxWatch ends the requests whose sandbox dies while they wait on it.
// Without it, a sandbox killed underneath (the host's OOM killer can take
// gVisor's sentry, google/gvisor#2535) never answers, and its requests would
// wait for their whole timeout. One loop serves every waiting request, so
// the cost is one `runsc list` per interval however many commands run.
type sandboxWatch struct {
	mu      sync.Mutex
	waiting map[uint64]watchedRequest
	seq     uint64
	looping bool
}

type watchedRequest struct {
	id     string
	cancel context.CancelCauseFunc
}

// watchSandbox ends a request on sandbox id with errSandboxGone through
// cancel if the sandbox stops running; the returned func ends the watch.
func (r *Runtime) watchSandbox(id string, cancel context.CancelCauseFunc) (stop func()) {
	w := &r.watch
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.waiting == nil {
		w.waiting = map[uint64]watchedRequest{}
	}
	w.seq++
	key := w.seq
	w.waiting[key] = watchedRequest{id, cancel}
	if !w.looping {
		w.looping = true
		go r.watchLoop()
	}
	return func() {
		w.mu.Lock()
		delete(w.waiting, key)
		w.mu.Unlock()
	}
}

// watchLoop checks the sandboxes of the waiting requests every
// sandboxCheckEvery, until none is waiting.
func (r *Runtime) watchLoop() {
	w := &r.watch
	t := time.NewTicker(sandboxCheckEvery)
	defer t.Stop()
	for range t.C {
		w.mu.Lock()
		if len(w.waiting) == 0 {
			w.looping = false
			w.mu.Unlock()
			return
		}
		w.mu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), sandboxCheckEvery)
		states, err := r.runscStates(ctx)
		cancel()
		if err != nil {
			continue // runsc itself failing says nothing about the sandboxes
		}
		w.mu.Lock()
		for key, req := range w.waiting {
			if states[req.id] != "running" {
				req.cancel(errSandboxGone)
				delete(w.waiting, key)
			}
		}
		w.mu.Unlock()
	}
}

// notRunningOr turns err into ErrNotRunning when the sandbox was stopped
// meanwhile (a checkpoint during the request).
func (r *Runtime) notRunningOr(id string, err error) error {
	if m, merr := r.readMeta(id); merr == nil && !m.Running {
		return fmt.Errorf("%w: %s", machines.ErrNotRunning, id)
	}
	return err
}

// agentFileError maps the agent's file errors to the runtime's.
func agentFileError(p string, err error) error {
	var ae *agent.Error
	if !errors.As(err, &ae) {
		return fmt.Errorf("gvisor: file %s: %w", p, err)
	}
	switch ae.Code {
	case agent.CodeNotFound:
		return fmt.Errorf("%w: %s", machines.ErrFileNotFound, p)
	case agent.CodeBadPath:
		return fmt.Errorf("%w: %s", machines.ErrBadPath, ae.Message)
	case agent.CodeTooLarge:
		return fmt.Errorf("%w: %s", machines.ErrFileTooLarge, ae.Message)
	case agent.CodeNotRegular:
		return fmt.Errorf("%w: %q is not a regular file", machines.ErrBadPath, p)
	default:
		return fmt.Errorf("gvisor: file %s: %w", p, err)
	}
}
