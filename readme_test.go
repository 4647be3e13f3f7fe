package emuproject

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
)

// TestReadmeSetup checks the README's set-up, what a newcomer types first on a
// fresh machine: exactly two commands, the first emulating the embedded default
// (run here: it must print the small HPL the comment says, 2×2, N=2000, NB=64)
// and the second the test command that .ci/run also runs, so the two cannot
// drift apart.
func TestReadmeSetup(t *testing.T) {
	var setup []fence
	for _, b := range fences(t, "README.md") {
		if b.lang == "sh" && strings.HasPrefix(b.section, "## Set-up") {
			setup = append(setup, b)
		}
	}
	if len(setup) != 1 {
		t.Fatalf("README's set-up has %d command blocks, want one", len(setup))
	}
	var commands []string
	for _, line := range strings.Split(setup[0].text, "\n") {
		command, _, _ := strings.Cut(line, "#")
		if command = strings.TrimSpace(command); command != "" {
			commands = append(commands, command)
		}
	}
	if len(commands) != 2 || commands[0] != "go run ./cmd/emu run" {
		t.Fatalf("README's set-up: %q, want two commands, `go run ./cmd/emu run` then the tests", commands)
	}
	ci, err := os.ReadFile(".ci/run")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(strings.Split(string(ci), "\n"), commands[1]) {
		t.Errorf("README's test command %q is not a line of .ci/run", commands[1])
	}
	if testing.Short() {
		return
	}
	out, err := exec.Command(emuBinary(t), "run").CombinedOutput()
	if err != nil {
		t.Fatalf("emu run: %v\n%s", err, out)
	}
	if !regexp.MustCompile(`(?m)^WR\w+ +2000 +64 +2 +2 +[0-9.]+ +[0-9.e+]+$`).Match(out) {
		t.Errorf("emu run prints no result line of N=2000, NB=64, 2×2:\n%s", out)
	}
}

// runBlocks runs command blocks in order, as a reader would type them from the
// repository's root: in a scratch folder holding a copy of examples/ (which
// commands may write beside) and links to the rest of the tree, with `go run
// ./cmd/emu` replaced by an emu built once, under bash -e, so a failing
// command fails the test with its output.
func runBlocks(t *testing.T, blocks []string) {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	bin := emuBinary(t)
	work := t.TempDir()
	if out, err := exec.Command("cp", "-r", filepath.Join(root, "examples"), work).CombinedOutput(); err != nil {
		t.Fatalf("copying examples: %v\n%s", err, out)
	}
	for _, name := range treeDirs(t, root) {
		if err := os.Symlink(filepath.Join(root, name), filepath.Join(work, name)); err != nil {
			t.Fatal(err)
		}
	}
	for i, b := range blocks {
		script := strings.ReplaceAll(b, "go run ./cmd/emu", bin)
		cmd := exec.Command("bash", "-e", "-o", "pipefail", "-c", script)
		cmd.Dir = work
		cmd.Env = append(os.Environ(), "NO_COLOR=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("command block %d failed: %v\n--- block\n%s\n--- output\n%s", i+1, err, b, out)
		}
	}
}

// treeDirs are the folders of root a reader's clone has, but examples/ (which
// runBlocks copies): not hidden, not ignored by git. An ignored one is a run's
// output (emu tune's emu-tune/ from an earlier session): linked, the guides'
// commands would resume it, or write into it.
func treeDirs(t *testing.T, root string) []string {
	t.Helper()
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || name == "examples" || strings.HasPrefix(name, ".") {
			continue
		}
		// exit 0: ignored; 1: not ignored; 128: no git or no repository (keep it)
		if exec.Command("git", "-C", root, "check-ignore", "-q", name+"/").Run() == nil {
			continue
		}
		dirs = append(dirs, name)
	}
	return dirs
}

// emuBinary builds emu once for the package's tests, into a folder TestMain
// removes.
func emuBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		built.dir, built.err = os.MkdirTemp("", "emu-docs-")
		if built.err != nil {
			return
		}
		bin := filepath.Join(built.dir, "emu")
		if out, err := exec.Command("go", "build", "-o", bin, "./cmd/emu").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %v\n%s", err, out)
			return
		}
		built.bin = bin
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// tourBlocks returns the ```sh blocks between heading and the next heading of its level.
func tourBlocks(t *testing.T, file, heading string) []string {
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []string
	var cur []string
	in, fenced := false, false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !fenced && strings.HasPrefix(line, "## "):
			in = line == heading
		case in && !fenced && strings.TrimSpace(line) == "```sh":
			fenced, cur = true, nil
		case fenced && strings.TrimSpace(line) == "```":
			fenced = false
			blocks = append(blocks, strings.Join(cur, "\n"))
		case fenced:
			cur = append(cur, line)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return blocks
}

// TestReadmeRealHPLTables checks the tables of predictions against real HPL
// (docs/evidence/calibration.md, once the README's Calibration section)
// against the data they come from,
// validation/testdata/realhpl/vm-2026-11-26 (one HPL.dat of 72 runs) and
// vm-2026-11-26b, -c and -d (the 11 runs' own HPL.dat files): each cell's real median
// and range, predicted time and error, recomputed from real_runs*.csv and
// predicted.csv, so the docs cannot state a figure the data does not hold.
func TestReadmeRealHPLTables(t *testing.T) {
	readme, err := os.ReadFile(calibrationEvidence)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"validation/testdata/realhpl/vm-2026-11-26", "validation/testdata/realhpl/vm-2026-11-26b", "validation/testdata/realhpl/vm-2026-11-26c", "validation/testdata/realhpl/vm-2026-11-26d"} {
		t.Run(filepath.Base(dir), func(t *testing.T) { checkRealHPLTables(t, string(readme), dir) })
	}
}

func checkRealHPLTables(t *testing.T, readme, dir string) {
	cfgs := map[string]string{} // id → the README's row label
	cf, err := os.ReadFile(filepath.Join(dir, "configs.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(cf)), "\n")[1:] {
		f := strings.Fields(line)
		n, _ := strconv.Atoi(f[1])
		bcast := map[string]string{"1": "1ringM", "4": "long"}[f[5]]
		cfgs[f[0]] = fmt.Sprintf("| %s×%s, N=%s, NB=%s, %s |", f[3], f[4], groupThousands(n), f[2], bcast)
	}
	preds := readCSV(t, filepath.Join(dir, "predicted.csv"))
	for _, set := range []struct{ blas, real, tag string }{{"default", "real_runs.csv", "D"}, {"haswell", "real_runs_haswell.csv", "H"}} {
		if _, err := os.Stat(filepath.Join(dir, set.real)); os.IsNotExist(err) {
			continue // a folder of one BLAS setting
		}
		runs := map[string][]float64{}
		for _, r := range readCSV(t, filepath.Join(dir, set.real)) {
			v, err := strconv.ParseFloat(r["time_s"], 64)
			if err != nil {
				t.Fatal(err)
			}
			runs[r["id"]] = append(runs[r["id"]], v)
		}
		for _, id := range slices.Sorted(maps.Keys(runs)) {
			x := runs[id]
			slices.Sort(x)
			med := x[len(x)/2]
			if len(x)%2 == 0 {
				med = (x[len(x)/2-1] + x[len(x)/2]) / 2
			}
			var cells []string
			for i := 1; i <= 3; i++ {
				for _, p := range preds {
					if p["calibration"] == fmt.Sprint(set.tag, i) && p["family"] == "auto" && p["id"] == id {
						v, _ := strconv.ParseFloat(p["predicted_s"], 64)
						cells = append(cells, fmt.Sprintf("%.3f (%+.1f%%)", v, (v-med)/med*100))
					}
				}
			}
			row := fmt.Sprintf("%s %.3f s (%.3f–%.3f) | %s |", cfgs[id], med, x[0], x[len(x)-1], strings.Join(cells, " / "))
			if !strings.Contains(readme, row+"\n") {
				t.Errorf("%s: %s lacks the row\n%s", set.blas, calibrationEvidence, row)
			}
		}
	}
}

func groupThousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// The evidence files that hold the figures the tests above check.
const (
	calibrationEvidence    = "docs/evidence/calibration.md"
	performanceEvidence    = "docs/evidence/performance.md"
	approximationsEvidence = "docs/evidence/approximations.md"
)

func readCSV(t *testing.T, path string) []map[string]string {
	t.Helper()
	return scenariotest.CSVRows(t, path)
}

// TestReadmeBarrierFigures recomputes the sleeping/spinning barrier comparison
// (docs/evidence/calibration.md) from predicted_barrier.csv: each
// calibration's mean |error|.
func TestReadmeBarrierFigures(t *testing.T) {
	rows := readCSV(t, "validation/testdata/realhpl/vm-2026-11-26b/predicted_barrier.csv")
	sum, n := map[string]float64{}, map[string]int{}
	for _, r := range rows {
		e, err := strconv.ParseFloat(r["error_pct"], 64)
		if err != nil {
			t.Fatal(err)
		}
		sum[r["calibration"]] += math.Abs(e)
		n[r["calibration"]]++
	}
	mean := func(c string) string { return fmt.Sprintf("%.1f%%", sum[c]/float64(n[c])) }
	readme, err := os.ReadFile(calibrationEvidence)
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("read mean |error| %s, %s\nand %s", mean("M1"), mean("M2"), mean("M3"))
	spread := func(kind string) float64 { // largest max/min − 1 of a run's predictions, %
		by := map[string][]float64{}
		for _, r := range rows {
			if r["barrier"] == kind {
				v, _ := strconv.ParseFloat(r["predicted_s"], 64)
				by[r["id"]] = append(by[r["id"]], v)
			}
		}
		worst := 0.0
		for _, v := range by {
			worst = max(worst, 100*(slices.Max(v)/slices.Min(v)-1))
		}
		return worst
	}
	want2 := fmt.Sprintf("%s, %s and %s, within %.1f%% of each other on every run (sleeping: %.0f%%)",
		mean("S1"), mean("S2"), mean("S3"), spread("spinning"), spread("sleeping"))
	flat := string(readme)
	if !strings.Contains(flat, want) || !strings.Contains(strings.ReplaceAll(flat, "\n", " "), strings.ReplaceAll(want2, "\n", " ")) {
		t.Errorf("%s: barrier figures: want %q and %q", calibrationEvidence, want, want2)
	}
}

// TestReadmeFig6Table checks the Fig. 6 table (docs/evidence/performance.md) against the whole runs
// recorded in validation/testdata/fig6_whole.csv (BenchmarkFig6 -update): every
// recorded point has its row, with its panels, wall, CPU, peak RSS, Time and Gflops.
func TestReadmeFig6Table(t *testing.T) {
	readme, err := os.ReadFile(performanceEvidence)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readRecords("validation/testdata/fig6_whole.csv")
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	num := func(rec []string, name string) float64 {
		v, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil {
			t.Fatalf("fig6_whole.csv %s: %v", name, err)
		}
		return v
	}
	for _, rec := range rows[1:] {
		var p, q, n int
		if _, err := fmt.Sscanf(rec[col["point"]], "fig6_%dx%d_N%d", &p, &q, &n); err != nil {
			t.Fatalf("%s: %v", rec[col["point"]], err)
		}
		tm := num(rec, "hpl_time_s")
		row := fmt.Sprintf("| %d×%d, N = %s | %s | %s s | %.1f s | %s MB | %s s (%s) |",
			p, q, groupThousands(n), groupThousands(int(num(rec, "panels"))),
			groupThousands(int(math.Round(num(rec, "wall_s")))), num(rec, "cpu_s"),
			groupThousands(int(math.Round(num(rec, "peak_rss_mb")))),
			groupFixed1(tm),
			groupThousands(int(math.Round(num(rec, "gflops")))))
		if !strings.Contains(string(readme), row) {
			t.Errorf("%s lacks the row\n%s", performanceEvidence, row)
		}
	}
}

// groupFixed1 writes v with one decimal and its integer part grouped by thousands.
func groupFixed1(v float64) string {
	s := strconv.FormatFloat(v, 'f', 1, 64)
	i := strings.IndexByte(s, '.')
	n, _ := strconv.Atoi(s[:i])
	return groupThousands(n) + s[i:]
}

// TestReadmeStampedeWhole checks the figures of the whole Stampede runs
// (docs/evidence/performance.md, whose speed table has both, and
// docs/evidence/approximations.md, which tells the merged runs; the headline
// in docs/evidence.md and the README) against their records: validation/testdata/stampede_whole.csv (HPL's rolls,
// BenchmarkStampedeWhole -update) and stampede_whole_merged.csv (merged rolls,
// BenchmarkStampedeWholeMerged -update): each one's Time and Gflops, CPU hours,
// peak memory and speed-table row. Without the first record, the evidence must
// say the run has not been made; the second is checked when it exists.
func TestReadmeStampedeWhole(t *testing.T) {
	readme, err := os.ReadFile(performanceEvidence)
	if err != nil {
		t.Fatal(err)
	}
	approx, err := os.ReadFile(approximationsEvidence)
	if err != nil {
		t.Fatal(err)
	}
	// The claims wrap across lines; the merged runs are told with the approximations.
	texts := []string{strings.Join(strings.Fields(string(readme)), " "), strings.Join(strings.Fields(string(readme)+" "+string(approx)), " ")}
	files := []string{performanceEvidence, performanceEvidence + " and " + approximationsEvidence}
	for i, path := range []string{"validation/testdata/stampede_whole.csv", "validation/testdata/stampede_whole_merged.csv"} {
		rows, err := readRecords(path)
		if os.IsNotExist(err) {
			if i == 0 && !strings.Contains(string(readme), "has not been made yet") {
				t.Error(performanceEvidence + " states a whole Stampede run that validation/testdata/stampede_whole.csv does not hold")
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) < 2 || i == 0 && len(rows) != 2 {
			t.Fatalf("%s: %d records, want a header and one run", path, len(rows))
		}
		for _, row := range rows[1:] {
			rec := map[string]float64{}
			for col, h := range rows[0] {
				if v, err := strconv.ParseFloat(row[col], 64); err == nil {
					rec[h] = v
				}
			}
			for _, want := range []string{
				fmt.Sprintf("gives a Time of %s s (%s Gflops)", groupFixed1(rec["hpl_time_s"]), groupThousands(int(math.Round(rec["gflops"])))),
				fmt.Sprintf("It cost %.2f h of CPU (%.2f s a panel", rec["cpu_s"]/3600, rec["cpu_s"]/rec["panels"]),
				fmt.Sprintf("and %.2f GB at its peak", rec["peak_rss_mb"]/1024),
				fmt.Sprintf("%.2f h of wall", rec["wall_s"]/3600),
				fmt.Sprintf("| %.2f h | %.2f GB | 62 h (the study) |", rec["cpu_s"]/3600, rec["peak_rss_mb"]/1024),
			} {
				if !strings.Contains(texts[i], want) {
					t.Errorf("%s lack %q (%s, %s)", files[i], want, path, row[0])
				}
			}
		}
		if i == 0 { // the headline: docs/evidence.md's speed row and the README's table
			rec := rows[1]
			num := func(h string) float64 {
				v, _ := strconv.ParseFloat(rec[slices.Index(rows[0], h)], 64)
				return v
			}
			for file, want := range map[string]string{
				"docs/evidence.md": fmt.Sprintf("run whole: %.2f h of wall, %.2f h of CPU, %.2f GB", num("wall_s")/3600, num("cpu_s")/3600, num("peak_rss_mb")/1024),
				"README.md":        fmt.Sprintf("Stampede's whole run %.2f h against SMPI's 62 h, %.2f GB", num("wall_s")/3600, num("peak_rss_mb")/1024),
			} {
				data, err := os.ReadFile(file)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(strings.Join(strings.Fields(string(data)), " "), want) {
					t.Errorf("%s lacks %q (%s)", file, want, path)
				}
			}
		}
		if i == 0 && strings.Contains(texts[0], "has not been made yet") {
			t.Error(performanceEvidence + " still says the whole Stampede run has not been made")
		}
	}
}

// readRecords reads a CSV record file of validation/testdata, '#' lines being comments.
func readRecords(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := csv.NewReader(f)
	r.Comment = '#'
	return r.ReadAll()
}

// TestDocsNameDefinedTests checks that every test, benchmark, fuzz target or
// example the Markdown files and the Go comments name exists: a claim's
// evidence must not be renamed away from under it. A name the non-test code
// declares (ranks.Config.TestCost) is not a test's.
func TestDocsNameDefinedTests(t *testing.T) {
	named := regexp.MustCompile(`\b(?:Test|Benchmark|Fuzz|Example)[A-Z0-9]\w*`)
	tests := map[string]bool{}
	idents := map[string]bool{}  // the non-test code's identifiers (not its comments)
	texts := map[string]string{} // file: its Markdown, or its Go comments
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (strings.HasPrefix(name, ".") || name == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		switch name := d.Name(); {
		case strings.HasSuffix(name, ".md"):
			data, err := os.ReadFile(path)
			texts[path] = string(data)
			return err
		case strings.HasSuffix(name, ".go"):
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ParseComments|parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			var comments strings.Builder
			for _, g := range f.Comments {
				comments.WriteString(g.Text())
			}
			texts[path] = comments.String()
			test := strings.HasSuffix(name, "_test.go")
			for _, decl := range f.Decls {
				if fn, ok := decl.(*ast.FuncDecl); ok && test && fn.Recv == nil && named.MatchString(fn.Name.Name) {
					tests[fn.Name.Name] = true
				}
			}
			if !test {
				ast.Inspect(f, func(n ast.Node) bool {
					if id, ok := n.(*ast.Ident); ok {
						idents[id.Name] = true
					}
					return true
				})
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(tests) < 100 || len(texts) < 100 {
		t.Fatalf("found %d tests and %d files: the walk missed the tree", len(tests), len(texts))
	}
	// The evidence files are where the docs' figures name their tests.
	evidence, err := filepath.Glob("docs/evidence/*.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range append(evidence, "docs/evidence.md", "README.md") {
		if _, ok := texts[f]; !ok {
			t.Errorf("the walk missed %s", f)
		}
	}
	testNames := slices.Sorted(maps.Keys(tests))
	for _, path := range slices.Sorted(maps.Keys(texts)) {
		for _, name := range named.FindAllString(texts[path], -1) {
			if !tests[name] && !idents[name] {
				t.Errorf("%s names %s, which no _test.go defines", path, name)
			}
		}
		// go test's -run and -bench patterns: each must select something
		// (XXX is the idiom for "no test"). Markdown wraps a command across
		// lines inside its backticks; a Go comment holds one to a line.
		text := texts[path]
		if strings.HasSuffix(path, ".md") {
			text = strings.Join(strings.Fields(text), " ")
		}
		for _, command := range goTest.FindAllString(text, -1) {
			for _, m := range testFlag.FindAllStringSubmatch(command, -1) {
				pattern := strings.Trim(m[2], `'"`)
				if pattern == "XXX" || pattern == "." {
					continue
				}
				top, _, _ := strings.Cut(pattern, "/")
				re, err := regexp.Compile(top)
				if err != nil {
					t.Errorf("%s: -%s %s: %v", path, m[1], m[2], err)
					continue
				}
				kind := map[string]*regexp.Regexp{"run": testKind, "bench": benchKind}[m[1]]
				if !slices.ContainsFunc(testNames, func(name string) bool {
					return kind.MatchString(name) && re.MatchString(name)
				}) {
					t.Errorf("%s: -%s %s selects no test", path, m[1], m[2])
				}
			}
		}
	}
}

// A go test command (to its closing backtick or the end of its line), its
// -run and -bench flags with their patterns, quoted or not, and the kinds of
// function each selects.
var (
	goTest    = regexp.MustCompile("go test [^`\n]*")
	testFlag  = regexp.MustCompile(`-(run|bench)[ =]('[^']*'|"[^"]*"|[^\s']+)`)
	testKind  = regexp.MustCompile(`^(Test|Fuzz|Example)`)
	benchKind = regexp.MustCompile(`^Benchmark`)
)

// TestTreeDirsSkipsIgnored: the scratch folder of the docs' commands links the
// tree's folders but not the hidden ones, examples/ (copied instead) or those
// git ignores (a stale emu-tune/ made the README's tune command refuse to run).
func TestTreeDirsSkipsIgnored(t *testing.T) {
	root := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", root).CombinedOutput(); err != nil {
		t.Skipf("no git: %v %s", err, out)
	}
	for _, d := range []string{"cmd", "docs", "examples", ".hidden", "emu-tune", "out"} {
		if err := os.Mkdir(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("/out/\n/emu-tune/\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := treeDirs(t, root); !slices.Equal(got, []string{"cmd", "docs"}) {
		t.Errorf("linked %v, want [cmd docs]", got)
	}
}

// TestReadmeDocsTestCommand checks that the command the README gives for the
// docs' own tests runs all of them: it said `go test . -run
// 'Docs|Evidence|Readme|Layer'`, which left out TestGuideCommands (every
// guide's command blocks, which broke CI in session 44), TestScenarioReference
// and six others (qa57).
func TestReadmeDocsTestCommand(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(data)), " ")
	m := regexp.MustCompile("the docs' own tests are [^`]*`(go test \\.[^`]*)`").FindStringSubmatch(text)
	if m == nil {
		t.Fatal("README names no `go test .` command for the docs' own tests")
	}
	run := regexp.MustCompile(`-run '([^']*)'`).FindStringSubmatch(m[1])
	if run == nil {
		return // the whole package
	}
	re := regexp.MustCompile(run[1])
	files, _ := filepath.Glob("*_test.go")
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range regexp.MustCompile(`(?m)^func (Test[A-Z]\w*)\(t \*testing\.T\)`).FindAllStringSubmatch(string(src), -1) {
			if !re.MatchString(name[1]) {
				t.Errorf("README's %q leaves out %s (%s)", m[1], name[1], f)
			}
		}
	}
}
