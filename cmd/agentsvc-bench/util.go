package main

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
)

func bytesReader(b []byte) io.Reader { return bytes.NewReader(b) }

func numCPU() int { return runtime.NumCPU() }

// profile writes a CPU profile of the benchmark when AGENTSVC_BENCH_CPUPROFILE names a file.
func profile() func() {
	path := os.Getenv("AGENTSVC_BENCH_CPUPROFILE")
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	_ = pprof.StartCPUProfile(f)
	return func() { pprof.StopCPUProfile(); f.Close() }
}
