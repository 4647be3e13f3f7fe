package validation

import (
	"fmt"
	"math"
	"strconv"
	"testing"
)

// testdata/dahu_fork.csv holds runs of SMPI's own HPL fork (Ezibenroc/hpl at
// 312df21 for line c's per-CPU linear dgemm, 12d0551 for line d's per-CPU
// polynomial one), built with smpicc at SMPI_OPTIMIZATION_LEVEL=4 with the
// noise made zero (random_halfnormal_shifted returning its mean, as in SMPI's
// deterministic C1_het and A1_het), on Debian's SimGrid with examples/dahu's
// network (the smpi/os, or, ois, bw-factor, lat-factor, iprobe and test
// values of dahu.toml, thresholds 64000 B), hosts dahu-0.grid5000.fr … as in
// SMPI's runs: docs/evidence/dahu.md says how. It is emu's independent
// reference for what the fork charges, at a scale that runs in seconds.
const dahuFork = "testdata/dahu_fork.csv"

// TestDahuForkEmptyCalls: the fork charges a dgemm with an empty dimension its
// model (kernels.charge_empty). Each level of HPL's recursive panel
// factorization ends with a dgemm(m, 0, jb), and an update that has run out of
// columns polls a pending broadcast between dgemm(mp, 0, jb) calls; these cost
// intercept + mk·m·jb under line d's polynomial model and only the intercept
// under c's linear one, so they widen the gap between d and c. For every
// configuration the fork was run on, emu with charge_empty (dahu.toml's
// setting) must give the fork's d − c gap within 10% and each line within 3%
// (the fork's runs, with 16 MiB shared-malloc blocks, are about 2% above emu
// at 4 × 4 and 8 × 8 for both lines alike: its pivots read a matrix that is 0
// in stretches of columns, TestDahuForkPivots); without it, the gap misses
// somewhere (2 × 2:
// 87% of the fork's; 16 × 16: 89%). The gap is not checked at 8 × 8, where a
// single run is chaotic: under --perturb 5 emu's c spans 3.837-3.862 s and
// d 4.048-4.070 s, so d − c lands anywhere in 0.92-1.15 of the fork's (2 × 2
// and 4 × 4 move by 1e-11 s). -short runs 2 × 2 only.
func TestDahuForkEmptyCalls(t *testing.T) {
	type config struct{ n, p, q, hosts int }
	fork := map[config]map[string]float64{}
	var configs []config
	for _, r := range readCSV(t, dahuFork) {
		var c config
		intCells(t, dahuFork, r, []intCell{{"n", &c.n}, {"p", &c.p}, {"q", &c.q}, {"hosts", &c.hosts}})
		v, err := strconv.ParseFloat(r["time_s"], 64)
		if err != nil {
			t.Fatalf("%s: time_s %q", dahuFork, r["time_s"])
		}
		if fork[c] == nil {
			fork[c] = map[string]float64{}
			configs = append(configs, c)
		}
		fork[c][r["line"]] = v
	}
	run := func(c config, line string, chargeEmpty bool) float64 {
		return dahuTime(t, "kernels.models="+line+".toml", fmt.Sprintf("platform.hosts=%d", c.hosts),
			fmt.Sprintf("platform.radical=0-%d", c.hosts-1), fmt.Sprintf("hpl.n=%d", c.n),
			fmt.Sprintf("hpl.grids=[[%d, %d]]", c.p, c.q), fmt.Sprintf("kernels.charge_empty=%v", chargeEmpty))
	}
	// chaotic: configurations whose d − c gap moves by more than the band
	// under emu's --perturb (docs/evidence/dahu.md): each line is still checked.
	chaotic := map[config]bool{{n: 20000, p: 8, q: 8, hosts: 2}: true}
	missed := false // without charge_empty, some configuration's gap is off
	for _, c := range configs {
		f := fork[c]
		if len(f) != 2 || f["c"] == 0 || f["d"] == 0 {
			t.Fatalf("%s: %+v: want one row each of lines c and d, have %v", dahuFork, c, f)
		}
		if testing.Short() && c.p*c.q > 4 {
			continue
		}
		forkGap := f["d"] - f["c"]
		for _, on := range []bool{true, false} {
			tc, td := run(c, "c", on), run(c, "d", on)
			ratio := (td - tc) / forkGap
			t.Logf("%dx%d N=%d charge_empty=%v: emu c %.6f s (%+.2f%%), d %.6f s (%+.2f%%); d − c %.1f ms, %.3f of the fork's %.1f ms",
				c.p, c.q, c.n, on, tc, 100*(tc-f["c"])/f["c"], td, 100*(td-f["d"])/f["d"], 1e3*(td-tc), ratio, 1e3*forkGap)
			inBand := ratio >= 0.9 && ratio <= 1.1
			if !on {
				missed = missed || !inBand
				continue
			}
			if !inBand && !chaotic[c] {
				t.Errorf("%dx%d N=%d: d − c gap %.3f of the fork's, want 0.9 … 1.1", c.p, c.q, c.n, ratio)
			}
			for line, got := range map[string]float64{"c": tc, "d": td} {
				if e := (got - f[line]) / f[line]; math.Abs(e) > 0.03 {
					t.Errorf("%dx%d N=%d line %s: emu %.6f s, fork %.6f s: %+.2f%%", c.p, c.q, c.n, line, got, f[line], 100*e)
				}
			}
		}
	}
	if !missed {
		t.Error("without charge_empty every configuration's d − c gap is within 10% of the fork's: the test no longer shows what the setting changes")
	}
}
