package replay

import (
	"bytes"
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/emu-hpc/emu/ranks"
)

// Figures: see README.md, "Replaying traces" (2 shared cores, `nice -n 19
// go test -run XXX -bench Replay -benchtime 1x ./apps/replay`).

// cpuTime is the process's CPU time (user + system): on a shared machine
// the steadier measure than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// syntheticTI writes a one-file TI trace of about events actions over n
// ranks: rounds of a ring exchange (isend right, irecv left, waitall, 1 KiB),
// a compute, and every 16th round an allreduce, interleaved rank by rank
// as smpirun's one-file traces are.
func syntheticTI(n, events int) []byte {
	const perRound = 4 // isend, irecv, waitall, compute
	rounds := events / (n * perRound)
	var b bytes.Buffer
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "%d init\n", r)
	}
	for k := 0; k < rounds; k++ {
		for r := 0; r < n; r++ {
			fmt.Fprintf(&b, "%d isend %d %d 1024\n%d irecv %d %d 1024\n%d waitall\n%d compute 1e5\n",
				r, (r+1)%n, k&0xff, r, (r+n-1)%n, k&0xff, r, r)
			if k%16 == 15 {
				fmt.Fprintf(&b, "%d allreduce 8 8\n", r)
			}
		}
	}
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "%d finalize\n", r)
	}
	return b.Bytes()
}

// BenchmarkReplay parses and replays a synthetic trace on a flat-ish torus
// of 64 hosts and reports events per CPU-second, the bytes allocated per
// event, and the heap the parsed trace holds per event.
func BenchmarkReplay(b *testing.B) {
	for _, size := range []struct {
		name          string
		ranks, events int
	}{
		{"64ranks_1M", 64, 1 << 20},
	} {
		b.Run(size.name, func(b *testing.B) {
			text := syntheticTI(size.ranks, size.events)
			hosts := make([]int, size.ranks)
			for i := range hosts {
				hosts[i] = i % testHosts
			}
			cfg, _ := ranks.Preset("smpi")
			var events int
			var held uint64
			var ms runtime.MemStats
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				runtime.GC()
				runtime.ReadMemStats(&ms)
				before := ms.HeapAlloc
				tr, err := ParseTI(bytes.NewReader(text), "synthetic.txt")
				if err != nil {
					b.Fatal(err)
				}
				runtime.GC()
				runtime.ReadMemStats(&ms)
				held = ms.HeapAlloc - before
				w, err := ranks.NewWorld(cfg, testTorus(b), hosts, 1)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Run(w, tr, Config{Speed: testSpeed}); err != nil {
					b.Fatal(err)
				}
				events += tr.Events()
			}
			cpu := cpuTime() - cpu0
			b.StopTimer()
			b.ReportMetric(float64(events)/cpu.Seconds(), "events/cpu-s")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(held)/float64(events/b.N), "heap-B/event")
		})
	}
}
