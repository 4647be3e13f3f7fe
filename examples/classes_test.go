package examples

import (
	"fmt"
	"math"
	"testing"

	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// classShift is how far the per-class test moves every link latency, s: small
// enough that the critical path holds (the run's latencies are 0.5–1 µs; with
// the dragonfly example's own 1ringM broadcast, 2 ns more per link already
// takes HPL from 0.14 s to 0.26 s, measured with emu run).
const classShift = 1e-10

// classAgreement is the relative gap allowed between the per-class graph's
// first-order prediction Σ_c λ_c·Δℓ_c and the re-emulated change of T.
const classAgreement = 0.01

// TestPerClassLatencyPredictsReemulation: on the dragonfly example (SMPI
// latency factors) and on a three-level fat tree (cm02), the execution graph
// with one latency class per link class has at least three link classes on
// the critical path (λ_c > 0), and raising platform.link_latency by δ — every
// link class by δ, every factor class by (f−1)·δ — moves the re-emulated T by
// Σ_c λ_c·Δℓ_c within 1%. The fat tree again with 100 ns at every switch
// (platform.switch_latency, LLAMP Appendix H's ℓ_switch) has the class
// "switch" too, and raising the switches' latency by δ with the links' moves T
// by the sum with λ_switch·δ. The README's and sensitivity/doc.go's per-class
// sentences point here; the test logs the measured λ per class.
//
// Both runs use HPL's longM broadcast (no Iprobe polling, whose timing the
// graph cannot follow) and the dragonfly's links are made 10 Tb/s: the graph
// holds each message's bandwidth time under contention constant, and at
// 25 Gb/s the 256 ranks' flows share links so much that a 1 ps shift moves
// the re-emulated T 6× more than its latency terms do (measured; with 16
// randomly placed ranks 3% more). Measured at δ = 0.1 ns: dragonfly ΔT
// 1.02136e-05 s against 1.02048e-05 s predicted (λ terminal 18568, intra
// 27035, inter 7126), fat tree 2.5842e-06 s against 2.589e-06 s (λ host 8734,
// level1 8630, level2 8526).
func TestPerClassLatencyPredictsReemulation(t *testing.T) {
	for _, tc := range []struct {
		file      string
		sets      []string
		switchLat float64 // s; > 0 adds the class "switch", which moves by δ too
	}{
		{"dragonfly.toml", []string{"hpl.n=2048", "hpl.bcast=longM", "platform.link_bandwidth=10Tbps"}, 0},
		{"stampede.toml", []string{"platform.fat_tree=3;2,2,4;1,2,2;1,1,1", "network.model=cm02",
			"hpl.n=2048", "hpl.nb=64", "hpl.grids=[[4,4]]", "hpl.max_iterations=0"}, 0},
		{"stampede.toml", []string{"platform.fat_tree=3;2,2,4;1,2,2;1,1,1", "network.model=cm02",
			"hpl.n=2048", "hpl.nb=64", "hpl.grids=[[4,4]]", "hpl.max_iterations=0", "platform.switch_latency=100ns"}, 100e-9},
	} {
		res := runWith(t, tc.file, tc.sets, nil)
		cg := res.ClassGraph
		if cg == nil {
			t.Fatalf("%s: no per-class graph", tc.file)
		}
		base := cg.Graph.Baseline()
		l0 := res.GraphL
		if d := math.Abs(cg.Graph.Runtime(base)-res.Graph.Runtime(res.Graph.Baseline())) / res.SimulatedTime; d > 1e-9 {
			t.Errorf("%s: per-class and one-ℓ graphs differ by %.3g of T at the run's latencies", tc.file, d)
		}
		predicted, critical, report := 0.0, 0, ""
		for c := range cg.Graph.Classes() {
			_, _, lambda, _ := cg.Graph.Slopes(base, c)
			shift := classShift // a link class (and the switches) moves by δ
			if !cg.Link[c] {
				shift = base[c] / l0 * classShift // a factor class's (f−1)·ℓ moves by (f−1)·δ
			} else if lambda > 0 && cg.Names[c] != observe.SwitchClass {
				critical++
			}
			predicted += float64(lambda) * shift
			report += fmt.Sprintf(" %s %d", cg.Names[c], lambda)
		}
		t.Logf("%s: λ per class:%s", tc.file, report)
		if critical < 3 {
			t.Errorf("%s: %d link classes on the critical path (λ:%s), want ≥ 3", tc.file, critical, report)
		}
		moves := []string{fmt.Sprintf("platform.link_latency=%gns", (l0+classShift)*1e9)}
		if tc.switchLat > 0 {
			if _, ok := cg.Class(observe.SwitchClass); !ok {
				t.Fatalf("%s: a switch latency and no switch class (%v)", tc.file, cg.Names)
			}
			moves = append(moves, fmt.Sprintf("platform.switch_latency=%gns", (tc.switchLat+classShift)*1e9))
		}
		more := runWith(t, tc.file, tc.sets, moves)
		moved := more.SimulatedTime - res.SimulatedTime
		t.Logf("%s: T %.9f s; +%g s on every link: re-emulated ΔT %.6g s, predicted Σ λ_c·Δℓ_c %.6g s",
			tc.file, res.SimulatedTime, classShift, moved, predicted)
		if !(math.Abs(moved-predicted) <= classAgreement*math.Abs(moved)) {
			t.Errorf("%s: re-emulated ΔT %.6g s, per-class prediction %.6g s: off by more than %g%%",
				tc.file, moved, predicted, 100*classAgreement)
		}
	}
}

// runWith runs an example with its shrinking sets and extra ones, recording
// the execution graph.
func runWith(t *testing.T, file string, sets, extra []string) *runner.Result {
	t.Helper()
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range append(append([]string(nil), sets...), extra...) {
		if err := s.Set(kv); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(p, runner.Options{Graph: true})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return res
}
