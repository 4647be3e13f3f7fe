//go:build linux

package validation

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/runner"
)

// BenchmarkPeerSpeedZen5 runs the three MR rows of the like-for-like speed
// campaign against SMPI 3.32 (shared/peers/smpi/speed-zen5: its README and
// results.csv) in SimGrid's order, as that campaign's "emu simgrid" runs:
// the 16×16 and 8×8 N = 80,000 rows with Iprobe 1e-6 on cm02, and the 16×16
// row on SMPI's network model with its Iprobe 1e-4. It reports CPU and HPL's
// Time (which must be SMPI's to the microsecond, or the benchmark fails) and
// SMPI's wall there (the median of its three runs) over emu's CPU: issue 32
// item 6 asks for 30× in SimGrid order. The campaign's machine is not this one:
// compare builds with each other on one machine, and against SMPI only as
// far as the two machines compare.
//
//	nice -n 19 go test -run XXX -bench PeerSpeedZen5 -benchtime 1x ./validation
func BenchmarkPeerSpeedZen5(b *testing.B) {
	rows := map[string]PeerRow{}
	for _, r := range loadPeerRows(b) {
		rows[r.Name] = r
	}
	ip6x16 := rows["mr_ip6_flat_8x8_80000"] // the same settings on the 16×16 HPL.dat (not a row of results.csv)
	ip6x16.Name, ip6x16.P, ip6x16.Q = "mr_ip6_flat_16x16_80000", 16, 16
	cases := []struct {
		name     string
		row      PeerRow
		smpiWall float64 // s, the campaign's median
		smpiTime float64 // s, HPL's Time under SMPI there
	}{
		{"16x16_ip6_cm02", ip6x16, 159.6, 12.575915},
		{"8x8_ip6_cm02", rows["mr_ip6_flat_8x8_80000"], 41.97, 32.471614},
		{"16x16_smpinet", rows["mr_smpinet_flat_16x16_80000"], 128.1, 18.651157},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s, err := c.row.Scenario("testdata") // SimGrid's order
			if err != nil {
				b.Fatal(err)
			}
			plan, err := s.Validate()
			if err != nil {
				b.Fatal(err)
			}
			var cpu, hplTime float64
			for b.Loop() {
				cpu0 := cpuSeconds()
				res, err := runner.Run(plan, runner.Options{})
				if err != nil {
					b.Fatal(err)
				}
				cpu = cpuSeconds() - cpu0
				hplTime = res.HPL[0].Time
			}
			if math.Abs(hplTime-c.smpiTime) > 0.5e-6 {
				b.Fatalf("HPL Time %.6f s, SMPI's %.6f s", hplTime, c.smpiTime)
			}
			b.ReportMetric(cpu, "cpu-s")
			b.ReportMetric(hplTime, "hpl-time-s")
			b.ReportMetric(c.smpiWall/cpu, "smpi-wall/emu-cpu")
		})
	}
}
