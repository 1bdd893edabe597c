// Package loadgen drives an HTTP endpoint with a fixed number of concurrent
// connections for a fixed time and reports throughput and latency
// percentiles. The benchmarks use it for the service and for the baseline
// they are compared with, in the same run, so the ratio is meaningful on a
// shared, noisy machine.
package loadgen

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"sync"
	"time"
)

// Request builds the request each worker sends.
type Request func() (*http.Request, error)

// Result is what a run measured.
type Result struct {
	Name     string
	Requests int
	Errors   int
	Duration time.Duration
	P50, P99 time.Duration
	// latencies of the successful requests, sorted (for Merge)
	latencies []time.Duration
}

// Merge adds up runs of the same endpoint (rounds interleaved with other
// endpoints): requests, errors and time are summed and the percentiles are
// taken over all their requests.
func Merge(name string, runs ...Result) Result {
	out := Result{Name: name}
	for _, r := range runs {
		out.Requests += r.Requests
		out.Errors += r.Errors
		out.Duration += r.Duration
		out.latencies = append(out.latencies, r.latencies...)
	}
	slices.Sort(out.latencies)
	out.P50, out.P99 = Percentile(out.latencies, 50), Percentile(out.latencies, 99)
	return out
}

// RPS is requests per second.
func (r Result) RPS() float64 { return float64(r.Requests) / r.Duration.Seconds() }

func (r Result) String() string {
	return fmt.Sprintf("%-28s %9.0f req/s   p50 %7.2f ms   p99 %7.2f ms   (%d requests, %d errors)",
		r.Name, r.RPS(), ms(r.P50), ms(r.P99), r.Requests, r.Errors)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// Run sends requests from conns workers for d; a non-2xx answer or a
// transport error counts as an error.
func Run(ctx context.Context, name string, conns int, d time.Duration, build Request) Result {
	tr := &http.Transport{
		MaxIdleConns: conns, MaxIdleConnsPerHost: conns, MaxConnsPerHost: conns,
		DialContext:        (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		DisableCompression: true,
	}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 30 * time.Second}
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()

	var (
		mu        sync.Mutex
		latencies []time.Duration
		errs      int
		wg        sync.WaitGroup
	)
	start := time.Now()
	for range conns {
		wg.Go(func() {
			local := make([]time.Duration, 0, 4096)
			localErrs := 0
			for ctx.Err() == nil {
				req, err := build()
				if err != nil {
					localErrs++
					continue
				}
				t0 := time.Now()
				resp, err := client.Do(req.WithContext(ctx))
				if err != nil {
					if ctx.Err() == nil {
						localErrs++
					}
					continue
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				if resp.StatusCode/100 != 2 {
					localErrs++
					continue
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			latencies = append(latencies, local...)
			errs += localErrs
			mu.Unlock()
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	slices.Sort(latencies)
	return Result{Name: name, Requests: len(latencies), Errors: errs, Duration: elapsed,
		P50: Percentile(latencies, 50), P99: Percentile(latencies, 99), latencies: latencies}
}

// Percentile of sorted durations (nearest rank).
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.5) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}
