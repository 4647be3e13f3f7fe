package calibration

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/emu-hpc/emu/kernels"
)

// Campaign measures a Plan on this node into a sample file.
type Campaign struct {
	Plan Plan
	Out  string // sample file; an existing one is resumed
	// Host is recorded in every row; "" means os.Hostname().
	Host string
	// Parallel is the number of workers measuring at once, one per core as
	// HPL loads a node; 0 means 1.
	Parallel int
	Backend  string // kernels backend; "" is gonum
	// Repeats is how many times each call is timed after its warm-up run;
	// the sample is their mean. 0 means 1.
	Repeats int
	// Clock times each call; use the clock the predicted runs will use
	// (kernels.Config.Clock). A resumed file must have been made with it.
	Clock kernels.Clock
	// Progress, if set, is called after each row with the rows done so far
	// (including those found on resume) and the total.
	Progress func(done, total int)
	// now is the clock of the timestamps (tests may pin it).
	now func() time.Time
	// midRow is handed to the Writer (tests only).
	midRow func()
}

// Result tells what a Run did.
type Result struct {
	Resumed     int  // rows already in the file
	Measured    int  // rows added by this run
	Total       int  // rows the plan has
	Interrupted bool // the context was cancelled before the plan was done
}

// Run measures every planned call the sample file does not hold yet. When
// ctx is cancelled it stops handing out calls, writes the ones in flight and
// returns with Interrupted set; rerunning continues from there.
func (c *Campaign) Run(ctx context.Context) (Result, error) {
	res := Result{Total: c.Plan.Total()}
	if err := c.Plan.Validate(); err != nil {
		return res, err
	}
	be, err := kernels.LookupBackend(c.Backend)
	if err != nil {
		return res, err
	}
	host := c.Host
	if host == "" {
		if host, err = os.Hostname(); err != nil {
			return res, err
		}
	}
	if err := checkName("host", host); err != nil {
		return res, err
	}
	parallel := max(1, c.Parallel)
	if parallel > 1 && c.Clock == kernels.CPUClock {
		return res, fmt.Errorf("the cpu clock counts every worker's time: measure with 1 worker, or with the wall clock")
	}
	now := c.now
	if now == nil {
		now = time.Now
	}
	w, done, err := OpenSampleFile(c.Out)
	if err != nil {
		return res, err
	}
	w.midRow = c.midRow
	have, err := c.checkResumed(done)
	if err != nil {
		w.Close()
		return res, err
	}
	res.Resumed = len(done)
	if c.Progress != nil {
		c.Progress(res.Resumed, res.Total)
	}

	fp := c.Plan.Fingerprint()
	measure := func(m *measurer, core, i int) Sample {
		call := c.Plan.Call(i)
		sec := m.measure(call)
		return Sample{Index: i, Plan: fp, Host: host, Core: core, Kernel: call.Kernel,
			M: call.M, N: call.N, K: call.K, Seconds: sec, Time: now(), Backend: be.Name(), Clock: c.Clock.String()}
	}
	write := func(s Sample) error {
		if err := w.Write(s); err != nil {
			return err
		}
		res.Measured++
		if c.Progress != nil {
			c.Progress(res.Resumed+res.Measured, res.Total)
		}
		return nil
	}
	if parallel == 1 {
		err = c.runAlone(ctx, have, newMeasurer(be, c.Clock, c.Repeats, c.Plan.Seed^1), measure, write)
	} else {
		err = c.runWorkers(ctx, have, parallel, be, measure, write)
	}
	if err := errors.Join(err, w.Close()); err != nil {
		return res, fmt.Errorf("writing %s: %w", c.Out, err)
	}
	res.Interrupted = res.Resumed+res.Measured < res.Total
	return res, nil
}

// runAlone measures the missing calls one after the other in the calling
// goroutine, writing each row before the next call starts: while a call is
// timed nothing else of emu runs (no row being formatted or written, no
// goroutine handing out work), which the process CPU clock would count.
func (c *Campaign) runAlone(ctx context.Context, have []bool, m *measurer, measure func(*measurer, int, int) Sample, write func(Sample) error) error {
	for i, done := range have {
		if done {
			continue
		}
		if ctx.Err() != nil {
			return nil
		}
		if err := write(measure(m, 0, i)); err != nil {
			return err
		}
	}
	return nil
}

// runWorkers measures the missing calls with one worker per core at once,
// rows written as they come.
func (c *Campaign) runWorkers(ctx context.Context, have []bool, parallel int, be kernels.Backend, measure func(*measurer, int, int) Sample, write func(Sample) error) error {
	todo := make(chan int)
	go func() { // hand out the missing indices in order until done or cancelled
		defer close(todo)
		for i, done := range have {
			if done {
				continue
			}
			select {
			case todo <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	results := make(chan Sample)
	var wg sync.WaitGroup
	for core := range parallel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMeasurer(be, c.Clock, c.Repeats, c.Plan.Seed^uint64(core+1))
			for i := range todo {
				results <- measure(m, core, i)
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

// checkResumed verifies that rows found in the file belong to this plan and
// returns the set of indices they cover.
func (c *Campaign) checkResumed(done []Sample) ([]bool, error) {
	fp := c.Plan.Fingerprint()
	have := make([]bool, c.Plan.Total())
	for row, s := range done {
		line := row + 2 // header is line 1
		switch {
		case s.Plan != fp:
			return nil, fmt.Errorf("%s:%d: row of plan %q, this campaign's plan is %q (other --seed, --samples, --max-dim or --kernels); choose another --out", c.Out, line, s.Plan, fp)
		case s.Index < 0 || s.Index >= len(have):
			return nil, fmt.Errorf("%s:%d: index %d outside the plan's 0..%d", c.Out, line, s.Index, len(have)-1)
		case s.Clock != c.Clock.String():
			return nil, fmt.Errorf("%s:%d: row timed with the %s clock, this campaign uses %s; choose another --out or --clock", c.Out, line, s.Clock, c.Clock)
		case have[s.Index]:
			return nil, fmt.Errorf("%s:%d: index %d appears twice", c.Out, line, s.Index)
		}
		have[s.Index] = true
	}
	return have, nil
}
