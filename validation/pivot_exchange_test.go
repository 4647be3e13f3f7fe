package validation

import (
	"math"
	"os"
	"runtime"
	"testing"
)

// BenchmarkPivotExchangeError measures the error of uncontended pivot
// exchanges (hpl.pivot_exchange = "uncontended", an approximation:
// hpl.PivotUncontended) against HPL's messages (the default), the same case
// run both ways, whole unless said:
//
//   - space288: issue 13's 288-point tuning space (4×4, 2×8 and 1×16 on the
//     embedded default's flat 10 Gb/s network, N = 20,000, 8 NBs × 6
//     broadcasts × 2 depths), whole: small panels, where latency rules;
//   - the SMPI peers' 8×8 and 16×16 (N = 80,000), whole;
//   - stampede_K16: examples/stampede.toml with merged rolls and local
//     re-solves from 16 panels, against the same without.
//
// Each case reports its signed error in percent and the CPU of the
// uncontended run over the messages' run. With EMU_LONG=1 it adds seed
// 003's Fig. 6 points at N = 500,000 run whole, against the messages' whole
// runs recorded in testdata/fig6_whole.csv; and it states the recorded whole
// Stampede runs' (testdata/stampede_whole_merged.csv) error.
//
//	nice -n 19 go test -run XXX -bench PivotExchangeError -benchtime 1x -timeout 2h ./validation
func BenchmarkPivotExchangeError(b *testing.B) {
	uncontended := func(c extrapolationCase) extrapolationCase {
		c.sets = append(append([]string(nil), c.sets...), "hpl.pivot_exchange=uncontended")
		return c
	}
	type pair struct {
		c extrapolationCase
		k int
	}
	space := tuningSpace("1ring", "1ringM", "2ring", "2ringM", "long", "longM")
	singles := []pair{
		{extrapolationCase{name: "peer_8x8_N80000", load: peerRow("mr_ip6_flat_8x8_80000")}, 0},
		{extrapolationCase{name: "peer_16x16_N80000", load: peerRow("ip6_diag_flat_16x16_80000")}, 0},
		{stampedeMergedLocalCase(), 16},
	}
	long := os.Getenv("EMU_LONG") == "1"
	timed := func(c extrapolationCase, k int) (t, cpu float64) {
		runtime.GC()
		cpu0 := cpuSeconds()
		t = extrapolatedTime(b, c, k)
		return t, cpuSeconds() - cpu0
	}
	for b.Loop() {
		var errs, ratios []float64
		for _, c := range space {
			tm, cm := timed(c, 0)
			tu, cu := timed(uncontended(c), 0)
			errs = append(errs, (tu-tm)/tm)
			ratios = append(ratios, cu/cm)
		}
		abs := make([]float64, len(errs))
		worst := 0
		for i, e := range errs {
			abs[i] = math.Abs(e)
			if abs[i] > abs[worst] {
				worst = i
			}
		}
		b.Logf("space288: largest error %+.3f%% at %s", 100*errs[worst], space[worst].name)
		b.ReportMetric(100*median(errs), "space288-median-err-%")
		b.ReportMetric(100*median(abs), "space288-median-abs-err-%")
		b.ReportMetric(100*maxOf(abs), "space288-max-abs-err-%")
		b.ReportMetric(median(ratios), "space288-cpu-ratio")
		for _, p := range singles {
			tm, cm := timed(p.c, p.k)
			tu, cu := timed(uncontended(p.c), p.k)
			b.ReportMetric(100*(tu-tm)/tm, p.c.name+"-err-%")
			b.ReportMetric(cu/cm, p.c.name+"-cpu-ratio")
			b.Logf("%s K=%d: messages %.6g s (%.1f s CPU), uncontended %.6g s (%.1f s CPU): %+.3f%%", p.c.name, p.k, tm, cm, tu, cu, 100*(tu-tm)/tm)
		}
		if !long {
			continue
		}
		whole := readWholeRuns(b, fig6WholePath)
		for _, c := range fig6Cases() {
			w, ok := whole[c.name]
			if !ok || w.panels > 500 {
				continue // N = 500,000 only: the others take from 10 minutes to hours
			}
			tu, cu := timed(uncontended(c), 0)
			b.ReportMetric(100*(tu-w.time)/w.time, c.name+"-err-%")
			b.ReportMetric(cu/w.cpu, c.name+"-cpu-ratio-recorded")
			b.Logf("%s whole: messages %.6g s (recorded, %.0f s CPU), uncontended %.6g s (%.1f s CPU): %+.3f%%", c.name, w.time, w.cpu, tu, cu, 100*(tu-w.time)/w.time)
		}
	}
	recorded := readWholeRuns(b, stampedeWholeMergedPath)
	if m, u := recorded[stampedeMergedLocalCase().name], recorded[stampedeUncontendedCase().name]; m.panels > 0 && u.panels > 0 {
		b.ReportMetric(100*(u.time-m.time)/m.time, "stampede-whole-err-%")
		b.Logf("stampede whole (recorded): merged+local %.6g s (%.0f s CPU), uncontended too %.6g s (%.0f s CPU): %+.3f%%", m.time, m.cpu, u.time, u.cpu, 100*(u.time-m.time)/m.time)
	}
}
