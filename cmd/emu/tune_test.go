package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/emu-hpc/emu/internal/scenariotest"
)

// TestMain lets the test binary stand in for emu: the Slurm test copies this binary into
// the sweep folder, and its array tasks run it with EMU_TEST_MAIN=1 as `emu tune task`.
func TestMain(m *testing.M) {
	if os.Getenv("EMU_TEST_MAIN") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestTuneJobsSameRanking: how many points run at once changes only the wall
// clock; the ranking and every figure are the serial sweep's, plain and with
// an ensemble per point.
func TestTuneJobsSameRanking(t *testing.T) {
	sweep := []string{"--set", "hpl.n=1200", "--sweep", "nb=32..96..32", "--sweep", "grid=2x2,1x4", "--sweep", "latency=1us,20us"}
	noisy := []string{"--set", "kernels.noise=true", "--set", `kernels.dgemm.noise="hetero"`,
		"--set", `kernels.dgemm.sigma_terms=["m*n*k"]`, "--set", "kernels.dgemm.sigma_coef=[3e-12]", "--seeds", "3"}
	for _, tc := range []struct {
		name  string
		extra []string
	}{{"plain", nil}, {"seeds", noisy}} {
		var ranked []string
		for _, jobs := range []string{"1", "3"} {
			csvPath := filepath.Join(t.TempDir(), "r.csv")
			args := append(append([]string{"tune", "--quiet", "--out", filepath.Join(t.TempDir(), "s"), "--csv", csvPath, "--jobs", jobs}, sweep...), tc.extra...)
			if code, _, errOut := runCLI(t, args...); code != exitOK {
				t.Fatalf("%s --jobs %s: exit %d, %s", tc.name, jobs, code, errOut)
			}
			ranked = append(ranked, withoutWall(t, csvPath))
		}
		if ranked[0] != ranked[1] {
			t.Errorf("%s: --jobs 1\n%s\n--jobs 3\n%s", tc.name, ranked[0], ranked[1])
		}
		if n := strings.Count(ranked[0], "\n"); n != 13 || tc.extra != nil && !strings.Contains(ranked[0], ",band_p05,") {
			t.Errorf("%s: want a header and 12 points (bands with --seeds), got\n%s", tc.name, ranked[0])
		}
	}
}

func TestTuneRanksAndResumes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	args := []string{"tune", "--quiet", "--out", dir, "--sweep", "nb=32,64", "--sweep", "bcast=1ring,longM", "--jobs", "2",
		"--csv", filepath.Join(dir, "..", "ranked.csv")}
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "rank") {
		t.Fatalf("want a header and 4 ranked points, got:\n%s", out)
	}
	var prev float64 = 1e300
	for _, l := range lines[1:] {
		var rank int
		var gf float64
		if _, err := fmt.Sscan(l, &rank, &gf); err != nil {
			t.Fatalf("row %q: %v", l, err)
		}
		if gf > prev {
			t.Errorf("not ranked best first:\n%s", out)
		}
		prev = gf
	}
	// The rerun finds every point in the journal and evaluates none.
	code, out2, errOut := runCLI(t, args...)
	if code != exitOK || !strings.Contains(errOut, "4 of 4 points already done") || out2 != out {
		t.Fatalf("rerun: exit %d, stderr %q; same table: %v", code, errOut, out2 == out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "..", "ranked.csv")); err != nil || !strings.HasPrefix(string(b), "rank,hpl.nb,hpl.bcast,gflops") {
		t.Errorf("ranked.csv: %v %q", err, b)
	}
	// The same folder with other fixed inputs is refused rather than mixed.
	code, _, errOut = runCLI(t, append(args, "--set", "hpl.depth=0")...)
	if code != exitInput || !strings.Contains(errOut, "other inputs") {
		t.Errorf("changed inputs: exit %d, stderr %q", code, errOut)
	}
}

// TestTuneRefusesChangedInputFiles: a file the scenario names, rewritten under
// the same name (models rescaled by calibrate --check --rescale -o, a hostfile
// or a trace edited), is another input. The rerun skipped every point as done
// and printed the old files' results.
func TestTuneRefusesChangedInputFiles(t *testing.T) {
	trace, err := os.ReadFile("../../examples/replay-ring.txt")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, file string
		v1, v2     string
		args       func(path string) []string
	}{
		{"models", "m.toml",
			"[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n", "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [8e-11]\n",
			func(p string) []string {
				return []string{"--set", "kernels.models=" + p, "--set", "hpl.n=500", "--sweep", "nb=32,64"}
			}},
		{"hostfile", "hosts.txt", "host-0\nhost-1\nhost-2\nhost-3\n", "host-0\nhost-0\nhost-1\nhost-1\n",
			func(p string) []string { return []string{"--hostfile", p, "--set", "hpl.n=500", "--sweep", "nb=32,64"} }},
		{"trace", "ring.txt", string(trace), strings.Replace(string(trace), "compute 2e9", "compute 4e9", 1),
			func(p string) []string { return []string{"--replay", p, "--sweep", "latency=1us,2us"} }},
		// The index stays as it is; the trace it names changes.
		{"trace behind a TI index", "ring.txt", string(trace), strings.Replace(string(trace), "compute 2e9", "compute 4e9", 1),
			func(p string) []string {
				return []string{"--replay", besideFile(t, p, "ring.idx", "ring.txt\n"), "--sweep", "latency=1us,2us"}
			}},
		{"a job's trace", "ring.txt", string(trace), strings.Replace(string(trace), "compute 2e9", "compute 4e9", 1),
			func(p string) []string {
				job := "[platform]\ntopology = \"fat-tree\"\nfat_tree = \"2;4,2;1,2;1,1\"\nlink_bandwidth = \"10GBps\"\nlink_latency = \"1us\"\nspeed = \"10Gf\"\n" +
					"[[jobs]]\nname = \"ring\"\napp = \"replay\"\n[jobs.replay]\nfile = \"ring.txt\"\n"
				return []string{besideFile(t, p, "jobs.toml", job), "--sweep", "latency=1us,2us"}
			}},
	}
	for _, c := range cases {
		tmp := t.TempDir()
		path := filepath.Join(tmp, c.file)
		write := func(body string) {
			if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		args := append([]string{"tune", "--quiet", "--out", filepath.Join(tmp, "sweep")}, c.args(path)...)
		write(c.v1)
		if code, _, errOut := runCLI(t, args...); code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.name, code, errOut)
		}
		if code, _, errOut := runCLI(t, args...); code != exitOK || !strings.Contains(errOut, "2 of 2 points already done") {
			t.Fatalf("%s: rerun with the same file: exit %d, stderr %q", c.name, code, errOut)
		}
		write(c.v2)
		if code, _, errOut := runCLI(t, args...); code != exitInput || !strings.Contains(errOut, "a file it names") {
			t.Errorf("%s: rerun with the file changed: exit %d, stderr %q; want exit 2 naming the file", c.name, code, errOut)
		}
	}
}

// TestTuneRerunsPointsWhoseSweptFilesChanged: a file named by a swept value
// (--sweep replay.file=a,b, a swept models file or hostfile) is not the
// scenario's, which the folder's fingerprint covers: edited between two runs
// of the same sweep, its point was skipped as done and ranked with the old
// file's result. That point now runs again (and only it), its new result
// ranked; unchanged, every point is skipped as before.
func TestTuneRerunsPointsWhoseSweptFilesChanged(t *testing.T) {
	msg := func(bytes int) string { return fmt.Sprintf("0 send 1 0 %d\n1 recv 0 0 %d\n", bytes, bytes) }
	for _, tc := range []struct {
		name, file, v1, v2, key, other, scenario string
	}{
		{"a swept trace", "b.txt", msg(8), msg(80000), "replay.file", "a.txt", "r.toml"},
		{"a swept models file", "b.toml", "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n", "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [8e-11]\n",
			"kernels.models", "a.toml", "h.toml"},
	} {
		dir := t.TempDir()
		write := func(name, body string) {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		write("a.txt", msg(8))
		write("a.toml", "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n")
		const platform = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
		write("r.toml", "app = \"replay\"\n"+platform+"[replay]\nfile = \"a.txt\"\n")
		write("h.toml", "app = \"hpl\"\n"+platform+"[hpl]\nn = 300\ngrids = [[2, 2]]\n")
		write(tc.file, tc.v1)
		args := []string{"tune", "-q", filepath.Join(dir, tc.scenario), "--out", filepath.Join(dir, "sweep"),
			"--sweep", tc.key + "=" + tc.other + "," + tc.file}
		timeOf := func(out string) string { // the time_s of the point of tc.file in the table
			for _, line := range strings.Split(out, "\n") {
				if f := strings.Fields(line); len(f) > 5 && strings.HasSuffix(line, "="+tc.file) {
					return f[2]
				}
			}
			t.Fatalf("%s: no row of %s in\n%s", tc.name, tc.file, out)
			return ""
		}
		_, first, _ := runCLIOK(t, args...)
		_, again, errOut := runCLIOK(t, args...)
		if !strings.Contains(errOut, "2 of 2 points already done") || timeOf(again) != timeOf(first) {
			t.Errorf("%s: the same files: stderr %q, %s then %s", tc.name, errOut, timeOf(first), timeOf(again))
		}
		write(tc.file, tc.v2)
		_, changed, errOut := runCLIOK(t, args...)
		if !strings.Contains(errOut, "1 of 2 points already done") || !strings.Contains(errOut, "1 point(s) done in") || timeOf(changed) == timeOf(first) {
			t.Errorf("%s: %s edited: stderr %q, time_s %s (before %s); want its point run again", tc.name, tc.file, errOut, timeOf(changed), timeOf(first))
		}
		write(tc.file, tc.v1) // back as it was: its first result is not taken for the new file's
		if _, back, _ := runCLIOK(t, args...); timeOf(back) != timeOf(first) {
			t.Errorf("%s: %s restored: time_s %s, want %s", tc.name, tc.file, timeOf(back), timeOf(first))
		}
	}
}

// TestTuneSearchRerunsPointsWhoseSweptFilesChanged: a resumed --search took
// the journal's results as known whatever the files its points name; one of a
// swept models file edited since is evaluated again, the others not.
func TestTuneSearchRerunsPointsWhoseSweptFilesChanged(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	models := func(coef string) string { return "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [" + coef + "]\n" }
	write("a.toml", models("1e-11"))
	write("b.toml", models("2e-11"))
	write("h.toml", "app = \"hpl\"\n[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[hpl]\nn = 600\ngrids = [[2, 2]]\n")
	args := []string{"tune", filepath.Join(dir, "h.toml"), "--search", "--sweep", "kernels.models=a.toml,b.toml", "--sweep", "nb=32,64", "--out", filepath.Join(dir, "search")}
	runCLIOK(t, args...)
	if _, _, errOut := runCLIOK(t, args...); !strings.Contains(errOut, "tune: 0 evaluations") {
		t.Errorf("the same files: stderr %q, want 0 evaluations", errOut)
	}
	write("b.toml", models("1e-13"))
	_, out, errOut := runCLIOK(t, args...)
	if strings.Contains(errOut, "tune: 0 evaluations") || !strings.Contains(out, "best: models=b.toml") {
		t.Errorf("b.toml edited: stderr %q, stdout %q; want its points evaluated again and best", errOut, out)
	}
}

// TestTuneTaskRerunsPointsWhoseSweptFilesChanged: a Slurm array task rerun
// (a requeued task) skipped a point of its journal whose swept trace had been
// edited; collect ranked the old result. The task runs it again.
func TestTuneTaskRerunsPointsWhoseSweptFilesChanged(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	msg := func(bytes int) string { return fmt.Sprintf("0 send 1 0 %d\n1 recv 0 0 %d\n", bytes, bytes) }
	write("a.txt", msg(8))
	write("b.txt", msg(8))
	write("r.toml", "app = \"replay\"\n[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[replay]\nfile = \"a.txt\"\n")
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte("#!/bin/sh\necho 7\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin) // a fake sbatch: the task is run below by hand
	sweep := filepath.Join(dir, "sweep")
	runCLIOK(t, "tune", "-q", filepath.Join(dir, "r.toml"), "--sweep", "replay.file=a.txt,b.txt", "--slurm", "--tasks", "1", "--out", sweep)
	row := func() string {
		runCLIOK(t, "tune", "task", sweep, "--task", "0")
		_, out, _ := runCLIOK(t, "tune", "collect", sweep)
		for _, line := range strings.Split(out, "\n") {
			if strings.HasSuffix(line, "file=b.txt") {
				return strings.Fields(line)[2]
			}
		}
		t.Fatalf("no row of b.txt in\n%s", out)
		return ""
	}
	first := row()
	write("b.txt", msg(80000))
	if again := row(); again == first {
		t.Errorf("b.txt edited: time_s %s, as before: the task kept the old result", again)
	}
}

// runCLIOK is runCLI of a command that must succeed.
func runCLIOK(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	code, out, errOut := runCLI(t, args...)
	if code != exitOK {
		t.Fatalf("emu %v: exit %d: %s", args, code, errOut)
	}
	return code, out, errOut
}

// besideFile writes body to the file name in path's folder and returns its path.
func besideFile(t *testing.T, path, name, body string) string {
	t.Helper()
	p := filepath.Join(filepath.Dir(path), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestTuneBadInput(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"tune"}, "at least one --sweep"},
		{[]string{"tune", "--sweep", "grid=3y3"}, `grid "3y3": want PxQ`},
		{[]string{"tune", "--sweep", "nosuch=1,2"}, "unknown key nosuch"},
		{[]string{"tune", "--sweep", "hpl.nb=0"}, "hpl.nb"},
		{[]string{"tune", "--sweep", "nb=all"}, `no known set of values for "all"`},
		{[]string{"tune", "collect", "/nonexistent-dir"}, "tune collect /nonexistent-dir: no such folder"},
		// said "tune_test.go/plan.json: not a directory"
		{[]string{"tune", "collect", "tune_test.go"}, "emu: tune collect tune_test.go: is a file, want the --out folder of an emu tune --slurm\n"},
		// a missing scenario was named by its absolute path after "sweep point nb=32"
		{[]string{"tune", "none.toml", "--sweep", "nb=32"}, "emu: none.toml: no such file or directory\n"},
		// the hidden command's name leaked into task's message ("tune collect DIR: ...")
		{[]string{"tune", "task", "/nonexistent-dir", "--task", "0"}, "emu: tune task /nonexistent-dir: no such folder"},
		{[]string{"tune", "task", ".", "--task", "0"}, "emu: tune task .: no plan.json"},
		// A --set the sweep replaces at every point was dropped without a word.
		{[]string{"tune", "--set", "hpl.nb=128", "--sweep", "nb=32,64"}, `--set hpl.nb=128: hpl.nb is also swept by "nb=32,64", whose values replace it`},
		{[]string{"tune", "--hostfile", "h.txt", "--sweep", "platform.hostfile=a,b"}, `--hostfile h.txt: platform.hostfile is also swept by`},
	}
	for _, tt := range tests {
		args := tt.args
		if len(args) < 2 || args[1] != "collect" && args[1] != "task" {
			args = append(args, "--out", t.TempDir())
		}
		code, _, errOut := runCLI(t, args...)
		if code != exitInput || !strings.Contains(errOut, tt.want) || strings.Count(errOut, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit 2 and one line mentioning %q", tt.args, code, errOut, tt.want)
		}
	}
}

// TestTuneOfWhichNoPointRan: a sweep whose every point failed (here a trace
// that deadlocks whatever the latency) printed its table of errors, wrote
// them as the --csv and exited 0, so a script took it for results. It fails
// as emu run of one of its points does (exit 2, one line naming the point),
// its result files unwritten; a sweep with one point that ran still exits 0.
func TestTuneOfWhichNoPointRan(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("ok.goal", "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 1\n}\n")
	write("stuck.goal", "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 1\n}\nrank 1 {\nl1: recv 8b from 0 tag 2\n}\n")
	write("r.toml", "app = \"replay\"\n[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[replay]\nfile = \"ok.goal\"\n")
	for i, tc := range []struct {
		sweep []string
		code  int
		want  string // in stderr; "" for none
	}{
		{[]string{"--sweep", "replay.file=stuck.goal", "--sweep", "latency=1us,2us"}, exitInput,
			`no point of the sweep ran (2 failed); point replay.file="stuck.goal" network.link_latency="1us": deadlock`},
		{[]string{"--sweep", "replay.file=ok.goal,stuck.goal"}, exitOK, ""},
	} {
		csv := filepath.Join(dir, fmt.Sprintf("ranked%d.csv", i))
		args := append([]string{"tune", "-q", filepath.Join(dir, "r.toml"), "--out", filepath.Join(dir, fmt.Sprint("sweep", i)), "--csv", csv}, tc.sweep...)
		code, _, errOut := runCLI(t, args...)
		_, statErr := os.Stat(csv)
		if code != tc.code || (tc.want == "") != (errOut == "") || !strings.Contains(errOut, tc.want) || strings.Count(errOut, "\n") > 1 {
			t.Errorf("%v: exit %d, stderr %q; want exit %d and %q", tc.sweep, code, errOut, tc.code, tc.want)
		}
		if written := statErr == nil; written != (tc.code == exitOK) {
			t.Errorf("%v: exit %d and the --csv written: %v", tc.sweep, code, written)
		}
	}
}

// TestTuneCollectOfALocalSweep: collect on a sweep run here said only
// "open DIR/plan.json: no such file or directory"; it says what the folder
// is and how its results are ranked (the same command again, which resumes
// and prints the table, as it does below), and what a folder of neither is.
func TestTuneCollectOfALocalSweep(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sweep")
	sweep := []string{"tune", "-q", "--sweep", "nb=32,64", "--set", "hpl.n=200", "--out", dir}
	if code, _, stderr := runCLI(t, sweep...); code != exitOK {
		t.Fatalf("sweep: exit %d: %s", code, stderr)
	}
	code, _, stderr := runCLI(t, "tune", "collect", dir)
	if want := "tune collect " + dir + ": a sweep run here, not submitted with --slurm (no plan.json); rank it by running the same emu tune command again with --out " + dir; code != exitInput || !strings.HasPrefix(stderr, "emu: "+want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, stderr, want)
	}
	if code, stdout, stderr := runCLI(t, sweep...); code != exitOK || !strings.Contains(stdout, "nb=64") || !strings.Contains(stderr, "2 of 2 points already done") {
		t.Errorf("rerun: exit %d, stdout %q, stderr %q; want the table of the points done", code, stdout, stderr)
	}
	empty := t.TempDir()
	if code, _, stderr := runCLI(t, "tune", "collect", empty); code != exitInput || !strings.Contains(stderr, "no plan.json: not the --out of an emu tune --slurm") {
		t.Errorf("empty folder: exit %d, stderr %q", code, stderr)
	}
}

// TestTuneSlurm submits a sweep to a real one-node Slurm cluster started here (slurmctld,
// slurmd, munged from Debian's slurm-wlm and munge, which .ci/run installs), waits for
// the array to finish and collects it. Off CI it is skipped when Slurm is not installed.
func TestTuneSlurm(t *testing.T) {
	for _, bin := range []string{"slurmctld", "slurmd", "sbatch", "squeue", "munged", "munge"} {
		if _, err := exec.LookPath(bin); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s not installed: .ci/run must install slurm-wlm and munge", bin)
			}
			t.Skipf("%s not installed (apt-get install slurm-wlm munge)", bin)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("the one-node Slurm cluster runs slurmd as root")
	}
	conf := startSlurm(t)
	t.Setenv("SLURM_CONF", conf)
	t.Setenv("EMU_TEST_MAIN", "1") // the array tasks run this test binary as emu

	dir := filepath.Join(t.TempDir(), "sweep")
	code, out, errOut := runCLI(t, "tune", "--quiet", "--out", dir, "--slurm", "--tasks", "2",
		"--sweep", "nb=32,64,128", "--sweep", "depth=0,1")
	if code != exitOK || !strings.Contains(out, "submitted Slurm job array") {
		t.Fatalf("submit: exit %d, %s %s", code, out, errOut)
	}
	id := strings.TrimSpace(readFile(t, filepath.Join(dir, "job_id")))
	deadline := time.Now().Add(3 * time.Minute)
	for {
		q, _ := exec.Command("squeue", "-h", "-j", id).CombinedOutput()
		if strings.TrimSpace(string(q)) == "" || strings.Contains(string(q), "Invalid job id") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %s still queued after 3 minutes: %s", id, q)
		}
		time.Sleep(500 * time.Millisecond)
	}
	slurmCSV := filepath.Join(t.TempDir(), "slurm.csv")
	code, out, errOut = runCLI(t, "tune", "collect", dir, "--csv", slurmCSV)
	if code != exitOK || errOut != "" {
		logs, _ := filepath.Glob(filepath.Join(dir, "slurm-*.out"))
		for _, l := range logs {
			t.Logf("%s:\n%s", l, readFile(t, l))
		}
		t.Fatalf("collect: exit %d, stderr %q", code, errOut)
	}
	if n := strings.Count(out, "\n"); n != 7 {
		t.Errorf("want a header and 6 ranked points, got:\n%s", out)
	}
	if strings.Contains(out, "error") {
		t.Errorf("a point failed:\n%s", out)
	}
	// The array's tasks ran the points the local sweep runs: the same ranking
	// and figures, all but the wall clock.
	localCSV := filepath.Join(t.TempDir(), "local.csv")
	if code, _, errOut := runCLI(t, "tune", "--quiet", "--out", filepath.Join(t.TempDir(), "local"), "--csv", localCSV,
		"--sweep", "nb=32,64,128", "--sweep", "depth=0,1"); code != exitOK {
		t.Fatalf("local sweep: exit %d, %s", code, errOut)
	}
	if a, b := withoutWall(t, slurmCSV), withoutWall(t, localCSV); a != b {
		t.Errorf("Slurm's ranking\n%s\ndiffers from the local sweep's\n%s", a, b)
	}
}

// withoutWall is a ranked CSV with its wall_time_s column left out.
func withoutWall(t *testing.T, path string) string {
	t.Helper()
	rows := scenariotest.ReadCSV(t, path)
	if len(rows) < 2 {
		t.Fatalf("%s: %d rows, want a header and a point", path, len(rows))
	}
	wall := slices.Index(rows[0], "wall_time_s")
	var b strings.Builder
	for _, r := range rows {
		if wall >= 0 {
			r = slices.Delete(r, wall, wall+1)
		}
		b.WriteString(strings.Join(r, ",") + "\n")
	}
	return b.String()
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// startSlurm starts munged (unless one answers), slurmctld and slurmd in the foreground
// on free ports with state under a temporary folder, waits until the node is idle, and
// stops them when the test ends. It returns the path of slurm.conf.
func startSlurm(t *testing.T) string {
	t.Helper()
	if exec.Command("sh", "-c", "munge -n | unmunge").Run() != nil {
		os.MkdirAll("/run/munge", 0o755)
		if out, err := exec.Command("munged", "--force").CombinedOutput(); err != nil {
			t.Fatalf("munged: %v: %s", err, out)
		}
	}
	host, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	host, _, _ = strings.Cut(host, ".")
	dir := t.TempDir()
	for _, d := range []string{"state", "spool"} {
		os.MkdirAll(filepath.Join(dir, d), 0o755)
	}
	conf := filepath.Join(dir, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=emutest
SlurmctldHost=%[1]s
SlurmctldPort=%[2]d
SlurmdPort=%[3]d
AuthType=auth/munge
SlurmUser=root
StateSaveLocation=%[4]s/state
SlurmdSpoolDir=%[4]s/spool
SlurmctldPidFile=%[4]s/slurmctld.pid
SlurmdPidFile=%[4]s/slurmd.pid
SlurmctldLogFile=%[4]s/slurmctld.log
SlurmdLogFile=%[4]s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
NodeName=%[1]s CPUs=%[5]d RealMemory=1000 State=UNKNOWN
PartitionName=debug Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, host, freePort(t), freePort(t), dir, 2)
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, daemon := range []string{"slurmctld", "slurmd"} {
		cmd := exec.Command(daemon, "-D", "-f", conf)
		cmd.Env = append(os.Environ(), "SLURM_CONF="+conf)
		if err := cmd.Start(); err != nil {
			t.Fatalf("%s: %v", daemon, err)
		}
		t.Cleanup(func() {
			cmd.Process.Kill()
			cmd.Wait()
		})
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		cmd := exec.Command("sinfo", "-h", "-o", "%t")
		cmd.Env = append(os.Environ(), "SLURM_CONF="+conf)
		out, _ := cmd.CombinedOutput()
		if strings.TrimSpace(string(out)) == "idle" {
			return conf
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "slurmd.log"))
			t.Fatalf("Slurm node not idle after 60 s (sinfo: %q); slurmd.log:\n%s", out, log)
		}
		time.Sleep(300 * time.Millisecond)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// TestTunePointOfSeveralTests: a point whose scenario lists several HPL tests
// (here two Ns) is ranked on its best test, as emu tune's help says: its
// Gflops and Time are those of the test with the highest Gflops that emu run
// prints for the same point.
func TestTunePointOfSeveralTests(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "tune.json")
	code, _, errOut := runCLI(t, "tune", "-q", "--set", "hpl.n=[300,600]", "--set", "hpl.nb=32", "--sweep", "depth=0,1",
		"--out", filepath.Join(dir, "sweep"), "--json", js)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var points []struct {
		Label  string  `json:"label"`
		Gflops float64 `json:"gflops"`
		TimeS  float64 `json:"time_s"`
	}
	if err := json.Unmarshal(mustRead(t, js), &points); err != nil || len(points) != 2 {
		t.Fatalf("%d points, %v", len(points), err)
	}
	for _, p := range points {
		depth := strings.TrimPrefix(p.Label, "depth=")
		rj := filepath.Join(dir, "run"+depth+".json")
		if code, _, errOut := runCLI(t, "run", "-q", "--set", "hpl.n=[300,600]", "--set", "hpl.nb=32", "--set", "hpl.depth="+depth, "--json", rj); code != exitOK {
			t.Fatalf("run depth %s: exit %d: %s", depth, code, errOut)
		}
		var run struct {
			Results []struct {
				Gflops float64 `json:"gflops"`
				TimeS  float64 `json:"time_s"`
			} `json:"results"`
		}
		if err := json.Unmarshal(mustRead(t, rj), &run); err != nil || len(run.Results) != 2 {
			t.Fatalf("run depth %s: %d results, %v", depth, len(run.Results), err)
		}
		best := run.Results[0]
		if run.Results[1].Gflops > best.Gflops {
			best = run.Results[1]
		}
		if p.Gflops != best.Gflops || p.TimeS != best.TimeS {
			t.Errorf("%s: %g Gflops, %g s; emu run's best test %g Gflops, %g s", p.Label, p.Gflops, p.TimeS, best.Gflops, best.TimeS)
		}
	}
}

// TestTuneSlurmSbatchFails: when sbatch refuses the job (a bad partition) or
// is not installed here, tune exits 1 and leaves the folder ready to submit
// by hand; the message said only sbatch's error. It now names the folder and
// the commands: the job script there, then tune collect.
func TestTuneSlurmSbatchFails(t *testing.T) {
	for _, tc := range []struct {
		name, sbatch, why string
	}{
		{"refused", "#!/bin/sh\necho 'sbatch: error: Batch job submission failed: Invalid partition name specified' >&2\nexit 1\n",
			"exit status 1: sbatch: error: Batch job submission failed: Invalid partition name specified;"},
		{"not installed", "", `"sbatch": executable file not found`},
	} {
		bin := t.TempDir()
		if tc.sbatch != "" {
			if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(tc.sbatch), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		t.Setenv("PATH", bin) // the fake sbatch, or none
		dir := filepath.Join(t.TempDir(), "sweep")
		code, out, errOut := runCLI(t, "tune", "--quiet", "--out", dir, "--slurm", "--partition", "nope", "--sweep", "nb=32,64")
		if code != exitFailure || out != "" {
			t.Fatalf("%s: exit %d, stdout %q, stderr %s", tc.name, code, out, errOut)
		}
		script := filepath.Join(dir, "job.sh")
		for _, want := range []string{tc.why, "nothing was submitted, but " + dir + " holds",
			"submit it by hand with `sbatch " + script + "`, then `emu tune collect " + dir + "`"} {
			if !strings.Contains(errOut, want) {
				t.Errorf("%s: stderr lacks %q:\n%s", tc.name, want, errOut)
			}
		}
		if n := strings.Count(strings.TrimSpace(errOut), "\n"); n != 0 {
			t.Errorf("%s: %d lines of error, want one:\n%s", tc.name, n+1, errOut)
		}
		// What it names is there: the script runs the copied binary on the plan.
		job := readFile(t, script)
		for _, f := range []string{"plan.json", filepath.Join("bin", "emu")} {
			if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
		}
		if !strings.Contains(job, filepath.Join(dir, "bin", "emu")) || !strings.Contains(job, "--partition=nope") {
			t.Errorf("%s: job script\n%s", tc.name, job)
		}
	}
}

// TestTuneSweepErrorNamesThePoint: a sweep point the scenario refuses is
// named by its full keys, as the rest of the line names them.
func TestTuneSweepErrorNamesThePoint(t *testing.T) {
	for _, tc := range []struct {
		sweep []string
		want  string
	}{
		{[]string{"--sweep", "foo.key=1,2"}, "emu: sweep point foo.key=1: --set foo.key=1: unknown key foo.key\n"},
		{[]string{"--sweep", "nb=32", "--sweep", "hpl.nosuch=1"}, "emu: sweep point hpl.nb=32 hpl.nosuch=1: --set hpl.nosuch=1: unknown key hpl.nosuch\n"},
	} {
		args := append([]string{"tune", "--quiet", "--out", filepath.Join(t.TempDir(), "s")}, tc.sweep...)
		code, _, errOut := runCLI(t, args...)
		if code != exitInput || errOut != tc.want {
			t.Errorf("%v: exit %d, stderr %q; want exit %d, %q", tc.sweep, code, errOut, exitInput, tc.want)
		}
	}
}

// TestTuneSweepColonRange: a range in the colon form reached the scenario as
// a string and failed with no word of the range syntax. Where the key takes
// a number the error now shows the range as emu writes it; a SimGrid table
// key takes the string as it is, and a key that takes no number gets no hint.
func TestTuneSweepColonRange(t *testing.T) {
	const hint = "; a range is written start..stop..step: --sweep "
	for _, tc := range []struct {
		sweep []string
		want  string
	}{
		{[]string{"--sweep", "n=1000:4000:1000"}, `emu: sweep point hpl.n="1000:4000:1000": --set hpl.n="1000:4000:1000": hpl.n: want an integer or a list of integers, got "1000:4000:1000"` +
			hint + "hpl.n=1000..4000..1000\n"},
		{[]string{"--sweep", "latency=1us:5us:2us"}, `emu: sweep point network.link_latency="1us:5us:2us": --set network.link_latency="1us:5us:2us": network.link_latency: "1us:5us:2us" is not a time (a number and a unit, e.g. "1us")` +
			hint + "network.link_latency=1us..5us..2us\n"},
		{[]string{"--sweep", "network.send_overhead=0:1e-6:1e-9", "--sweep", "hpl.nosuch=1"},
			`emu: sweep point network.send_overhead="0:1e-6:1e-9" hpl.nosuch=1: --set hpl.nosuch=1: unknown key hpl.nosuch` + "\n"},
		{[]string{"--sweep", "topology=1:2:3"}, `emu: sweep point platform.topology="1:2:3": --set platform.topology="1:2:3": platform.topology: unknown topology "1:2:3" (flat, fat-tree, torus or dragonfly)` + "\n"},
	} {
		args := append([]string{"tune", "--quiet", "--out", filepath.Join(t.TempDir(), "s")}, tc.sweep...)
		code, _, errOut := runCLI(t, args...)
		if code != exitInput || errOut != tc.want {
			t.Errorf("%v: exit %d, stderr\n%q\nwant exit %d,\n%q", tc.sweep, code, errOut, exitInput, tc.want)
		}
	}
}

// TestTuneSweepOfAppsTakesTheirKeys: a sweep of app=pingpong,ring with a --set
// of ring.iterations was refused at the ping-pong point (qa51; qa50's refusal
// of a --set no app of the run reads), so no sweep across apps could set one
// app's key. The ring point must be the run of that app with the key, by
// emu run; a key no swept app reads is still refused.
func TestTuneSweepOfAppsTakesTheirKeys(t *testing.T) {
	scen := "../../examples/pingpong.toml"
	dir := t.TempDir()
	code, _, stderr := runCLI(t, "run", "-q", scen, "--set", "app=ring", "--set", "ring.iterations=2", "--json", filepath.Join(dir, "r.json"))
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	var run struct {
		SimulatedTime float64 `json:"simulated_time_s"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "r.json"))
	if err != nil || json.Unmarshal(data, &run) != nil || run.SimulatedTime <= 0 {
		t.Fatalf("run's JSON: %v %s", err, data)
	}
	code, _, stderr = runCLI(t, "tune", "-q", scen, "--sweep", "app=pingpong,ring", "--set", "ring.iterations=2",
		"--out", filepath.Join(dir, "t"), "--csv", filepath.Join(dir, "t.csv"))
	if code != 0 {
		t.Fatalf("tune: exit %d: %s", code, stderr)
	}
	table, err := os.ReadFile(filepath.Join(dir, "t.csv"))
	if err != nil {
		t.Fatal(err)
	}
	want := strconv.FormatFloat(run.SimulatedTime, 'g', 10, 64) // the CSV's 10 digits
	found := false
	for _, line := range strings.Split(string(table), "\n") {
		if strings.Contains(line, "ring") && strings.Contains(line, want) {
			found = true
		}
	}
	if !found {
		t.Errorf("no ring row with simulated time %s in\n%s", want, table)
	}
	code, _, stderr = runCLI(t, "tune", "-q", scen, "--sweep", "app=pingpong,ring", "--set", "hpl.nb=2", "--out", filepath.Join(dir, "u"))
	if want := `emu: sweep point app="pingpong": --set hpl.nb=2: the scenario's app is pingpong, which reads no [hpl] table (app = "hpl" runs it)`; code != exitInput || strings.TrimSpace(stderr) != want {
		t.Errorf("hpl.nb beside a sweep of pingpong and ring: exit %d, %q, want %q", code, stderr, want)
	}
	// A job's app swept likewise takes that job's key of a swept app.
	jobs := "../../examples/jobs-congestor.toml"
	code, _, stderr = runCLI(t, "tune", "-q", jobs, "--sweep", "jobs.0.app=ring,pingpong", "--set", "jobs.0.ranks=2",
		"--set", "jobs.0.pingpong.iterations=2", "--out", filepath.Join(dir, "j"))
	if code != 0 {
		t.Errorf("a sweep of job 0's app with its pingpong.iterations: exit %d: %s", code, stderr)
	}
}
