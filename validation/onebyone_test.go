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

// oneByOneDir holds the second instrumented HPL 2.3 (its HPL_dlaswp10N also
// counts the interchanges that move a row) run beside a CPU-clock calibration
// on the project's VM: its README says how.
const oneByOneDir = "testdata/realhpl/vm-2026-11-28b"

// dgemmTolerance bounds emu's charge for the large dgemm calls of a real 1×1
// run (m·n·k ≥ 10⁸, 87% of its CPU time) against their real CPU time, each
// call billed with the calibration made between the real runs.
const dgemmTolerance = 0.05 // relative

// loadModels reads a models file of testdata.
func loadModels(t *testing.T, path string) *models.Set {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	set, err := models.ParseSet(data, path)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

// TestOneByOneKernelsAgainstRealHPL is issue 32 item 7's question "which
// kernel is overbilled on 1×1?" asked of real calls: each large dgemm and
// dtrsm call of four real 1×1 runs of HPL 2.3 (N = 6,000, NB = 96), billed
// with the models of a calibration made between them (CPU time of the
// calling thread on both sides, robust to the VM's other load), must cost
// what it really took: dgemm within dgemmTolerance in every run. The log
// gives dtrsm's ratio too (×0.83-0.90: charged short, not long).
func TestOneByOneKernelsAgainstRealHPL(t *testing.T) {
	set := loadModels(t, filepath.Join(oneByOneDir, "models.toml"))
	type sum struct{ real, model float64 }
	per := map[string]map[string]*sum{} // run → kernel
	for _, r := range readCSV(t, filepath.Join(oneByOneDir, "kernels_1x1.csv")) {
		var d [3]int
		for i, k := range []string{"m", "n", "k"} {
			v, err := strconv.Atoi(r[k])
			if err != nil {
				t.Fatalf("%s: %s: %v", oneByOneDir, k, err)
			}
			d[i] = v
		}
		c, err := strconv.ParseFloat(r["cpu_s"], 64)
		if err != nil {
			t.Fatal(err)
		}
		kernel := "dtrsm"
		if r["call"] == "dgemm" || r["call"] == "dgemmT" {
			kernel = "dgemm"
			if float64(d[0])*float64(d[1])*float64(d[2]) < 1e8 {
				continue
			}
		}
		v, empty, err := kernels.VarsFor(kernel, d[0], d[1], d[2])
		if err != nil || empty {
			t.Fatalf("%v: %v (empty %v)", r, err, empty)
		}
		if per[r["run"]] == nil {
			per[r["run"]] = map[string]*sum{"dgemm": {}, "dtrsm": {}}
		}
		s := per[r["run"]][kernel]
		s.real += c
		s.model += set.For(kernel, "").Mean(v)
	}
	if len(per) != 4 {
		t.Fatalf("%s: %d real 1×1 runs, want 4", oneByOneDir, len(per))
	}
	for _, run := range slices.Sorted(func(yield func(string) bool) {
		for k := range per {
			if !yield(k) {
				return
			}
		}
	}) {
		g, tr := per[run]["dgemm"], per[run]["dtrsm"]
		t.Logf("%s: dgemm (m·n·k ≥ 1e8) real %.3f s, charged ×%.3f; dtrsm real %.3f s, charged ×%.2f", run, g.real, g.model/g.real, tr.real, tr.model/tr.real)
		if d := g.model/g.real - 1; d < -dgemmTolerance || d > dgemmTolerance {
			t.Errorf("%s: dgemm charged ×%.3f its real CPU time", run, g.model/g.real)
		}
	}
}

// TestUInterchangesAgainstRealHPL checks that emu bills the last step of a
// 2×1 run's spread-roll swap (HPL_dlaswp10N on a U kept transposed, charged
// as duswp: jb pivots of U's rows a call) for as many of U's elements as HPL's
// real calls are given. It logs what is left: HPL skips an interchange of a
// row with itself, 9% of them here, where emu bills every pivot (emu's pivot
// model makes almost none of U's interchanges trivial, so billing only the
// rows that move would not close that 9%); and the charge over the real CPU
// time against HPL_dlaswp00N's, for issue 32 item 7's "duswp charged
// 1.5-1.8×": ×1.16 against 00N's ×1.09 with this calibration, where the one
// of vm-2026-11-28 gave ×1.77 against ×1.10 (duswp's stand-in, in cache,
// varies more between calibrations than the rows it stands for).
func TestUInterchangesAgainstRealHPL(t *testing.T) {
	set := loadModels(t, filepath.Join(oneByOneDir, "models.toml"))
	charge := func(kernel string, m, n, k int) float64 {
		v, empty, err := kernels.VarsFor(kernel, m, n, k)
		if err != nil {
			t.Fatal(err)
		}
		if empty {
			return 0
		}
		return set.For(kernel, "").Mean(v)
	}
	num := func(r map[string]string, k string) int {
		v, err := strconv.Atoi(r[k])
		if err != nil {
			t.Fatalf("%s: %s: %v", oneByOneDir, k, err)
		}
		return v
	}
	var real, model, realA, modelA float64
	given := map[string]float64{} // elements of U's pivot rows, per run and rank
	var moved, all float64
	for _, r := range readCSV(t, filepath.Join(oneByOneDir, "row_moves.csv")) {
		c, err := strconv.ParseFloat(r["cpu_s"], 64)
		if err != nil {
			t.Fatal(err)
		}
		m, n := num(r, "m"), num(r, "n")
		switch r["routine"] {
		case "HPL_dlaswp10N":
			real += c
			model += charge(kernels.Uswp, m, n, 0) // as emu bills it: every pivot
			given[r["run"]+"/"+r["rank"]] += float64(m * n)
			moved += float64(num(r, "moved"))
			all += float64(m)
		case "HPL_dlaswp00N":
			realA += c
			modelA += charge(kernels.Laswp, m, n, num(r, "span"))
		}
	}
	if real == 0 || realA == 0 {
		t.Fatalf("%s: no HPL_dlaswp10N or 00N calls", oneByOneDir)
	}
	t.Logf("HPL_dlaswp10N charged ×%.2f its real CPU time, HPL_dlaswp00N ×%.2f; %.1f%% of its pivots move a row", model/real, modelA/realA, 100*moved/all)

	abs, _ := filepath.Abs(filepath.Join(oneByOneDir, "models.toml"))
	plan := modelNodePlan(t, "testdata/realhpl/node.toml", filepath.Join(oneByOneDir, "hpl-2x1.dat"), abs)
	log := &observe.KernelLog{Shapes: true}
	if _, err := runner.Run(plan, runner.Options{Kernels: log}); err != nil {
		t.Fatal(err)
	}
	// U's interchanges are the duswp calls of jb rows (the compact copies of
	// HPL_dlaswp01T are duswp calls too, of fewer rows, counted apart).
	var emuRows float64
	for _, c := range log.Calls() {
		if c.Kernel == kernels.Uswp && c.M == 96 {
			emuRows += float64(c.Calls) * float64(c.M) * float64(c.N)
		}
	}
	emuRows /= 2 // per rank
	var realRows []float64
	for _, v := range given {
		realRows = append(realRows, v)
	}
	slices.Sort(realRows)
	med := medianOfSorted(realRows)
	t.Logf("U's interchanges: emu bills %.4g elements a rank, HPL's real calls are given %.4g (median of %d)", emuRows, med, len(realRows))
	if d := emuRows/med - 1; d < -coldTolerance || d > coldTolerance {
		t.Errorf("emu bills %.4g elements of U's interchanges a rank, HPL's calls are given %.4g (%+.1f%%)", emuRows, med, 100*d)
	}
}
