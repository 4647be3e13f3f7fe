package calibration

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/emu-hpc/emu/kernels"
)

// maxTinyCall bounds one measured call of the tiny plans below (dimensions
// ≤ 12 take microseconds; a loaded machine may stall one for a while).
const maxTinyCall = 1.0 // s

// smallPlan is quick to measure: tiny dimensions, every kernel family.
func smallPlan(samples int) Plan {
	return Plan{Kernels: DefaultKernels, Samples: samples, MaxDim: 12, Seed: 7}
}

// checkComplete reads the campaign file and checks that it holds each index
// of the plan exactly once, each row with the dimensions the plan gives it.
func checkComplete(t *testing.T, path string, p Plan) {
	t.Helper()
	got, err := ReadSampleFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := make([]int, p.Total())
	for _, s := range got {
		if s.Index < 0 || s.Index >= len(seen) {
			t.Fatalf("row with index %d outside the plan", s.Index)
		}
		seen[s.Index]++
		c := p.Call(s.Index)
		if s.Kernel != c.Kernel || s.M != c.M || s.N != c.N || s.K != c.K || s.Plan != p.Fingerprint() {
			t.Fatalf("row %+v does not match planned call %+v", s, c)
		}
		// Zero is possible: a call shorter than the clock's jitter, once the
		// clock's own cost is subtracted (kernels.Measure).
		if !(s.Seconds >= 0) || s.Seconds > maxTinyCall {
			t.Fatalf("row %d: measured %g s", s.Index, s.Seconds)
		}
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("index %d present %d times, want once (%d rows)", i, n, len(got))
		}
	}
}

// workerSetups are the two ways a campaign measures: one worker in the
// calling goroutine (here timing each call three times), or workers at once.
var workerSetups = []struct{ parallel, repeats int }{{1, 3}, {2, 0}}

func TestCampaignCompletesAndResumesNothing(t *testing.T) {
	for _, ws := range workerSetups {
		path := filepath.Join(t.TempDir(), "s.csv")
		p := smallPlan(4)
		c := &Campaign{Plan: p, Out: path, Host: "testhost", Parallel: ws.parallel, Repeats: ws.repeats}
		res, err := c.Run(context.Background())
		if err != nil || res.Measured != p.Total() || res.Interrupted {
			t.Fatalf("%+v: first run: %+v, %v", ws, res, err)
		}
		checkComplete(t, path, p)
		res, err = c.Run(context.Background())
		if err != nil || res.Measured != 0 || res.Resumed != p.Total() {
			t.Fatalf("%+v: second run: %+v, %v; want nothing measured", ws, res, err)
		}
		checkComplete(t, path, p)
	}
}

// TestCampaignCancelAndResume stops a campaign through its context (what
// SIGINT does in emu calibrate) and reruns it.
func TestCampaignCancelAndResume(t *testing.T) {
	for _, ws := range workerSetups {
		path := filepath.Join(t.TempDir(), "s.csv")
		p := smallPlan(5)
		ctx, cancel := context.WithCancel(context.Background())
		c := &Campaign{Plan: p, Out: path, Host: "h", Parallel: ws.parallel, Repeats: ws.repeats, Progress: func(done, _ int) {
			if done == 17 {
				cancel()
			}
		}}
		res, err := c.Run(ctx)
		if err != nil || !res.Interrupted || res.Measured < 17 || res.Measured >= p.Total() {
			t.Fatalf("%+v: interrupted run: %+v, %v", ws, res, err)
		}
		c.Progress = nil
		res2, err := c.Run(context.Background())
		if err != nil || res2.Resumed != res.Measured || res2.Resumed+res2.Measured != p.Total() {
			t.Fatalf("%+v: resumed run: %+v, %v (first %+v)", ws, res2, err, res)
		}
		checkComplete(t, path, p)
	}
}

func TestCampaignCutsTornLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	p := smallPlan(2)
	full := &Campaign{Plan: p, Out: path, Host: "h"}
	if _, err := full.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	// Keep 10 rows and half of the 11th, as a kill -9 mid-write leaves it.
	lines := strings.SplitAfter(string(data), "\n")
	torn := strings.Join(lines[:11], "") + lines[11][:len(lines[11])/2]
	if err := os.WriteFile(path, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := full.Run(context.Background())
	if err != nil || res.Resumed != 10 || res.Measured != p.Total()-10 {
		t.Fatalf("rerun over a torn line: %+v, %v", res, err)
	}
	checkComplete(t, path, p)
}

func TestCampaignRefusesOtherPlan(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.csv")
	p := smallPlan(1)
	if _, err := (&Campaign{Plan: p, Out: path, Host: "h"}).Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	_, err := (&Campaign{Plan: p, Out: path, Host: "h", Clock: kernels.CPUClock}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), path+":2: row timed with the wall clock") {
		t.Fatalf("resuming with another clock: %v, want a clock mismatch at line 2", err)
	}
	p.Seed++
	_, err = (&Campaign{Plan: p, Out: path, Host: "h"}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), path+":2: row of plan") {
		t.Fatalf("resuming with another seed: %v, want a plan mismatch at line 2", err)
	}
	other := filepath.Join(t.TempDir(), "other.csv")
	os.WriteFile(other, []byte("kernel,host,m,n,k,seconds\n"), 0o644)
	_, err = (&Campaign{Plan: p, Out: other, Host: "h"}).Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "not a campaign file") {
		t.Fatalf("resuming a foreign file: %v", err)
	}
}

// The tests below run a campaign in a child process (this test binary
// re-executed) and interrupt it for real: SIGINT, then kill -9 mid-row.

const (
	childEnv     = "EMU_CALIBRATION_CHILD" // out file,marker file,mode
	childTimeout = 30 * time.Second
)

// childPlan is long enough that the child is still running when the parent
// interrupts it, and quick to finish on resume.
var childPlan = Plan{Kernels: []string{"dscal", "daxpy"}, Samples: 3000, MaxDim: 8, Seed: 3}

func TestMain(m *testing.M) {
	if v := os.Getenv(childEnv); v != "" {
		os.Exit(runChild(v))
	}
	os.Exit(m.Run())
}

// runChild runs the campaign; it touches the marker after 100 rows. In mode
// "kill" it then hangs in the middle of writing the next row.
func runChild(v string) int {
	parts := strings.Split(v, ",")
	out, marker, mode := parts[0], parts[1], parts[2]
	ctx, stop := signalContext()
	defer stop()
	rows := 0 // rows in the file
	c := &Campaign{Plan: childPlan, Out: out, Host: "child", Progress: func(done, _ int) {
		if rows = done; rows == 100 {
			os.WriteFile(marker, nil, 0o644)
		}
		if rows > 100 {
			// Slow down so the signal arrives long before the plan could end,
			// however late a loaded machine schedules the parent.
			time.Sleep(time.Millisecond)
		}
	}}
	if mode == "kill" {
		c.midRow = func() {
			if rows >= 100 {
				time.Sleep(childTimeout) // the parent kills us here, half a row written
			}
		}
	}
	res, err := c.Run(ctx)
	if err != nil {
		os.Stderr.WriteString(err.Error() + "\n")
		return 1
	}
	if res.Interrupted {
		return 3
	}
	return 0
}

func interruptChild(t *testing.T, mode string, sig syscall.Signal) string {
	dir := t.TempDir()
	out, marker := filepath.Join(dir, "s.csv"), filepath.Join(dir, "marker")
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"="+out+","+marker+","+mode)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(childTimeout)
	for {
		if _, err := os.Stat(marker); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("child never reached 100 rows")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if mode == "kill" {
		time.Sleep(50 * time.Millisecond) // let it reach the half-written row
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	err := cmd.Wait()
	code := cmd.ProcessState.ExitCode()
	t.Logf("child: %v (exit %d)", err, code)
	switch sig {
	case syscall.SIGINT:
		if code != 3 {
			t.Fatalf("after SIGINT the child exited %d, want 3 (interrupted cleanly)", code)
		}
	case syscall.SIGKILL:
		data, _ := os.ReadFile(out)
		if len(data) == 0 || data[len(data)-1] == '\n' {
			t.Fatalf("kill -9 left no torn row (file ends %q)", data[max(0, len(data)-20):])
		}
	}
	return out
}

func TestSIGINTThenResume(t *testing.T) {
	out := interruptChild(t, "sigint", syscall.SIGINT)
	res, err := (&Campaign{Plan: childPlan, Out: out, Host: "child"}).Run(context.Background())
	if err != nil || res.Resumed < 100 || res.Resumed+res.Measured != childPlan.Total() {
		t.Fatalf("resume after SIGINT: %+v, %v", res, err)
	}
	checkComplete(t, out, childPlan)
}

func TestKill9MidRowThenResume(t *testing.T) {
	out := interruptChild(t, "kill", syscall.SIGKILL)
	res, err := (&Campaign{Plan: childPlan, Out: out, Host: "child"}).Run(context.Background())
	if err != nil || res.Resumed != 100 || res.Measured != childPlan.Total()-100 {
		t.Fatalf("resume after kill -9: %+v, %v (want the 100 complete rows kept)", res, err)
	}
	checkComplete(t, out, childPlan)
}
