package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// pollClientEnv makes a process started by RunLongPolls act as the
// long-poll clients: "URL|TOKEN|N". The clients run in their own process
// so that the server's memory is measured without theirs, over real
// loopback TCP.
const pollClientEnv = "AGENTSVC_BENCH_POLL_CLIENT"

// PollClientMain runs the long-poll client side when this process was
// started for it by RunLongPolls, and then exits; otherwise it returns at
// once. Call it first thing in main (or TestMain) of any binary that calls
// RunLongPolls, which re-executes its own binary for the clients.
func PollClientMain() {
	spec := os.Getenv(pollClientEnv)
	if spec == "" {
		return
	}
	if err := pollClients(spec, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "poll client:", err)
		os.Exit(1)
	}
	os.Exit(0)
}

// pollClients opens N long-polls, reports "ready" once all requests are
// written, and at the end one line: answered, with event, failed, and the
// time of the last answer (Unix nanoseconds).
func pollClients(spec string, out io.Writer) error {
	parts := strings.Split(spec, "|")
	if len(parts) != 3 {
		return fmt.Errorf("bad spec %q", spec)
	}
	url, token := parts[0], parts[1]
	n, err := strconv.Atoi(parts[2])
	if err != nil {
		return err
	}
	tr := &http.Transport{MaxIdleConnsPerHost: n, IdleConnTimeout: time.Minute,
		DialContext: (&net.Dialer{Timeout: 30 * time.Second}).DialContext}
	client := &http.Client{Transport: tr, Timeout: 90 * time.Second}
	var wg sync.WaitGroup
	var answered, withEvent, failed atomic.Int64
	var mu sync.Mutex
	times := make([]int64, 0, n)
	// Dial in bounded bursts: ten thousand simultaneous SYNs overflow the
	// listen backlog and turn into retransmits seconds later.
	sem := make(chan struct{}, 256)
	for range n {
		sem <- struct{}{}
		wg.Go(func() {
			var once sync.Once
			release := func() { once.Do(func() { <-sem }) }
			defer release()
			trace := &httptrace.ClientTrace{WroteRequest: func(httptrace.WroteRequestInfo) { release() }}
			req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(context.Background(), trace), "GET", url, nil)
			req.Header.Set("Authorization", "Bearer "+token)
			resp, err := client.Do(req)
			if err != nil {
				failed.Add(1)
				return
			}
			var p eventsPage
			err = json.NewDecoder(resp.Body).Decode(&p)
			resp.Body.Close()
			if err != nil {
				failed.Add(1)
				return
			}
			answered.Add(1)
			if len(p.Data) > 0 {
				withEvent.Add(1)
			}
			now := time.Now().UnixNano()
			mu.Lock()
			times = append(times, now)
			mu.Unlock()
		})
	}
	wg.Wait()
	slices.Sort(times)
	var first, median, last int64
	if len(times) > 0 {
		first, median, last = times[0], times[len(times)/2], times[len(times)-1]
	}
	fmt.Fprintf(out, "result %d %d %d %d %d %d\n", answered.Load(), withEvent.Load(), failed.Load(), first, median, last)
	return nil
}

type pollResult struct {
	answered, withEvent, failed int
	// first, median and last are when answers were read in full.
	first, median, last time.Time
}

// startPollClients re-executes this binary as the client process.
func startPollClients(ctx context.Context, url, token string, n int) (wait func() (pollResult, error), err error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, exe, "-test.run=^$")
	cmd.Env = append(os.Environ(), pollClientEnv+"="+url+"|"+token+"|"+strconv.Itoa(n), "GOGC=400")
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return func() (pollResult, error) {
		err := cmd.Wait()
		var r pollResult
		sc := bufio.NewScanner(&stdout)
		for sc.Scan() {
			var first, median, last int64
			if _, serr := fmt.Sscanf(sc.Text(), "result %d %d %d %d %d %d", &r.answered, &r.withEvent, &r.failed, &first, &median, &last); serr == nil {
				r.first, r.median, r.last = time.Unix(0, first), time.Unix(0, median), time.Unix(0, last)
				return r, nil
			}
		}
		if err == nil {
			err = fmt.Errorf("poll client printed no result (does the binary call bench.PollClientMain?): %q", stdout.String())
		}
		return r, err
	}, nil
}

// serverMemory is the memory of this process (the server) in MB: what the
// Go runtime holds from the OS, heap in use, goroutine stacks, and the
// resident set as the kernel counts it (0 when /proc is unavailable).
type serverMemory struct {
	sys, heap, stacks, rss uint64
	goroutines             int
}

func readServerMemory() serverMemory {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	m := serverMemory{sys: ms.Sys >> 20, heap: ms.HeapInuse >> 20, stacks: ms.StackInuse >> 20, goroutines: runtime.NumGoroutine()}
	if b, err := os.ReadFile("/proc/self/status"); err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
				kb, _ := strconv.ParseUint(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
				m.rss = kb >> 10
			}
		}
	}
	return m
}
