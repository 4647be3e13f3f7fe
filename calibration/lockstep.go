package calibration

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/emu-hpc/emu/kernels"
)

// runWorkers measures the missing calls with parallel workers, one per core,
// in lockstep: each round every worker takes a call, and the rounds go run
// by run — all workers reset their operands, then all run their calls at
// once, timed, and a worker whose timed run has ended (or whose call needs
// no more runs) keeps running its call untimed until the others' timed runs
// end. So a call is always timed while the other cores run calls of the same
// kernel and size (the plan orders them so), as HPL's ranks update at once,
// and never while a neighbour rewrites its operands: a reset of a large
// dgemm's operands streams hundreds of megabytes, which slowed the dgemm
// timed beside it by 2-5% on the project's VM where a neighbour running
// dgemm costs 0-0.5% (BenchmarkNeighbour; issue 10's 2×1 and 1×1 runs came
// out 4-7% long).
//
// Rows are written as rounds end; on cancellation the calls in flight finish.
func (c *Campaign) runWorkers(ctx context.Context, have []bool, parallel int, be kernels.Backend, seed uint64, sample func(core, i int, sec float64, runs int) Sample, write func(Sample) error) error {
	var (
		mu    sync.Mutex
		next  int
		order = measureOrder(len(have), parallel, seed)
	)
	take := func() (int, bool) { // the next missing index, if any and not cancelled
		mu.Lock()
		defer mu.Unlock()
		for ; next < len(order) && ctx.Err() == nil; next++ {
			if i := order[next]; !have[i] {
				next++
				return i, true
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
// counts how many of them voted yes at each meeting. A waiting goroutine
// spins (for up to spinFor) before it sleeps: each worker has a core, and a
// core that sleeps between a worker's runs — a halted virtual CPU, a deep
// C-state — runs the next timed call cold, where HPL's ranks poll in MPI and
// keep theirs awake. With more goroutines than cores they sleep at once.
type barrier struct {
	n      int32
	here   atomic.Int32 // arrived at the current meeting
	yes    atomic.Int32 // yes votes at the current meeting
	gen    atomic.Int64 // meetings completed
	result atomic.Int32 // yes votes of the last completed meeting
	// timing counts the workers still in their timed run: the last to
	// arrive at a meeting sets it to the meeting's yes votes, each timed
	// run's worker takes itself off.
	timing atomic.Int32

	spin bool       // wait spinning: a core for each goroutine
	mu   sync.Mutex // for sleepers only
	cond *sync.Cond
}

// spinFor is how long a goroutine waits at a barrier before it sleeps.
const spinFor = time.Second

func newBarrier(n int) *barrier {
	b := &barrier{n: int32(n), spin: n <= runtime.NumCPU()}
	b.cond = sync.NewCond(&b.mu)
	return b
}

// vote waits for all n goroutines and returns how many voted yes.
func (b *barrier) vote(yes bool) int {
	g := b.gen.Load()
	if yes {
		b.yes.Add(1)
	}
	if b.here.Add(1) == b.n {
		// No goroutine leaves this meeting before gen moves, so none can
		// vote at the next one before the counts are reset.
		r := b.yes.Swap(0)
		b.here.Store(0)
		b.result.Store(r)
		b.timing.Store(r)
		b.mu.Lock()
		b.gen.Add(1)
		b.cond.Broadcast()
		b.mu.Unlock()
		return int(r)
	}
	start := time.Now() // wall clock: calibration measures this node, it is not the core
	for i := 0; b.gen.Load() == g; i++ {
		if !b.spin || i%1024 == 1023 && time.Since(start) > spinFor {
			b.mu.Lock()
			for b.gen.Load() == g {
				b.cond.Wait()
			}
			b.mu.Unlock()
			break
		}
	}
	return int(b.result.Load())
}
