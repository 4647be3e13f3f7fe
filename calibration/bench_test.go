package calibration

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"
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
