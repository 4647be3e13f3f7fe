package replay

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
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

// syntheticGOAL writes a GOAL schedule of about events ops over n ranks:
// rounds of a ring exchange (send right and receive from the left, 1 KiB)
// and a calc that requires both; each round's sends require the previous
// round's calc.
func syntheticGOAL(n, events int) []byte {
	rounds := events / (n * 3)
	var b bytes.Buffer
	fmt.Fprintf(&b, "num_ranks %d\n", n)
	for r := 0; r < n; r++ {
		fmt.Fprintf(&b, "rank %d {\n", r)
		for k := 0; k < rounds; k++ {
			s, v, c := 3*k+1, 3*k+2, 3*k+3
			fmt.Fprintf(&b, "l%d: send 1024b to %d tag %d\nl%d: recv 1024b from %d tag %d\nl%d: calc 100000\nl%d requires l%d\nl%d requires l%d\n",
				s, (r+1)%n, k, v, (r+n-1)%n, k, c, c, s, c, v)
			if k > 0 {
				fmt.Fprintf(&b, "l%d requires l%d\n", s, c-3)
			}
		}
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// BenchmarkReplay loads (from a file) and replays a synthetic trace of about
// a million events, 64 ranks on the test torus under SMPI's model, and
// reports events per CPU-second (load + replay), the bytes allocated per
// event (load + replay), and the heap the loaded trace holds per event.
func BenchmarkReplay(b *testing.B) {
	for _, size := range []struct {
		name          string
		file          string
		text          func(n, events int) []byte
		ranks, events int
	}{
		{"ti_64ranks_1M", "synthetic.txt", syntheticTI, 64, 1 << 20},
		{"goal_64ranks_1M", "synthetic.goal", syntheticGOAL, 64, 1 << 20},
	} {
		b.Run(size.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), size.file)
			if err := os.WriteFile(path, size.text(size.ranks, size.events), 0o644); err != nil {
				b.Fatal(err)
			}
			hosts := make([]int, size.ranks)
			for i := range hosts {
				hosts[i] = i % testHosts
			}
			cfg := ranks.DefaultConfig()
			var events int
			var held, allocated uint64
			var ms runtime.MemStats
			b.ReportAllocs()
			b.ResetTimer()
			cpu0 := cpuTime()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&ms)
				before, total := ms.HeapAlloc, ms.TotalAlloc
				b.StartTimer()
				tr, err := Load(path, traceformat.FormatAuto)
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				runtime.GC()
				runtime.ReadMemStats(&ms)
				held = ms.HeapAlloc - before
				b.StartTimer()
				w, err := ranks.NewWorld(cfg, testTorus(b), hosts, 1)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := Run(w, tr, Config{Speed: testSpeed}); err != nil {
					b.Fatal(err)
				}
				events += tr.Events()
				b.StopTimer()
				runtime.ReadMemStats(&ms)
				allocated += ms.TotalAlloc - total
				b.StartTimer()
			}
			b.StopTimer()
			cpu := cpuTime() - cpu0 // includes the two GCs per iteration: an upper bound
			b.ReportMetric(float64(events)/cpu.Seconds(), "events/cpu-s")
			b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
			b.ReportMetric(float64(held)/float64(events/b.N), "heap-B/event")
			b.ReportMetric(float64(allocated)/float64(events), "alloc-B/event")
			b.ReportMetric(0, "ns/op") // the events rates say it
		})
	}
}
