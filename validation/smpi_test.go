package validation

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
	"github.com/emu-hpc/emu/runner"
)

var slow = flag.Bool("emu.slow", false, "also run the peer rows too slow for CI (8×8 N=80000 and 16×16 grids: minutes)")

// update is internal/golden's -update flag: rewrite testdata/smpi_comparison.md
// from this run.
var update = golden.Updating

// peerTolerance is the agreement issue 3 requires with SMPI's HPL Time, relative.
const peerTolerance = 0.02

// goldenDrift is how far a row's simulated time may move from the golden table
// before the table must be regenerated with -update, relative. Simulated times are
// deterministic; the slack lets a small modelling change land without a table edit.
const goldenDrift = 1e-3

// fastCells bounds the rows run by default: P·Q·⌈N/NB⌉ rank-panels (4×4 N=40000
// is 5,008). 8×8 N=40000
// (20,032) takes 5–13 s here, 8×8 N=80000 (40,000) ~15 s and 16×16 N=80000 ~50 s
// under load, so those run only with -emu.slow.
const fastCells = 10000

const goldenPath = "testdata/smpi_comparison.md"

// departureDrift is how far a known departure may move from its measured error
// before the test fails, in relative error (0.5 percentage points).
const departureDrift = 0.005

// peerDepartures are the rows that miss peerTolerance, with the error measured and
// why. Rows run under SimGrid's order (network.wake_order = "simgrid",
// ranks.Config.WakeOrder = WakeSimGrid), which reproduces SimGrid 3.32 float for float:
// its action heaps' tie order, its max-min solve with its precision cut-offs,
// its clock arithmetic, SMPI's MPI_Comm_split messages and the flops round trip
// of injected times. That matters at 256 ranks, where SimGrid's shared Iprobe
// counter makes the run chaotic: a 1e-11 relative change of the Iprobe cost
// moves SMPI's own 16×16 MR time by −1.5…+8.9% (flat) and −0.02…+7.2% (fat
// tree), measured with Debian's SimGrid 3.32 (testdata/smpi_reruns.csv), and emu
// gives each of those perturbed figures to the microsecond too
// (TestSMPIRerunsReproduced).
//
// The one row left is the peer's 16×16 run under SMPI's network model. Run
// again here from the peer README's command line, SimGrid 3.32 gives
// 18.651157 s — emu's figure to the microsecond — not the 21.825642 s of
// results.csv: that row's figure came from a set-up its README does not
// describe.
var peerDepartures = map[string]struct {
	measured float64 // (emu − SMPI)/SMPI
	why      string
}{
	"mr_smpinet_flat_16x16_80000": {-0.1455, "SMPI 3.32 run again from the peer's README gives 18.651157 s, emu's figure"},
}

// peerExactMiss are the rows within peerTolerance that emu does not give to
// SMPI's printed microsecond under SimGrid's order; every other reproducible
// row must match to the microsecond.
var peerExactMiss = map[string]bool{
	// SimGrid 3.32 re-run here from the peer README gives emu's figures for
	// these (testdata/smpi_reruns.csv)
	"diag_flat_16x16_80000": true, "diag_ft_16x16_80000": true, "mr_ip6_ft_8x8_80000": true,
	"mr_smpinet_flat_16x16_80000": true,
	// the peer README quotes these to the millisecond only
	"readme_mr_flat_16x16_80000": true, "readme_mr_ip6_flat_16x16_80000": true,
}

func loadPeerRows(t testing.TB) []PeerRow {
	t.Helper()
	f, err := os.Open("testdata/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := ReadPeerRows(f, "testdata/results.csv")
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// emuOutcome is what emu gave for one peer row.
type emuOutcome struct {
	time, wall float64 // HPL Time (simulated) and the emulation's wall time, s
	end        float64 // simulated time at the end of the program, s
	cpu        float64 // process CPU time of the emulation, s (measured with -update only)
	ran        bool
}

// TestSMPIPeer reproduces every row of the SMPI peer's results.csv that emu can
// reproduce — pivot rules MR (splitmix) and MD (diagonal), net=cm02 and
// smpi-default, Iprobe 1e-4 and 1e-6, flat and fat tree, the BCAST × DEPTH sweep —
// from the row's own HPL.dat and platform XML under SimGrid's order, and
// requires HPL's Time to SMPI's printed microsecond (but for peerExactMiss), and
// within 2% (but for peerDepartures). Rows that emu cannot reproduce by
// definition are logged with the reason.
func TestSMPIPeer(t *testing.T) {
	// One row beyond fastCells (the smallest, first by name) runs without
	// -emu.slow too: a CI-sized sample of the slow rows, so that the path
	// they take (more ranks, longer runs) is exercised on every run.
	rows := append(loadPeerRows(t), readmeRows()...)
	sample := slowSample(rows)
	golden := readGolden(t)
	var mu sync.Mutex
	outcomes := map[string]emuOutcome{}
	t.Run("rows", func(t *testing.T) {
		for _, row := range rows {
			if why := row.Unreproducible(); why != "" {
				t.Logf("%s (variant %s): not reproducible: %s", row.Name, row.Variant, why)
				continue
			}
			t.Run(row.Name, func(t *testing.T) {
				if row.Cells() > fastCells && !*slow && row.Name != sample {
					t.Skipf("%d×%d N=%d: run with -emu.slow", row.P, row.Q, row.N)
				}
				if !update() {
					t.Parallel() // -update runs rows one at a time, so that CPU time is theirs
				}
				cpu0 := cpuSeconds()
				got := runPeerRow(t, row)
				got.cpu = cpuSeconds() - cpu0
				mu.Lock()
				outcomes[row.Name] = got
				mu.Unlock()
				rel := (got.time - row.HPLTime) / row.HPLTime
				if d, ok := peerDepartures[row.Name]; ok {
					t.Logf("known departure %+.2f%% (measured %+.2f%%): %s", 100*rel, 100*d.measured, d.why)
					if math.Abs(rel-d.measured) > departureDrift {
						t.Errorf("HPL Time %.6f s, SMPI %.6f s: %+.2f%%, the known departure was %+.2f%%", got.time, row.HPLTime, 100*rel, 100*d.measured)
					}
				} else if math.Abs(rel) > peerTolerance {
					t.Errorf("HPL Time %.6f s, SMPI %.6f s: %+.2f%% (tolerance ±%.0f%%)", got.time, row.HPLTime, 100*rel, 100*peerTolerance)
				}
				if !peerExactMiss[row.Name] && math.Abs(got.time-row.HPLTime) > 0.5e-6 {
					t.Errorf("HPL Time %.7f s, SMPI prints %.6f s: not to the microsecond", got.time, row.HPLTime)
				}
				// The end of the program (HPL's output, the grid's release,
				// MPI_Finalize) to SMPI's printing: 6 significant digits.
				if _, ok := peerDepartures[row.Name]; !ok && !peerExactMiss[row.Name] && row.SimTime > 0 {
					if half := printedHalfUnit(row.SimTime); math.Abs(got.end-row.SimTime) > half+0.5e-6 {
						t.Errorf("program ends at %.7f s, SMPI's simulated time %g s (±%g printed): %+.1f µs",
							got.end, row.SimTime, half, 1e6*(got.end-row.SimTime))
					}
				}
				if g, ok := golden[row.Name]; ok && !update() && math.Abs(got.time-g.time) > goldenDrift*g.time {
					t.Errorf("HPL Time %.6f s, %s has %.6f s: rerun with -update", got.time, goldenPath, g.time)
				}
			})
		}
	})
	if update() {
		for name, o := range golden {
			if _, ok := outcomes[name]; !ok {
				outcomes[name] = o // rows not run this time keep their last figures
			}
		}
		if err := os.WriteFile(goldenPath, []byte(comparisonTable(rows, outcomes)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// rankOrderTolerance is how close the rows up to 8×8 come in emu's default
// order at ties (network.wake_order = "rank": lowest rank first, 1.33–1.37× less
// CPU than SimGrid's order at 16×16); worst measured 1.41%.
const rankOrderTolerance = 0.02

// TestSMPIPeerRankOrder runs the peer rows up to 8×8 in emu's default order
// and requires HPL's Time within rankOrderTolerance of SMPI's: what `emu run`
// gives without wake_order = "simgrid".
func TestSMPIPeerRankOrder(t *testing.T) {
	for _, row := range loadPeerRows(t) {
		if row.Unreproducible() != "" || row.P*row.Q > 64 {
			continue
		}
		t.Run(row.Name, func(t *testing.T) {
			if row.Cells() > fastCells && !*slow {
				t.Skipf("%d×%d N=%d: run with -emu.slow", row.P, row.Q, row.N)
			}
			t.Parallel()
			got := runPeerRow(t, row, "network.wake_order=rank")
			if rel := (got.time - row.HPLTime) / row.HPLTime; math.Abs(rel) > rankOrderTolerance {
				t.Errorf("HPL Time %.6f s, SMPI %.6f s: %+.2f%% (tolerance ±%.0f%%)", got.time, row.HPLTime, 100*rel, 100*rankOrderTolerance)
			}
		})
	}
}

// readmeRows are SMPI figures of runs kept back from results.csv that the peer's
// README quotes (§6.1–6.2): MR on the flat cluster, 16×16, N=80000, with both
// Iprobe costs. Their wall times are not given; the 16×16 M runs' stand in.
func readmeRows() []PeerRow {
	base := PeerRow{P: 16, Q: 16, N: 80000, NB: 128, BCast: 1, Depth: 1, Topology: "flat",
		Variant: "MR", Net: "cm02", IprobeGrowth: true}
	mr, ip6 := base, base
	mr.Name, mr.HPLTime, mr.IprobeCost, mr.WallSeconds, mr.PeakPSSMB = "readme_mr_flat_16x16_80000", 18.468, smpiDefaultIprobe, 162.44, 125
	ip6.Name, ip6.HPLTime, ip6.IprobeCost, ip6.WallSeconds, ip6.PeakPSSMB = "readme_mr_ip6_flat_16x16_80000", 12.576, 1e-6, 130.51, 129
	return []PeerRow{mr, ip6}
}

// runPeerRow emulates one row and returns HPL's Time and the wall time.
func runPeerRow(t testing.TB, row PeerRow, extra ...string) emuOutcome {
	t.Helper()
	s, err := row.Scenario("testdata", extra...)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	res, err := runner.Run(plan, runOptions())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.HPL) != 1 || res.HPL[0] == nil {
		t.Fatalf("%d HPL results, want 1", len(res.HPL))
	}
	return emuOutcome{time: res.HPL[0].Time, end: res.SimulatedTime, wall: res.WallTime, ran: true}
}

// comparisonTable is testdata/smpi_comparison.md: one line per peer row.
func comparisonTable(rows []PeerRow, out map[string]emuOutcome) string {
	var b strings.Builder
	b.WriteString("# emu against SimGrid/SMPI 3.32 (shared/peers/smpi/results.csv)\n\n")
	b.WriteString("Generated by `go test ./validation -run TestSMPIPeer -emu.slow -update -timeout 2h`. HPL Time\n")
	b.WriteString("in s; error = (emu − SMPI)/SMPI. Costs in s, one row at a time, on a 2-core machine shared\n")
	b.WriteString("with other jobs (uncontrolled load, 2–5 when last generated; SMPI's runs saw 2–3): wall time is inflated by\n")
	b.WriteString("waiting for a core, CPU time (getrusage, user+system) is not. speed-up = SMPI wall / emu CPU.\n")
	b.WriteString("Every row runs under network.wake_order = \"simgrid\" (SimGrid's arithmetic, which the exact figures\n")
	b.WriteString("need); the default rank order costs 1.33–1.37× less CPU at 16×16 (README, Performance).\n\n")
	b.WriteString("| row | variant | net | Iprobe | topology | P×Q | N | BCAST | DEPTH | SMPI Time | emu Time | error | emu wall | emu CPU | SMPI wall | speed-up |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	var skipped []PeerRow
	for _, r := range rows {
		if r.Unreproducible() != "" {
			skipped = append(skipped, r)
			continue
		}
		o, ok := out[r.Name]
		emuT, rel, wall, cpu, speed := "—", "—", "—", "—", "—"
		if ok {
			emuT = fmt.Sprintf("%.6f", o.time)
			rel = fmt.Sprintf("%+.2f%%", 100*(o.time-r.HPLTime)/r.HPLTime)
			if _, known := peerDepartures[r.Name]; known {
				rel += " ‡"
			}
			wall = fmt.Sprintf("%.2f", o.wall)
			if o.cpu > 0 {
				cpu = fmt.Sprintf("%.2f", o.cpu)
				speed = fmt.Sprintf("%.1f×", r.WallSeconds/math.Max(o.cpu, 1e-3))
			}
		}
		iprobe := fmt.Sprintf("%g", r.IprobeCost)
		if !r.IprobeGrowth {
			iprobe += " no-grow"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %d×%d | %d | %d | %d | %.6f | %s | %s | %s | %s | %.2f | %s |\n",
			r.Name, r.Variant, r.Net, iprobe, r.Topology, r.P, r.Q, r.N, r.BCast, r.Depth, r.HPLTime, emuT, rel, wall, cpu, r.WallSeconds, speed)
	}
	b.WriteString("\n‡ outside 2%: SimGrid 3.32 run again from the peer README's command line gives 18.651157 s, emu's\n")
	b.WriteString("figure to the microsecond (testdata/smpi_reruns.csv); see peerDepartures in smpi_test.go. Every other\n")
	b.WriteString("row is within 2%, and all but those listed in peerExactMiss give SMPI's Time to the printed microsecond.\n")
	b.WriteString("readme_* rows: SMPI runs kept back from results.csv whose HPL Time the peer's README quotes\n")
	b.WriteString("(§6.1–6.2); SMPI wall is that of the same grid's rule-M run.\n")
	b.WriteString("\nRows emu cannot reproduce by definition:\n\n")
	reasons := map[string][]string{}
	for _, r := range skipped {
		reasons[r.Unreproducible()] = append(reasons[r.Unreproducible()], r.Name)
	}
	keys := make([]string, 0, len(reasons))
	for k := range reasons {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "- %s: %s.\n", strings.Join(reasons[k], ", "), k)
	}
	return b.String()
}

// readGolden reads the emu Time and wall columns back from the golden table.
func readGolden(t testing.TB) map[string]emuOutcome {
	data, err := os.ReadFile(goldenPath)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]emuOutcome{}
	for _, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 17 && len(cells) != 18 { // without and with the CPU column
			continue
		}
		var o emuOutcome
		name := strings.TrimSpace(cells[1])
		if _, err := fmt.Sscan(cells[11], &o.time); err != nil || o.time == 0 {
			continue // header, rule, or a row not run yet
		}
		fmt.Sscan(cells[13], &o.wall)
		if len(cells) == 18 {
			fmt.Sscan(cells[14], &o.cpu)
		}
		o.ran = true
		out[name] = o
	}
	return out
}

func TestPeerRowsCoverTheirFiles(t *testing.T) {
	for _, row := range loadPeerRows(t) {
		if _, err := os.Stat(filepath.Join("testdata", "hpl_dat", row.HPLDat())); err != nil {
			t.Errorf("%s: %v", row.Name, err)
		}
	}
}

// runOptions are the options of every validation run: results only.
func runOptions() runner.Options { return runner.Options{} }

// TestSMPIRerunsReproduced: SMPI runs made here with Debian's SimGrid 3.32
// (testdata/smpi_reruns.csv). SMPI's 16×16 HPL Time is chaotic under its
// shared Iprobe counter — moving the Iprobe cost by a part in 1e11 moves it by
// up to 9% — and under SimGrid's order emu follows it draw for draw, to the
// printed microsecond. The file also holds the four peer rows emu does not
// give to the microsecond, run again from the peer README's command line
// (16×16 smpi network, 16×16 MD flat and fat tree, 8×8 fat tree with 1e-6
// probes): each gives emu's figure, not the peer's.
func TestSMPIRerunsReproduced(t *testing.T) {
	if !*slow {
		t.Skip("16×16 rows: run with -emu.slow")
	}
	data, err := os.ReadFile("testdata/smpi_reruns.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, ",")
		if len(f) != 10 || strings.HasPrefix(line, "#") || f[0] == "scenario" {
			continue
		}
		simTime := 0.0 // SMPI's end of the program, where its log was kept
		if f[9] != "" {
			if simTime, err = strconv.ParseFloat(f[9], 64); err != nil {
				t.Fatalf("smpi_reruns.csv: bad line %q", line)
			}
		}
		var nums [5]float64
		for i, x := range append(f[2:5:5], f[7], f[8]) {
			v, err := strconv.ParseFloat(x, 64)
			if err != nil {
				t.Fatalf("smpi_reruns.csv: bad line %q", line)
			}
			nums[i] = v
		}
		ip, want := nums[3], nums[4]
		row := PeerRow{Name: f[0], P: int(nums[0]), Q: int(nums[1]), N: int(nums[2]), NB: 128, BCast: 1, Depth: 1,
			Topology: f[5], Variant: f[1], Net: f[6], IprobeCost: ip, IprobeGrowth: true, HPLTime: want}
		t.Run(row.Name, func(t *testing.T) {
			t.Parallel()
			got := runPeerRow(t, row)
			if math.Abs(got.time-want) > 0.5e-6 {
				t.Errorf("Iprobe %v s: HPL Time %.7f s, SMPI %.6f s (%+.3f%%)", ip, got.time, want, 100*(got.time-want)/want)
			}
			if half := printedHalfUnit(simTime); simTime > 0 && math.Abs(got.end-simTime) > half+0.5e-6 {
				t.Errorf("program ends at %.7f s, SMPI's simulated time %g s (±%g printed)", got.end, simTime, half)
			}
		})
	}
}

// slowSample names the reproducible row beyond fastCells with the fewest
// rank-panels (the first by name among equals): the slow rows' CI sample.
func slowSample(rows []PeerRow) string {
	best, name := 0, ""
	for _, r := range rows {
		if r.Unreproducible() != "" || r.Cells() <= fastCells {
			continue
		}
		if c := r.Cells(); name == "" || c < best || c == best && r.Name < name {
			best, name = c, r.Name
		}
	}
	return name
}

// printedHalfUnit is half a unit in the 6th significant digit of x, the
// rounding of SMPI's printed "Simulated time".
func printedHalfUnit(x float64) float64 {
	return 0.5 * math.Pow(10, math.Floor(math.Log10(x))-5)
}
