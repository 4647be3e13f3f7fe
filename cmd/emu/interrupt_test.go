package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRunInterruptedLeavesNothing interrupts `emu run --trace` while the trace
// streams into its staging file, as Ctrl-C (SIGINT) or a batch system's time
// limit (SIGTERM) would, and wants the folder left as it was: no output, and no
// hidden .t.json.tmp* of the trace (hundreds of MB on a large run). The child is
// this test binary standing in for emu (TestMain, EMU_TEST_MAIN=1); its
// ensemble of 400 runs lasts minutes, so the signal always arrives mid-run.
func TestRunInterruptedLeavesNothing(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "run", "-q", "--set", "hpl.n=20000", "--set", "hpl.nb=16",
				"--seeds", "400", "--jobs", "1",
				"--trace", filepath.Join(dir, "t.json"), "--json", filepath.Join(dir, "o.json"))
			cmd.Env = append(os.Environ(), "EMU_TEST_MAIN=1")
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			deadline := time.Now().Add(60 * time.Second)
			for staged(t, dir) == "" {
				if time.Now().After(deadline) {
					t.Fatal("the trace's staging file never appeared")
				}
				time.Sleep(5 * time.Millisecond)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			cmd.Wait()
			ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
			if !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("child ended %v, want killed by %v as before (a shell sees 128+%d)", cmd.ProcessState, sig, int(sig))
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			var left []string
			for _, e := range entries {
				left = append(left, e.Name())
			}
			if len(left) > 0 {
				t.Errorf("after %v the folder holds %s, want nothing", sig, strings.Join(left, ", "))
			}
		})
	}
}

// staged names a staging file in dir, or "".
func staged(t *testing.T, dir string) string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".t.json.tmp") {
			return e.Name()
		}
	}
	return ""
}

// TestTuneInterruptedExitsOne interrupts a sweep (Ctrl-C) and wants exit 1 with
// the line that says how to resume, as calibrate's interruption: an interrupted
// sweep is not bad input, which exit 2 says (it was 2).
func TestTuneInterruptedExitsOne(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "sweep")
	cmd := exec.Command(os.Args[0], "tune", "-q", "--set", "hpl.n=20000", "--sweep", "hpl.nb=16,17,18,19,20,21",
		"--jobs", "1", "--out", out)
	cmd.Env = append(os.Environ(), "EMU_TEST_MAIN=1")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(out, "results.jsonl")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sweep's journal never appeared")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond) // the journal opens just before the handler is set
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	want := "emu: tune: interrupted; rerun the same command to resume from " + out + "\n"
	if code := cmd.ProcessState.ExitCode(); code != exitFailure || stderr.String() != want {
		t.Errorf("interrupted sweep: %v, stderr %q; want exit %d and %q", cmd.ProcessState, stderr.String(), exitFailure, want)
	}
}

// TestRunIntoClosedPipeLeavesNothing: `emu run --trace t.json | head -1` closes
// emu's stdout while the report prints, when the trace is still a staging file.
// The write's SIGPIPE ended the process (exit 141) and left the hidden
// .t.json.tmp* behind, a file the size of the trace; now the write fails with
// EPIPE, the staging files are discarded, and emu exits 141 without a line, as
// the shell sees a process SIGPIPE ended.
func TestRunIntoClosedPipeLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	r.Close() // the reader is gone before emu writes its first line
	cmd := exec.Command(os.Args[0], "run", "-q", "--set", "hpl.n=500", "--trace", filepath.Join(dir, "t.json"), "--json", filepath.Join(dir, "o.json"))
	cmd.Env = append(os.Environ(), "EMU_TEST_MAIN=1")
	cmd.Stdout = w
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	cmd.Wait()
	if code := cmd.ProcessState.ExitCode(); code != exitBrokenPipe || stderr.Len() > 0 {
		t.Errorf("child ended %v, stderr %q; want exit %d (128 + SIGPIPE) and no line", cmd.ProcessState, stderr.String(), exitBrokenPipe)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		t.Errorf("after a closed pipe the folder holds %s, want nothing", e.Name())
	}
}

// TestStagedFileHeldBeforeASignalCanMissIt: a signal whose handler runs
// (removeAll) after a staging file is made and before it was held pending
// left it behind (TestRunInterruptedLeavesNothing failed so, now and then,
// under load). The handler here comes inside that gap, widened by a pause;
// it must wait for the file to be held and remove it.
func TestStagedFileHeldBeforeASignalCanMissIt(t *testing.T) {
	dir := t.TempDir()
	p := stagedFiles{paths: map[string]bool{}}
	removed := make(chan struct{})
	err := p.made(func() (string, error) {
		f, err := os.CreateTemp(dir, ".t.json.tmp*")
		if err != nil {
			return "", err
		}
		f.Close()
		go func() { p.removeAll(); close(removed) }()
		time.Sleep(20 * time.Millisecond)
		return f.Name(), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	<-removed
	if left, _ := os.ReadDir(dir); len(left) > 0 {
		t.Errorf("the signal's removal left %s", left[0].Name())
	}
}
