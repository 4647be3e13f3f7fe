package main

import (
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/sensitivity"
)

// A wire-mode graph of a run under SMPI's latency factors carries, per message,
// links terms of class 0 (ℓ, the link latency) and links terms of one class per
// factor value f at baseline (f−1)·L0 (observe/record_latency.go). The LP sweep
// moves class 0 alone; re-emulating with another link latency moves every class
// with it: the factor classes at (f−1)·ℓ, i.e. the whole baseline vector scaled
// by ℓ/L0. scaledReport is that curve, evaluated on the graph.

// scaledBisections bounds the halvings of a tolerance search on the scaled curve:
// the range shrinks to 2⁻³⁰ of --range, far below the printed µs resolution.
const scaledBisections = 30

// scaledPoint is T at link latency L with every factor class scaled with it.
type scaledPoint struct {
	L float64 `json:"L_s"`
	T float64 `json:"runtime_s"`
}

// scaledReport is the factor-scaled analysis: the curve re-emulation follows
// while the run's order of events holds.
type scaledReport struct {
	// Lambda is the slope at L0 with every class moving: Σ_c λ_c·ℓ_c/L0 over the
	// per-class slopes (λ_0 + Σ (f_c−1)·λ_c), exact while one path is critical
	// for every class.
	Lambda    float64             `json:"lambda"`
	Tolerance map[string]*float64 `json:"tolerance_s"` // nil: not reached in the range
	Curve     []scaledPoint       `json:"curve"`
}

// sensitivityJSON is the --json document: the report, plus the factor-scaled
// analysis when the graph has factor classes, and what --verify and
// --bandwidth-tolerance re-emulated.
type sensitivityJSON struct {
	*sensitivity.Report
	Scaled *scaledReport `json:"factor_scaled,omitempty"`
	// --verify: the re-emulated points and the verified curve.
	*sensitivity.Verification
	// --verify with --seeds or --perturb: the ensembles' spread and noise floor.
	VerifyEnsemble *verifyEnsemble `json:"verify_ensemble,omitempty"`
	// --bandwidth-tolerance: per link class.
	Bandwidth []bandwidthClass `json:"bandwidth,omitempty"`
}

// oneEllFactors says, per class of the one-ℓ graph merged from cg (class 0,
// then the factor classes and the switches' class in cg's order, as
// observe's mergeMap numbers them), whether it moves with ℓ: class 0 and the
// factor excesses do, the switches (platform.switch_latency, a key of its
// own) do not.
func oneEllFactors(cg *observe.ClassGraph) []bool {
	moves := []bool{true}
	for c, name := range cg.Names {
		switch {
		case name == observe.SwitchClass:
			moves = append(moves, false)
		case !cg.Link[c]:
			moves = append(moves, true)
		}
	}
	return moves
}

// scaledAnalysis evaluates the factor-scaled curve of g over the report's range
// and points, its slope at L0 and the report's tolerances; moves says which of
// g's classes scale with ℓ (oneEllFactors); nil when no class beyond 0 does or
// L0 is 0 (nothing to scale by).
func scaledAnalysis(g *sensitivity.Graph, rep *sensitivity.Report, tolerances []float64, moves []bool) *scaledReport {
	base := g.Baseline()
	scales := func(c int) bool { return c == 0 || (c < len(moves) && moves[c]) }
	factors := 0
	for c := 1; c < len(base); c++ {
		if scales(c) {
			factors++
		}
	}
	if factors == 0 || !(base[0] > 0) {
		return nil
	}
	at := func(l float64) float64 {
		lat := make([]float64, len(base))
		for c, b := range base {
			lat[c] = b
			if scales(c) {
				lat[c] = b * l / base[0]
			}
		}
		return g.Runtime(lat)
	}
	s := &scaledReport{Tolerance: map[string]*float64{}}
	for _, cs := range rep.Classes {
		if cs.Class < len(base) && scales(cs.Class) {
			s.Lambda += float64(cs.LambdaRight) * base[cs.Class] / base[0]
		}
	}
	for _, pt := range rep.Curve {
		s.Curve = append(s.Curve, scaledPoint{L: pt.L, T: at(pt.L)})
	}
	t0 := at(rep.L)
	for _, x := range tolerances {
		key := strconv.FormatFloat(x, 'g', -1, 64)
		target := (1 + x/100) * t0
		if at(rep.Lmax) <= target {
			s.Tolerance[key] = nil // beyond the range
			continue
		}
		// T is convex and non-decreasing in L (each path's cost is linear with
		// non-negative slope), so the last L under the target is found by halving.
		lo, hi := rep.L, rep.Lmax
		for range scaledBisections {
			mid := (lo + hi) / 2
			if at(mid) <= target {
				lo = mid
			} else {
				hi = mid
			}
		}
		s.Tolerance[key] = &lo
	}
	return s
}

// writeScaled prints the factor-scaled analysis after the report's table.
func writeScaled(w io.Writer, s *scaledReport, tolerances []float64, l0 float64) error {
	return writeScaledTable(w, s, tolerances, l0, "with the latency factors moving with ℓ (as re-emulating at link latency ℓ does)", "T (factors scaled)")
}

// writeScaledTable prints a scaled analysis: its heading, slope and
// tolerances, then the curve under the column title tcol.
func writeScaledTable(w io.Writer, s *scaledReport, tolerances []float64, l0 float64, heading, tcol string) error {
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	fmt.Fprintf(tw, "\n%s: slope at L0 %.6g", heading, s.Lambda)
	for i, x := range tolerances {
		key := strconv.FormatFloat(x, 'g', -1, 64)
		sep := ","
		if i == 0 {
			sep = "; latency tolerance"
		}
		if v := s.Tolerance[key]; v != nil {
			fmt.Fprintf(tw, "%s %s%%: %s", sep, key, sensitivity.FormatSeconds(*v))
		} else {
			fmt.Fprintf(tw, "%s %s%%: beyond the range", sep, key)
		}
	}
	fmt.Fprintf(tw, "\n\nL\tΔL\t%s\n", tcol)
	for _, pt := range s.Curve {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", sensitivity.FormatSeconds(pt.L), sensitivity.FormatSeconds(pt.L-l0), sensitivity.FormatSeconds(pt.T))
	}
	return tw.Flush()
}
