package main

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// noisySets make the embedded default stochastic: dgemm's durations drawn with
// a heteroscedastic noise of σ = 1e-12 s per multiply-add (a tenth of its mean),
// from each rank's stream of the scenario's seed.
var noisySets = []string{"kernels.noise=true", `kernels.dgemm.noise="hetero"`, `kernels.dgemm.sigma_terms=["m*n*k"]`, "kernels.dgemm.sigma_coef=[1e-12]"}

// chaoticScenario is HPL 8×8 with SimGrid's growing probe cost: its order of
// events flips when the links move by parts in 10⁹.
const chaoticScenario = "testdata/hpl88_probe.toml"

func withSets(args []string, sets ...string) []string {
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	return args
}

// runJSON runs emu with args and --json, and returns stdout, stderr and the
// JSON document (its wall time zeroed).
func runJSON(t *testing.T, args ...string) (string, string, string) {
	t.Helper()
	js := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := runCLI(t, append(args, "--json", js)...)
	if code != exitOK {
		t.Fatalf("emu %v: exit %d: %s", args, code, errOut)
	}
	return out, errOut, wallTime.ReplaceAllString(string(mustRead(t, js)), `"wall_time_s": 0`)
}

// hplFigures reads each HPL result's time_s and gflops from a JSON document.
func hplFigures(t *testing.T, doc string) (times, gflops []float64) {
	t.Helper()
	var d struct {
		Results []struct {
			Time   float64 `json:"time_s"`
			Gflops float64 `json:"gflops"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	for _, r := range d.Results {
		times, gflops = append(times, r.Time), append(gflops, r.Gflops)
	}
	return times, gflops
}

// bandOf5 is the hand form of definition 7 for K = 5 sorted runs x0..x4:
// h(0.05) = 0.2, h(0.95) = 3.8, h(0.5) = 2.
func bandOf5(xs []float64) (p05, p95, median float64) {
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[0] + 0.2*(s[1]-s[0]), s[3] + 0.8*(s[4]-s[3]), s[2]
}

// TestSeedsEnsembleIsItsRuns: `emu run --seeds 5` on a noisy scenario reports,
// for the HPL test, the mean, extremes and band of the five runs that `emu run
// --set seed=S` gives alone for S = 1..5 (an independent road: separate
// processes' worth of runs, one at a time); its report and every field of its
// JSON but "ensemble" are seed 1's, as `emu run` alone prints them; the runs
// spread.
func TestSeedsEnsembleIsItsRuns(t *testing.T) {
	var times, gflops []float64
	var alone, aloneDoc string
	for s := 1; s <= 5; s++ {
		out, _, doc := runJSON(t, withSets([]string{"run", "-q"}, append(slices.Clone(noisySets), "seed="+strconv.Itoa(s))...)...)
		ts, gs := hplFigures(t, doc)
		times, gflops = append(times, ts[0]), append(gflops, gs[0])
		if s == 1 {
			alone, aloneDoc = out, doc
		}
	}
	out, _, doc := runJSON(t, withSets([]string{"run", "-q", "--seeds", "5"}, noisySets...)...)
	if !strings.HasPrefix(out, alone) {
		t.Errorf("the ensemble's report is not seed 1's alone:\n%s\nwant first:\n%s", out, alone)
	}
	if !strings.Contains(out, "ensemble of 5 runs (seeds 1 to 5)") {
		t.Errorf("no ensemble table:\n%s", out)
	}
	for _, line := range strings.Split(out[len(alone):], "\n") {
		if strings.HasPrefix(line, "W") {
			t.Errorf("ensemble line %q would read as an HPL test", line)
		}
	}

	var d, a map[string]any
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(aloneDoc), &a); err != nil {
		t.Fatal(err)
	}
	for k, v := range a { // every field of the run alone, unchanged
		if k == "results" {
			continue
		}
		if got, _ := json.Marshal(d[k]); string(got) != mustJSON(t, v) {
			t.Errorf("field %s: %s, alone %s", k, got, mustJSON(t, v))
		}
	}
	res := d["results"].([]any)[0].(map[string]any)
	for k, v := range a["results"].([]any)[0].(map[string]any) {
		if got := mustJSON(t, res[k]); got != mustJSON(t, v) {
			t.Errorf("result field %s: %s, alone %s", k, got, mustJSON(t, v))
		}
	}
	ens := res["ensemble"].(map[string]any)
	if ens["runs"].(float64) != 5 {
		t.Errorf("ensemble runs %v, want 5", ens["runs"])
	}
	for _, f := range []struct {
		name string
		xs   []float64
	}{{"time_s", times}, {"gflops", gflops}} {
		s := ens[f.name].(map[string]any)
		p05, p95, med := bandOf5(f.xs)
		mean := (f.xs[0] + f.xs[1] + f.xs[2] + f.xs[3] + f.xs[4]) / 5
		for _, c := range []struct {
			key  string
			want float64
		}{{"mean", mean}, {"min", slices.Min(f.xs)}, {"max", slices.Max(f.xs)}, {"p05", p05}, {"p95", p95}, {"median", med}} {
			if got := s[c.key].(float64); math.Abs(got-c.want) > 1e-14*math.Abs(c.want) {
				t.Errorf("%s.%s = %.17g, from the runs alone %.17g", f.name, c.key, got, c.want)
			}
		}
		if !(slices.Max(f.xs) > slices.Min(f.xs)) {
			t.Errorf("%s: the five seeds gave one value %v: the scenario is not stochastic", f.name, f.xs)
		}
		// The sample SD and the prediction interval mean ∓ t₀.₉₅(4)·sd·√(6/5),
		// t₀.₉₅(4) = 2.131847 (tables).
		ss := 0.0
		for _, x := range f.xs {
			ss += (x - mean) * (x - mean)
		}
		sd := math.Sqrt(ss / 4)
		next, _ := s["next90"].(map[string]any)
		if got := s["sd"].(float64); math.Abs(got-sd) > 1e-9*sd {
			t.Errorf("%s.sd = %.17g, from the runs alone %.17g", f.name, got, sd)
		}
		if half := 2.131847 * sd * math.Sqrt(1.2); next == nil || math.Abs(next["lo"].(float64)-(mean-half)) > 1e-6*half || math.Abs(next["hi"].(float64)-(mean+half)) > 1e-6*half {
			t.Errorf("%s.next90 = %v, want mean ∓ %.6g around %.9g", f.name, next, half, mean)
		}
	}
	top := d["ensemble"].(map[string]any)
	if mustJSON(t, top["seeds"]) != "[1,2,3,4,5]" || top["runs"].(float64) != 5 || top["copies"].(float64) != 1 {
		t.Errorf("top-level ensemble %v", top)
	}
	for _, k := range []string{"mean", "min", "max", "p05", "p95", "median"} {
		if _, ok := top["simulated_time_s"].(map[string]any)[k]; !ok {
			t.Errorf("top-level ensemble.simulated_time_s has no %s", k)
		}
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEnsembleSameSeedSameBytes: the same ensemble gives the same bytes of
// report, table and JSON (but for the wall time) whether its runs go one at a
// time or several at once.
func TestEnsembleSameSeedSameBytes(t *testing.T) {
	var outs, docs []string
	for _, jobs := range []string{"1", "3", "3"} {
		out, _, doc := runJSON(t, withSets([]string{"run", "-q", "--seeds", "3", "--perturb", "2", "--jobs", jobs}, noisySets...)...)
		outs, docs = append(outs, out), append(docs, doc)
	}
	for i := 1; i < len(outs); i++ {
		if outs[i] != outs[0] || docs[i] != docs[0] {
			t.Errorf("run %d differs from run 0:\n%s\n%s", i, outs[i], outs[0])
		}
	}
	if !strings.Contains(outs[0], "6 runs (seeds 1 to 3, each as written and in 1 perturbed copy)") {
		t.Errorf("both flags: want 3 seeds × 2 copies:\n%s", outs[0])
	}
}

// TestPerturbSpreadsAChaoticRun: HPL 8×8 with SimGrid's growing probe cost is
// reproducible to the bit when run twice as written, yet its links moved by
// parts in 10⁹ spread its Time by more than 1% (±7% when written); the
// embedded default, which does not poll, moves by no more than its links do.
func TestPerturbSpreadsAChaoticRun(t *testing.T) {
	_, _, a := runJSON(t, "run", chaoticScenario, "-q")
	_, _, b := runJSON(t, "run", chaoticScenario, "-q")
	if a != b {
		t.Fatal("two runs of the chaotic scenario as written differ")
	}
	t0, _ := hplFigures(t, a)
	_, _, doc := runJSON(t, "run", chaoticScenario, "-q", "--perturb", "6")
	var d struct {
		Results []struct {
			Time     float64 `json:"time_s"`
			Ensemble struct {
				Time struct{ Min, Max, Mean float64 } `json:"time_s"`
			} `json:"ensemble"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	e := d.Results[0].Ensemble.Time
	t.Logf("as written %.6f s; perturbed min %.6f, max %.6f s (%.1f%% of the mean)", t0[0], e.Min, e.Max, 100*(e.Max-e.Min)/e.Mean)
	if d.Results[0].Time != t0[0] {
		t.Errorf("the ensemble's report %.17g s is not the run as written, %.17g s", d.Results[0].Time, t0[0])
	}
	if !(e.Max-e.Min > 0.01*e.Mean) || !(e.Min <= t0[0] && t0[0] <= e.Max) {
		t.Errorf("perturbed 8×8: min %g, max %g, as written %g: no spread beyond 1%%", e.Min, e.Max, t0[0])
	}

	_, _, doc = runJSON(t, "run", "-q", "--perturb", "4")
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	// Each link moves by at most 1e-9: a run that does not flip its order
	// moves by about as much (here the sum of a few thousand such moves).
	if e := d.Results[0].Ensemble.Time; !(e.Max-e.Min <= 1e-6*e.Mean) {
		t.Errorf("perturbed default: min %g, max %g: the default is not chaotic", e.Min, e.Max)
	}
}

// TestEnsembleSaysIdenticalRuns: --seeds on a scenario that draws nothing from
// its seed says so, and points at --perturb.
func TestEnsembleSaysIdenticalRuns(t *testing.T) {
	code, out, errOut := runCLI(t, "run", "--seeds", "3")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "the 3 runs are identical") || !strings.Contains(errOut, "--perturb") {
		t.Errorf("stderr %q: want the runs called identical and --perturb suggested", errOut)
	}
	if !strings.Contains(out, "0.00%") {
		t.Errorf("identical runs with a band: %s", out)
	}
}

// TestEnsembleOfOtherApps: pingpong with exponential per-message delays (drawn
// from the seed) carries an ensemble per message size, of its one-way time and
// bandwidth; the runs spread.
func TestEnsembleOfOtherApps(t *testing.T) {
	_, _, doc := runJSON(t, "run", "testdata/pingpong.toml", "-q", "--seeds", "4",
		"--set", "network.message_delay=1us", "--set", `network.message_delay_dist="exp"`)
	var d struct {
		Results []struct {
			Bytes    int `json:"bytes"`
			Ensemble struct {
				Runs   int                                  `json:"runs"`
				OneWay struct{ Min, Max, P05, P95 float64 } `json:"one_way_s"`
				BW     *struct{ Mean float64 }              `json:"bandwidth_Bps"`
			} `json:"ensemble"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(doc), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Results) != 4 {
		t.Fatalf("%d results, want 4 sizes", len(d.Results))
	}
	for _, r := range d.Results {
		e := r.Ensemble
		if e.Runs != 4 || e.BW == nil || !(e.OneWay.Max > e.OneWay.Min) || !(e.OneWay.Min <= e.OneWay.P05 && e.OneWay.P95 <= e.OneWay.Max) {
			t.Errorf("%d bytes: ensemble %+v", r.Bytes, e)
		}
	}
}

func TestEnsembleBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--seeds", "0"}, "--seeds 0"},
		{[]string{"--seeds", "-2"}, "--seeds -2"},
		{[]string{"--perturb", "0"}, "--perturb 0"},
		{[]string{"--seeds", "2", "--jobs", "0"}, "--jobs 0"},
		{[]string{"--jobs", "2"}, "only meaningful with --seeds or --perturb"},
		{[]string{"--seeds", "x"}, `"x"`},
		{[]string{"--seeds", "3", "--set", "seed=9223372036854775807"}, "pass the largest seed"},
		// Far too many runs end in a line, not in the runtime's out-of-memory crash,
		// and the product of the two flags does not overflow past the bound.
		{[]string{"--seeds", "100000000000"}, "--seeds 100000000000: want at most 1000000 runs"},
		{[]string{"--perturb", "1000001"}, "--perturb 1000001: want at most 1000000 runs"},
		{[]string{"--seeds", "1000", "--perturb", "1001"}, "--seeds 1000 --perturb 1001: 1001000 runs"},
		{[]string{"--seeds", "4294967296", "--perturb", "4294967296"}, "more than 9223372036854775807 runs"},
	} {
		code, _, errOut := runCLI(t, append([]string{"run", "-q"}, c.args...)...)
		if code != exitInput || !strings.Contains(errOut, c.want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Errorf("%v: exit %d, %q; want %d and one line with %q", c.args, code, errOut, exitInput, c.want)
		}
	}
}

func TestParseMemAvailable(t *testing.T) {
	for _, c := range []struct {
		text string
		want uint64
	}{
		{"MemTotal:       16318480 kB\nMemFree:  1 kB\nMemAvailable:   12000000 kB\n", 12000000 << 10},
		{"MemTotal:       16318480 kB\n", 0},
		{"MemAvailable: 12 MB\n", 0},
	} {
		if got := parseMemAvailable([]byte(c.text)); got != c.want {
			t.Errorf("%q: %d, want %d", c.text, got, c.want)
		}
	}
	// 0.8 × 10 GiB over 3 GiB a run: 2 runs fit; nothing known: no bound.
	m := &memoryWatch{avail: 10 << 30, start: math.MaxUint64}
	m.peak.Store(3 << 30)
	if got := m.fit(); got != 2 {
		t.Errorf("fit %d, want 2", got)
	}
	m.avail = 0
	if got := m.fit(); got != math.MaxInt {
		t.Errorf("fit without MemAvailable %d, want no bound", got)
	}
}

// TestEnsembleGolden pins the ensemble table's form after HPL's report, and
// a pingpong's, on seeded noisy runs (the numbers are checked against the runs
// alone by TestSeedsEnsembleIsItsRuns; this pins the text).
func TestEnsembleGolden(t *testing.T) {
	code, out, errOut := runCLI(t, withSets([]string{"run", "-q", "--seeds", "3"}, noisySets...)...)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	golden(t, "run_seeds.txt", out)
	code, out, errOut = runCLI(t, "run", "testdata/pingpong.toml", "-q", "--seeds", "3",
		"--set", "network.message_delay=1us", "--set", `network.message_delay_dist="exp"`)
	if code != exitOK || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	golden(t, "run_pingpong_seeds.txt", out)
}

// TestEnsembleOfOneSaysSo: an ensemble of one run (--seeds 1, --perturb 1, or
// both) said "ensemble of 1 runs (seeds 1 to 1)" and "seed 1 as written and in
// 0 copies"; it names the one run, and --perturb 2 --seeds 2 still counts its
// copies.
func TestEnsembleOfOneSaysSo(t *testing.T) {
	for _, c := range []struct {
		flags         []string
		table, stderr string
	}{
		{[]string{"--seeds", "1"}, "ensemble of 1 run (seed 1);", "emu: ensemble of 1 run, 1 at once,"},
		{[]string{"--perturb", "1"}, "ensemble of 1 run (seed 1, not perturbed);", "emu: ensemble of 1 run, 1 at once,"},
		{[]string{"--seeds", "3", "--perturb", "1"}, "ensemble of 3 runs (seeds 1 to 3, not perturbed);", "emu: ensemble of 3 runs,"},
		{[]string{"--seeds", "2", "--perturb", "2"}, "ensemble of 4 runs (seeds 1 to 2, each as written and in 1 perturbed copy);", "emu: ensemble of 4 runs,"},
		{[]string{"--perturb", "2"}, "ensemble of 2 runs (seed 1 as written and in 1 copy with every link moved by parts in 10⁹);", "emu: ensemble of 2 runs,"},
	} {
		code, out, errOut := runCLI(t, append([]string{"run"}, c.flags...)...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", c.flags, code, errOut)
		}
		if !strings.Contains(out, "\n"+c.table) {
			t.Errorf("%v: the table's first line is not %q:\n%s", c.flags, c.table, out[strings.LastIndex(out, "ensemble of"):])
		}
		if !strings.Contains(errOut, c.stderr) {
			t.Errorf("%v: stderr does not say %q:\n%s", c.flags, c.stderr, errOut)
		}
	}
}

// TestGraphNoteRoundsL0: Dahu's 50 ns links made the --graph note say "L0 =
// 0.049999999999999996us", the float product 5e-8·1e6 printed whole.
func TestGraphNoteRoundsL0(t *testing.T) {
	for _, c := range []struct{ latency, want string }{
		{"50ns", "L0 = 0.05us)"},
		{"1.5us", "L0 = 1.5us)"},
		{"70ns", "L0 = 0.07us)"},
	} {
		g := filepath.Join(t.TempDir(), "g.graph")
		code, _, errOut := runCLI(t, "run", "--set", "platform.link_latency="+c.latency, "--graph", g)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		if !strings.Contains(errOut, c.want) {
			t.Errorf("link latency %s: the note does not say %q:\n%s", c.latency, c.want, errOut)
		}
	}
}

// TestEnsembleSaysWhereTheReportIs: with HPL.dat's device out at a file (8) or
// standard error (7), the ensemble's table on standard output said "the report
// above is the first run's" over nothing; it names where the report went.
func TestEnsembleSaysWhereTheReportIs(t *testing.T) {
	dir := t.TempDir()
	report := filepath.Join(dir, "hpl.out")
	for _, c := range []struct {
		device, want string
	}{
		{"6", "; the report above is the first run's."},
		{"7", "; the report on standard error is the first run's."},
		{"8", "; the report in " + report + " is the first run's."},
	} {
		dat := filepath.Join(dir, "HPL"+c.device+".dat")
		text := oneTestHPLDat(report, c.device, 500, 96, 1, 2, 1) // one 1 × 2 test of N = 500
		if err := os.WriteFile(dat, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := runCLI(t, "run", "-q", "--hpl-dat", dat, "--seeds", "2")
		if code != exitOK {
			t.Fatalf("device %s: exit %d: %s", c.device, code, errOut)
		}
		if !strings.Contains(out, c.want) {
			t.Errorf("device %s: standard output does not say %q:\n%s", c.device, c.want, out)
		}
	}
}

// oneTestHPLDat is an HPL.dat of one test as a user writes it (HPL 2.3's
// sample, one value a line): outFile and device say where the report goes;
// n, nb, the p × q grid and pfact (0 left, 1 Crout, 2 right) are the test's,
// and the other lines are the sample's.
func oneTestHPLDat(outFile, device string, n, nb, p, q, pfact int) string {
	return fmt.Sprintf(`HPLinpack benchmark input file
Innovative Computing Laboratory, University of Tennessee
%-12s output file name (if any)
%-12s device out (6=stdout,7=stderr,file)
1            # of problems sizes (N)
%-12d Ns
1            # of NBs
%-12d NBs
0            PMAP process mapping (0=Row-,1=Column-major)
1            # of process grids (P x Q)
%-12d Ps
%-12d Qs
16.0         threshold
1            # of panel fact
%-12d PFACTs (0=left, 1=Crout, 2=Right)
1            # of recursive stopping criterium
4            NBMINs (>= 1)
1            # of panels in recursion
2            NDIVs
1            # of recursive panel fact.
2            RFACTs (0=left, 1=Crout, 2=Right)
1            # of broadcast
1            BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)
1            # of lookahead depth
1            DEPTHs (>=0)
2            SWAP (0=bin-exch,1=long,2=mix)
64           swapping threshold
0            L1 in (0=transposed,1=no-transposed) form
0            U  in (0=transposed,1=no-transposed) form
1            Equilibration (0=no,1=yes)
8            memory alignment in double (> 0)
`, outFile, device, n, nb, p, q, pfact)
}

// TestEnsembleOfJobsKeepsSlowdown: under [[jobs]] the ensemble summarises
// each job's time_s, alone_s and slowdown as the runs alone give them (qa50:
// only time_s was kept); a next-run interval reaching below 0 starts at 0,
// marked so in the table and with its own lower end in lo_normal; --no-alone
// leaves alone_s and slowdown out.
func TestEnsembleOfJobsKeepsSlowdown(t *testing.T) {
	const file = "../../examples/jobs-congestor.toml"
	type job struct {
		Name     string           `json:"name"`
		Time     float64          `json:"time_s"`
		Alone    float64          `json:"alone_s"`
		Slowdown float64          `json:"slowdown"`
		Ensemble map[string]any   `json:"ensemble"`
		Results  []map[string]any `json:"results"` // the job's own (ring's lap_s)
	}
	jobsOf := func(doc string) []job {
		var d struct {
			Jobs []job `json:"jobs"`
		}
		if err := json.Unmarshal([]byte(doc), &d); err != nil {
			t.Fatal(err)
		}
		return d.Jobs
	}
	var runs [][]job // seed → job
	for s := 1; s <= 2; s++ {
		_, _, doc := runJSON(t, "run", "-q", file, "--set", "seed="+strconv.Itoa(s))
		runs = append(runs, jobsOf(doc))
	}
	out, _, doc := runJSON(t, "run", "-q", file, "--seeds", "2")
	ens := jobsOf(doc)
	if len(ens) != len(runs[0]) || len(ens) == 0 {
		t.Fatalf("%d jobs in the ensemble, %d alone", len(ens), len(runs[0]))
	}
	cuts := 0
	for k, j := range ens {
		for _, f := range []struct {
			name string
			x    func(job) float64
		}{{"time_s", func(j job) float64 { return j.Time }}, {"alone_s", func(j job) float64 { return j.Alone }},
			{"slowdown", func(j job) float64 { return j.Slowdown }}} {
			x1, x2 := f.x(runs[0][k]), f.x(runs[1][k])
			s, ok := j.Ensemble[f.name].(map[string]any)
			if !ok {
				t.Errorf("job %s: no ensemble.%s: %v", j.Name, f.name, j.Ensemble)
				continue
			}
			// two runs: mean, sd = |x1−x2|/√2, next run mean ∓ t₀.₉₅(1)·sd·√(3/2),
			// t₀.₉₅(1) = 6.313752 (tables)
			mean := (x1 + x2) / 2
			half := 6.313752 * math.Abs(x1-x2) / math.Sqrt2 * math.Sqrt(1.5)
			for key, want := range map[string]float64{"mean": mean, "min": min(x1, x2), "max": max(x1, x2)} {
				if got := s[key].(float64); math.Abs(got-want) > 1e-14*want {
					t.Errorf("job %s: %s.%s = %.17g, from the runs alone %.17g", j.Name, f.name, key, got, want)
				}
			}
			next := s["next90"].(map[string]any)
			lo, hi := next["lo"].(float64), next["hi"].(float64)
			if math.Abs(hi-(mean+half)) > 1e-6*half {
				t.Errorf("job %s: %s.next90.hi = %g, want %g", j.Name, f.name, hi, mean+half)
			}
			loNormal, cut := next["lo_normal"].(float64)
			switch {
			case mean-half < 0:
				cuts++
				if lo != 0 || !cut || math.Abs(loNormal-(mean-half)) > 1e-6*half {
					t.Errorf("job %s: %s.next90 = %v, want lo 0 and lo_normal %g", j.Name, f.name, next, mean-half)
				}
			case cut || math.Abs(lo-(mean-half)) > 1e-6*half:
				t.Errorf("job %s: %s.next90 = %v, want lo %g, no lo_normal", j.Name, f.name, next, mean-half)
			}
		}
	}
	if cuts == 0 {
		t.Fatalf("no interval reached below 0: the case does not check the cut")
	}
	if !strings.Contains(out, "0*–") || !strings.Contains(out, "*: the normal interval reaches below 0 and is cut there") {
		t.Errorf("the table does not mark the cut:\n%s", out)
	}
	for _, row := range []string{"alone_s", "slowdown", "ring: 1048576 bytes, 16 ranks  lap_s", "congestor: all-to-all"} {
		if !strings.Contains(out, " "+row+" ") {
			t.Errorf("the table has no %s row:\n%s", row, out)
		}
	}
	// Each job's own results carry their ensemble too (leftover41 left a
	// ring job's lap_s as the first run's alone), the mean of the runs alone.
	own := 0
	for k, j := range ens {
		if len(j.Results) != len(runs[0][k].Results) {
			t.Fatalf("job %s: %d results in the ensemble, %d alone", j.Name, len(j.Results), len(runs[0][k].Results))
		}
		for o, r := range j.Results {
			e, _ := r["ensemble"].(map[string]any)
			if e == nil || e["runs"] != 2.0 {
				t.Errorf("job %s result %d: ensemble %v, want one of 2 runs", j.Name, o, r["ensemble"])
				continue
			}
			for name, v := range e {
				if name == "runs" {
					continue
				}
				x1, x2 := runs[0][k].Results[o][name].(float64), runs[1][k].Results[o][name].(float64)
				if got, want := v.(map[string]any)["mean"].(float64), (x1+x2)/2; math.Abs(got-want) > 1e-14*want {
					t.Errorf("job %s: results[%d].ensemble.%s.mean = %.17g, from the runs alone %.17g", j.Name, o, name, got, want)
				}
				own++
			}
		}
	}
	if own < 2 || ens[0].Results[0]["ensemble"].(map[string]any)["lap_s"] == nil {
		t.Errorf("%d of the jobs' own figures summarised; want the ring's lap_s and the congestor's time_s", own)
	}
	out, _, doc = runJSON(t, "run", "-q", file, "--seeds", "2", "--no-alone")
	for _, j := range jobsOf(doc) {
		if _, ok := j.Ensemble["slowdown"]; ok || j.Ensemble["time_s"] == nil {
			t.Errorf("--no-alone: job %s's ensemble %v, want time_s alone", j.Name, j.Ensemble)
		}
	}
	if _, table, _ := strings.Cut(out, "ensemble of"); strings.Contains(table, "slowdown ") || !strings.Contains(table, " time_s ") {
		t.Errorf("--no-alone: the ensemble's table has a slowdown row, or no time_s:\n%s", out)
	}
}
