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

// realSegments is how many pieces the calibration is made in. The real runs
// and the calibration alternate — hpcc, a piece, hpcc, a piece, ..., hpcc —
// and emu fit reads the pieces together, so that the model and the real
// medians average the same stretch of a machine whose speed drifts (a shared
// VM's neighbours come and go: one test's 12 real runs of one attempt
// spread from 0.59 to 0.90 s, testdata/realhpl/vm-2026-11-27). One calibration in
// the middle saw a single moment: the project's CI once measured it 10-13%
// slower than the real runs around it, in both attempts.
const realSegments = 3

// segmentSamples is the --samples of each piece: together the pieces draw
// about what one calibration's default (100 a kernel) would.
const segmentSamples = 34

// realAttempts is how many times the whole comparison may be made. This
// VM's speed drifts by ±15% within minutes: in seven attempts of the
// interleaved design on one afternoon two had one test beyond 10% (+10.9
// and +13.1%, the others within 6.9%), each with a real median that moved
// against its sibling tests'. A regression that biases the predictions
// fails every attempt; the log lists each attempt's comparisons.
const realAttempts = 3

// hplTest identifies one test of an HPL run.
type hplTest struct {
	Variant     string
	N, NB, P, Q int
}

func (t hplTest) String() string {
	return fmt.Sprintf("%s N=%d NB=%d %dx%d", t.Variant, t.N, t.NB, t.P, t.Q)
}

// parseHPLTable reads the results of HPL's output (xhpl's or hpcc's) with
// the parser emu explain --real uses, Time recovered from Gflops: each test's
// times in the order HPL ran them (an HPL.dat that lists an N three times
// runs its tests three times).
func parseHPLTable(out []byte) (map[hplTest][]float64, error) {
	rows, err := hpl.ParseOutput(out, "hpccoutf.txt")
	if err != nil {
		return nil, err
	}
	got := map[hplTest][]float64{}
	for _, r := range rows {
		k := hplTest{r.Variant, r.N, r.NB, r.P, r.Q}
		got[k] = append(got[k], r.Time)
	}
	return got, nil
}

// TestPredictsRealHPL is issue 10's loop against a real HPL on this node:
// Debian's hpcc (HPC Challenge 1.5, whose HPL is HPL's algorithm, on the
// node's OpenBLAS and Open MPI) runs the tests of testdata/realhpl/hpccinf.txt
// (1×2 grids, N = 4,000, NB 64 and 128, both broadcasts, each listed three
// times) realSegments+1 times, one single-threaded rank per core; between
// those runs docs/node.md's commands — emu calibrate on the same HPL.dat, in
// realSegments pieces, then emu fit on the pieces and emu run — predict each
// test, which must lie within realTolerance of the median real time. The
// log names the CPU, so a miss on another machine says where it was made. It
// needs hpcc and mpirun (.ci/run installs them) and a -tags cblas build (emu
// must measure the BLAS hpcc uses); it is skipped without them, and with
// -short.
// Its grids are 1×2 only: on 2×1 grids hpcc's HPL (2.0) runs 4-7% slower
// than HPL 2.3, whose algorithm emu ports (N = 4,000, NB = 128: 0.644 s
// against xhpl 2.3's 0.598-0.605 s, which emu predicts to 0.1%), so a 2×1
// test would measure hpcc's version, not emu.
//
//	go test -timeout 30m -tags cblas -run TestPredictsRealHPL -v ./validation
func TestPredictsRealHPL(t *testing.T) {
	if testing.Short() {
		t.Skip("runs real HPL on this node for 2-8 minutes")
	}
	for _, tool := range []string{"hpcc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s not installed (apt-get install hpcc openmpi-bin)", tool)
		}
	}
	if runtime.NumCPU() < 2 {
		t.Skip("the real runs use two ranks, one per core")
	}
	t.Logf("machine: %s", machine())
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
	// while: an attempt that misses is made again from scratch (real runs,
	// calibration, prediction), and the test fails only if all miss.
	var report []string
	for attempt := range realAttempts {
		lines, misses := predictReal(t, filepath.Join(dir, fmt.Sprint(attempt)), dat, node, emu)
		if misses == 0 {
			return
		}
		report = append(report, fmt.Sprintf("attempt %d, %d beyond ±%.0f%%:", attempt+1, misses, 100*realTolerance))
		report = append(report, lines...)
	}
	t.Errorf("%d attempts, each with predictions beyond ±%.0f%% (machine: %s):\n%s", realAttempts, 100*realTolerance, machine(), strings.Join(report, "\n"))
}

// predictReal runs, in dir, hpcc and the pieces of the README's calibration
// in turn (realSegments pieces, each between two hpcc runs), then emu fit on
// all the pieces and emu run. It returns a line for each test (its real
// median and range, the prediction and the error) and how many of the
// predictions lie beyond realTolerance of the real medians.
func predictReal(t *testing.T, dir, dat, node, emu string) (lines []string, misses int) {
	t.Helper()
	real := map[hplTest][]float64{}
	input, err := os.ReadFile(dat)
	if err != nil {
		t.Fatal(err)
	}
	emuRun := func(args ...string) {
		t.Helper()
		out, err := exec.Command(emu, append(args, "--quiet")...).CombinedOutput()
		if err != nil {
			t.Fatalf("emu %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("emu %s\n%s", args[0], lastLines(out, 20))
	}
	var pieces []string
	for i := range realSegments + 1 {
		runHPCC(t, filepath.Join(dir, fmt.Sprintf("hpcc%d", i)), input, real)
		if i == 0 && len(real) == 0 {
			t.Fatal("hpcc printed no HPL result")
		}
		if i == realSegments {
			break
		}
		piece := filepath.Join(dir, fmt.Sprintf("samples%d.csv", i))
		emuRun("calibrate", node, "--hpl-dat", dat, "--samples", fmt.Sprint(segmentSamples), "--seed", fmt.Sprint(i+1), "-o", piece)
		pieces = append(pieces, piece)
	}
	models, result := filepath.Join(dir, "models.toml"), filepath.Join(dir, "predicted.json")
	emuRun(append(append([]string{"fit"}, pieces...), "-o", models)...)
	emuRun("run", node, "--hpl-dat", dat, "--set", "kernels.models="+models, "--json", result)
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
	checked := map[hplTest]bool{}
	for _, r := range pred.Results {
		k := hplTest{r.Variant, r.N, r.NB, r.P, r.Q}
		if checked[k] {
			continue // the HPL.dat repeats its tests; emu predicts them alike (to rounding)
		}
		checked[k] = true
		times, ok := real[k]
		if !ok {
			t.Errorf("%v: predicted, but hpcc did not run it", k)
			continue
		}
		slices.Sort(times)
		med := medianOfSorted(times)
		rel := (r.Time - med) / med
		line := fmt.Sprintf("%-32v real median %.4f s [%.4f … %.4f], predicted %.4f s: %+.1f%%", k, med, times[0], times[len(times)-1], r.Time, 100*rel)
		if rel > realTolerance || rel < -realTolerance {
			line += ", beyond"
			misses++
		}
		t.Log(line)
		lines = append(lines, line)
	}
	if len(checked) != len(real) {
		t.Fatalf("checked %d predictions of %d real tests", len(checked), len(real))
	}
	return lines, misses
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
		real[k] = append(real[k], v...)
	}
}

// machine says what a miss on another machine needs to be read: the CPU,
// how many, and whether CPU 0 shares its core with another (two hardware
// threads of one core slow each other's dgemm, which the calibration's
// workers run side by side while HPL's ranks do not always).
func machine() string {
	siblings, err := os.ReadFile("/sys/devices/system/cpu/cpu0/topology/thread_siblings_list")
	smt := "hardware threads per core unknown"
	switch list := strings.TrimSpace(string(siblings)); {
	case err != nil:
	case strings.ContainsAny(list, ",-"):
		smt = "CPU 0 shares its core with others: CPUs " + list
	default:
		smt = "CPU 0 has its core to itself"
	}
	return fmt.Sprintf("%s, %d CPUs, %s", cpuModel(), runtime.NumCPU(), smt)
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
