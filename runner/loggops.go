package runner

import (
	"fmt"
	"time"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/scenario"
)

// runLogGOPS runs the plan's GOAL schedule under the loggops semantics. No
// World exists: there is no network to account (Links), no rank's calls
// to trace, split or graph; hooks (a progress reporter) hear nothing.
func runLogGOPS(p *scenario.Plan, opt Options) (*Result, error) {
	if opt.Graph || opt.Trace != nil || opt.Breakdown || opt.MPISplit || opt.Links || opt.RecordPivots {
		return nil, fmt.Errorf(`--graph, --trace, --plot, --links and --record-pivots watch ranks' run; replay.semantics = "loggops" has none`)
	}
	res := &Result{App: p.App, Ranks: p.Ranks, Seed: p.Seed, Plan: p}
	start := time.Now() // wall time of the replay: runner is outside the deterministic core
	r, err := replay.RunLogGOPS(p.Trace, p.LogGOPS)
	res.WallTime = time.Since(start).Seconds()
	if err != nil {
		return nil, err
	}
	res.Replay, res.Results, res.SimulatedTime = r, []*replay.Result{r}, r.Time
	if opt.Kernels != nil {
		res.Kernels = opt.Kernels.Totals()
	}
	if opt.MPICalls {
		res.MPICalls = observe.NewMPICalls(p.Ranks).Totals()
	}
	return res, nil
}
