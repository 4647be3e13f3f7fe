package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	goldenfile "github.com/emu-hpc/emu/internal/golden"
)

// golden compares got with testdata/golden/name, or rewrites it with -update
// (internal/golden); any command's test may use it.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", "golden", name), []byte(got))
}

// runCLI runs emu in-process and returns its exit status, stdout and stderr.
func runCLI(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// withCommand registers a throw-away subcommand for the duration of one test.
func withCommand(t *testing.T, newCmd func() *cobra.Command) {
	t.Helper()
	saved := commands
	t.Cleanup(func() { commands = saved })
	register(newCmd)
}

func TestErrorsAreOneLineWithExitStatus(t *testing.T) {
	withCommand(t, func() *cobra.Command {
		return &cobra.Command{
			Use: "probe-errors MODE",
			RunE: func(cmd *cobra.Command, args []string) error {
				switch args[0] {
				case "input":
					return errors.New("a.toml:3: hpl.nb: must be positive")
				case "joined":
					return errors.Join(errors.New("a.toml:3: first"), errors.New("a.toml:4: second"))
				case "failure":
					return asFailure(errors.New("disk full"))
				case "panic":
					panic("boom")
				}
				cmd.Println("fine")
				return nil
			},
		}
	})
	tests := []struct {
		arg      string
		wantCode int
		wantErr  string
	}{
		{"ok", exitOK, ""},
		{"input", exitInput, "emu: a.toml:3: hpl.nb: must be positive\n"},
		{"joined", exitInput, "emu: a.toml:3: first (and 1 more)\n"},
		{"failure", exitFailure, "emu: disk full\n"},
		{"panic", exitFailure, "emu: internal error: boom\n"},
	}
	for _, tt := range tests {
		code, _, stderr := runCLI(t, "probe-errors", tt.arg)
		if code != tt.wantCode || stderr != tt.wantErr {
			t.Errorf("probe-errors %s: exit %d, stderr %q; want %d, %q", tt.arg, code, stderr, tt.wantCode, tt.wantErr)
		}
	}
}

func TestBadFlagsAndCommandsExit2WithoutUsage(t *testing.T) {
	for _, args := range [][]string{{"--no-such-flag"}, {"no-such-command"}} {
		code, stdout, stderr := runCLI(t, args...)
		if code != exitInput {
			t.Errorf("%v: exit %d, want %d", args, code, exitInput)
		}
		if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "emu: ") || strings.Contains(stdout+stderr, "Usage:") {
			t.Errorf("%v: want one error line and no usage; stdout %q stderr %q", args, stdout, stderr)
		}
	}
}

func TestHelpListsRegisteredCommands(t *testing.T) {
	withCommand(t, func() *cobra.Command {
		return &cobra.Command{Use: "probe-help", Short: "a probe", Run: func(*cobra.Command, []string) {}}
	})
	code, stdout, _ := runCLI(t, "help")
	if code != exitOK || !strings.Contains(stdout, "probe-help") || !strings.Contains(stdout, "completion") {
		t.Errorf("emu help: exit %d, output lacks the registered command or completion:\n%s", code, stdout)
	}
}

func TestWriteFileAtomicLeavesNothingOnError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "out.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := writeFileAtomic(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return errors.New("stopped half way")
	})
	if err == nil {
		t.Fatal("want the writer's error")
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Errorf("after a failed write the file holds %q, want the old content", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temporary files left behind: %v", entries)
	}
	if err := writeFileAtomic(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Errorf("after a good write the file holds %q, want %q", got, "new")
	}
}

func TestShellCompletion(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish"} {
		code, stdout, stderr := runCLI(t, "completion", shell)
		if code != exitOK || !strings.Contains(stdout, "emu") || stderr != "" {
			t.Errorf("completion %s: exit %d, %d bytes, stderr %q", shell, code, len(stdout), stderr)
		}
	}
}

// TestCompletionUnknownShell: emu completion of a shell cobra writes no
// script for is one line, exit 2; it printed the command's help and exited
// 0, as if a script had been written (qa48). Without a shell it still shows
// the help.
func TestCompletionUnknownShell(t *testing.T) {
	for _, c := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"completion", "tcsh"}, exitInput, `emu: completion: unknown shell "tcsh", want one of bash, fish, powershell, zsh` + "\n"},
		{[]string{"completion", "ksh", "x"}, exitInput, `emu: completion: unknown shell "ksh", want one of bash, fish, powershell, zsh` + "\n"},
		{[]string{"completion"}, exitOK, ""},
		{[]string{"completion", "powershell"}, exitOK, ""},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		if code != c.code || stderr != c.stderr || (code == exitOK) != (stdout != "") {
			t.Errorf("emu %s: exit %d, %d bytes out, %q; want %d, %q", strings.Join(c.args, " "), code, len(stdout), stderr, c.code, c.stderr)
		}
	}
}

// TestNumericFlagErrors: a flag value strconv refuses is one line in emu's
// form, the flag, the value and what it wants, where it was pflag's
// `invalid argument "abc" for "--max-iterations" flag: strconv.ParseInt:
// parsing "abc": invalid syntax`.
func TestNumericFlagErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--max-iterations", "abc"}, `emu: --max-iterations "abc": want an integer` + "\n"},
		{[]string{"run", "--seeds", "1.5"}, `emu: --seeds "1.5": want an integer` + "\n"},
		{[]string{"run", "--seeds", "99999999999999999999"}, `emu: --seeds "99999999999999999999": want an integer in range` + "\n"},
		{[]string{"explain", "--timed=maybe"}, `emu: --timed "maybe": want true or false` + "\n"},
		// A list flag's element: it said `invalid argument "64,x" for "--nb"
		// flag: strconv.Atoi: parsing "x": invalid syntax`.
		{[]string{"calibrate", "--nb", "64,x"}, `emu: --nb "64,x": want comma-separated integers` + "\n"},
		{[]string{"calibrate", "--nb", "64,99999999999999999999"}, `emu: --nb "64,99999999999999999999": want comma-separated integers in range` + "\n"},
		{[]string{"run", "--set"}, "emu: flag needs an argument: --set\n"},
	} {
		code, _, stderr := runCLI(t, c.args...)
		if code != exitInput || stderr != c.want {
			t.Errorf("%v: exit %d, %q; want 2, %q", c.args, code, stderr, c.want)
		}
	}
}

// TestMissingInputsNamedAlike: every command says a missing input as
// "PATH: no such file or directory"; analyze, fit, calibrate --check and
// calibrate merge said the system's "open PATH: ..." instead.
func TestMissingInputsNamedAlike(t *testing.T) {
	dir := t.TempDir()
	none := filepath.Join(dir, "none")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", none + ".toml"}, none + ".toml: no such file or directory"},
		{[]string{"analyze", none + ".graph"}, none + ".graph: no such file or directory"},
		{[]string{"fit", none + ".csv", "-o", filepath.Join(dir, "m.toml")}, none + ".csv: no such file or directory"},
		{[]string{"calibrate", "--check", none + ".toml"}, "--check: " + none + ".toml: no such file or directory"},
		{[]string{"calibrate", "merge", none + "1.csv", none + "2.csv", "-o", filepath.Join(dir, "m.csv")}, none + "1.csv: no such file or directory"},
		// explain's --real said "--real: open …: no such file or directory"
		{[]string{"explain", "--timed=false", "--real", none + ".out"}, "--real: " + none + ".out: no such file or directory"},
		// calibrate's --hpl-dat takes a list; run's said "a.dat,b.dat: no such file or directory"
		{[]string{"run", "--hpl-dat", none + "1.dat," + none + "2.dat"},
			"--hpl-dat " + none + "1.dat," + none + "2.dat: no such file; one HPL.dat is read here, all its tests run (a comma-separated list is emu calibrate's)"},
	} {
		code, _, errOut := runCLI(t, tc.args...)
		if code != exitInput || errOut != "emu: "+tc.want+"\n" {
			t.Errorf("emu %s: exit %d, stderr %q; want 2 and %q", strings.Join(tc.args, " "), code, errOut, "emu: "+tc.want)
		}
	}
}

// TestArgCountErrorsNameTheCommand checks that a wrong number of arguments is
// refused in one line naming the command and what it takes; cobra's own
// "accepts 1 arg(s), received 0" named neither (qa57).
func TestArgCountErrorsNameTheCommand(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"analyze"}, "emu: analyze GRAPH|SCHEDULE.goal: accepts 1 arg(s), received 0\n"},
		{[]string{"analyze", "a.graph", "b.graph"}, "emu: analyze GRAPH|SCHEDULE.goal: accepts 1 arg(s), received 2\n"},
		{[]string{"calibrate", "merge"}, "emu: calibrate merge node1.csv node2.csv ... [-o all.csv]: requires at least 1 arg(s), only received 0\n"},
		{[]string{"tune", "collect"}, "emu: tune collect DIR: accepts 1 arg(s), received 0\n"},
		{[]string{"explain", "a.toml", "b.toml"}, "emu: explain [FILE.toml] [--hpl-dat HPL.dat]: accepts at most 1 arg(s), received 2\n"},
		{[]string{"sensitivity", "a.toml", "b.toml"}, "emu: sensitivity [FILE.toml]: accepts at most 1 arg(s), received 2 (several scenarios only with --delay)\n"},
	}
	for _, tt := range tests {
		code, stdout, stderr := runCLI(t, tt.args...)
		if code != exitInput || stderr != tt.want || stdout != "" {
			t.Errorf("emu %s: exit %d, stdout %q\nstderr %q\nwant   %q", strings.Join(tt.args, " "), code, stdout, stderr, tt.want)
		}
	}
}

// TestThresholdZeroSkipsTheCheck backs docs/reference/scenario-apps.md's hpl.threshold row: HPL
// skips its residual check for a threshold ≤ 0 (HPL_pdtest's thrsh <=
// HPL_rzero), 0 included, which the page had as "negative" (qa57).
func TestThresholdZeroSkipsTheCheck(t *testing.T) {
	for _, c := range []struct{ threshold, want string }{
		{"0", "1 tests completed without checking,"},
		{"-1", "1 tests completed without checking,"},
		{"16", "1 tests completed and passed residual checks,"},
	} {
		code, stdout, stderr := runCLI(t, "run", "-q", "--set", "hpl.n=60", "--set", "hpl.nb=8", "--set", "hpl.grids=1x1",
			"--set", "kernels.mode=real", "--set", "hpl.threshold="+c.threshold)
		if code != exitOK || !strings.Contains(stdout, c.want) {
			t.Errorf("threshold %s: exit %d (%s), want %q in\n%s", c.threshold, code, stderr, c.want, stdout)
		}
	}
}
