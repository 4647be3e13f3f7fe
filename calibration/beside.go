package calibration

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/emu-hpc/emu/kernels"
)

// fingerprint is the plan column of the campaign's rows: the plan's, and
// the load its calls other than Beside's were timed under, so that a file
// is never resumed, nor screened, under the other setting.
func (c *Campaign) fingerprint() string {
	fp := c.Plan.Fingerprint()
	if c.Beside != "" {
		fp += "+beside-" + c.Beside
	}
	return fp
}

// loadCall is the plan's call of kernel Beside with the most work (for
// dgemm the first trailing update, HPL's heaviest use of the memory).
func (c *Campaign) loadCall() (Call, bool) {
	var best Call
	found, most := false, 0.0
	for i := range c.Plan.Total() {
		call := c.Plan.Call(i)
		if call.Kernel != c.Beside {
			continue
		}
		if work := float64(call.M) * float64(max(1, call.N)) * float64(max(1, call.K)); !found || work > most {
			best, found, most = call, true, work
		}
	}
	return best, found
}

// runBeside measures the missing calls of kernel Beside in lockstep with
// parallel workers (they load each other as HPL's ranks updating at once
// do), then every other missing call with one worker while parallel-1
// others run loadCall over and over on operands of their own, started
// before the first timed call and stopped after the last.
func (c *Campaign) runBeside(ctx context.Context, have []bool, parallel int, be kernels.Backend, seed uint64, sample func(core, i int, sec float64, runs int) Sample, write func(Sample) error) error {
	own, rest := make([]bool, len(have)), make([]bool, len(have))
	others := 0
	for i, done := range have {
		isLoad := c.Plan.Call(i).Kernel == c.Beside
		own[i] = done || !isLoad // "have" for the lockstep pass: all but the load kernel's missing calls
		rest[i] = done || isLoad
		if !rest[i] {
			others++
		}
	}
	if err := c.runWorkers(ctx, own, parallel, be, seed, sample, write); err != nil || others == 0 || ctx.Err() != nil {
		return err
	}
	load, _ := c.loadCall()
	var (
		stop    atomic.Bool
		wg      sync.WaitGroup
		running = make(chan struct{})
	)
	for core := 1; core < parallel; core++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMeasurer(be, c.Clock, 1, seed^uint64(core+1))
			run := m.trial(load).prepare()
			run() // pages touched before the timing starts
			running <- struct{}{}
			for !stop.Load() {
				run()
				if c.onLoadRun != nil {
					c.onLoadRun(core)
				}
			}
		}()
	}
	for core := 1; core < parallel; core++ {
		<-running
	}
	m := newMeasurer(be, c.Clock, c.Repeats, seed^1)
	m.reserve(c.Plan, rest)
	err := c.runAlone(ctx, rest, m, seed, sample, write)
	stop.Store(true)
	wg.Wait()
	return err
}
