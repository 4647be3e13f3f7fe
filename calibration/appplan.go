package calibration

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/emu-hpc/emu/kernels"
)

// AppCall is one distinct kernel call an application made (recorded by an
// emulation of the run to predict) and how many times it made it.
type AppCall struct {
	Call  Call // kernel, dimensions and BLAS form; Index is ignored
	Count int
	// Run says which of the runs to predict made the calls (an HPL.dat
	// lists several): each run weighs the same in the draw, whatever its
	// size, since each run's prediction is to be right, not their sum.
	Run int
}

// perCallWork is the work a call costs beyond its product term, in the
// product's units, so that a million empty-ish calls weigh as much as their
// fixed costs do: about a microsecond of a level-3 kernel's multiply-adds, a
// few hundred elements of a level-1/2 kernel.
func perCallWork(kernel string) float64 {
	switch kernels.Family(kernel) {
	case "dgemm", "dtrsm":
		return 2e4
	}
	return 500
}

// work is a call's cost proxy: its product term (models.ProductTerm) plus
// its fixed cost.
func work(c Call) float64 {
	v, _, err := kernels.VarsFor(c.Kernel, c.M, c.N, c.K)
	if err != nil {
		return 0
	}
	return v.W + perCallWork(c.Kernel)
}

// FromApp plans a campaign that measures the calls an application makes,
// as it makes them: for each kernel, every distinct call when there are at
// most perKernel of them; otherwise half the samples drawn in proportion to
// the calls' share of the kernel's time (count × work: where the run's time
// goes) and half in proportion to their count (what most calls look like,
// small ones included), each by systematic sampling along the calls sorted
// by size, so both ends of the range are covered. The plan is a pure
// function of its arguments.
func FromApp(calls []AppCall, perKernel int, seed uint64) (Plan, error) {
	if perKernel < 1 {
		return Plan{}, fmt.Errorf("samples %d: want at least 1 per kernel", perKernel)
	}
	byKernel := map[string][]AppCall{}
	for _, c := range calls {
		if c.Count <= 0 {
			continue
		}
		if !kernels.Known(c.Call.Kernel) {
			return Plan{}, fmt.Errorf("unknown kernel %q", c.Call.Kernel)
		}
		if empty := c.Call.M < 0 || c.Call.N < 0 || c.Call.K < 0; empty {
			return Plan{}, fmt.Errorf("%s call with a negative dimension (%d, %d, %d)", c.Call.Kernel, c.Call.M, c.Call.N, c.Call.K)
		}
		k := kernels.Family(c.Call.Kernel)
		c.Call.Kernel = k
		byKernel[k] = append(byKernel[k], c)
	}
	names := make([]string, 0, len(byKernel))
	for k := range byKernel {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return Plan{}, fmt.Errorf("the application made no kernel call to measure")
	}
	p := Plan{Kernels: names, Samples: perKernel, Seed: seed}
	lists := make([][]Call, len(names))
	for i, k := range names {
		lists[i] = pickCalls(byKernel[k], perKernel, rand.New(rand.NewPCG(seed, uint64(i))))
		for _, c := range lists[i] {
			p.MaxDim = max(p.MaxDim, c.M, c.N)
		}
	}
	// Kernel after kernel, each by increasing work: workers measuring at
	// once take neighbouring calls, so a large dgemm is timed while the
	// other cores run large dgemms too, as in HPL's update, not while they
	// run a panel's level-1 calls (which left dgemm 5-10% faster than in the
	// real run: issue 10's 2-rank runs came out short).
	for _, l := range lists {
		sort.SliceStable(l, func(i, j int) bool { return work(l[i]) < work(l[j]) })
		p.Calls = append(p.Calls, l...)
	}
	return p, nil
}

// pickCalls draws up to n distinct calls of one kernel (see FromApp) and
// returns them in the order drawn.
func pickCalls(calls []AppCall, n int, rng *rand.Rand) []Call {
	// Each run's calls weigh their share of that run's time (and count):
	// in one HPL.dat an N = 16,000 run would otherwise leave an N = 4,000
	// run's calls a sixty-fourth of the draw.
	runTime, runCount := map[int]float64{}, map[int]float64{}
	for _, c := range calls {
		runTime[c.Run] += float64(c.Count) * work(c.Call)
		runCount[c.Run] += float64(c.Count)
	}
	type weighted struct {
		call        Call
		time, count float64
	}
	at := map[Call]int{}
	var sorted []weighted
	for _, c := range calls {
		i, ok := at[c.Call]
		if !ok {
			i = len(sorted)
			at[c.Call] = i
			sorted = append(sorted, weighted{call: c.Call})
		}
		if t := runTime[c.Run]; t > 0 {
			sorted[i].time += float64(c.Count) * work(c.Call) / t
		}
		sorted[i].count += float64(c.Count) / runCount[c.Run]
	}
	sort.SliceStable(sorted, func(i, j int) bool { return work(sorted[i].call) < work(sorted[j].call) })
	if len(sorted) <= n {
		out := make([]Call, len(sorted))
		for i, c := range sorted {
			out[i] = c.call
		}
		return out
	}
	byTime := make([]float64, len(sorted))
	byCount := make([]float64, len(sorted))
	for i, c := range sorted {
		byTime[i] = c.time
		byCount[i] = c.count
	}
	taken := make([]bool, len(sorted))
	var out []Call
	half := (n + 1) / 2
	for _, pick := range [][]int{systematic(byTime, half, rng.Float64()), systematic(byCount, n-half, rng.Float64())} {
		for _, i := range pick {
			// A call drawn twice (it holds more than one stride of the weight)
			// gives its turn to the nearest call not yet taken.
			for d := 0; d < len(sorted); d++ {
				if j := i + d; j < len(sorted) && !taken[j] {
					i = j
					break
				}
				if j := i - d; j >= 0 && !taken[j] {
					i = j
					break
				}
			}
			taken[i] = true
			out = append(out, sorted[i].call)
		}
	}
	return out
}

// systematic returns the indices hit by n evenly spaced points, offset by
// u ∈ [0, 1) strides, along the cumulative weights w: each index is drawn
// with probability proportional to its weight, with less variance than
// independent draws.
func systematic(w []float64, n int, u float64) []int {
	if n <= 0 {
		return nil
	}
	total := 0.0
	for _, x := range w {
		total += x
	}
	if total <= 0 || math.IsInf(total, 0) || math.IsNaN(total) {
		return nil
	}
	stride := total / float64(n)
	out := make([]int, 0, n)
	cum, i := 0.0, 0
	for j := 0; j < n; j++ {
		target := (float64(j) + u) * stride
		for i < len(w)-1 && cum+w[i] <= target {
			cum += w[i]
			i++
		}
		out = append(out, i)
	}
	return out
}

// validateCalls checks an explicit plan.
func (p Plan) validateCalls() error {
	for i, c := range p.Calls {
		if !kernels.Known(c.Kernel) || kernels.Family(c.Kernel) != c.Kernel {
			return fmt.Errorf("call %d: unknown kernel %q", i, c.Kernel)
		}
		if c.M < 0 || c.N < 0 || c.K < 0 {
			return fmt.Errorf("call %d: %s with a negative dimension", i, c.Kernel)
		}
	}
	return nil
}
