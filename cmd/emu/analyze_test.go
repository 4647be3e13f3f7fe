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

	"github.com/emu-hpc/emu/sensitivity"
)

// llampBlocking is LLAMP's own test schedule (shared/peers/loggopsim/goal/
// sample_llamp_blocking.goal). LogGOPSim predicts 16000.054 ns at L = 3 µs,
// o = 5 µs, G = 0.018 ns/B (results.csv): rank 1 computes 3 µs, then its
// receive waits for rank 0's send (1 µs calc + o) to arrive after L + 3·G and
// pays o, then computes 2 µs: 1 + 5 + 3 + 0.054e-3 + 5 + 2 = 16.000054 µs.
const llampBlocking = `num_ranks 2

rank 0 {
l1: send 4b to 1 tag 1
l2: calc 1000
l1 requires l2
l3: calc 2000
l3 requires l1
}

rank 1 {
l1: recv 4b from 0 tag 1
l2: calc 3000
l1 requires l2
l3: calc 2000
l3 requires l1
}
`

// runtimeRel is the agreement required with LogGOPSim's printed runtime.
const runtimeRel = 1e-9

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func readReport(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestAnalyzeGOAL(t *testing.T) {
	goalPath := writeFile(t, "blocking.goal", llampBlocking)
	dir := t.TempDir()
	js, lp, plots := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.lp"), filepath.Join(dir, "plots")
	code, out, errOut := runCLI(t, "analyze", goalPath, "--L", "3us", "--o", "5us", "--g", "0", "--G", "0.018ns",
		"--S", "65535", "--range", "3us:13us", "--tolerance", "1,2,5", "--json", js, "--lp", lp, "--plot", plots)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "T = 16.000054 µs, λ_L = 1") {
		t.Errorf("table:\n%s", out)
	}
	golden(t, "analyze_blocking.txt", out)
	m := readReport(t, js)
	if rt := m["runtime_s"].(float64); math.Abs(rt-16000.054e-9) > runtimeRel*rt {
		t.Errorf("runtime %v s, LogGOPSim 16000.054 ns", rt)
	}
	// One message on the critical path: T = 13.000054 µs + L, so 1% is
	// L = 3 µs + 0.16000054 µs.
	tol := m["tolerance_s"].(map[string]any)
	if x := tol["1"].(float64); math.Abs(x-3.16000054e-6) > runtimeRel*x {
		t.Errorf("1%% tolerance %v s, want 3.16000054 µs", x)
	}
	if curve := m["curve"].([]any); len(curve) != 11 {
		t.Errorf("%d curve points, want 11", len(curve))
	}
	for _, f := range []string{lp, filepath.Join(plots, "runtime.svg")} {
		if st, err := os.Stat(f); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
}

// writeGraph builds b's graph and writes it to a graph file, returning its path.
func writeGraph(t *testing.T, b *sensitivity.Builder) string {
	t.Helper()
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "g.graph")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := g.WriteTo(f); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestAnalyzeGOALWithoutItsExtension: emu run --replay takes a GOAL schedule
// by its first statement (num_ranks) whatever its name; analyze read any
// file not named .goal as a graph file ("magic \"num_rank\", want
// \"EMUGRAPH\": not an emu graph file"). It now reads it as run does: LLAMP's
// schedule saved as .txt, with a byte order mark, gives LogGOPSim's
// 16.000054 µs as the .goal file does.
func TestAnalyzeGOALWithoutItsExtension(t *testing.T) {
	for _, name := range []string{"b.txt", "schedule"} {
		for _, bom := range []string{"", "\ufeff"} {
			path := writeFile(t, name, bom+"// LLAMP's sample\n"+llampBlocking)
			code, out, errOut := runCLI(t, "analyze", path)
			if code != exitOK || !strings.Contains(out, "T = 16.000054 µs") {
				t.Errorf("%s (BOM %v): exit %d %s\n%s", name, bom != "", code, errOut, out)
			}
		}
	}
}

func TestAnalyzeGraphFile(t *testing.T) {
	// A late sender: rank 1 computes 10 µs, sends (o = 1 µs) to rank 0,
	// whose receive costs 1 µs: T = 12 µs + L = 15 µs at L = 3 µs.
	b := sensitivity.NewBuilder(2)
	c := b.Vertex(1, sensitivity.Calc, 10e-6)
	s := b.Vertex(1, sensitivity.Send, 1e-6)
	r := b.Vertex(0, sensitivity.Recv, 1e-6)
	b.Edge(c, s, 0)
	b.Edge(s, r, 0, sensitivity.LatTerm{Class: 0, Count: 1})
	b.SetBaseline([]float64{3e-6}) // the run's latency: analyze's default L
	path := writeGraph(t, b)
	js := filepath.Join(t.TempDir(), "r.json")
	code, out, errOut := runCLI(t, "analyze", path, "--json", js, "--mpi-time", "--pairwise")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	m := readReport(t, js)
	if rt := m["runtime_s"].(float64); math.Abs(rt-15e-6) > runtimeRel*rt || m["lambda_L"].(float64) != 1 {
		t.Errorf("runtime %v, λ_L %v; want 15 µs, 1\n%s", rt, m["lambda_L"], out)
	}
	if !strings.Contains(out, "sync") || !strings.Contains(out, "λ_L(i,j)") {
		t.Errorf("table lacks the MPI-time or pairwise part:\n%s", out)
	}
	// --L overrides the recorded baseline: T = 12 µs + 5 µs.
	code, out, errOut = runCLI(t, "analyze", path, "--L", "5us")
	if code != 0 || !strings.Contains(out, "T = 17.000000 µs") {
		t.Errorf("exit %d %s\n%s", code, errOut, out)
	}
}

// TestAnalyzeKeepsOtherClasses: a graph recorded with two latency classes
// (the link latency ℓ, class 0, and a factor class 1 held at 2 µs) is swept
// in ℓ alone; --L moves ℓ and leaves class 1 at its recorded value, also in
// the exported LP.
func TestAnalyzeKeepsOtherClasses(t *testing.T) {
	// Rank 1 computes 10 µs and sends to rank 0 over a path with one ℓ term
	// and one class-1 term: T = 10 µs + ℓ + 2 µs.
	b := sensitivity.NewBuilder(2)
	c := b.Vertex(1, sensitivity.Calc, 10e-6)
	s := b.Vertex(1, sensitivity.Send, 0)
	r := b.Vertex(0, sensitivity.Recv, 0)
	b.Edge(c, s, 0)
	b.Edge(s, r, 0, sensitivity.LatTerm{Class: 0, Count: 1}, sensitivity.LatTerm{Class: 1, Count: 1})
	b.SetBaseline([]float64{3e-6, 2e-6})
	path := writeGraph(t, b)
	for _, c := range []struct {
		args   []string
		want   string
		bounds [2]float64 // the LP's lower bounds of l0 and l1, ns
	}{
		{nil, "T = 15.000000 µs", [2]float64{3000, 2000}},                                    // the run: 10 + 3 + 2
		{[]string{"--L", "5us"}, "T = 17.000000 µs", [2]float64{5000, 2000}},                 // ℓ moved, class 1 kept
		{[]string{"--L", "0us"}, "T = 12.000000 µs", [2]float64{0, 2000}},                    // ℓ gone, class 1 kept
		{[]string{"--class", "1", "--L", "4us"}, "T = 17.000000 µs", [2]float64{3000, 4000}}, // class 1 moved, ℓ kept
	} {
		lp := filepath.Join(t.TempDir(), "g.lp")
		code, out, errOut := runCLI(t, append([]string{"analyze", path, "--lp", lp}, c.args...)...)
		if code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("analyze %v: exit %d %s\n%s\nwant %s", c.args, code, errOut, out, c.want)
			continue
		}
		text, err := os.ReadFile(lp)
		if err != nil {
			t.Fatal(err)
		}
		for class, want := range c.bounds {
			var got float64
			prefix := fmt.Sprintf(" l%d >= ", class)
			for _, line := range strings.Split(string(text), "\n") {
				if v, ok := strings.CutPrefix(line, prefix); ok {
					got, _ = strconv.ParseFloat(v, 64)
				}
			}
			if math.Abs(got-want) > 1e-9*want {
				t.Errorf("analyze %v: LP bound of l%d = %g ns, want %g", c.args, class, got, want)
			}
		}
	}
}

// TestAnalyzeScalesEveryClass: a recorded graph with a class beyond 0 (SMPI's
// latency-factor excess, held at (f−1)·L0 by the table) also gets the curve
// with every class moving in proportion to ℓ, which is what re-emulating at
// link latency ℓ gives under the factors. Hand-solved: rank 1 computes 10 µs
// and sends over one ℓ term and two class-1 terms recorded at ℓ0 = 3 µs,
// ℓ1 = 2 µs (f = 5/3), so held T(ℓ) = 10 + ℓ + 4 µs and scaled T(ℓ) = 10 +
// ℓ + 2·(2/3)·ℓ µs: slope 7/3, 24 µs at ℓ = 6 µs. A one-class graph and a
// swept factor class have nothing to scale.
func TestAnalyzeScalesEveryClass(t *testing.T) {
	graph := func(terms []sensitivity.LatTerm, base []float64) string {
		b := sensitivity.NewBuilder(2)
		c := b.Vertex(1, sensitivity.Calc, 10e-6)
		s := b.Vertex(1, sensitivity.Send, 0)
		r := b.Vertex(0, sensitivity.Recv, 0)
		b.Edge(c, s, 0)
		b.Edge(s, r, 0, terms...)
		b.SetBaseline(base)
		return writeGraph(t, b)
	}
	factored := graph([]sensitivity.LatTerm{{Class: 0, Count: 1}, {Class: 1, Count: 2}}, []float64{3e-6, 2e-6})
	plain := graph([]sensitivity.LatTerm{{Class: 0, Count: 1}}, []float64{3e-6})
	for _, c := range []struct {
		name   string
		args   []string
		slope  float64 // 0: no scaled curve
		at6us  string  // the scaled curve's T at ℓ = 6 µs
		heldT6 string  // the table's T at 6 µs, class 1 held
	}{
		{"factor class", []string{factored}, 7.0 / 3, "24.000000 µs", "20.000000 µs"},
		{"factor class, --L", []string{factored, "--L", "3us"}, 7.0 / 3, "24.000000 µs", "20.000000 µs"},
		{"one class", []string{plain}, 0, "", "16.000000 µs"},
		{"factor class swept", []string{factored, "--class", "1", "--L", "2us"}, 0, "", ""},
	} {
		js := filepath.Join(t.TempDir(), "a.json")
		args := append([]string{"analyze", "--range", "3us:6us", "--points", "2", "--json", js}, c.args...)
		code, out, errOut := runCLI(t, args...)
		if code != 0 {
			t.Errorf("%s: exit %d %s", c.name, code, errOut)
			continue
		}
		if c.heldT6 != "" && !strings.Contains(out, c.heldT6) {
			t.Errorf("%s: the table lacks T(6 µs) = %s (class 1 held):\n%s", c.name, c.heldT6, out)
		}
		m := readReport(t, js)
		sc, ok := m["all_classes_scaled"].(map[string]any)
		if c.slope == 0 {
			if ok || strings.Contains(out, "every class moving") {
				t.Errorf("%s: a scaled curve where nothing scales:\n%s", c.name, out)
			}
			continue
		}
		if !ok {
			t.Errorf("%s: no all_classes_scaled in --json:\n%s", c.name, out)
			continue
		}
		if got := sc["lambda"].(float64); math.Abs(got-c.slope) > 1e-9*c.slope {
			t.Errorf("%s: scaled slope %v, want %v", c.name, got, c.slope)
		}
		if !strings.Contains(out, "every class moving with ℓ: slope at L0 2.33333") || !strings.Contains(out, c.at6us) {
			t.Errorf("%s: the scaled curve lacks slope 2.33333 or T(6 µs) = %s:\n%s", c.name, c.at6us, out)
		}
	}
}

func TestAnalyzeBadInput(t *testing.T) {
	good := writeFile(t, "ok.goal", llampBlocking)
	wrap := writeFile(t, "wrap.goal", "num_ranks 2\nrank 0 {\nl0: calc 0\nl1: send 0b to 1\nl2: send 8b to 1 tag 1\nl1 requires l0\nl2 requires l1\n}\n"+
		"rank 1 {\nl0: recv 0b from 0\nl1: recv 8b from 0 tag 1\n}\n")
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"unitless latency", []string{good, "--L", "3"}, "--L \"3\": want a duration with a unit"},
		{"bad range", []string{good, "--range", "5us"}, "want LO:HI"},
		{"reversed range", []string{good, "--range", "5us:1us"}, "--range \"5us:1us\": want LO:HI with LO ≤ HI\n"},
		{"range without unit", []string{good, "--range", "5:1us"}, `--range "5:1us": `},
		{"one point", []string{good, "--points", "1"}, "--points 1: want 2 to 100000"},
		{"a typo's points", []string{good, "--points", "100000000"}, "--points 100000000: want 2 to 100000"},
		{"bad tolerance", []string{good, "--tolerance", "1,x"}, "not a percentage"},
		// said as every other missing input is, not "open PATH: ..." (the system's words)
		{"missing file", []string{filepath.Join(dir, "none.goal")}, "emu: " + dir + "/none.goal: no such file or directory\n"},
		{"unknown op", []string{writeFile(t, "bad.goal", "num_ranks 1\nrank 0 {\nl1: jump 5\n}\n")}, "bad.goal:3"},
		{"not a graph", []string{writeFile(t, "x.graph", "hello")}, "x.graph: sensitivity: graph file"},
		// Another input of emu's said only that its first bytes were not a graph's; it names the command that reads it.
		{"a scenario", []string{writeFile(t, "s.toml", "app = \"ring\"\n")}, `not an emu graph file (a scenario is emulated and analysed by emu sensitivity FILE.toml)` + "\n"},
		{"a platform", []string{writeFile(t, "p.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\"/>\n")}, `(a SimGrid platform goes with emu sensitivity --platform FILE)` + "\n"},
		{"an HPL.dat", []string{writeFile(t, "HPL.dat", "HPLinpack benchmark input file\n")}, `(an HPL.dat goes with emu sensitivity --hpl-dat FILE)` + "\n"},
		{"a TI trace", []string{writeFile(t, "t.txt", "0 send 1 0 8\n1 recv 0 0 8\n")}, `(a TI trace is replayed and analysed by emu sensitivity --replay FILE)` + "\n"},
		// a folder read as a graph said "file ends inside the magic number (truncated?)"
		{"a folder", []string{dir}, "emu: " + dir + ": a folder, want a graph file (emu run --graph) or a GOAL schedule\n"},
		{"class beyond the graph's", []string{good, "--class", "8"}, "--class 8: " + good + " has latency classes 0..0"},
		{"one path for two outputs", []string{good, "--json", filepath.Join(dir, "x"), "--lp", filepath.Join(dir, "x")}, "--lp " + filepath.Join(dir, "x") + ": also named by --json"},
		{"a folder for a file", []string{good, "--json", dir}, "is a folder, want a file name"},
		// LogGOPSim's time wraps (g = 0 < G): the refusal names the file once, with its line
		{"a wrap", []string{wrap, "--json", filepath.Join(dir, "w.json")}, "emu: " + wrap + ":4: this 0-byte message's"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(t, append([]string{"analyze"}, c.args...)...)
		if code != exitInput || !strings.Contains(errOut, c.want) {
			t.Errorf("%s: exit %d, stderr %q; want 2 and %q", c.name, code, errOut, c.want)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("refused runs left %d files behind", len(entries))
	}
	// The Greek mu (U+03BC) reads as the micro sign (U+00B5) does.
	code, out, errOut := runCLI(t, "analyze", good, "--L", "3μs", "--o", "5µs", "--G", "0.018ns")
	if code != exitOK || !strings.Contains(out, "T = 16.000054 µs") {
		t.Errorf("--L 3μs: exit %d %s\n%s", code, errOut, out)
	}
}

func TestParseSeconds(t *testing.T) {
	// parseRelTol is relative: scaling by a unit may round the last bits.
	const parseRelTol = 1e-15
	cases := []struct {
		in   string
		want float64
		ok   bool
	}{
		{"3us", 3e-6, true}, {"3µs", 3e-6, true}, {"0.018ns", 0.018e-9, true}, {"5 ms", 5e-3, true},
		{"2s", 2, true}, {"7ps", 7e-12, true}, {"0", 0, true},
		{"3", 0, false}, {"-1us", 0, false}, {"us", 0, false}, {"1e400s", 0, false}, {"NaNs", 0, false},
	}
	for _, c := range cases {
		got, err := parseSeconds(c.in)
		if (err == nil) != c.ok || c.ok && math.Abs(got-c.want) > parseRelTol*c.want {
			t.Errorf("parseSeconds(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// TestAnalyzeRecordedGraphHasNoG: a recorded graph keeps each message's
// bandwidth time in its rest, at the run's bandwidth; it knows no G. analyze
// took LogGOPSim's default G = 0.018 ns/B for it and printed ρ_G = 0.18 for
// a 1 MB message at 10 GB/s that is 98% of T (100 µs of 102.0016 µs), where
// emu sensitivity gives the same graph no ρ_G. Without --G a recorded graph
// now has none; with --G 0.1ns (10 GB/s) ρ_G = 1e6 · 1e-10 / T, by hand.
func TestAnalyzeRecordedGraphHasNoG(t *testing.T) {
	dir := t.TempDir()
	writeIn(t, dir, "pp.txt", "0 init\n1 init\n0 send 1 0 1000000\n1 recv 0 0 1000000\n0 finalize\n1 finalize\n")
	scen := writeIn(t, dir, "pp.toml", "app = \"replay\"\n[replay]\nfile = \"pp.txt\"\n[platform]\nhosts = 2\ncores_per_host = 1\n"+
		"link_bandwidth = \"10GBps\"\nlink_latency = \"1us\"\n[network]\nmodel = \"smpi\"\nlat_factor = \"none\"\nbw_factor = \"none\"\n")
	graph, js, sj := filepath.Join(dir, "pp.graph"), filepath.Join(dir, "a.json"), filepath.Join(dir, "s.json")
	if code, _, errOut := runCLI(t, "run", "-q", scen, "--graph", graph); code != 0 {
		t.Fatalf("run: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI(t, "sensitivity", "-q", scen, "--json", sj); code != 0 {
		t.Fatalf("sensitivity: exit %d: %s", code, errOut)
	}
	for _, tc := range []struct {
		args []string
		rhoG float64 // × T
	}{
		{nil, 0},
		{[]string{"--G", "0.1ns"}, 1e6 * 1e-10},
	} {
		code, out, errOut := runCLI(t, append([]string{"analyze", graph, "--json", js}, tc.args...)...)
		if code != 0 {
			t.Fatalf("analyze %v: exit %d: %s", tc.args, code, errOut)
		}
		m := readReport(t, js)
		T := m["runtime_s"].(float64)
		if math.Abs(T-102.0016e-6) > 1e-12 {
			t.Errorf("analyze %v: T %v, want 102.0016 µs (2 µs of latency + 1 MB at 10 GB/s, and 1.6 ns)", tc.args, T)
		}
		if got := m["rho_G"].(float64); math.Abs(got-tc.rhoG/T) > 1e-9 || strings.Contains(out, "ρ_G") != (tc.rhoG != 0) {
			t.Errorf("analyze %v: ρ_G %v, want %v\n%s", tc.args, got, tc.rhoG/T, out)
		}
	}
	if got := readReport(t, sj)["rho_G"].(float64); got != 0 {
		t.Errorf("sensitivity: ρ_G %v, want 0 as analyze's", got)
	}
}

// TestAnalyzeGOALAcrossCPUs: a dependency across GOAL's cpu indices does not
// wait in LogGOPSim (goal-and-llamp §5.8), so the replay and the graph can
// give two runtimes; analyze says so, with both, where they differ. By hand
// (L = 3 µs, o = 5 µs, G = 1 ns/B, 1000 B): rank 0's send on cpu 1 starts
// with its calc at 0, the message arrives at 5 + 3 + 0.999 = 8.999 µs and
// its receive overhead ends at 13.999 µs on rank 1's cpu 1 (the sender's
// index), while the calc after the receive, on cpu 0, ran at 0: LogGOPSim's
// runtime 13.999 µs. The graph waits for each dependency to end: the calc
// (1 µs), the message, the receive, then the calc of 2 µs: 16.999 µs. On
// one cpu the two agree (16.999 µs) and there is no note.
func TestAnalyzeGOALAcrossCPUs(t *testing.T) {
	const head = "num_ranks 2\nrank 0 {\nc: calc 1000\ns: send 1000b to 1 tag 7"
	const tail = "\n}\nrank 1 {\nr: recv 1000b from 0 tag 7\nd: calc 2000\nd requires r\n}\n"
	for _, tc := range []struct{ name, src, note string }{
		{"two.goal", head + " cpu 1\ns irequires c" + tail,
			"note: the graph at L gives T = 16.999000 µs, LogGOPSim's replay 13.999000 µs: the schedule uses 2 cpu indices, and in LogGOPSim an op that depends on another cpu's op does not wait for it to end (the graph waits)"},
		{"one.goal", head + "\ns requires c" + tail, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, tc.name, tc.src)
			code, out, errOut := runCLI(t, "analyze", path, "--L", "3us", "--o", "5us", "--G", "1ns")
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if got := strings.Contains(out, "note:"); got != (tc.note != "") || !strings.Contains(out, tc.note) {
				t.Errorf("output:\n%s\nwant the note %q", out, tc.note)
			}
		})
	}
}

// TestAnalyzeRangeAtZero: --range 0us:0us is ℓ = 0 alone. It was read as
// sensitivity.Params' zero value, "no range", and reported at L0 = 3 µs. On
// LLAMP's blocking schedule T = 13.000054 µs + L (one message on the
// critical path), so the curve's one point is T(LO) by hand.
func TestAnalyzeRangeAtZero(t *testing.T) {
	goalPath := writeFile(t, "blocking.goal", llampBlocking)
	for _, c := range []struct {
		rangeL string
		at, t  float64
	}{
		{"0us:0us", 0, 13.000054e-6},
		{"0:0", 0, 13.000054e-6},
		{"2us:2us", 2e-6, 15.000054e-6},
	} {
		js := filepath.Join(t.TempDir(), "r.json")
		code, _, errOut := runCLI(t, "analyze", goalPath, "--L", "3us", "--o", "5us", "--g", "0", "--G", "0.018ns",
			"--range", c.rangeL, "--json", js)
		if code != 0 {
			t.Fatalf("--range %s: exit %d: %s", c.rangeL, code, errOut)
		}
		m := readReport(t, js)
		curve := m["curve"].([]any)
		if m["Lmin_s"].(float64) != c.at || m["Lmax_s"].(float64) != c.at || len(curve) != 1 {
			t.Fatalf("--range %s: range %v..%v, curve %v; want %g s alone", c.rangeL, m["Lmin_s"], m["Lmax_s"], curve, c.at)
		}
		p := curve[0].(map[string]any)
		if l, rt := p["L_s"].(float64), p["runtime_s"].(float64); l != c.at || math.Abs(rt-c.t) > runtimeRel*c.t {
			t.Errorf("--range %s: curve point T(%v) = %v s, want T(%g) = %g s", c.rangeL, l, rt, c.at, c.t)
		}
		if rt := m["runtime_s"].(float64); math.Abs(rt-16.000054e-6) > runtimeRel*rt {
			t.Errorf("--range %s: baseline %v s, want T(3 µs) = 16.000054 µs", c.rangeL, rt)
		}
	}
}

// TestToleranceListsReadInOrder: --tolerance 5,1,1 gave the LP's table
// "1%, 5%" and the factor-scaled one "5%, 1%, 1%" (the list as typed);
// percentages are read in increasing order, each once, for every table.
func TestToleranceListsReadInOrder(t *testing.T) {
	for _, c := range []struct {
		list string
		want []float64
	}{
		{"5,1,1", []float64{1, 5}},
		{"2%, 1", []float64{1, 2}},
		{"1,2,5", []float64{1, 2, 5}},
		{"0", []float64{0}},
		{"", nil},
	} {
		got, err := parsePercents("--tolerance", c.list)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: %v, %v; want %v", c.list, got, err, c.want)
		}
	}
	graph := filepath.Join(t.TempDir(), "g.graph")
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=300", "--graph", graph); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	code, stdout, stderr := runCLI(t, "analyze", graph, "--tolerance", "5,1,1")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := 0
	for _, l := range strings.Split(stdout, "\n") {
		if i := strings.Index(l, "latency tolerance"); i >= 0 {
			lines++
			if tol := l[i:]; strings.Count(tol, "%") != 2 || strings.Index(tol, "1%") > strings.Index(tol, "5%") {
				t.Errorf("%q: want 1%% then 5%%, once each", tol)
			}
		}
	}
	if lines != 2 {
		t.Errorf("%d tolerance lines, want the LP's and the factor-scaled one:\n%s", lines, stdout)
	}
}
