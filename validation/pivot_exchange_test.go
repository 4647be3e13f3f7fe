package validation

import (
	"os"
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
	singles := []approxCase{
		{extrapolationCase{name: "peer_8x8_N80000", load: peerRow("mr_ip6_flat_8x8_80000")}, 0},
		{extrapolationCase{name: "peer_16x16_N80000", load: peerRow("ip6_diag_flat_16x16_80000")}, 0},
		{stampedeMergedLocalCase(), 16},
	}
	cmp := approximation{set: "hpl.pivot_exchange=uncontended", base: "messages", with: "uncontended"}
	for b.Loop() {
		cmp.space(b, "space288", tuningSpace("1ring", "1ringM", "2ring", "2ringM", "long", "longM"))
		cmp.singles(b, singles)
		if os.Getenv("EMU_LONG") == "1" {
			cmp.fig6Small(b)
		}
	}
	recorded := readWholeRuns(b, stampedeWholeMergedPath)
	if m, u := recorded[stampedeMergedLocalCase().name], recorded[stampedeUncontendedCase().name]; m.panels > 0 && u.panels > 0 {
		b.ReportMetric(100*(u.time-m.time)/m.time, "stampede-whole-err-%")
		b.Logf("stampede whole (recorded): merged+local %.6g s (%.0f s CPU), uncontended too %.6g s (%.0f s CPU): %+.3f%%", m.time, m.cpu, u.time, u.cpu, 100*(u.time-m.time)/m.time)
	}
}
