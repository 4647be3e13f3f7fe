package validation

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/runner"
)

// rowMovesDir holds the real runs and the calibration TestRowCopiesAgainstRealHPL
// compares: an HPL 2.3 instrumented to time each call of its row-move
// routines (CPU time of the calling thread), run beside a CPU-clock
// calibration of emu on the project's VM (its README says how).
const rowMovesDir = "testdata/realhpl/vm-2026-11-28"

// rowMovesTolerance bounds how far emu's charge for the row moves of a P > 1
// run may stray, relative to the real run, from its charge for those of a
// 1×1 run: the calibration's bias on interchanges cancels, what is left is
// how emu bills copies against interchanges. Billed as interchanges,
// HPL_dlaswp01T's copies came out 2.3× their real time, and the 2×1 run's
// ratio over the 1×1 run's +53% and +64% (4×1: +23%, +27%) with the two
// calibrations.
const rowMovesTolerance = 0.15 // relative

// routineTolerance bounds, routine by routine, the charge for HPL_dlaswp06T
// and 01T over their real CPU time relative to HPL_dlaswp00N's, each real
// call billed from the rows HPL reported: 01T came out +95% and +115% with
// the two calibrations billed as interchanges, −15% billed as now (its
// copies into U write lines of U that the model takes as cached).
const routineTolerance = 0.20 // relative

// coldTolerance bounds the rows of A emu's pivot model moves against those
// HPL's real pivots moved (elements, over the run).
const coldTolerance = 0.10 // relative

// realRowMoves reads the real runs of one grid: per run, the CPU seconds of
// its row-move routines per rank, and the elements of A's scattered rows
// they read or wrote (an interchange, or a copy out of a row and the copy
// into it that HPL_dlaswp01T pairs with it, counts once: see apps/hpl's
// laswp.go), over the run's ranks.
func realRowMoves(t *testing.T, grid string) (seconds []float64, cold float64) {
	t.Helper()
	perRun := map[string]float64{}
	ranksOf := map[string]map[string]bool{}
	coldOf := map[string]float64{}
	atoi := func(r map[string]string, k string) float64 {
		if r[k] == "" {
			return 0
		}
		v, err := strconv.Atoi(r[k])
		if err != nil {
			t.Fatalf("%s: %s: %v", rowMovesDir, k, err)
		}
		return float64(v)
	}
	for _, r := range readCSV(t, filepath.Join(rowMovesDir, "row_moves.csv")) {
		if r["grid"] != grid {
			continue
		}
		c, err := strconv.ParseFloat(r["cpu_s"], 64)
		if err != nil {
			t.Fatal(err)
		}
		run := r["run"]
		perRun[run] += c
		if ranksOf[run] == nil {
			ranksOf[run] = map[string]bool{}
		}
		ranksOf[run][r["rank"]] = true
		n := atoi(r, "n")
		switch r["routine"] {
		case "HPL_dlaswp00N", "HPL_dlaswp06T": // interchanges with rows of A
			coldOf[run] += atoi(r, "m") * n
		case "HPL_dlaswp01T":
			read, written := atoi(r, "cold_to_u"), atoi(r, "top_to_a")
			coldOf[run] += (max(read, written) + atoi(r, "cold_to_a")) * n
		}
	}
	if len(perRun) == 0 {
		t.Fatalf("%s: no real %s runs", rowMovesDir, grid)
	}
	var colds []float64
	for run, s := range perRun {
		seconds = append(seconds, s/float64(len(ranksOf[run])))
		colds = append(colds, coldOf[run])
	}
	slices.Sort(seconds)
	slices.Sort(colds)
	return seconds, medianOfSorted(colds)
}

// emuRowMoves runs one grid in model mode with the calibration's models and
// returns the seconds charged per rank to the row-move kernels, and the
// elements billed to the ones that touch rows of A.
func emuRowMoves(t *testing.T, modelsFile, grid string, p, q int) (seconds, cold float64) {
	t.Helper()
	models, err := filepath.Abs(filepath.Join(rowMovesDir, modelsFile))
	if err != nil {
		t.Fatal(err)
	}
	plan := modelNodePlan(t, "testdata/realhpl/node.toml", filepath.Join(rowMovesDir, "hpl-"+grid+".dat"), models,
		"platform.cores_per_host="+strconv.Itoa(p*q))
	log := &observe.KernelLog{Shapes: true}
	if _, err := runner.Run(plan, runner.Options{Kernels: log}); err != nil {
		t.Fatal(err)
	}
	for _, c := range log.Calls() {
		switch c.Kernel {
		case kernels.Laswp, kernels.Gather, kernels.Scatter:
			cold += float64(c.Calls) * float64(c.M) * float64(c.N)
			seconds += c.Seconds
		case kernels.Uswp:
			seconds += c.Seconds
		}
	}
	return seconds / float64(p*q), cold
}

// routineCharges bills each real call of row_moves.csv with a models file,
// the way apps/hpl bills the call (laswp.go), from the rows HPL reported it
// moved: an interchange's rows as dlaswp, an HPL_dlaswp01T row read and then
// written (cold_to_u paired with top_to_a) as dlaswp, one only read as
// dgather, only written as dscatter, its top rows into U and HPL_dlaswp10N's
// as duswp. It returns, per routine, the charge over the real CPU time.
func routineCharges(t *testing.T, modelsFile string, grids ...string) map[string]float64 {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(rowMovesDir, modelsFile))
	if err != nil {
		t.Fatal(err)
	}
	set, err := models.ParseSet(data, modelsFile)
	if err != nil {
		t.Fatal(err)
	}
	charge := func(kernel string, m, n, k int) float64 {
		v, empty, err := kernels.VarsFor(kernel, m, n, k)
		if err != nil {
			t.Fatal(err)
		}
		md := set.For(kernel, "")
		if md == nil { // as kernels.Set falls back
			md = set.For(kernels.Laswp, "")
		}
		if empty || md == nil {
			return 0
		}
		return md.Mean(v)
	}
	model, real := map[string]float64{}, map[string]float64{}
	for _, r := range readCSV(t, filepath.Join(rowMovesDir, "row_moves.csv")) {
		if !slices.Contains(grids, r["grid"]) {
			continue
		}
		num := func(k string) int {
			if r[k] == "" {
				return 0
			}
			v, err := strconv.Atoi(r[k])
			if err != nil {
				t.Fatalf("%s: %s: %v", rowMovesDir, k, err)
			}
			return v
		}
		c, err := strconv.ParseFloat(r["cpu_s"], 64)
		if err != nil {
			t.Fatal(err)
		}
		m, n, k := num("m"), num("n"), num("span")
		routine := r["routine"]
		real[routine] += c
		switch routine {
		case "HPL_dlaswp00N", "HPL_dlaswp06T":
			model[routine] += charge(kernels.Laswp, m, n, k)
		case "HPL_dlaswp10N":
			model[routine] += charge(kernels.Uswp, m, n, 0)
		case "HPL_dlaswp01T":
			read, written := num("cold_to_u"), num("top_to_a")
			both := min(read, written)
			model[routine] += charge(kernels.Laswp, both+num("cold_to_a"), n, k) +
				charge(kernels.Gather, read-both, n, k) + charge(kernels.Scatter, written-both, n, k) +
				charge(kernels.Uswp, num("top_to_u"), n, 0)
		}
	}
	out := map[string]float64{}
	for routine, c := range real {
		out[routine] = model[routine] / c
	}
	return out
}

// TestRowCopiesAgainstRealHPL checks emu's charge for HPL's row moves against
// real runs of HPL 2.3 (N = 6,000, NB = 96, 1ringM, on the project's VM):
// with P > 1 most of them are copies (HPL_dlaswp01T, 10N) rather than the
// interchanges of a 1×1 run (HPL_dlaswp00N), and emu, calibrated beside the
// real runs, must charge both kinds alike against their real CPU time. It
// also checks that emu's pivots move as many elements of A's scattered rows
// as HPL's real pivots did. Two calibrations: one between the real runs,
// whose stand-in loops went column by column (models.toml), and one right
// after them with the loops in HPL's order (models_hplorder.toml), which
// calibrate makes now: that one must also charge the 1×1 run's interchanges
// within rowMovesTolerance of their real time (×1.09; the first ×1.31).
func TestRowCopiesAgainstRealHPL(t *testing.T) {
	grids := []struct {
		name string
		p, q int
	}{{"1x1", 1, 1}, {"2x1", 2, 1}, {"4x1", 4, 1}}
	for _, cal := range []struct {
		models   string
		absolute bool // calibrate's current measurement: its 1×1 ratio is checked too
	}{{"models.toml", false}, {"models_hplorder.toml", true}} {
		t.Run(cal.models, func(t *testing.T) {
			ratio := map[string]float64{}
			for _, g := range grids {
				real, realCold := realRowMoves(t, g.name)
				model, cold := emuRowMoves(t, cal.models, g.name, g.p, g.q)
				med := medianOfSorted(real)
				ratio[g.name] = model / med
				t.Logf("%s: row moves %.4f s a rank charged, real %.4f s (%.4f…%.4f, %d runs): ×%.2f; A's rows %.3g elements, real %.3g",
					g.name, model, med, real[0], real[len(real)-1], len(real), ratio[g.name], cold, realCold)
				if d := cold/realCold - 1; d < -coldTolerance || d > coldTolerance {
					t.Errorf("%s: emu's pivots move %.3g elements of A's rows, HPL's %.3g (%+.1f%%)", g.name, cold, realCold, 100*d)
				}
			}
			for _, g := range grids[1:] {
				if d := ratio[g.name]/ratio["1x1"] - 1; d < -rowMovesTolerance || d > rowMovesTolerance {
					t.Errorf("%s: row moves charged ×%.2f their real time, 1×1's ×%.2f (%+.0f%%)", g.name, ratio[g.name], ratio["1x1"], 100*d)
				}
			}
			if d := ratio["1x1"] - 1; cal.absolute && (d < -rowMovesTolerance || d > rowMovesTolerance) {
				t.Errorf("1x1: interchanges charged ×%.2f their real time", ratio["1x1"])
			}
			// Routine by routine, each real call billed from the rows HPL
			// reported, in the runs with one rank a core (the 4×1 runs
			// shared two cores); the moves within U (duswp) are logged only.
			per := routineCharges(t, cal.models, "1x1", "2x1")
			for _, routine := range []string{"HPL_dlaswp00N", "HPL_dlaswp06T", "HPL_dlaswp01T", "HPL_dlaswp10N"} {
				t.Logf("%s: charged ×%.2f its real CPU time", routine, per[routine])
			}
			for _, routine := range []string{"HPL_dlaswp06T", "HPL_dlaswp01T"} {
				if d := per[routine]/per["HPL_dlaswp00N"] - 1; d < -routineTolerance || d > routineTolerance {
					t.Errorf("%s charged ×%.2f its real time, HPL_dlaswp00N ×%.2f", routine, per[routine], per["HPL_dlaswp00N"])
				}
			}
		})
	}
}
