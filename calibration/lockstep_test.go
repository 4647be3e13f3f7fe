package calibration

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"gonum.org/v1/gonum/blas"
)

// Workers measure in lockstep: no worker resets its operands while another
// times a run, and a worker whose call is done runs it as load while the
// others still time theirs. Every call still gets its runs.
func TestWorkersTimeInLockstep(t *testing.T) {
	var calls []Call
	for i := range 12 { // short and long calls alternate, so rounds mix them
		d := 4
		if i%2 == 1 {
			d = 96
		}
		calls = append(calls, Call{Kernel: "dgemm", M: d, N: d, K: d, Side: blas.Left, TransA: blas.NoTrans, TransB: blas.NoTrans})
	}
	p := Plan{Kernels: []string{"dgemm"}, Samples: len(calls), MaxDim: 96, Seed: 3, Calls: calls}
	for _, parallel := range []int{2, 3} {
		t.Run(fmt.Sprint(parallel, "workers"), func(t *testing.T) {
			var (
				mu            sync.Mutex
				timing, loads int
				bad           []string
			)
			path := filepath.Join(t.TempDir(), "s.csv")
			c := &Campaign{Plan: p, Out: path, Host: "h", Parallel: parallel, Repeats: 3}
			c.onStep = func(core int, s lockStep) {
				mu.Lock()
				defer mu.Unlock()
				switch s {
				case stepPrepare:
					if timing > 0 {
						bad = append(bad, fmt.Sprintf("worker %d resets its operands while %d time", core, timing))
					}
				case stepTimed:
					timing++
				case stepTimedEnd:
					timing--
				case stepLoad:
					loads++
				}
			}
			res, err := c.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if res.Measured+res.Resumed != len(calls) {
				t.Fatalf("measured %d of %d calls", res.Measured, len(calls))
			}
			checkComplete(t, path, p)
			rows, err := ReadSampleFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range rows {
				if r.Runs != 3 {
					t.Errorf("call %d: %d timed runs, want 3", r.Index, r.Runs)
				}
			}
			if len(bad) > 0 {
				t.Errorf("%d resets during timed runs, first: %s", len(bad), bad[0])
			}
			if loads == 0 {
				t.Error("no worker ran its call as load while another timed a longer one")
			}
		})
	}
}

// A barrier counts each meeting's yes votes for everyone, meeting after
// meeting, and sets timing to that count.
func TestBarrierCountsVotes(t *testing.T) {
	const n, meetings = 4, 200
	b := newBarrier(n)
	var wg sync.WaitGroup
	errs := make(chan string, n*meetings)
	for w := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for m := range meetings {
				want := m % (n + 1) // workers 0..want-1 vote yes
				got := b.vote(w < want)
				if got != want {
					errs <- fmt.Sprintf("meeting %d, worker %d: %d yes votes, want %d", m, w, got, want)
				}
				if tm := int(b.timing.Load()); tm != want {
					errs <- fmt.Sprintf("meeting %d: timing %d, want the votes %d", m, tm, want)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}
