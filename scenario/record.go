package scenario

import (
	"fmt"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/kernels"
)

// CanRecordMessages says whether every message of the plan's run goes
// through the network, as the execution graph (--graph, emu sensitivity)
// and the per-link traffic (--links) need: not HPL's pivot exchanges timed
// as wholes (hpl.pivot_exchange = "uncontended").
func (p *Plan) CanRecordMessages() error {
	if p.App == AppHPL && p.PivotExchange == hpl.PivotUncontended {
		return fmt.Errorf(`hpl.pivot_exchange = "uncontended" times the pivot search's messages outside the network: the execution graph and the link traffic would miss them (drop the key to record them)`)
	}
	for _, j := range p.Jobs {
		if err := j.Plan.CanRecordMessages(); err != nil {
			return fmt.Errorf("job %s: %w", j.Name, err)
		}
	}
	return nil
}

// CanRecordGraph says whether the plan's execution graph (--graph, emu
// sensitivity) can stand for its run: every message through the network
// (CanRecordMessages), and no profile, since the graph's terms hold the
// links' latencies and bandwidths and the hosts' speeds as constants,
// where a profile changes them in time (the graph's T at the run's
// latency would not be the run's time).
func (p *Plan) CanRecordGraph() error {
	if err := p.CanRecordMessages(); err != nil {
		return err
	}
	if !p.Platform.Profiles.Empty() {
		return fmt.Errorf("%s: the platform's profiles change speeds, bandwidths or latencies in time; an execution graph holds them as constants, and its T would not be the run's time (drop the profiles to record one)", p.Platform.Profiles.Where)
	}
	return nil
}

// CanRecordPivots says whether the plan can record pivot rows: one HPL test, on real
// data (real or timed mode).
func (p *Plan) CanRecordPivots() error {
	if p.App != AppHPL || len(p.HPL) != 1 || p.Kernels.Mode == kernels.Model {
		return fmt.Errorf("recording pivots needs one HPL test in real or timed mode (have app %s, %d tests, mode %v)", p.App, len(p.HPL), p.Kernels.Mode)
	}
	return nil
}
