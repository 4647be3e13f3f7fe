package validation

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestTIReplayZoneClustersAgainstSMPI replays TI traces of testdata/tireplay
// on platforms of zones whose fat-tree, torus and dragonfly clusters sit
// among other zones (platform/testdata/zones), the ranks on hosts of two or
// three of them, and requires the simulated time of SimGrid 3.32's own
// replayer to tiTolerance. SMPI's times were printed by
//
//	smpirun -np N -platform ../platform/testdata/zones/P.xml -hostfile H -replay IDX \
//	  --log=smpi_replay.fmt:%.15d%e%m%n --log=root.thres:critical --log=smpi_replay.thres:info
//
// (H: the hosts below, one a line; IDX: the trace's path; the clock of the
// last "Simulation time" line), as testdata/tireplay/README.md says, on
// Debian's SimGrid 3.32 on 2026-11-29.
func TestTIReplayZoneClustersAgainstSMPI(t *testing.T) {
	tests := []struct {
		trace, platform, hosts string
		smpi                   float64 // s
	}{
		{"pingpong", "mixed_zones", "a1 c5", 0.018641109274159},                                          // fat tree → dragonfly (a0, c0 gateways)
		{"pingpong", "mixed_zones", "b1 c3", 0.017115804574159},                                          // torus → dragonfly (b3, c7)
		{"pingpong", "torus_zones", "t0 f1.fl", 0.122351302793271},                                       // torus with limiters → flat cluster
		{"pingpong", "fattree_zones", "fl-0 e1", 0.296404915402934},                                      // Floyd path across the fat tree, n1 to n6
		{"allreduce_8", "mixed_zones", "a0 a1 a2 a3 b0 b1 b2 b3", 0.004940408927197},                     // fat tree + torus
		{"alltoall_8", "mixed_zones", "b0 b1 b2 b3 c0 c1 c2 c3", 0.002441587985384},                      // torus + dragonfly, contended gateways
		{"allgather_8", "fattree_two", "a0 a1 a2 a3 b0 b1 b2 b3", 0.007188813554114},                     // two fat trees
		{"ring", "mixed_zones", "a0 b0 c0 a1 b1 c1 a2 c2", 0.018148301027622},                            // the three clusters in turn
		{"incast", "torus_zones", "t0 t1 t2 t3 t5 f0.fl f1.fl solo", 0.052060046535369},                  // into the torus's gateway's limiter
		{"bcast_8", "dragonfly_zones", "d0.df d3.df d6.df d9.df d12.df d15.df s0 r1", 0.284347757254908}, // two levels of zones
		{"sendrecv", "fattree_zones", "n0 n3 n5 fl-1", 0.132509828988377},
		{"pingpong", "dijkstra_zones", "t0 d5", 0.026013340137867}, // two zone routes of a Dijkstra zone, meeting at a router
		{"alltoall_6", "dijkstra_zones", "t0 t1 t2 d3 d4 d5", 0.003497098547637},
	}
	dir := t.TempDir()
	for i, tt := range tests {
		t.Run(tt.trace+"/"+tt.platform+"/"+strings.ReplaceAll(tt.hosts, " ", "-"), func(t *testing.T) {
			hostfile := filepath.Join(dir, "hosts"+strconv.Itoa(i))
			if err := os.WriteFile(hostfile, []byte(strings.ReplaceAll(tt.hosts, " ", "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			got := replaySMPI(t, filepath.Join("..", "platform", "testdata", "zones", tt.platform+".xml"),
				filepath.Join(tiDir, "traces", tt.trace+".txt"), "platform.hostfile="+strconv.Quote(hostfile))
			if math.Abs(got-tt.smpi) > tiTolerance {
				t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", got, tt.smpi, got-tt.smpi, tiTolerance)
			}
		})
	}
}
