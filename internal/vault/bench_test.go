package vault_test

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/agentsvc/agentsvc/internal/apptest"
	"github.com/agentsvc/agentsvc/internal/store"
)

// BenchmarkReadPaths drives Service.Read and Service.TOTP (audit entry
// included, SQLite) from 64 goroutines, without HTTP, and reports the
// process CPU time per read beside the wall time: on a shared machine the
// CPU figure is the steadier one.
func BenchmarkReadPaths(b *testing.B) {
	env := apptest.Start(b, store.SQLite)
	a := env.NewAgent("bench", vaultScopes...)
	id := env.Must(201, env.Do("POST", "/api/v1/vault", a.Token, map[string]any{"name": "c", "username": "u", "password": "pw", "secret": totpB32})).JSON()["id"].(string)
	p := principal(b, env, a.Token)
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		read func() error
	}{
		{"totp", func() error { _, err := env.App.Vault.TOTP(ctx, p, id); return err }},
		{"value", func() error { _, err := env.App.Vault.Read(ctx, p, id); return err }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetParallelism(32) // 64 goroutines on 2 CPUs, like the HTTP benchmark's connections
			cpu0 := processCPU(b)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					if err := bc.read(); err != nil {
						b.Error(err)
						return
					}
				}
			})
			b.ReportMetric(float64((processCPU(b)-cpu0).Microseconds())/float64(b.N), "cpu-µs/op")
		})
	}
}

func processCPU(b *testing.B) time.Duration {
	b.Helper()
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
