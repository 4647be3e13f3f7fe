package calibration

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/emu-hpc/emu/kernels"
)

// runWorkers measures the missing calls with parallel workers, one per core,
// in lockstep: each round every worker takes a call, and the rounds go run
// by run — all workers reset their operands, then all run their calls at once,
// timed, and a worker whose timed run has ended (or whose call needs no more
// runs) keeps running its call untimed until the others' timed runs end. So a call is always timed while the other
// cores run calls of the same kernel and size (the plan orders them so), as
// HPL's ranks update at once, and never while a neighbour rewrites its
// operands: a reset of a large dgemm's operands streams hundreds of
// megabytes, which slowed the dgemm timed beside it by 2-3% on the
// project's VM where a neighbour running dgemm costs nothing (issue 10's
// 2×1 and 1×1 runs came out 4-7% long).
//
// Rows are written as rounds end; on cancellation the calls in flight finish.
func (c *Campaign) runWorkers(ctx context.Context, have []bool, parallel int, be kernels.Backend, seed uint64, sample func(core, i int, sec float64, runs int) Sample, write func(Sample) error) error {
	var (
		mu   sync.Mutex
		next int
	)
	take := func() (int, bool) { // the next missing index, if any and not cancelled
		mu.Lock()
		defer mu.Unlock()
		for ; next < len(have) && ctx.Err() == nil; next++ {
			if !have[next] {
				next++
				return next - 1, true
			}
		}
		return 0, false
	}
	step := newBarrier(parallel)
	results := make(chan Sample)
	var wg sync.WaitGroup
	for core := range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMeasurer(be, c.Clock, c.Repeats, seed^uint64(core+1))
			m.reserve(c.Plan, have)
			if c.onStep != nil {
				m.onStep = func(s lockStep) { c.onStep(core, s) }
			}
			for {
				var t *trial
				i, ok := take()
				if ok {
					t = m.trial(c.Plan.Call(i))
				}
				if step.vote(ok) == 0 {
					return // nothing left for anyone
				}
				m.lockstep(t, step)
				if t != nil {
					sec, runs := t.result()
					results <- sample(core, i, sec, runs)
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	var werr error
	for s := range results {
		if werr == nil { // after an error, drain the workers; the first is reported
			werr = write(s)
		}
	}
	return werr
}

// lockstep runs one round of trial t (nil: this worker has no call this
// round) with the other workers of step, until none wants another run.
func (m *measurer) lockstep(t *trial, step *barrier) {
	for {
		wants := t != nil && t.wants()
		if step.vote(wants) == 0 {
			return
		}
		var run func()
		if wants {
			m.note(stepPrepare)
			run = t.prepare()
		}
		step.vote(wants) // every operand reset; the timed runs start together, counted in step.timing
		if wants {
			m.note(stepTimed)
			t.record(kernels.Measure(m.clock, run))
			m.note(stepTimedEnd)
			step.timing.Add(-1)
		}
		if t != nil {
			for step.timing.Load() > 0 {
				m.note(stepLoad)
				t.run() // untimed, as load, until the last timed run ends
			}
		}
	}
}

// A lockStep is what a worker is about to do, told to measurer.onStep
// (tests check the schedule with it).
type lockStep int

const (
	stepPrepare  lockStep = iota // reset operands
	stepTimed                    // start a timed run
	stepTimedEnd                 // end it
	stepLoad                     // run its call untimed while others time
)

func (m *measurer) note(s lockStep) {
	if m.onStep != nil {
		m.onStep(s)
	}
}

// A barrier holds n goroutines until all have arrived, again and again, and
// counts how many of them voted yes at each meeting.
type barrier struct {
	n      int
	mu     sync.Mutex
	cond   *sync.Cond
	gen    int // meetings completed
	here   int // arrived at the current meeting
	yes    int // yes votes at the current meeting
	result int // yes votes of the last completed meeting
	// timing counts the workers still in their timed run: the last to
	// arrive at a meeting sets it to the meeting's yes votes, each timed
	// run's worker takes itself off.
	timing atomic.Int32
}

func newBarrier(n int) *barrier {
	b := &barrier{n: n}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// vote waits for all n goroutines and returns how many voted yes.
func (b *barrier) vote(yes bool) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if yes {
		b.yes++
	}
	b.here++
	if b.here == b.n {
		b.result, b.here, b.yes = b.yes, 0, 0
		b.timing.Store(int32(b.result))
		b.gen++
		b.cond.Broadcast()
		return b.result
	}
	for gen := b.gen; gen == b.gen; {
		b.cond.Wait()
	}
	return b.result
}
