package runner

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/scenario"
)

// TestLogGOPSScenario: replay.semantics = "loggops" on the scenario above
// gives LogGOPSim's printed runtimes at L = 3 µs (results.csv).
func TestLogGOPSScenario(t *testing.T) {
	const peerGOAL = "../loggops/testdata/loggopsim/goal/"
	for _, tc := range []struct {
		file string
		want float64 // ns, LogGOPSim
	}{
		{"allreduce_recdoub_64", 193158.696},
		{"resnet_64", 27140291.976},
		{"stencil2d_8x8_it50", 2529487.600},
		{"linear_alltoall_32", 310570.834},
		{"trace_bcast_4", 73001.188},
	} {
		t.Run(tc.file, func(t *testing.T) {
			path, err := filepath.Abs(peerGOAL + tc.file + ".goal")
			if err != nil {
				t.Fatal(err)
			}
			dir := scenariotest.WriteScenario(t, map[string]string{"s.toml": "app = \"replay\"\n[replay]\nsemantics = \"loggops\"\nfile = \"" + path + "\"\n" + scenariotest.LogGOPSPlatform})
			s, err := scenario.Load(filepath.Join(dir, "s.toml"))
			p := mustPlan(t, s, err)
			res, err := Run(p, Options{})
			if err != nil {
				t.Fatal(err)
			}
			const relTol = 1e-12 // both on integer picoseconds
			if got := res.SimulatedTime * 1e9; math.Abs(got-tc.want) > relTol*tc.want {
				t.Errorf("loggops %.3f ns, LogGOPSim %.3f ns", got, tc.want)
			}
		})
	}
}
