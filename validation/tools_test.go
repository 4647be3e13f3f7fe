package validation

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
)

// buildMPITool compiles tools/NAME/NAME.c with mpicc (and extra link flags)
// into a temporary folder, or skips the test where there is no MPI
// compiler or no MPI or CBLAS header (.ci/run installs them).
func buildMPITool(t *testing.T, name string, flags ...string) string {
	t.Helper()
	for _, tool := range []string{"mpicc", "mpirun"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("no %s here: tools/%s is built against a real MPI", tool, name)
		}
	}
	bin := filepath.Join(t.TempDir(), name)
	args := append([]string{"-O2", "-o", bin, filepath.Join("..", "tools", name, name+".c")}, flags...)
	if out, err := exec.Command("mpicc", args...).CombinedOutput(); err != nil {
		if regexp.MustCompile(`(mpi|cblas)\.h: No such file`).Match(out) {
			t.Skipf("mpicc %s: a header is missing here (.ci/run installs libopenmpi-dev and libopenblas-dev): %s", name, out)
		}
		t.Fatalf("mpicc %s: %v\n%s", name, err, out)
	}
	return bin
}

// mpirunTool runs bin on np ranks (oversubscribed where the machine has
// fewer cores) and returns its standard output.
func mpirunTool(t *testing.T, np int, bin string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("mpirun", append([]string{"--oversubscribe", "-np", strconv.Itoa(np), bin}, args...)...)
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
		"OPENBLAS_NUM_THREADS=1", "OMP_NUM_THREADS=1")
	var stderr []byte
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = ee.Stderr
	}
	if err != nil {
		t.Fatalf("mpirun -np %d %s: %v\n%s", np, filepath.Base(bin), err, stderr)
	}
	return out
}

// TestMPIBenchMeasures builds tools/mpibench and checks what emu fit
// --network reads of it: every size from 1 B to 16 MiB once, in order,
// positive times, and the two poll costs, between its first and last lines; with a third rank loading the node
// the same, plus the line that says so.
func TestMPIBenchMeasures(t *testing.T) {
	bin := buildMPITool(t, "mpibench")
	polls := regexp.MustCompile(`(?m)^# (iprobe_cost|test_cost) ([0-9.e+-]+) s`)
	for _, np := range []int{2, 3} {
		out := mpirunTool(t, np, bin)
		rows, err := calibration.ParseNetwork(out, "mpibench")
		if err != nil {
			t.Fatalf("np %d: %v\n%s", np, err, out)
		}
		if len(rows) != 25 {
			t.Fatalf("np %d: %d sizes, want 25 (1 B to 16 MiB)", np, len(rows))
		}
		for i, r := range rows {
			if r.Bytes != 1<<i || !(r.Seconds > 0) {
				t.Errorf("np %d: row %d: %d B in %g s, want %d B in a positive time", np, i, r.Bytes, r.Seconds, 1<<i)
			}
		}
		found := polls.FindAllSubmatch(out, -1)
		if len(found) != 2 {
			t.Fatalf("np %d: %d poll costs, want iprobe_cost and test_cost:\n%s", np, len(found), out)
		}
		for _, m := range found {
			if v, err := strconv.ParseFloat(string(m[2]), 64); err != nil || !(v > 0) {
				t.Errorf("np %d: %s %q", np, m[1], m[2])
			}
		}
		loaded := regexp.MustCompile(`(?m)^# loaded: 1 other ranks`).Match(out)
		if loaded != (np == 3) {
			t.Errorf("np %d: the loaded line is there: %v", np, loaded)
		}
		// Its first and last lines, which tell a whole output from a cut one
		// (calibration refuses a file with the first and not the last).
		lines := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if lines[0] != calibration.MPIBenchFirst || lines[len(lines)-1] != calibration.MPIBenchDone {
			t.Errorf("np %d: first line %q, last %q; want %q and %q", np, lines[0], lines[len(lines)-1], calibration.MPIBenchFirst, calibration.MPIBenchDone)
		}
	}
}

// TestSwapBenchMeasures builds tools/swapbench (MPI and OpenBLAS) and checks,
// with the matrix paged each way it offers, that each of its four settings
// reports a positive median over the passes it should have (rank 0's alone
// and beside, every rank's together and updated) and that it says how the
// matrix was paged.
func TestSwapBenchMeasures(t *testing.T) {
	bin := buildMPITool(t, "swapbench", "-lopenblas")
	const ranks, passes = 2, 3
	median := regexp.MustCompile(`(?m)^# (\w+): median ([0-9.]+) ns per element over (\d+) passes$`)
	want := map[string]int{"alone": passes, "together": ranks * passes, "updated": ranks * passes, "beside": passes}
	for _, pages := range []string{"", "malloc", "small", "huge"} {
		args := []string{"3000", "200", "32", strconv.Itoa(passes)}
		if pages != "" {
			args = append(args, pages)
		}
		out := mpirunTool(t, ranks, bin, args...)
		said := pages
		if said == "" {
			said = "malloc"
		}
		if !regexp.MustCompile(`(?m)^# pages ` + said + `: rank 0 has -?\d+ KiB on transparent huge pages$`).Match(out) {
			t.Errorf("pages %q: no line saying how the matrix was paged:\n%s", pages, out)
		}
		found := median.FindAllSubmatch(out, -1)
		if len(found) != len(want) {
			t.Fatalf("pages %q: %d settings reported, want %d:\n%s", pages, len(found), len(want), out)
		}
		for _, m := range found {
			setting := string(m[1])
			ns, _ := strconv.ParseFloat(string(m[2]), 64)
			n, _ := strconv.Atoi(string(m[3]))
			if n != want[setting] || !(ns > 0) {
				t.Errorf("pages %q, %s: %g ns over %d passes, want a positive time over %d", pages, setting, ns, n, want[setting])
			}
		}
	}
	for _, bad := range [][]string{{"100", "10", "100", "1"}, {"100", "10", "10", "1", "giant"}} {
		if code := mpirunExit(t, bin, bad...); code != 2 {
			t.Errorf("swapbench %v: exit %d, want 2 (usage)", bad, code)
		}
	}
}

// mpirunExit runs bin on one rank and returns its exit status.
func mpirunExit(t *testing.T, bin string, args ...string) int {
	t.Helper()
	cmd := exec.Command("mpirun", append([]string{"-np", "1", bin}, args...)...)
	cmd.Env = append(os.Environ(), "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0
}
