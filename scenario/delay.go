package scenario

import (
	"errors"
	"fmt"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/sensitivity"
)

// deliveries tallies the messages a run delivers and their delivery times
// (the RecvDone events' Transfer: first byte sent → last byte in, injected
// delay included): Netscope's message delivery time M. It is a ranks hook.
type deliveries struct {
	n   int
	sum float64 // s
}

func (d *deliveries) hook(ev *ranks.Event) {
	if ev.Kind == ranks.RecvDone {
		d.n++
		d.sum += ev.Transfer
	}
}

// DelaySweep runs the plan once per injected mean delay (network.message_delay,
// with the plan's distribution and link class) and measures each run's
// simulated time T and mean message delivery time M, for
// sensitivity.FitDelay. opt's hooks and listeners listen to every run.
func (p *Plan) DelaySweep(delays []float64, opt RunOptions) ([]sensitivity.DelayPoint, error) {
	if p.App == AppJobs {
		return nil, errors.New("a delay sweep runs one application, not a scenario's [[jobs]]")
	}
	if p.App == AppReplay && p.Semantics == replay.SemanticsLogGOPS {
		return nil, errors.New(`replay.semantics = "loggops" runs no ranks to delay messages of`)
	}
	out := make([]sensitivity.DelayPoint, 0, len(delays))
	for _, d := range delays {
		q := *p
		q.Network.MessageDelay = d
		var tally deliveries
		o := opt
		o.Listeners = append(append([]ranks.Listener(nil), opt.Listeners...), ranks.Listener{Kinds: ranks.KindsOf(ranks.RecvDone), Hook: tally.hook})
		res, err := q.Run(o)
		if err != nil {
			return nil, fmt.Errorf("delay %g s: %w", d, err)
		}
		pt := sensitivity.DelayPoint{Delay: d, T: res.SimulatedTime, Messages: tally.n}
		if tally.n > 0 {
			pt.M = tally.sum / float64(tally.n)
		}
		out = append(out, pt)
	}
	return out, nil
}
