package replay

import (
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"
)

// peerDir holds the study's GOAL schedules and LogGOPSim's runtimes
// (shared/peers/loggopsim, vendored by loggops).
const peerDir = "../../loggops/testdata/loggopsim"

// logGOPSTol is the agreement required with LogGOPSim's printed runtimes,
// relative. results.csv prints ns with three decimals (1 ps), and both run
// on integer picoseconds, so the two agree to the digit.
const logGOPSTol = 1e-12

// peerRun is one row of results.csv: a LogGOPSim run, times in ns.
type peerRun struct {
	L, o, g, G, runtime float64
	S                   int64
}

// loadPeerRuns reads results.csv, keyed by schedule.
func loadPeerRuns(t *testing.T) map[string][]peerRun {
	t.Helper()
	recs := scenariotest.ReadCSV(t, filepath.Join(peerDir, "results.csv"))
	col := map[string]int{}
	for i, name := range recs[0] {
		col[name] = i
	}
	num := func(rec []string, name string) float64 {
		v, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil {
			t.Fatalf("results.csv %s: %v", name, err)
		}
		return v
	}
	runs := map[string][]peerRun{}
	for _, rec := range recs[1:] {
		runs[rec[col["schedule"]]] = append(runs[rec[col["schedule"]]], peerRun{
			L: num(rec, "L_ns"), o: num(rec, "o_ns"), g: num(rec, "g_ns"), G: num(rec, "G"),
			runtime: num(rec, "predicted_runtime"), S: int64(num(rec, "S_bytes")),
		})
	}
	return runs
}

// peerSchedules lists the vendored GOAL files, by schedule name.
func peerSchedules(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(peerDir, "goal", "*.goal"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no schedules in %s: %v", peerDir, err)
	}
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = strings.TrimSuffix(filepath.Base(f), ".goal")
	}
	return names
}

// TestLogGOPSimSemantics replays each of the study's 12 schedules under the
// loggops semantics at every L of results.csv (3, 4, …, 13 µs, with that
// row's o, g, G and S) and compares with LogGOPSim's printed runtime.
func TestLogGOPSimSemantics(t *testing.T) {
	runs := loadPeerRuns(t)
	names := peerSchedules(t)
	if len(names) != 12 {
		t.Errorf("%d vendored schedules, want the study's 12", len(names))
	}
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			tr, err := Load(filepath.Join(peerDir, "goal", name+".goal"), traceformat.FormatAuto)
			if err != nil {
				t.Fatal(err)
			}
			if len(runs[name]) == 0 {
				t.Fatalf("no LogGOPSim run of %s in results.csv", name)
			}
			worst := 0.0
			for _, run := range runs[name] {
				p := loggops.Params{L: run.L * 1e-9, O: run.o * 1e-9, Gap: run.g * 1e-9, G: run.G * 1e-9, S: run.S}
				res, err := RunLogGOPS(tr, p)
				if err != nil {
					t.Fatal(err)
				}
				got := res.Time * 1e9
				rel := math.Abs(got-run.runtime) / run.runtime
				worst = max(worst, rel)
				if rel > logGOPSTol {
					t.Errorf("L = %g ns: loggops %.3f ns, LogGOPSim %.3f ns (%.2g relative)", run.L, got, run.runtime, rel)
				}
			}
			t.Logf("%d L values, worst relative difference %.2g", len(runs[name]), worst)
		})
	}
}

// loadGOALText writes a GOAL schedule to a file and loads it.
func loadGOALText(t *testing.T, text string) *traceformat.Trace {
	t.Helper()
	path := filepath.Join(t.TempDir(), "case.goal")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Load(path, traceformat.FormatAuto)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

// TestLogGOPSHandSolved checks two-rank cases solved by hand (the worked
// examples of shared/reference/goal-and-llamp.md §5.7, §5.8) at
// LogGOPSim's default parameters: L = 2500, o = 1500, g = 1000, G = 6 ns
// per byte, S = 65535 bytes.
func TestLogGOPSHandSolved(t *testing.T) {
	const ns = 1e-9
	defaults := loggops.Params{L: 2500 * ns, O: 1500 * ns, Gap: 1000 * ns, G: 6 * ns, S: 65535}
	noGap := defaults
	noGap.Gap = 0
	eager := defaults
	eager.S = 200000
	wideGap := defaults
	wideGap.Gap = 10000 * ns
	const threeSends = "num_ranks 2\nrank 0 {\nl1: send 1000b to 1 tag 0\nl2: send 1000b to 1 tag 1\nl3: send 1000b to 1 tag 2\n}\n" +
		"rank 1 {\nl1: recv 1000b from 0 tag 0\nl2: recv 1000b from 0 tag 1\nl3: recv 1000b from 0 tag 2\n}\n"
	const lateRecv = "num_ranks 2\nrank 0 {\nl1: send 100001b to 1 tag 0\nl2: calc 100\nl2 requires l1\n}\n" +
		"rank 1 {\nl1: calc 50000\nl2: recv 100001b from 0 tag 0\nl2 requires l1\n}\n"
	for _, tc := range []struct {
		name, goal string
		p          loggops.Params
		want       float64 // ns
	}{
		// The sender pays o = 1500; the first byte arrives at o + L = 4000;
		// the receiver pays o + (s−1)·G = 1500: 2o + L = 5500.
		{"one byte", "num_ranks 2\nrank 0 {\nl1: send 1b to 1 tag 0\n}\nrank 1 {\nl1: recv 1b from 0 tag 0\n}\n", defaults, 5500},
		// Sends leave every g + (s−1)·G = 6994 (at 0, 6994, 13988) and
		// arrive at 4000, 10994, 17988; the receiving CPU takes
		// o + (s−1)·G = 7494 per message, so it is busy from 4000 on:
		// 4000 + 3·7494 = 26482 (the sender ends at 15488).
		{"three sends", threeSends, defaults, 26482},
		// g = 0: sends at 0, 5994, 11988 (the sender ends at 13488), arrivals
		// at 4000, 9994, 15988, each before the CPU is free: still 26482.
		{"three sends, g = 0", threeSends, noGap, 26482},
		// The message arrives at 4000 while the receiver computes until
		// 50000; its o + (s−1)·G = 1500 + 600000 runs after: 651500, eager
		// or rendezvous. (Rendezvous holds the sender's calc 100 until the
		// match at 50000, eager lets it end at 1600: neither is last.)
		{"late receive, rendezvous", lateRecv, defaults, 651500},
		{"late receive, eager", lateRecv, eager, 651500},
		// Rendezvous, the sender's calc made long enough to be last: it
		// starts at the match, 50000, and lasts 700000.
		{"rendezvous holds the sender", strings.Replace(lateRecv, "calc 100\n", "calc 700000\n", 1), defaults, 750000},
		// The same eager: the calc starts at o = 1500.
		{"eager frees the sender", strings.Replace(lateRecv, "calc 100\n", "calc 700000\n", 1), eager, 701500},
		// g = 10000: the second send waits for the NIC until
		// g + (s−1)·G = 15994, arrives at 15994 + o + L = 19994 and is
		// processed then (the CPU is free from 4000 + 7494 = 11494):
		// 19994 + 7494 = 27488.
		{"one nic", "num_ranks 2\nrank 0 {\nl1: send 1000b to 1 tag 0\nl2: send 1000b to 1 tag 1\n}\n" +
			"rank 1 {\nl1: recv 1000b from 0 tag 0\nl2: recv 1000b from 0 tag 1\n}\n", wideGap, 27488},
		// On nic 1 it leaves when the CPU is free, at o = 1500, arrives at
		// 5500, and its receive (the sender's nic index, a gap timeline of
		// its own) waits only for the CPU: 11494 + 7494 = 18988.
		{"two nics", "num_ranks 2\nrank 0 {\nl1: send 1000b to 1 tag 0\nl2: send 1000b to 1 tag 1 nic 1\n}\n" +
			"rank 1 {\nl1: recv 1000b from 0 tag 0\nl2: recv 1000b from 0 tag 1\n}\n", wideGap, 18988},
		// LogGOPSim's CPUs are separate timelines and a dependency carries
		// no time across them (§5.8): calc 200 on cpu 1 after calc 100 on
		// cpu 0 starts at 0, the host's time is 200.
		{"cpu annotation", "num_ranks 1\nrank 0 {\nl1: calc 100\nl2: calc 200 cpu 1\nl2 requires l1\n}\n", defaults, 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := RunLogGOPS(loadGOALText(t, tc.goal), tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Time / ns; math.Abs(got-tc.want) > 1e-6 {
				t.Errorf("%.3f ns, want %.3f ns", got, tc.want)
			}
		})
	}
}

// TestLogGOPSRefusesTI: a TI trace has no LogGOPS reading.
func TestLogGOPSRefusesTI(t *testing.T) {
	tr, err := traceformat.ParseTI(strings.NewReader("0 send 1 0 8\n1 recv 0 0 8\n"), "two.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, err = RunLogGOPS(tr, loggops.Params{})
	if err == nil || !strings.Contains(err.Error(), "GOAL schedules only") {
		t.Errorf("err = %v, want a refusal of the TI trace", err)
	}
}

// TestContention replays the study's schedules three ways at LogGOPSim's
// parameters of results.csv's L = 3 µs (logGP): under the loggops
// semantics (LogGOPSim's runtime), under the MPI semantics on the
// documented mapping (a flat cluster: a route is the two hosts' links, L/2
// and 1/G each, so only messages of one host share a link), and the same
// with the hosts' links joined by a shared backbone of 8/G bytes/s and no
// latency (L and G of every route unchanged; 8 messages at full speed
// through the whole machine). The table of README's "GOAL against
// LogGOPSim" is this test's log (go test -run TestContention -v
// ./apps/replay); the times are pinned to the replays' of 2026-11-26.
func TestContention(t *testing.T) {
	p := loggops.Params{L: logGP.L, O: logGP.o, G: logGP.G, S: 65535}
	backbone := &fluid.Backbone{Bandwidth: 8 / logGP.G}
	pinned := map[string][3]float64{ // s: loggops, mpi flat, mpi with the backbone
		"allreduce_recdoub_64":      {193158.696e-9, 153158.912e-9, 413271.296e-9},
		"allreduce_ring_fifo_16":    {423749.460e-9, 423750e-9, 457500e-9},
		"allreduce_ring_fifo_64":    {1673435.232e-9, 1673437.5e-9, 1921500e-9},
		"binomialtreebcast_1024":    {130001.260e-9, 130001.44e-9, 130001.44e-9},
		"dissemination_64":          {78000.756e-9, 78000.864e-9, 78006.912e-9},
		"linear_alltoall_32":        {310570.834e-9, 310000e-9, 310000e-9},
		"resnet_64":                 {27140291.976e-9, 26368293.056e-9, 208391344.448e-9},
		"sample_binary_tree_32":     {65000e-9, 65000.09e-9, 65000.09e-9},
		"sample_llamp_blocking":     {16000.054e-9, 16000.072e-9, 16000.072e-9},
		"sample_llamp_non_blocking": {16000.054e-9, 16000.072e-9, 16000.072e-9},
		"stencil2d_8x8_it50":        {2529487.6e-9, 2500000e-9, 2500000e-9},
		"trace_bcast_4":             {73001.188e-9, 73000.432e-9, 73000.432e-9},
	}
	const relTol = 1e-9 // the pins have 12 digits or more
	t.Logf("| schedule | ranks | LogGOPSim = loggops (µs) | mpi, flat (µs) | vs LogGOPSim | mpi, backbone 8/G (µs) | vs flat |")
	t.Logf("|---|---|---|---|---|---|---|")
	for _, name := range peerSchedules(t) {
		tr, err := Load(filepath.Join(peerDir, "goal", name+".goal"), traceformat.FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		lg, err := RunLogGOPS(tr, p)
		if err != nil {
			t.Fatal(err)
		}
		flat, err := Run(logGPWorld(t, tr.Ranks()), tr, Config{Speed: testSpeed})
		if err != nil {
			t.Fatal(err)
		}
		bone, err := Run(logGPWorldOn(t, tr.Ranks(), backbone), tr, Config{Speed: testSpeed})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("| `%s` | %d | %.3f | %.3f | %+.2f%% | %.3f | %+.2f%% |", name, tr.Ranks(), lg.Time*1e6, flat.Time*1e6,
			100*(flat.Time/lg.Time-1), bone.Time*1e6, 100*(bone.Time/flat.Time-1))
		want, ok := pinned[name]
		if !ok {
			t.Errorf("%s: no pinned times", name)
			continue
		}
		for i, got := range []float64{lg.Time, flat.Time, bone.Time} {
			if math.Abs(got-want[i]) > relTol*want[i] {
				t.Errorf("%s: %s %.12g s, pinned %.12g s", name, [...]string{"loggops", "mpi flat", "mpi backbone"}[i], got, want[i])
			}
		}
	}
}
