package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// graphMemScenario is a 1,024-rank HPL on a flat cluster (qa46's base
// scenario, docs/evidence/qa46.md), small enough in N to run in seconds.
const graphMemScenario = `app = "hpl"
seed = 7
[platform]
topology = "flat"
hosts = 1024
link_bandwidth = "12.5GBps"
link_latency = "1.5us"
[network]
iprobe_cost = 2e-7
model = "smpi"
[kernels]
mode = "model"
[kernels.dgemm]
terms = ["m*n*k"]
coef = [1.0e-11]
intercept = 2e-6
[kernels.dtrsm]
terms = ["w"]
coef = [1.0e-11]
intercept = 2e-6
[hpl]
n = 2000
nb = 128
grids = [[32, 32]]
threshold = -1
`

// BenchmarkGraphMemory measures the memory of execution graphs at 1,024
// ranks: emu run --graph, then emu analyze and emu sensitivity of the same
// run, each reported per vertex+edge of the graph (peak-B/unit: the most
// memory the Go runtime held from the OS, sampled every millisecond, less
// what it held before; alloc-B/unit: all bytes allocated). With
// -memprofile the allocation sites show where they go:
//
//	go test -run XXX -bench GraphMemory -benchtime 1x -memprofile /tmp/g.mprof ./cmd/emu
func BenchmarkGraphMemory(b *testing.B) {
	dir := b.TempDir()
	scen := filepath.Join(dir, "hpl.toml")
	if err := os.WriteFile(scen, []byte(graphMemScenario), 0o644); err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(dir, "hpl.graph")
	for _, c := range []struct {
		name string
		args []string
	}{
		{"run", []string{"run", "-q", scen, "--graph", file}},
		{"analyze", []string{"analyze", file, "--range", "1us:11us", "--points", "3"}},
		{"sensitivity", []string{"sensitivity", "-q", scen, "--range", "1us:11us", "--points", "3"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			var peak, alloc float64
			for b.Loop() {
				p, a := measureMemory(b, func() {
					if code := run(c.args, discard{}, discard{}); code != 0 {
						b.Fatalf("emu %v: exit %d", c.args, code)
					}
				})
				peak, alloc = max(peak, p), max(alloc, a)
			}
			units := graphUnits(b, file)
			b.ReportMetric(peak/units, "peak-B/unit")
			b.ReportMetric(alloc/units, "alloc-B/unit")
			b.ReportMetric(units, "units")
		})
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

// measureMemory runs f and returns the rise of the memory the runtime holds
// from the OS (mapped less released: what RSS sees of the heap) at its peak,
// and the bytes f allocated.
func measureMemory(b *testing.B, f func()) (peak, alloc float64) {
	b.Helper()
	samples := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
		{Name: "/gc/heap/allocs:bytes"},
	}
	held := func() (float64, float64) {
		metrics.Read(samples)
		return float64(samples[0].Value.Uint64() - samples[1].Value.Uint64()), float64(samples[2].Value.Uint64())
	}
	debug.FreeOSMemory() // what earlier runs left mapped would hide their peak
	base, alloc0 := held()
	top := base
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
				h, _ := held()
				top = max(top, h)
			}
		}
	})
	f()
	close(stop)
	wg.Wait()
	h, alloc1 := held()
	top = max(top, h)
	return top - base, alloc1 - alloc0
}

// graphUnits is the number of vertices plus edges of a graph file, from
// its header (format.go).
func graphUnits(b *testing.B, path string) float64 {
	b.Helper()
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	r := bufio.NewReader(f)
	if _, err := r.Discard(len("EMUGRAPH")); err != nil {
		b.Fatal(err)
	}
	var h [4]uint64 // version, ranks, vertices, edges
	for i := range h {
		if h[i], err = binary.ReadUvarint(r); err != nil {
			b.Fatal(fmt.Errorf("%s: %w", path, err))
		}
	}
	return float64(h[2] + h[3])
}
