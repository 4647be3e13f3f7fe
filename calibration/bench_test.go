package calibration

import (
	"bytes"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/emu-hpc/emu/kernels"
)

func benchRows(n int) []Sample {
	p := Plan{Kernels: DefaultKernels, Samples: n/len(DefaultKernels) + 1, MaxDim: 1000, Seed: 1}
	rows := make([]Sample, n)
	for i := range rows {
		c := p.Call(i)
		rows[i] = Sample{Index: i, Plan: p.Fingerprint(), Host: "node1", Core: 0, Kernel: c.Kernel, M: c.M, N: c.N, K: c.K,
			Seconds: 1.234567e-5, Time: time.Unix(1_700_000_000, int64(i)), Backend: "gonum", Clock: "wall"}
	}
	return rows
}

// BenchmarkReadSamples reads a 10,000-row campaign file (rows/s).
func BenchmarkReadSamples(b *testing.B) {
	var buf bytes.Buffer
	if err := WriteSamples(&buf, benchRows(10_000)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadSamples(data, "bench.csv"); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(10_000*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkWriterWrite appends rows the way a campaign does: one write per
// row, fsync every syncRows rows — the cost of durability per sample.
func BenchmarkWriterWrite(b *testing.B) {
	w, _, err := OpenSampleFile(filepath.Join(b.TempDir(), "s.csv"))
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	rows := benchRows(1024)
	i := 0
	for b.Loop() {
		if err := w.Write(rows[i%len(rows)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/row")
}

// BenchmarkLaswpSweep times the dlaswp runs calibrate makes (64 rows of
// 2,000 columns scattered over K local rows) with the caches swept before
// each run, as calibrate does, and without, as it did before: ns/element
// is what the dlaswp model is fitted on. Real HPL's laswp phase of an
// N = 4,000, NB = 64, 1×2 run (HPL 2.3's detailed timing) takes about
// 7.4 ns an element on the project's VM.
//
//	go test -run XXX -bench LaswpSweep ./calibration
func BenchmarkLaswpSweep(b *testing.B) {
	be, err := kernels.LookupBackend("gonum")
	if err != nil {
		b.Fatal(err)
	}
	for _, swept := range []bool{false, true} {
		for _, k := range []int{1000, 2000, 4000} {
			b.Run(fmt.Sprintf("swept=%v/K=%d", swept, k), func(b *testing.B) {
				c := Call{Kernel: kernels.Laswp, M: 64, N: 2000, K: k}
				w := newMeasurer(be, kernels.WallClock, 1, 1)
				if !swept {
					w.evict = 0
				}
				w.reserve(Plan{Calls: []Call{c}}, []bool{false})
				var timed time.Duration
				for b.Loop() {
					run := w.prepare(c)
					t0 := time.Now()
					run()
					timed += time.Since(t0)
				}
				b.ReportMetric(float64(timed.Nanoseconds())/float64(b.N*c.M*c.N), "ns/element")
			})
		}
	}
}
