package main

import (
	"math"
	"strconv"
	"strings"
	"testing"
)

// oneLineFlagError fails t unless err is one line that starts with the flag
// it is about.
func oneLineFlagError(t *testing.T, err error, flag string) {
	t.Helper()
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, flag) {
		t.Fatalf("error %q: want one line starting with %s", msg, flag)
	}
}

// finiteNonNeg reports whether x is a finite value ≥ 0.
func finiteNonNeg(x float64) bool { return x >= 0 && !math.IsInf(x, 0) }

// FuzzFlagValues feeds the value flags that take durations, ranges and lists
// (analyze and sensitivity's --L/--o/--g/--G/--range/--tolerance,
// sensitivity's --delay, run's --precision, tune's --memory-fraction and
// --node-memory): each refuses a bad value in one line that names it, and
// what it accepts is finite and in its range.
func FuzzFlagValues(f *testing.F) {
	f.Add("3us", "5us", "0", "0.018ns", "0us:100us", "1,2,5%", "0,2us,5us", "2%", "0.85,0.9", "32GiB")
	f.Add("0", "1ms", "1ps", "1µs", "5us:5us", "", "0,0", "0.02", "1", "1e30B")
	f.Add("1e308s", "NaN", "-1us", "inf", ":", "1,,2", "2us", "100%", "NaN", "-1GiB")
	f.Add("1us", "1us", "1us", "1us", "1us:0us", "-1", "1e400s,0", "NaN", "NaN,0.5", "32GiB")
	f.Fuzz(func(t *testing.T, L, o, g, G, rng, tol, delay, precision, memFrac, nodeMem string) {
		af := analyzeFlags{L: L, o: o, gap: g, G: G, rangeL: rng, tolerance: tol, points: 10}
		if p, gp, err := af.params(); err != nil {
			oneLineFlagError(t, err, "--")
		} else {
			for _, x := range append([]float64{p.L0, p.G, p.Lmin, p.Lmax, gp.O, gp.Gap}, p.Tolerances...) {
				if !finiteNonNeg(x) {
					t.Fatalf("accepted %v among %+v", x, p)
				}
			}
			if p.Lmin > p.Lmax {
				t.Fatalf("range %g:%g from %q", p.Lmin, p.Lmax, rng)
			}
		}
		if ds, err := parseDelays(delay); err != nil {
			oneLineFlagError(t, err, "--delay")
		} else {
			distinct := map[float64]bool{}
			for _, d := range ds {
				if !finiteNonNeg(d) {
					t.Fatalf("--delay %q: accepted %v", delay, d)
				}
				distinct[d] = true
			}
			if len(distinct) < 2 {
				t.Fatalf("--delay %q: accepted %v", delay, ds)
			}
		}
		if p, err := parsePrecision(precision); err != nil {
			oneLineFlagError(t, err, "--precision")
		} else if !(p > 0 && p < 1) {
			t.Fatalf("--precision %q: accepted %v", precision, p)
		}
		s := searchFlags{memFrac: memFrac, nodeMemory: nodeMem}
		if ax, mem, err := s.memoryAxis(nil); err != nil {
			oneLineFlagError(t, err, "--")
		} else if ax != nil {
			if !(mem > 0) || math.IsInf(mem, 0) || len(ax.Values) == 0 {
				t.Fatalf("--node-memory %q: accepted %v, %d fractions", nodeMem, mem, len(ax.Values))
			}
			for _, v := range ax.Values {
				if x, err := strconv.ParseFloat(v, 64); err != nil || !(x > 0 && x <= 1) {
					t.Fatalf("--memory-fraction %q: accepted %s", memFrac, v)
				}
			}
		}
	})
}
