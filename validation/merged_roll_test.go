package validation

import (
	"math"
	"os"
	"runtime"
	"testing"
)

// BenchmarkMergedRollError measures the error of merged long-broadcast rolls
// (hpl.roll = "merged", an approximation: hpl.RollMerged) against HPL's
// steps (the default), the same case run both ways, whole unless said:
//
//   - space96: the long and longM points of the 288-point tuning space (4×4,
//     2×8 and 1×16 on the embedded default's flat 10 Gb/s network, N =
//     20,000, 8 NBs × 2 depths), whole;
//   - the SMPI peers' 8×8 and 16×16 (N = 80,000) with BCAST long and longM,
//     whole;
//   - stampede_K16: examples/stampede.toml from 16 panels (the same panels
//     both ways).
//
// Each case reports its signed error in percent (merged against steps) and
// the CPU of the merged run over the steps run's. With EMU_LONG=1 it adds the
// Dahu example with longM (32×32, N = 50,000) whole and seed 003's Fig. 6
// points at N = 500,000 run whole merged, against the steps' whole runs
// recorded in testdata/fig6_whole.csv; and the Stampede whole run with merged
// rolls recorded in testdata/stampede_whole_merged.csv
// (BenchmarkStampedeWholeMerged) against testdata/stampede_whole.csv.
//
//	nice -n 19 go test -run XXX -bench MergedRollError -benchtime 1x -timeout 2h ./validation
func BenchmarkMergedRollError(b *testing.B) {
	var singles []approxCase
	for _, bc := range []string{"long", "longM"} {
		singles = append(singles,
			approxCase{extrapolationCase{name: "peer_8x8_N80000_" + bc, load: peerRow("mr_ip6_flat_8x8_80000"), sets: []string{`hpl.bcast="` + bc + `"`}}, 0},
			approxCase{extrapolationCase{name: "peer_16x16_N80000_" + bc, load: peerRow("ip6_diag_flat_16x16_80000"), sets: []string{`hpl.bcast="` + bc + `"`}}, 0})
	}
	singles = append(singles, approxCase{stampedeCase(), 16})
	long := os.Getenv("EMU_LONG") == "1"
	if long {
		singles = append(singles, approxCase{extrapolationCase{name: "dahu_32x32_N50000_longM", load: fileWith("../examples/dahu/dahu.toml"), sets: []string{`hpl.bcast="longM"`, "kernels.noise=false"}}, 0})
	}
	cmp := approximation{set: "hpl.roll=merged", base: "steps", with: "merged"}
	for b.Loop() {
		cmp.space(b, "space96", tuningSpace("long", "longM"))
		cmp.singles(b, singles)
		if long {
			cmp.fig6Small(b)
		}
	}
	if s, m := readWholeRuns(b, stampedeWholePath)[stampedeCase().name], readWholeRuns(b, stampedeWholeMergedPath)[stampedeMergedCase().name]; s.panels > 0 && m.panels > 0 {
		b.ReportMetric(100*(m.time-s.time)/s.time, "stampede-whole-err-%")
		b.Logf("stampede whole (recorded): steps %.6g s (%.0f s CPU), merged %.6g s (%.0f s CPU): %+.3f%%", s.time, s.cpu, m.time, m.cpu, 100*(m.time-s.time)/s.time)
	} else {
		b.Logf("no whole Stampede run recorded with merged rolls (%s)", stampedeWholeMergedPath)
	}
}

// approximation compares runs with an approximation's --set against the
// same runs without it (BenchmarkMergedRollError,
// BenchmarkPivotExchangeError); base and with name the two in the logs.
type approximation struct{ set, base, with string }

// approxCase is a case to compare from k panels (0: whole).
type approxCase struct {
	c extrapolationCase
	k int
}

// on returns c with the approximation set.
func (a approximation) on(c extrapolationCase) extrapolationCase {
	c.sets = append(append([]string(nil), c.sets...), a.set)
	return c
}

// timed runs c from k panels (0: whole) and returns its Time and CPU.
func timed(b *testing.B, c extrapolationCase, k int) (t, cpu float64) {
	runtime.GC()
	cpu0 := cpuSeconds()
	t = extrapolatedTime(b, c, k)
	return t, cpuSeconds() - cpu0
}

// space runs every case whole both ways and reports, under name, the
// median signed and absolute errors, the largest, and the median CPU ratio.
func (a approximation) space(b *testing.B, name string, cases []extrapolationCase) {
	var errs, ratios []float64
	for _, c := range cases {
		ts, cs := timed(b, c, 0)
		tm, cm := timed(b, a.on(c), 0)
		errs = append(errs, (tm-ts)/ts)
		ratios = append(ratios, cm/cs)
	}
	abs := make([]float64, len(errs))
	worst := 0
	for i, e := range errs {
		abs[i] = math.Abs(e)
		if abs[i] > abs[worst] {
			worst = i
		}
	}
	b.ReportMetric(100*median(errs), name+"-median-err-%")
	b.ReportMetric(100*median(abs), name+"-median-abs-err-%")
	b.ReportMetric(100*maxOf(abs), name+"-max-abs-err-%")
	b.ReportMetric(median(ratios), name+"-cpu-ratio")
	b.Logf("%s: largest error %+.3f%% at %s", name, 100*errs[worst], cases[worst].name)
}

// singles runs each case both ways and reports its error and CPU ratio.
func (a approximation) singles(b *testing.B, cases []approxCase) {
	for _, p := range cases {
		ts, cs := timed(b, p.c, p.k)
		tm, cm := timed(b, a.on(p.c), p.k)
		b.ReportMetric(100*(tm-ts)/ts, p.c.name+"-err-%")
		b.ReportMetric(cm/cs, p.c.name+"-cpu-ratio")
		b.Logf("%s K=%d: %s %.6g s (%.1f s CPU), %s %.6g s (%.1f s CPU): %+.3f%%", p.c.name, p.k, a.base, ts, cs, a.with, tm, cm, 100*(tm-ts)/ts)
	}
}

// fig6Small runs seed 003's Fig. 6 points at N = 500,000 whole with the
// approximation, against the whole runs without it recorded in
// testdata/fig6_whole.csv (the other points take from 10 minutes to hours).
func (a approximation) fig6Small(b *testing.B) {
	whole := readWholeRuns(b, fig6WholePath)
	for _, c := range fig6Cases() {
		w, ok := whole[c.name]
		if !ok || w.panels > 500 {
			continue
		}
		tm, cm := timed(b, a.on(c), 0)
		b.ReportMetric(100*(tm-w.time)/w.time, c.name+"-err-%")
		b.ReportMetric(cm/w.cpu, c.name+"-cpu-ratio-recorded")
		b.Logf("%s whole: %s %.6g s (recorded, %.0f s CPU), %s %.6g s (%.1f s CPU): %+.3f%%", c.name, a.base, w.time, w.cpu, a.with, tm, cm, 100*(tm-w.time)/w.time)
	}
}
