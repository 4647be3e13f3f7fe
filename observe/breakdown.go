package observe

import (
	"github.com/emu-hpc/emu/ranks"
)

// Breakdown splits each rank's simulated time into three parts, the view of a run the
// SMPI/HPL study draws per rank: computing (a compute kernel is being charged),
// communicating (not computing, and at least one of the rank's messages is moving:
// a posted send not yet complete, or a matched receive whose data is not all in) and
// waiting (neither: blocked in MPI for a partner, polling, or done before the others).
// Application code outside kernels costs no simulated time, so the three add up to the
// run's end time. It is a ranks hook; events arrive in simulation order.
type Breakdown struct {
	Compute, Comm, Wait []float64 // per rank, s

	last      []float64 // time up to which each rank's time is accounted, s
	computing []int     // compute intervals open (0 or 1)
	moving    []int     // messages of the rank in transfer
}

// NewBreakdown returns a Breakdown for n ranks.
func NewBreakdown(n int) *Breakdown {
	return &Breakdown{
		Compute: make([]float64, n), Comm: make([]float64, n), Wait: make([]float64, n),
		last: make([]float64, n), computing: make([]int, n), moving: make([]int, n),
	}
}

// accrue books rank r's time from its last event up to t in its current state.
func (b *Breakdown) accrue(r int, t float64) {
	d := t - b.last[r]
	if d <= 0 {
		return
	}
	switch {
	case b.computing[r] > 0:
		b.Compute[r] += d
	case b.moving[r] > 0:
		b.Comm[r] += d
	default:
		b.Wait[r] += d
	}
	b.last[r] = t
}

// Hook is the ranks.Hook that feeds the breakdown.
func (b *Breakdown) Hook(ev *ranks.Event) {
	r := ev.Rank
	if r < 0 || r >= len(b.last) {
		return
	}
	b.accrue(r, ev.Time)
	switch ev.Kind {
	case ranks.ComputeStart:
		b.computing[r]++
	case ranks.ComputeEnd:
		b.computing[r]--
	case ranks.SendPost, ranks.Match:
		b.moving[r]++
	case ranks.SendDone, ranks.RecvDone:
		if b.moving[r] > 0 {
			b.moving[r]--
		}
	}
}

// Finish books every rank's remaining time up to end (the run's end time, s).
func (b *Breakdown) Finish(end float64) {
	for r := range b.last {
		b.accrue(r, end)
	}
}
