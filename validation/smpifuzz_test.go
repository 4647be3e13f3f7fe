package validation

import (
	"math"
	"path/filepath"
	"strconv"
	"testing"
)

// fuzzDir holds random SimGrid platforms, hostfiles and TI traces drawn by
// gen.py, with SimGrid 3.32's replayer's time for each
// (testdata/smpifuzz/README.md says how they were made and chosen).
const fuzzDir = "testdata/smpifuzz"

// TestSMPIFuzzAgainstSMPI replays each case of testdata/smpifuzz (a random
// platform of clusters of every topology or of zones of hosts and links
// under Full, Floyd, Dijkstra and DijkstraCache routing, a random
// placement and a random trace) under SimGrid's network model of its row
// and SMPI's settings (replaySMPI), and requires smpirun -replay's time
// to tiTolerance. Among them are the cases where a FATPIPE link of a zone
// saturates under flows of unequal penalties (s080, s110, fatpipe3), which
// emu's SimGrid solver missed by up to 49% before it solved FATPIPE
// constraints as SimGrid's lmm does; and s154min, where two ranks woken by
// one message's end ran in the wrong order (the receiver first, though the
// sender's waitany had waited longer), which moved the order in which
// four messages started and the run's end by 14.1 µs. The s1NNN cases
// (seeds from 1000) add Cluster zones with host links, bypass routes,
// profiles and <config>s; oisgather (a gather's non-roots pay smpi/ois)
// orleft (an irecv no wait took pays smpi/or when it completes, in the
// replayer's closing waitall) and orallgather (an allgatherv's receives
// pay smpi/or as they complete, in its sub-requests' waitall) failed
// before emu did as SMPI does. s1058 and s1285 (a FATPIPE link's
// bandwidth profile) were refused before emu played it; s1048, s1148 and
// s1292 hold a link change in a message's latency phase, which SimGrid
// 3.32 stalls: emu ended earlier before it stalled such a message too.
// s1235 and s1248 hold two dragonflies, whose cables SimGrid numbers in
// one sequence: emu refused their names as clashing before. s1323 holds a
// Cluster zone's host with no links up or down that no message needs:
// emu refused it at load before, where SimGrid aborts only at a message.
// s1361 and testdetached test detached isends and irecvs at one instant:
// SMPI's test of a detached send makes no simcall and resets the shared
// test counter before the others' failures grow it; emu ended early.
// s1213 and s1370 ended early before emu read a platform's latencies with
// SimGrid's arithmetic (115 × 1e-9 s, not the float nearest 1.15e-7) and
// left a torus host's loopback off its route to a bypass it is the
// gateway of; s1158 before a rank's sleep without a timer ended the step
// in which an unused link's latency change is applied early. s1420, s1469
// and s1485 set SMPI overheads as host and cluster <prop>s.
func TestSMPIFuzzAgainstSMPI(t *testing.T) {
	rows := readSMPITimes(t, filepath.Join(fuzzDir, "smpi_times.csv"), "case,model,ranks,smpi_time_s")
	if len(rows) == 0 {
		t.Fatal("no case in smpi_times.csv")
	}
	for i, r := range rows {
		name, model := r[0], r[1]
		sets := tiModels[model]
		if sets == nil {
			t.Fatalf("smpi_times.csv:%d: model %q, want SMPI or CM02", i+2, model)
		}
		smpi, err := strconv.ParseFloat(r[3], 64)
		if err != nil {
			t.Fatalf("smpi_times.csv:%d: time %q", i+2, r[3])
		}
		t.Run(name+"/"+model, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(fuzzDir, "cases", name)
			got := replaySMPI(t, filepath.Join(dir, "p.xml"), filepath.Join(dir, "t.txt"),
				append([]string{"platform.hostfile=" + strconv.Quote(filepath.Join(dir, "hosts.txt"))}, sets...)...)
			if math.Abs(got-smpi) > tiTolerance {
				t.Errorf("emu %.15f s, SMPI %.15f s: %+.3g s (tolerance %g s)", got, smpi, got-smpi, tiTolerance)
			}
		})
	}
}
