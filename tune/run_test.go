package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// toyRunner scores a point by the product of its numeric values, so rankings can be
// predicted by hand, and counts how often each point ran.
type toyRunner struct {
	mu   sync.Mutex
	runs map[string]int
	bad  string // key Check rejects
}

func (r *toyRunner) Check(p Point) error {
	for _, o := range p.Overrides {
		if o.Key == r.bad {
			return fmt.Errorf("unknown key %s", o.Key)
		}
	}
	return nil
}

func (r *toyRunner) Run(ctx context.Context, p Point) (Result, error) {
	r.mu.Lock()
	if r.runs == nil {
		r.runs = map[string]int{}
	}
	r.runs[p.ID()]++
	r.mu.Unlock()
	score := 1.0
	for _, o := range p.Overrides {
		v, err := strconv.ParseFloat(o.Value, 64)
		if err != nil {
			return Result{}, err
		}
		if v == 13 {
			return Result{}, errors.New("unlucky")
		}
		score *= v
	}
	return Result{Gflops: score}, nil
}

func TestSweepRanksAndRecords(t *testing.T) {
	axes := []Axis{{"a", []string{"1", "2", "3"}}, {"b", []string{"10", "13", "20"}}}
	pts := Points(axes, 0, 0)
	dir := t.TempDir()
	j, err := OpenJournal(filepath.Join(dir, "r.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var calls atomic.Int32
	res, err := Sweep(context.Background(), &toyRunner{}, pts, Options{
		Jobs: 3, Record: j.Append, Progress: func(done, total int) { calls.Add(1) },
	})
	if err != nil {
		t.Fatal(err)
	}
	j.Close()
	if len(res) != 9 || calls.Load() != 9 {
		t.Fatalf("got %d results and %d progress calls, want 9 and 9", len(res), calls.Load())
	}
	ranked := Rank(res)
	// Best is a=3 b=20 (60), then a=2 b=20 and a=3 b=10 tie at 40 (ID order), failures last.
	want := []string{"a=3 b=20", "a=2 b=20", "a=3 b=10"}
	for i, w := range want {
		if ranked[i].Label != w {
			t.Errorf("rank %d = %s (%g), want %s", i+1, ranked[i].Label, ranked[i].Gflops, w)
		}
	}
	for _, r := range ranked[6:] {
		if r.Error != "unlucky" {
			t.Errorf("expected the three b=13 failures last, got %+v", r)
		}
	}
	back, err := ReadResults(filepath.Join(dir, "r.jsonl"))
	if err != nil || len(back) != 9 {
		t.Fatalf("journal holds %d results (%v), want 9", len(back), err)
	}
}

// TestSweepJobsBeyondThePoints: a Jobs above the points' count starts no
// more workers than points (a goroutine a job: --jobs 2⁶³−1 never began),
// and every Jobs gives the same results.
func TestSweepJobsBeyondThePoints(t *testing.T) {
	pts := Points([]Axis{{"a", []string{"1", "2", "3"}}, {"b", []string{"10", "20", "30"}}}, 0, 0)
	base := runtime.NumGoroutine()
	var want string
	for _, jobs := range []int{0, 1, 3, 9, 10_000, math.MaxInt} {
		peak := 0
		res, err := Sweep(context.Background(), &toyRunner{}, pts, Options{
			Jobs: jobs, Progress: func(int, int) { peak = max(peak, runtime.NumGoroutine()) },
		})
		if err != nil {
			t.Fatal(err)
		}
		if peak > base+len(pts)+4 {
			t.Fatalf("Jobs %d: %d goroutines while sweeping %d points (%d before)", jobs, peak, len(pts), base)
		}
		var got []string
		for _, r := range Rank(res) {
			got = append(got, fmt.Sprintf("%s:%g", r.Label, r.Gflops))
		}
		if s := strings.Join(got, " "); want == "" {
			want = s
		} else if s != want {
			t.Errorf("Jobs %d: ranked %s, want %s", jobs, s, want)
		}
	}
}

func TestSweepResumesWithoutRedoing(t *testing.T) {
	axes := []Axis{{"a", []string{"1", "2", "3", "4"}}}
	pts := Points(axes, 0, 0)
	path := filepath.Join(t.TempDir(), "r.jsonl")
	r := &toyRunner{}

	// First run: only the first two points, as if interrupted.
	j, _ := OpenJournal(path)
	if _, err := Sweep(context.Background(), r, pts[:2], Options{Record: j.Append}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	// Simulate a kill mid-write: a torn, newline-less fragment at the end.
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"a=3","gfl`)
	f.Close()

	j, err := OpenJournal(path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Sweep(context.Background(), r, pts, Options{Jobs: 2, Record: j.Append, Skip: func(p Point) bool { return j.Done(p.ID()) }}); err != nil {
		t.Fatal(err)
	}
	j.Close()
	for _, p := range pts {
		if n := r.runs[p.ID()]; n != 1 {
			t.Errorf("point %s ran %d times, want exactly once", p.ID(), n)
		}
	}
	back, err := ReadResults(path)
	if err != nil || len(back) != 4 {
		t.Fatalf("journal holds %d results (%v), want 4", len(back), err)
	}
}

func TestSweepCheckFailsFast(t *testing.T) {
	pts := Points([]Axis{{"nosuch.key", []string{"1"}}}, 0, 0)
	r := &toyRunner{bad: "nosuch.key"}
	_, err := Sweep(context.Background(), r, pts, Options{})
	if err == nil || len(r.runs) != 0 {
		t.Fatalf("err = %v, runs = %v; want an error and nothing run", err, r.runs)
	}
}

func TestJournalRejectsGarbageInTheMiddle(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	os.WriteFile(path, []byte("{\"id\":\"a=1\"}\nnot json\n{\"id\":\"a=2\"}\n"), 0o644)
	if _, err := OpenJournal(path); err == nil || err.Error() != path+":2: not a tune result line" {
		t.Fatalf("err = %v, want it to name line 2", err)
	}
}

func TestPlanRoundTripAndTasks(t *testing.T) {
	dir := t.TempDir()
	p := Plan{Scenario: "/x/hpl.toml", Points: Points([]Axis{{"a", []string{"1", "2", "3", "4", "5"}}}, 0, 0), Tasks: 2}
	if err := WritePlan(dir, p); err != nil {
		t.Fatal(err)
	}
	q, err := ReadPlan(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(q.TaskPoints(0)) + len(q.TaskPoints(1)); got != 5 {
		t.Errorf("tasks cover %d points, want 5", got)
	}
	if q.TaskPoints(1)[1].Label() != "a=4" {
		t.Errorf("task 1's second point = %s, want a=4 (round robin)", q.TaskPoints(1)[1].Label())
	}
	s := JobScript(dir, q, SlurmOptions{Partition: "debug", Exe: "/bin/emu"})
	for _, want := range []string{"#SBATCH --array=0-1", "#SBATCH --partition=debug", "'/bin/emu' tune task"} {
		if !strings.Contains(s, want) {
			t.Errorf("job script lacks %q:\n%s", want, s)
		}
	}
}
