//go:build linux

package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// An output that is not a regular file (a pipe, a device such as /dev/null) is
// written in place: renaming a temporary file over it replaced the pipe or the
// device by a regular file (as root, `emu run --json /dev/null` replaced the
// machine's /dev/null). Two flags may name one such path. The test uses its own
// pipe and, as root, its own copy of the null device, never /dev/null itself.
func TestOutputsToDevicesAndPipesAreWrittenInPlace(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	got := make(chan string)
	go func() {
		f, err := os.Open(fifo)
		if err != nil {
			got <- err.Error()
			return
		}
		defer f.Close()
		b, _ := io.ReadAll(f)
		got <- string(b)
	}()
	code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--json", fifo)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if s := <-got; !strings.Contains(s, `"app": "hpl"`) {
		t.Errorf("the pipe's reader got %q", s)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the pipe was replaced: %v %v", fi.Mode(), err)
	}
	null := filepath.Join(dir, "null")
	if err := syscall.Mknod(null, syscall.S_IFCHR|0o666, 1<<8|3); err != nil { // char 1:3, as /dev/null
		t.Log("no device test (mknod needs root):", err)
		return
	}
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--json", null, "--graph", null, "--trace", null); code != exitOK {
		t.Errorf("three outputs to a null device: exit %d: %s", code, stderr)
	}
	if fi, err := os.Lstat(null); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Errorf("the device was replaced: %v %v", fi.Mode(), err)
	}
}

// A command whose last output cannot be written (/dev/full: every write fails
// with ENOSPC) fails with exit 1 and leaves none of its other outputs: they go
// together, as cmd/emu's doc promises ("a failed command leaves none"). emu
// sensitivity, analyze, fit and tune committed each file as it was written, so
// the first ones stayed behind a failure.
func TestFailedWriteLeavesNoOutputs(t *testing.T) {
	const full = "/dev/full"
	if fi, err := os.Stat(full); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Skip("no /dev/full here")
	}
	dir, samples, graph := failedOutputsInputs(t)
	out := func(name string) string { return filepath.Join(dir, name) }
	for _, c := range []struct {
		name  string
		args  []string
		files []string // outputs that must not be left
	}{
		{"run", []string{"run", "-q", "--set", "hpl.n=100", "--json", out("r.json"), "--trace", out("r.trace"), "--links", full},
			[]string{out("r.json"), out("r.trace")}},
		{"run, json last", []string{"run", "-q", "--set", "hpl.n=100", "--graph", out("r.graph"), "--json", full},
			[]string{out("r.graph")}},
		{"sensitivity", []string{"sensitivity", "-q", "--set", "hpl.n=100", "--json", out("s.json"), "--graph", out("s.graph"), "--lp", full},
			[]string{out("s.json"), out("s.graph")}},
		{"sensitivity, graph last", []string{"sensitivity", "-q", "--set", "hpl.n=100", "--json", out("s.json"), "--lp", out("s.lp"), "--graph", full},
			[]string{out("s.json"), out("s.lp")}},
		{"analyze", []string{"analyze", graph, "--json", out("a.json"), "--lp", full}, []string{out("a.json")}},
		{"fit", []string{"fit", samples, "--family", "M1-N0", "--report", out("f.json"), "-o", full}, []string{out("f.json")}},
		{"tune", []string{"tune", "-q", "--sweep", "nb=32,64", "--set", "hpl.n=100", "--out", out("sweep"), "--csv", out("t.csv"), "--json", full},
			[]string{out("t.csv")}},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitFailure || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "no space left on device") {
			t.Errorf("%s: exit %d, stderr %q; want exit %d and one line of ENOSPC", c.name, code, stderr, exitFailure)
		}
		checkNothingLeft(t, c.name, dir, c.files)
	}
}

// Outputs that fail after the run name their flag, as the checks before it
// do: "write /dev/full: ..." left the user to find which flag that was, and
// sensitivity's "writing FILE: write .FILE.tmp123: ..." named a staging file.
// The trace, written while the run goes, said "writing the trace: ...".
func TestOutputFailureNamesItsFlag(t *testing.T) {
	const full = "/dev/full"
	if fi, err := os.Stat(full); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		t.Skip("no /dev/full here")
	}
	for _, c := range []struct{ cmd, flag string }{
		{"run", "--json"}, {"run", "--graph"}, {"run", "--links"}, {"run", "--trace"},
		{"sensitivity", "--json"}, {"sensitivity", "--lp"}, {"sensitivity", "--graph"},
	} {
		code, _, stderr := runCLI(t, c.cmd, "-q", "--set", "hpl.n=100", c.flag, full)
		if want := "emu: " + c.flag + " " + full + ": no space left on device\n"; code != exitFailure || stderr != want {
			t.Errorf("%s %s %s: exit %d, stderr %q; want exit %d and %q", c.cmd, c.flag, full, code, stderr, exitFailure, want)
		}
	}
}

// An output in a folder that takes no new file (/proc; a read-only folder
// for a user who is not root) is refused before the run, exit 2, one line
// naming the flag: it ran the whole emulation, then failed with exit 1 on
// "--json /proc/x.json: no such file or directory".
func TestRunRefusesAFolderThatTakesNoFile(t *testing.T) {
	dir := t.TempDir()
	js := filepath.Join(dir, "r.json")
	cases := []struct {
		name string
		args []string
		want string
	}{
		{"json in /proc", []string{"--json", "/proc/emu-qa.json"}, "emu: --json /proc/emu-qa.json: cannot create a file in folder /proc ("},
		{"graph in /proc beside a json", []string{"--json", js, "--graph", "/proc/emu-qa.graph"}, "emu: --graph /proc/emu-qa.graph: cannot create a file in folder /proc ("},
		{"plot below /proc", []string{"--plot", "/proc/emu-qa/p"}, "emu: --plot /proc/emu-qa/p: cannot create a file in folder /proc ("},
	}
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, struct {
			name string
			args []string
			want string
		}{"json in a read-only folder", []string{"--json", filepath.Join(ro, "r.json")}, "emu: --json " + filepath.Join(ro, "r.json") + ": cannot create a file in folder " + ro + " (permission denied)"})
	}
	for _, c := range cases {
		code, stdout, stderr := runCLI(t, append([]string{"run", "-q", "--set", "hpl.n=100"}, c.args...)...)
		if code != exitInput || !strings.HasPrefix(stderr, c.want) || strings.Count(stderr, "\n") != 1 || stdout != "" {
			t.Errorf("%s: exit %d, stdout %q\nstderr %q\nwant   %q...", c.name, code, stdout, stderr, c.want)
		}
		checkNothingLeft(t, c.name, dir, []string{js})
	}
}

// TestOutputThroughALink: an output named by a link is written to what the
// link names, and the link stays. `emu run --json /dev/stdout > out.txt`
// renamed its staging file over the link /dev/stdout (as root: the
// machine's), and out.txt got no JSON; now the JSON follows the report in
// out.txt, through emu's own standard output. The child is this test binary
// standing in for emu (TestMain), its standard output a file; the link is
// the test's own, to /proc/self/fd/1 as /dev/stdout is, never /dev/stdout.
func TestOutputThroughALink(t *testing.T) {
	dir := t.TempDir()
	stdout := filepath.Join(dir, "stdout")
	if err := os.Symlink("/proc/self/fd/1", stdout); err != nil {
		t.Skip("symlink:", err)
	}
	out, err := os.Create(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "run", "--set", "hpl.n=100", "--json", stdout)
	cmd.Env = append(os.Environ(), "EMU_TEST_MAIN=1")
	var stderr strings.Builder
	cmd.Stdout, cmd.Stderr = out, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	out.Close()
	got, _ := os.ReadFile(out.Name())
	report, json, found := strings.Cut(string(got), "\n{\n")
	if !found || !strings.Contains(report, "WR") || !strings.Contains(json, `"app": "hpl"`) {
		t.Errorf("standard output holds %q, want the report, then the JSON", got)
	}
	if fi, err := os.Lstat(stdout); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}

	// A link to a result file: the file is replaced, the link stays.
	target, link := filepath.Join(dir, "r.json"), filepath.Join(dir, "link.json")
	os.WriteFile(target, []byte("old"), 0o644)
	if err := os.Symlink("r.json", link); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--json", link); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(target); !strings.Contains(string(b), `"app": "hpl"`) {
		t.Errorf("the link's file holds %q", b)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}

	// A link to a file not made yet: made, the link kept.
	dangling := filepath.Join(dir, "new-link.json")
	if err := os.Symlink("new.json", dangling); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=100", "--json", dangling); code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new.json")); !strings.Contains(string(b), `"app": "hpl"`) {
		t.Errorf("the link's new file holds %q", b)
	}
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi.Mode(), err)
	}

	// Refused before the run, exit 2: a link and its file named by two
	// flags (one file, written twice), and a link into a missing folder.
	nowhere := filepath.Join(dir, "nowhere.json")
	if err := os.Symlink("missing/x.json", nowhere); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--json", target, "--trace", link}, "emu: --trace " + link + ": also named by --json"},
		{[]string{"--json", nowhere}, "emu: --json " + nowhere + ": folder " + filepath.Join(dir, "missing") + " does not exist"},
	} {
		code, _, stderr := runCLI(t, append([]string{"run", "-q", "--set", "hpl.n=100"}, c.args...)...)
		if code != exitInput || strings.TrimSpace(stderr) != c.want {
			t.Errorf("%q: exit %d, %q; want exit 2, %q", c.args, code, stderr, c.want)
		}
	}
}
