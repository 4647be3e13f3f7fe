package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/sensitivity"
)

// peers is the folder of the peer tools' inputs, beside the checkout.
const peers = "../../validation/testdata" // the peer inputs, vendored from shared/peers/smpi

func TestRunDefaultGolden(t *testing.T) {
	code, stdout, stderr := runCLI(t, "run")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "run_default.txt", stdout)
}

func TestRunPingpongGolden(t *testing.T) {
	// shared/DESIGN.md: pingpong results print as a table. On this 2-host cm02 cluster
	// (10 GB/s, 2 us routes) an 8-byte message takes 2 us + (8+16 B envelope)/1e10 s
	// one way: the first row must read 2.002 us.
	code, stdout, stderr := runCLI(t, "run", "testdata/pingpong.toml")
	if code != exitOK || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden(t, "run_pingpong.txt", stdout)
}

// wallTime matches the one field of the JSON result that is not deterministic.
var wallTime = regexp.MustCompile(`"wall_time_s": [0-9.e+-]+`)

func TestRunJSONIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	var outs []string
	for i := range 2 {
		out := filepath.Join(dir, "r"+string(rune('0'+i))+".json")
		if code, _, stderr := runCLI(t, "run", "--quiet", "--json", out, "--set", "hpl.n=[600,700]", "--set", "hpl.bcast=[\"2ringM\",\"long\"]"); code != exitOK {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		b, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		outs = append(outs, wallTime.ReplaceAllString(string(b), `"wall_time_s": 0`))
	}
	if outs[0] != outs[1] {
		t.Errorf("two runs of the same scenario differ:\n%s\n%s", outs[0], outs[1])
	}
	var res struct {
		App     string  `json:"app"`
		Ranks   int     `json:"ranks"`
		Sim     float64 `json:"simulated_time_s"`
		Seed    uint64  `json:"seed"`
		Results []struct {
			Variant     string `json:"variant"`
			N, NB, P, Q int
			Time        float64 `json:"time_s"`
			Gflops      float64 `json:"gflops"`
			Residual    float64 `json:"residual"`
			Passed      bool    `json:"passed"`
		} `json:"results"`
	}
	if err := json.Unmarshal([]byte(outs[0]), &res); err != nil {
		t.Fatal(err)
	}
	if res.App != "hpl" || res.Ranks != 4 || res.Seed != 1 || len(res.Results) != 4 || res.Results[0].N != 600 ||
		res.Results[1].Variant != "WR14C2R4" || res.Results[0].Time <= 0 || res.Sim < res.Results[0].Time {
		t.Errorf("JSON result %+v", res)
	}
}

func TestRunWritesGraphAndTrace(t *testing.T) {
	dir := t.TempDir()
	graph, trace := filepath.Join(dir, "g.bin"), filepath.Join(dir, "t.json")
	code, _, stderr := runCLI(t, "run", "--quiet", "--graph", graph, "--trace", trace, "--trace-window", "0:2ms", "--set", "hpl.n=400")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	f, err := os.Open(graph)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, err := sensitivity.ReadGraph(f)
	if err != nil || g.Ranks() != 4 || g.NumEdges() == 0 {
		t.Fatalf("graph: %v", err)
	}
	b, err := os.ReadFile(trace)
	if err != nil || !json.Valid(b) || !strings.Contains(string(b), `"name":"dgemm"`) {
		t.Fatalf("trace: %v, %d bytes", err, len(b))
	}
	// Same scenario, same bytes: the graph and the trace hold no wall-clock data.
	graph2, trace2 := filepath.Join(dir, "g2.bin"), filepath.Join(dir, "t2.json")
	if code, _, stderr := runCLI(t, "run", "--quiet", "--graph", graph2, "--trace", trace2, "--trace-window", "0:2ms", "--set", "hpl.n=400"); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if string(mustRead(t, graph)) != string(mustRead(t, graph2)) || string(b) != string(mustRead(t, trace2)) {
		t.Errorf("two runs of one scenario wrote different graphs or traces")
	}
}

// TestRunNotesEmptyTraceWindow: a --trace-window that starts after the run
// ended wrote a valid, empty trace without a word (a viewer then shows
// nothing); emu says so. A window inside the run, or one starting at 0, says
// nothing. The default HPL (N = 400) ends at about 6.4 ms.
func TestRunNotesEmptyTraceWindow(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "t.json")
	for _, c := range []struct {
		window string
		note   bool
	}{{"10s:20s", true}, {"7ms:", true}, {"1ms:2ms", false}, {"0:1us", false}} {
		code, _, stderr := runCLI(t, "run", "--trace", trace, "--trace-window", c.window, "--set", "hpl.n=400")
		if code != exitOK {
			t.Fatalf("%s: exit %d: %s", c.window, code, stderr)
		}
		said := strings.Contains(stderr, "after the run ended")
		if said != c.note {
			t.Errorf("--trace-window %s: stderr %q; want a note: %v", c.window, stderr, c.note)
		}
		if events := strings.Count(string(mustRead(t, trace)), `"ph"`); (events == 0) != c.note {
			t.Errorf("--trace-window %s: %d events, note %v", c.window, events, said)
		}
	}
}

func TestRunBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeIn(t, dir, name, text) }
	const plat = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	datLines := strings.Split(strings.TrimSpace(string(mustRead(t, "../../hpldat/testdata/shipped.dat"))), "\n")
	badDat := strings.Join(append(append([]string{}, datLines[:7]...), append([]string{"0 2 3 4"}, datLines[8:]...)...), "\n")
	big := append([]string{}, datLines...)
	big[9], big[10], big[11] = "1", "4", "4" // one 4×4 grid on the default's 4 ranks
	bigGrid := strings.Join(big, "\n")
	// HPL.dat's line 3 names an output file (device 8) that cannot be written.
	outDat := func(name, out string) string {
		l := append([]string{}, datLines...)
		l[2], l[3] = out+" output file name", "8 device out"
		return write(name, strings.Join(l, "\n"))
	}
	if err := os.Mkdir(filepath.Join(dir, "adir"), 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want string // the one line on stderr must start with this
	}{
		{"unknown bound", []string{"run", "--bound", "free"}, `emu: --bound: unknown bound "free" (contention-free or compute-only)`},
		{"unknown topology", []string{"run", write("a.toml", "[platform]\ntopology = \"ring\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n")},
			"emu: " + dir + "/a.toml:2: platform.topology: unknown topology \"ring\""},
		{"negative bandwidth", []string{"run", write("b.toml", "[platform]\nhosts = 4\nlink_bandwidth = \"-1Gbps\"\n")},
			"emu: " + dir + "/b.toml:3: platform.link_bandwidth: bandwidth \"-1Gbps\" must be positive"},
		{"unit-less bandwidth", []string{"run", write("c.toml", "[platform]\nhosts = 4\nlink_bandwidth = 100\n")},
			"emu: " + dir + "/c.toml:3: platform.link_bandwidth: bandwidth 100 has no unit"},
		{"too few hosts", []string{"run", write("d.toml", plat+"[hpl]\ngrids = [[4, 4]]\n")},
			"emu: " + dir + "/d.toml:6: hpl.grids: a 16-process grid needs more ranks than the 4"},
		{"malformed TOML", []string{"run", write("e.toml", plat+"[hpl\n")}, "emu: " + dir + "/e.toml:5: malformed TOML"},
		{"malformed XML", []string{"run", "--platform", write("f.xml", "<platform>\n<cluster id=\"x\"\n")}, "emu: " + dir + "/f.xml:3: malformed XML"},
		{"bad HPL.dat", []string{"run", "--hpl-dat", write("HPL.dat", badDat)}, "emu: " + dir + "/HPL.dat:8: NB = 0: must be ≥ 1"},
		{"HPL.dat grid too large", []string{"run", "--hpl-dat", write("big.dat", bigGrid), "--set", "platform.hosts=4"},
			"emu: " + dir + "/big.dat:12: a 16-process grid needs more ranks than the 4"},
		{"HPL.dat output is a folder", []string{"run", "--hpl-dat", outDat("out1.dat", filepath.Join(dir, "adir"))},
			"emu: " + dir + "/out1.dat:3: output file " + dir + "/adir: is a folder, want a file name"},
		{"HPL.dat output in a missing folder", []string{"run", "--hpl-dat", outDat("out2.dat", filepath.Join(dir, "no", "x"))},
			"emu: " + dir + "/out2.dat:3: output file " + dir + "/no/x: folder " + dir + "/no does not exist"},
		{"HPL.dat output is --json's", []string{"run", "--hpl-dat", outDat("out3.dat", filepath.Join(dir, "r.json")), "--json", filepath.Join(dir, "r.json")},
			"emu: " + dir + "/out3.dat:3: output file " + dir + "/r.json: also named by --json"},
		{"unknown --set key", []string{"run", "--set", "network.latency=1us"}, "emu: --set network.latency=1us: unknown key network.latency"},
		{"bad --set value", []string{"run", "--set", "hpl.nb=-1"}, "emu: --set hpl.nb=-1: hpl.nb: -1 must be ≥ 1"},
		{"missing file", []string{"run", filepath.Join(dir, "nope.toml")}, "emu: " + dir + "/nope.toml: no such file"},
		{"bad window", []string{"run", "--trace", filepath.Join(dir, "t.json"), "--trace-window", "5ms"}, "emu: --trace-window \"5ms\": want t0:t1"},
		// an empty window traced the whole run (0:0) or nothing (1ms:1ms)
		{"empty window", []string{"run", "--trace", filepath.Join(dir, "t.json"), "--trace-window", "0:0"}, "emu: --trace-window \"0:0\": empty (ends where it starts)"},
		{"window that ends before", []string{"run", "--trace", filepath.Join(dir, "t.json"), "--trace-window", "5ms:3ms"}, "emu: --trace-window \"5ms:3ms\": ends before it starts"},
		// a platform that does not connect two hosts the run uses: the line names it
		{"unrouted platform", []string{"run", "--platform", write("zones.xml", "<?xml version=\"1.0\"?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/></zone>\n</platform>\n"),
			"--set", "hpl.grids=[[1,2]]", "--set", "hpl.n=100", "-q"},
			"emu: " + dir + "/zones.xml: rank 1: a message from host b to host a, which the platform does not connect"},
		{"unrouted platform.file", []string{"run", "-q", write("zones.toml", "[platform]\nfile = \"zones.xml\"\n[hpl]\nn = 100\ngrids = [[1, 2]]\n")},
			"emu: " + dir + "/zones.xml: rank 1: a message from host b to host a"},
		// a file given with another kind's flag: the line says which flag takes it
		{"platform as HPL.dat", []string{"run", "--hpl-dat", "../../examples/cluster.xml"},
			`emu: ../../examples/cluster.xml:4: device out: "<!--" is not an integer (a SimGrid platform goes with --platform FILE)`},
		{"scenario as platform", []string{"run", "--platform", "testdata/pingpong.toml"},
			"emu: testdata/pingpong.toml:1: no <platform> element (a scenario is given as emu run FILE.toml, without a flag)"},
		{"HPL.dat as trace", []string{"run", "--replay", "../../hpldat/testdata/shipped.dat"},
			`emu: ../../hpldat/testdata/shipped.dat:1: want a rank number first, found "HPLinpack" (an HPL.dat goes with --hpl-dat FILE)`},
		{"negative window", []string{"run", "--trace", filepath.Join(dir, "t.json"), "--trace-window", "-1ms:2ms"}, "emu: --trace-window \"-1ms:2ms\": time \"-1ms\" is negative"},
		{"missing hostfile", []string{"run", "--hostfile", filepath.Join(dir, "no-hosts.txt")},
			"emu: --hostfile " + dir + "/no-hosts.txt: platform.hostfile: cannot read " + dir + "/no-hosts.txt: no such file"},
		{"hostfile is a folder", []string{"run", "--hostfile", dir}, "emu: --hostfile " + dir + ": platform.hostfile: cannot read " + dir + ": is a directory"},
		// blamed "default.toml: replay.file", a file the user never wrote
		{"trace is a folder", []string{"run", "--replay", dir}, "emu: --replay " + dir + ": a folder, want a trace file"},
		{"tune's trace is a folder", []string{"tune", "--replay", dir, "--sweep", "network.model=smpi,cm02", "--out", filepath.Join(dir, "tn")},
			"emu: --replay " + dir + ": a folder, want a trace file"},
		{"negative max-iterations", []string{"run", "--max-iterations", "-1"}, "emu: --max-iterations -1: hpl.max_iterations: -1 must be ≥ 0"},
		{"window without a trace", []string{"run", "--trace-window", "0:5ms"}, "emu: --trace-window: only meaningful with --trace"},
		{"latency without a graph", []string{"run", "--latency", "end-to-end"}, "emu: --latency: only meaningful with --graph"},
		{"no-alone without jobs", []string{"run", "--no-alone"}, "emu: --no-alone: only meaningful for a scenario with [[jobs]]"},
		{"empty bound", []string{"run", "--bound", ""}, "emu: --bound: empty value (leave the flag out instead)"},
		{"empty json", []string{"run", "--json="}, "emu: --json: empty value"},
		{"empty HPL.dat", []string{"run", "--hpl-dat", ""}, "emu: --hpl-dat: empty value"},
		{"two files", []string{"run", "a.toml", "b.toml"}, "emu: run [FILE.toml]: accepts at most 1 arg(s), received 2"},
		{"HPL.dat for pingpong", []string{"run", "testdata/pingpong.toml", "--hpl-dat", "../../hpldat/testdata/shipped.dat"},
			"emu: ../../hpldat/testdata/shipped.dat: HPL.dat given, but the scenario's app is pingpong"},
		{"pivots in model mode", []string{"run", "--record-pivots", filepath.Join(dir, "p.txt")}, "emu: --record-pivots: recording pivots needs one HPL test in real or timed mode"},
		{"replay without file", []string{"run", "--set", "kernels.pivot=replay"}, "emu: --set kernels.pivot=replay: kernels.pivot: replay needs kernels.pivots"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(t, tt.args...)
		if code != exitInput || !strings.HasPrefix(stderr, tt.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q\nstderr %q\nwant   %q...", tt.name, code, stdout, stderr, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "t.json")); err == nil {
		t.Errorf("a refused --trace-window left its trace behind")
	}
}

func TestRunPeersInputs(t *testing.T) {
	dats, _ := filepath.Glob(peers + "/hpl_dat/*.dat")
	xmls, _ := filepath.Glob(peers + "/*.xml")
	if len(dats) == 0 || len(xmls) == 0 {
		t.Fatalf("no peer inputs in %s (vendored)", peers)
	}
	// Every peer platform and HPL.dat loads; N is cut to 512 so that each runs fast.
	for _, x := range xmls {
		for _, d := range dats {
			var sf scenarioFlags
			sf.platform, sf.hplDat = x, d
			sf.sets = []string{"hpl.n=512"}
			if _, err := sf.plan(""); err != nil {
				t.Errorf("%s + %s: %v", filepath.Base(x), filepath.Base(d), err)
			}
		}
	}
	code, stdout, stderr := runCLI(t, "run", "--quiet", "--platform", xmls[0], "--hpl-dat", dats[0], "--set", "hpl.n=512")
	if code != exitOK || !strings.Contains(stdout, "End of Tests.") {
		t.Errorf("exit %d, %s", code, stderr)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRunHPLDatDevice(t *testing.T) {
	// HPL.dat line 4: any device but 6 and 7 sends the report to the file of line 3.
	dir := t.TempDir()
	lines := strings.Split(string(mustRead(t, "../../hpldat/testdata/shipped.dat")), "\n")
	out := filepath.Join(dir, "HPL.out")
	lines[2], lines[3] = out+" output file name", "8 device out"
	lines[5], lines[7], lines[9], lines[10], lines[11] = "600", "64", "1", "2", "2" // one small 2x2 test
	lines[4], lines[6], lines[13], lines[15], lines[19] = "1", "1", "1", "1", "1"
	lines[14], lines[16], lines[20] = "2", "4", "1"
	dat := filepath.Join(dir, "HPL.dat")
	if err := os.WriteFile(dat, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := runCLI(t, "run", "--hpl-dat", dat)
	if code != exitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if b := mustRead(t, out); !strings.Contains(string(b), "WR00C2R4         600    64     2     2") {
		t.Errorf("HPL.out:\n%s", b)
	}
}

// TestRunNotesExtrapolation: HPL's report has no place to say that a Time was
// extrapolated from a sample of its panels, so emu says it on stderr (63 panels of
// NB = 64 cover N = 4000), and --quiet keeps stderr empty.
func TestRunNotesExtrapolation(t *testing.T) {
	code, _, stderr := runCLI(t, "run", "--max-iterations", "3", "--set", "hpl.n=4000")
	if code != exitOK || !strings.Contains(stderr, "Time extrapolated from 3 of its 63 panels") || !strings.Contains(stderr, "expected error ±") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "run", "--set", "hpl.n=4000")
	if code != exitOK || strings.Contains(stderr, "extrapolated") {
		t.Errorf("whole run: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "run", "--quiet", "--max-iterations", "3", "--set", "hpl.n=4000")
	if code != exitOK || stderr != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, stderr)
	}
}

// TestRunNotesMergedRolls: merged rolls are an approximation HPL's report
// cannot show, so emu says it on stderr when a test has a long broadcast,
// and refuses a value it does not know (exit 2, naming the key).
func TestRunNotesMergedRolls(t *testing.T) {
	const note = `long broadcasts' rolls merged (hpl.roll = "merged")`
	code, _, stderr := runCLI(t, "run", "--max-iterations", "3", "--set", "hpl.bcast=longM", "--set", "hpl.roll=merged")
	if code != exitOK || !strings.Contains(stderr, note) {
		t.Errorf("longM merged: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "run", "--max-iterations", "3", "--set", "hpl.bcast=2ringM", "--set", "hpl.roll=merged")
	if code != exitOK || strings.Contains(stderr, note) {
		t.Errorf("no long broadcast: exit %d, stderr %q", code, stderr)
	}
	// --json says it per test
	out := filepath.Join(t.TempDir(), "r.json")
	code, _, stderr = runCLI(t, "run", "--max-iterations", "3", "--set", "hpl.bcast=[\"longM\", \"2ringM\"]", "--set", "hpl.roll=merged", "--json", out)
	b, err := os.ReadFile(out)
	if code != exitOK || err != nil || strings.Count(string(b), `"roll": "merged"`)+strings.Count(string(b), `"roll":"merged"`) != 1 {
		t.Errorf("--json: exit %d, stderr %q, %v:\n%s", code, stderr, err, b)
	}
	code, _, stderr = runCLI(t, "run", "--set", "hpl.roll=fast")
	if code != exitInput || !strings.Contains(stderr, `hpl.roll: "fast": want "steps" or "merged"`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("bad value: exit %d, stderr %q", code, stderr)
	}
}

// TestRunNotesPivotExchange: uncontended pivot exchanges are an
// approximation HPL's report cannot show: emu says so on stderr and in
// --json, refuses --graph and --links with it (they need every message),
// and refuses a value it does not know (exit 2, naming the key).
func TestRunNotesPivotExchange(t *testing.T) {
	const note = `hpl.pivot_exchange = "uncontended"`
	code, _, stderr := runCLI(t, "run", "--set", "hpl.pivot_exchange=uncontended")
	if code != exitOK || !strings.Contains(stderr, note) {
		t.Errorf("uncontended: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runCLI(t, "run")
	if code != exitOK || strings.Contains(stderr, note) {
		t.Errorf("default: exit %d, stderr %q", code, stderr)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	code, _, stderr = runCLI(t, "run", "--set", "hpl.pivot_exchange=uncontended", "--json", out)
	b, err := os.ReadFile(out)
	if code != exitOK || err != nil || strings.Count(strings.ReplaceAll(string(b), " ", ""), `"pivot_exchange":"uncontended"`) != 1 {
		t.Errorf("--json: exit %d, stderr %q, %v:\n%s", code, stderr, err, b)
	}
	for _, flag := range []string{"--graph", "--links"} {
		file := filepath.Join(dir, "out"+flag)
		code, _, stderr = runCLI(t, "run", "--set", "hpl.pivot_exchange=uncontended", flag, file)
		if _, err := os.Stat(file); code != exitInput || !strings.Contains(stderr, "the execution graph and the link traffic would miss them") || strings.Count(stderr, "\n") != 1 || err == nil {
			t.Errorf("%s: exit %d, stderr %q, file left: %v", flag, code, stderr, err == nil)
		}
	}
	code, _, stderr = runCLI(t, "run", "--set", "hpl.pivot_exchange=fast")
	if code != exitInput || !strings.Contains(stderr, `hpl.pivot_exchange: "fast": want "messages" or "uncontended"`) || strings.Count(stderr, "\n") != 1 {
		t.Errorf("bad value: exit %d, stderr %q", code, stderr)
	}
}

// TestNotesBeforeTheRun: the scenario's notes (here the default cluster
// grown to the grid) come before what the run reports when it ends (the
// extrapolation's error bar), so that a user waiting on a large run reads
// them first.
func TestNotesBeforeTheRun(t *testing.T) {
	code, _, stderr := runCLI(t, "run", "--set", "hpl.grids=[[4,8]]", "--max-iterations", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	grew := strings.Index(stderr, "the default flat cluster grows from 4 to 32 hosts")
	extrapolated := strings.Index(stderr, "Time extrapolated from 4 of its 32 panels")
	if grew < 0 || extrapolated < 0 || grew > extrapolated {
		t.Errorf("the note of the growth at %d, the extrapolation at %d, want the note first:\n%s", grew, extrapolated, stderr)
	}
}
