package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunBadProfile: a bad line in a platform's profile file (a speed
// profile, a <trace>), a state_file, a <trace_connect> to a split-duplex
// cluster link by its name stop the run with one line naming the file and
// the line, exit 2.
func TestRunBadProfile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeIn(t, dir, name, text) }
	write("speed.txt", "0 1\n# a comment\n2 fast\n")
	trace := write("ring.txt", "0 init\n1 init\n0 send 1 0 100\n1 recv 0 0 100\n0 finalize\n1 finalize\n")
	head := "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
	ab := "<host id=\"a\" speed=\"1Gf\"%s/>\n<host id=\"b\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>\n<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n</zone>\n"
	for _, tc := range []struct{ xml, want string }{
		{head + strings.Replace(ab, "%s", ` speed_file="speed.txt"`, 1) + "</platform>\n", "speed.txt:3: value \"fast\": want a number ≥ 0"},
		{head + strings.Replace(ab, "%s", "", 1) + "<trace id=\"t\" periodicity=\"2\">\n0 1\n3 0.5\n</trace>\n<trace_connect kind=\"SPEED\" trace=\"t\" element=\"a\"/>\n</platform>\n", "p.xml:9: periodicity 2 is shorter than the last date, 3"},
		{head + strings.Replace(ab, "%s", ` state_file="speed.txt"`, 1) + "</platform>\n", "p.xml:4: <host id=\"a\">: state_file is not supported"},
		{"<?xml version='1.0'?>\n<platform version=\"4.1\">\n<trace id=\"t\" periodicity=\"1\">0 1e6</trace>\n" +
			"<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" sharing_policy=\"SPLITDUPLEX\"/>\n" +
			"<trace_connect kind=\"BANDWIDTH\" trace=\"t\" element=\"c_link_0\"/>\n</platform>\n",
			`p.xml:5: <trace_connect kind="BANDWIDTH" element="c_link_0">: "c_link_0" is a SPLITDUPLEX link: connect the trace to its directions, "c_link_0_UP" and "c_link_0_DOWN"`},
	} {
		plat := write("p.xml", tc.xml)
		code, _, stderr := runCLI(t, "run", "--platform", plat, "--replay", trace)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("exit %d, %q; want exit 2 and one line with %q", code, stderr, tc.want)
		}
	}
}

// TestProfilesRefusedWhereUnplayed: what cannot carry a platform's
// profiles says so (exit 2, one line naming the profile's file and line)
// and writes nothing, where it ran on the steady platform without a word:
// an execution graph (its T was 1.5–24% off the run's), emu sensitivity,
// and --bound contention-free on a bandwidth profile (the bound makes the
// link a fat pipe). The same run without them plays the profile, and so
// do [[jobs]]: the job's time, alone and among the jobs, is the run's.
func TestProfilesRefusedWhereUnplayed(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string { return writeIn(t, dir, name, text) }
	write("bw.txt", "0 1e6\n")
	trace := write("pp.txt", "0 init\n1 init\n0 send 1 0 100000\n1 recv 0 0 100000\n0 finalize\n1 finalize\n")
	plat := write("p.xml", "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"+
		"<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\" bandwidth_file=\"bw.txt\"/>\n"+
		"<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n</zone>\n</platform>\n")
	sens := write("s.toml", "app = \"replay\"\n[replay]\nfile = \"pp.txt\"\n[platform]\nfile = \"p.xml\"\n")
	jobs := write("j.toml", "[platform]\nfile = \"p.xml\"\n\n[[jobs]]\nname = \"pp\"\napp = \"replay\"\nranks = 2\n[jobs.replay]\nfile = \"pp.txt\"\n")
	out := filepath.Join(dir, "out")
	const where = "p.xml:5: <link id=\"l\"> bandwidth_file"
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--platform", plat, "--replay", trace, "--graph", out}, "--graph: " + plat[:len(plat)-len("p.xml")] + where},
		{[]string{"sensitivity", "-q", sens, "--json", out}, where},
		{[]string{"run", "--platform", plat, "--replay", trace, "--bound", "contention-free", "--json", out}, "--bound: " + plat[:len(plat)-len("p.xml")] + where + `: contention-free makes link "l" a fat pipe`},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want exit 2 and one line with %q", tc.args, code, stderr, tc.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s written", tc.args, out)
			os.Remove(out)
		}
	}
	// the run itself plays the profile: 100 kB at 1 MB/s, 0.1 s and SMPI's factors (0.000123 s at 1 GB/s)
	code, stdout, stderr := runCLI(t, "run", "--platform", plat, "--replay", trace)
	if code != 0 || !strings.Contains(stdout, " 0.1") {
		t.Errorf("run: exit %d, %q %q", code, stdout, stderr)
	}
	// and so does the job: its time among the jobs (here alone) and alone
	// are the run's
	f := strings.Fields(stdout)
	ran := f[len(f)-1]
	code, stdout, stderr = runCLI(t, "run", "-q", jobs)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if f := strings.Fields(lines[len(lines)-1]); code != 0 || len(f) != 7 || f[4] != ran || f[5] != ran { // pp replay 2 0 TIME ALONE 1.0000
		t.Errorf("jobs: exit %d, %q %q; want the job's time and time alone %s s", code, stdout, stderr, ran)
	}
}

// writeIn writes text to the file name in dir (files that name each other
// by relative paths share one) and returns its path.
func writeIn(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
