package hpl

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/kernels"
)

// BenchmarkModel measures model-mode emulation speed on the peer's 2×2 and 4×4
// configurations: simulated seconds per wall second and panel iterations
// (all ranks) per wall second.
func BenchmarkModel(b *testing.B) {
	for _, c := range []struct{ p, q, n int }{{2, 2, 5000}, {4, 4, 10000}} {
		b.Run(fmt.Sprintf("%dx%d_N%d", c.p, c.q, c.n), func(b *testing.B) {
			p := peerParams(c.p, c.q, c.n, OneRingM, 1)
			var sim float64
			for b.Loop() {
				sim = runHPL(b, p, kernels.Model, Options{}, 1e-6).Time
			}
			wall := b.Elapsed().Seconds() / float64(b.N)
			panels := float64((c.n+127)/128*c.p*c.q) / wall
			b.ReportMetric(sim/wall, "simsec/s")
			b.ReportMetric(panels, "rank-panels/s")
		})
	}
}

// BenchmarkReal measures a real-data run (residual check included).
func BenchmarkReal(b *testing.B) {
	p := DefaultParams()
	p.N, p.NB, p.P, p.Q = 300, 16, 2, 2
	for b.Loop() {
		if !runHPL(b, p, kernels.Real, Options{}, 0).Passed {
			b.Fatal("residual check failed")
		}
	}
	b.ReportMetric(float64(p.N)*float64(p.N)*float64(p.N)*2/3/(b.Elapsed().Seconds()/float64(b.N))/1e9, "real-Gflop/s")
}

// FuzzParseNames: every parser accepts exactly the names its String prints
// (case-insensitively when unambiguous) and never panics.
func FuzzParseNames(f *testing.F) {
	for _, s := range []string{"1ring", "1RINGM", "long", "crout", "Right", "row", "column", "mix", "spread-roll", "splitmix", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if b, err := ParseBCast(s); err == nil {
			if b2, err := ParseBCast(b.String()); err != nil || b2 != b {
				t.Fatalf("bcast %q → %v", s, b)
			}
		}
		if v, err := ParseFact(s); err == nil && v.String() == "" {
			t.Fatal("empty fact name")
		}
		if v, err := ParseSwap(s); err == nil && v > Mix {
			t.Fatal("swap out of range")
		}
		if v, err := ParsePMap(s); err == nil && v > ColumnMajor {
			t.Fatal("pmap out of range")
		}
		if v, err := ParsePivotRule(s); err == nil && v > PivotReplay {
			t.Fatal("pivot rule out of range")
		}
	})
}
