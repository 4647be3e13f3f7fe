package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunBadProfile: a bad line in a platform's profile file (a speed
// profile, a <trace>) stops the run with one line naming the file and the
// line, exit 2.
func TestRunBadProfile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("speed.txt", "0 1\n# a comment\n2 fast\n")
	trace := write("ring.txt", "0 init\n1 init\n0 send 1 0 100\n1 recv 0 0 100\n0 finalize\n1 finalize\n")
	head := "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
	ab := "<host id=\"a\" speed=\"1Gf\"%s/>\n<host id=\"b\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>\n<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n</zone>\n"
	for _, tc := range []struct{ xml, want string }{
		{head + strings.Replace(ab, "%s", ` speed_file="speed.txt"`, 1) + "</platform>\n", "speed.txt:3: value \"fast\": want a number ≥ 0"},
		{head + strings.Replace(ab, "%s", "", 1) + "<trace id=\"t\" periodicity=\"2\">\n0 1\n3 0.5\n</trace>\n<trace_connect kind=\"SPEED\" trace=\"t\" element=\"a\"/>\n</platform>\n", "p.xml:9: periodicity 2 is shorter than the last date, 3"},
		{head + strings.Replace(ab, "%s", ` state_file="speed.txt"`, 1) + "</platform>\n", "p.xml:4: <host id=\"a\">: state_file is not supported"},
	} {
		plat := write("p.xml", tc.xml)
		code, _, stderr := runCLI(t, "run", "--platform", plat, "--replay", trace)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(strings.TrimSpace(stderr), "\n") > 0 {
			t.Errorf("exit %d, %q; want exit 2 and one line with %q", code, stderr, tc.want)
		}
	}
}
