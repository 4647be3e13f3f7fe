package runner

import (
	"errors"
	"fmt"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/sensitivity"
)

// DelaySweep runs the plan once per injected mean delay (network.message_delay,
// with the plan's distribution and link class) and measures each run's
// simulated time T and mean message delivery time M, for
// sensitivity.FitDelay. opt's hooks and listeners listen to every run.
func DelaySweep(p *scenario.Plan, delays []float64, opt Options) ([]sensitivity.DelayPoint, error) {
	if p.App == scenario.AppJobs {
		return nil, errors.New("a delay sweep runs one application, not a scenario's [[jobs]]")
	}
	if p.App == scenario.AppReplay && p.Semantics == replay.SemanticsLogGOPS {
		return nil, errors.New(`replay.semantics = "loggops" runs no ranks to delay messages of`)
	}
	out := make([]sensitivity.DelayPoint, 0, len(delays))
	for _, d := range delays {
		q := *p
		q.Network.MessageDelay = d
		var tally observe.Deliveries
		o := opt
		o.Listeners = append(append([]ranks.Listener(nil), opt.Listeners...), ranks.Listener{Kinds: ranks.KindsOf(ranks.RecvDone), Hook: tally.Hook})
		res, err := Run(&q, o)
		if err != nil {
			return nil, fmt.Errorf("delay %g s: %w", d, err)
		}
		pt := sensitivity.DelayPoint{Delay: d, T: res.SimulatedTime, Messages: tally.N}
		if tally.N > 0 {
			pt.M = tally.Sum / float64(tally.N)
		}
		out = append(out, pt)
	}
	return out, nil
}
