//go:build cblas && linux

package validation

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
)

// realTolerance is how far a prediction may be from the median of the real
// runs: issue 10's bar for every configuration.
const realTolerance = 0.10 // relative

// realRepeats is how many times hpcc runs, half of them before the
// calibration and half after the prediction, so that a machine whose speed
// drifts during the comparison (a shared VM's neighbours come and go) is
// seen in the same state by both sides; the prediction is compared with the
// median, and the machine's own spread is logged beside it.
const realRepeats = 6

// realAttempts is how many times the whole comparison may be made.
const realAttempts = 2

// hplTest identifies one test of an HPL run.
type hplTest struct {
	Variant     string
	N, NB, P, Q int
}

func (t hplTest) String() string {
	return fmt.Sprintf("%s N=%d NB=%d %dx%d", t.Variant, t.N, t.NB, t.P, t.Q)
}

// parseHPLTable reads the results of HPL's output (xhpl's or hpcc's) with
// the parser emu explain --real uses, Time recovered from Gflops.
func parseHPLTable(out []byte) (map[hplTest]float64, error) {
	rows, err := hpl.ParseOutput(out, "hpccoutf.txt")
	if err != nil {
		return nil, err
	}
	got := map[hplTest]float64{}
	for _, r := range rows {
		got[hplTest{r.Variant, r.N, r.NB, r.P, r.Q}] = r.Time
	}
	return got, nil
}

// TestPredictsRealHPL is issue 10's loop against a real HPL on this node:
// Debian's hpcc (HPC Challenge 1.5, whose HPL is HPL's algorithm, on the
// node's OpenBLAS and Open MPI) runs the tests of testdata/realhpl/hpccinf.txt
// (1×2 grids, N = 4,000, NB 64 and 128, both broadcasts) realRepeats times,
// one single-threaded rank per core; between the first and the second half of
// those runs, the README's commands — emu calibrate on the same HPL.dat, emu
// fit, emu run — predict each test, which must lie within realTolerance of
// the median real time. The log names the CPU, so a miss on another machine
// says where it was made. It needs hpcc and mpirun (.ci/run installs them)
// and a -tags cblas build (emu must measure the BLAS hpcc uses); it is
// skipped without them, and with -short.
// Its grids are 1×2 only: on 2×1 grids hpcc's HPL (2.0) runs 4-7% slower
// than HPL 2.3, whose algorithm emu ports (N = 4,000, NB = 128: 0.644 s
// against xhpl 2.3's 0.598-0.605 s, which emu predicts to 0.1%), so a 2×1
// test would measure hpcc's version, not emu.
//
//	go test -tags cblas -run TestPredictsRealHPL -v ./validation
func TestPredictsRealHPL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real HPL on this node for about a minute")
	}
	for _, tool := range []string{"hpcc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (apt-get install hpcc openmpi-bin)", tool)
		}
	}
	if runtime.NumCPU() < 2 {
		t.Skip("the real runs use two ranks, one per core")
	}
	t.Logf("machine: %s, %d CPUs", cpuModel(), runtime.NumCPU())
	dir := t.TempDir()
	dat, err := filepath.Abs("testdata/realhpl/hpccinf.txt")
	if err != nil {
		t.Fatal(err)
	}
	node, _ := filepath.Abs("testdata/realhpl/node.toml")

	emu := filepath.Join(dir, "emu")
	build := exec.Command("go", "build", "-tags", "cblas", "-o", emu, "../cmd/emu")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building emu: %v\n%s", err, out)
	}
	// A shared machine can slow the real runs or the calibration for a
	// while: an attempt that misses is made once more from scratch (real
	// runs, calibration, prediction), and the test fails only if both miss.
	var misses []string
	for attempt := range realAttempts {
		if misses = predictReal(t, filepath.Join(dir, fmt.Sprint(attempt)), dat, node, emu); len(misses) == 0 {
			return
		}
		t.Logf("attempt %d: %d of the predictions beyond ±%.0f%%:\n%s", attempt+1, len(misses), 100*realTolerance, strings.Join(misses, "\n"))
	}
	t.Errorf("%d attempts, each with predictions beyond ±%.0f%%; the last:\n%s", realAttempts, 100*realTolerance, strings.Join(misses, "\n"))
}

// predictReal runs hpcc realRepeats/2 times in dir, the README's loop, and
// hpcc the other realRepeats/2 times, and returns the predictions beyond
// realTolerance of the real medians.
func predictReal(t *testing.T, dir, dat, node, emu string) (misses []string) {
	t.Helper()
	real := map[hplTest][]float64{}
	input, err := os.ReadFile(dat)
	if err != nil {
		t.Fatal(err)
	}
	runReal := func(from, to int) {
		t.Helper()
		for i := from; i < to; i++ {
			runHPCC(t, filepath.Join(dir, fmt.Sprintf("hpcc%d", i)), input, real)
		}
	}
	runReal(0, realRepeats/2)
	if len(real) == 0 {
		t.Fatal("hpcc printed no HPL result")
	}

	samples, models, result := filepath.Join(dir, "samples.csv"), filepath.Join(dir, "models.toml"), filepath.Join(dir, "predicted.json")
	for _, args := range [][]string{
		{"calibrate", node, "--hpl-dat", dat, "-o", samples},
		{"fit", samples, "-o", models},
		{"run", node, "--hpl-dat", dat, "--set", "kernels.models=" + models, "--json", result},
	} {
		cmd := exec.Command(emu, append(args, "--quiet")...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("emu %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("emu %s\n%s", args[0], lastLines(out, 20))
	}
	runReal(realRepeats/2, realRepeats)
	data, err := os.ReadFile(result)
	if err != nil {
		t.Fatal(err)
	}
	var pred struct {
		Results []struct {
			Variant     string
			N, NB, P, Q int
			Time        float64 `json:"time_s"`
		} `json:"results"`
	}
	if err := json.Unmarshal(data, &pred); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range pred.Results {
		k := hplTest{r.Variant, r.N, r.NB, r.P, r.Q}
		times, ok := real[k]
		if !ok {
			t.Errorf("%v: predicted, but hpcc did not run it", k)
			continue
		}
		slices.Sort(times)
		med := medianOfSorted(times)
		rel := (r.Time - med) / med
		t.Logf("%-32v real median %.4f s [%.4f … %.4f], predicted %.4f s: %+.1f%%", k, med, times[0], times[len(times)-1], r.Time, 100*rel)
		if rel > realTolerance || rel < -realTolerance {
			misses = append(misses, fmt.Sprintf("%v: predicted %.4f s, real median %.4f s: %+.1f%%, beyond ±%.0f%%", k, r.Time, med, 100*rel, 100*realTolerance))
		}
		checked++
	}
	if checked != len(real) {
		t.Fatalf("checked %d predictions of %d real tests", checked, len(real))
	}
	return misses
}

// medianOfSorted is the median of sorted x: the middle value, or the mean of
// the middle two.
func medianOfSorted(x []float64) float64 {
	n := len(x)
	if n%2 == 1 {
		return x[n/2]
	}
	return (x[n/2-1] + x[n/2]) / 2
}

// runHPCC runs hpcc once in dir on input (its hpccinf.txt) and adds each
// test's Time to real.
func runHPCC(t *testing.T, dir string, input []byte, real map[hplTest][]float64) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "hpccinf.txt"), input, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("mpirun", "--bind-to", "core", "-np", "2", "hpcc")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
		"OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("hpcc does not run here (%v): %s", err, lastLines(out, 5))
	}
	out, err := os.ReadFile(filepath.Join(dir, "hpccoutf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	times, err := parseHPLTable(out)
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range times {
		real[k] = append(real[k], v)
	}
}

// cpuModel is the first model name /proc/cpuinfo gives, or "unknown CPU".
func cpuModel() string {
	info, _ := os.ReadFile("/proc/cpuinfo")
	for _, line := range strings.Split(string(info), "\n") {
		if name, ok := strings.CutPrefix(line, "model name"); ok {
			return strings.TrimSpace(strings.TrimLeft(name, " \t:"))
		}
	}
	return "unknown CPU"
}

// lastLines returns the last n lines of out, for error messages.
func lastLines(out []byte, n int) string {
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
