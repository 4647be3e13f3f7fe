package kernels

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/models"
)

type nullCharger struct{ total float64 }

func (c *nullCharger) Compute(s float64, _ string) { c.total += s }

// BenchmarkModelDgemm is the hot path of a model-mode run: one dgemm call
// charged from an M1 model. It must stay at tens of ns and allocate nothing.
// The baseline sub-benchmark calls the model's Mean directly: the difference
// is what the kernel layer adds per call.
func BenchmarkModelDgemm(b *testing.B) {
	set := parseModels(b, testModels)
	b.Run("baseline=Mean", func(b *testing.B) {
		m, c := set.For("dgemm", ""), &nullCharger{}
		b.ReportAllocs()
		for b.Loop() {
			c.Compute(m.Mean(models.Vars{M: 1000, N: 128, K: 128, W: 1000 * 128 * 128}), "dgemm")
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
	})
	for _, noise := range []bool{false, true} {
		b.Run(fmt.Sprintf("noise=%v", noise), func(b *testing.B) {
			k := New(Config{Mode: Model, Models: set, Noise: noise}, &nullCharger{}, rand.New(rand.NewPCG(1, 1)))
			b.ReportAllocs()
			for b.Loop() {
				k.Dgemm(blas.NoTrans, blas.NoTrans, 1000, 128, 128, -1, nil, 1000, nil, 128, 1, nil, 1000)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
		})
	}
}

// BenchmarkClockOverhead is the cost Timed mode adds to a call: a 1×1×1
// dgemm in Real mode (no clock) against Timed mode with each clock.
func BenchmarkClockOverhead(b *testing.B) {
	a, bb, c := []float64{1}, []float64{2}, []float64{3}
	for _, cfg := range []Config{{Mode: Real}, {Mode: Timed, Clock: WallClock}, {Mode: Timed, Clock: CPUClock}} {
		name := cfg.Mode.String()
		if cfg.Mode == Timed {
			name += "/" + cfg.Clock.String()
		}
		b.Run(name, func(b *testing.B) {
			k := New(cfg, &nullCharger{}, nil)
			for b.Loop() {
				k.Dgemm(blas.NoTrans, blas.NoTrans, 1, 1, 1, 1, a, 1, bb, 1, 1, c, 1)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/call")
		})
	}
}

// BenchmarkRealDgemm measures each backend on an HPL-like update shape
// (tall M, K = NB) and reports GFLOP/s (2·m·n·k flops per call).
func BenchmarkRealDgemm(b *testing.B) {
	for _, be := range Backends() {
		for _, s := range []struct{ m, n, k int }{{256, 64, 64}, {512, 128, 128}} {
			b.Run(fmt.Sprintf("%s/%dx%dx%d", be, s.m, s.n, s.k), func(b *testing.B) {
				rng := rand.New(rand.NewPCG(2, 2))
				a, bb, c := randSlice(rng, s.m*s.k), randSlice(rng, s.k*s.n), randSlice(rng, s.m*s.n)
				k := New(Config{Mode: Real, Backend: be}, &nullCharger{}, nil)
				for b.Loop() {
					k.Dgemm(blas.NoTrans, blas.NoTrans, s.m, s.n, s.k, -1, a, s.m, bb, s.k, 1, c, s.m)
				}
				flops := 2 * float64(s.m*s.n*s.k) * float64(b.N)
				b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
