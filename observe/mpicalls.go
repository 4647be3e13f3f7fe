package observe

import (
	"sort"

	"github.com/emu-hpc/emu/ranks"
)

// MPICalls sums, per MPI call, how often the ranks made it and the time
// they spent inside it (its overheads, polls, transfers and waiting), over
// all ranks: where a run's MPI time goes (emu explain). A collective counts
// as one call; the point-to-point calls it makes are part of it. It is a
// ranks hook; events arrive in simulation order.
type MPICalls struct {
	open   []float64 // per rank, the start of its open call
	totals byName[MPICallTotal]
}

// MPICallTotal is one MPI call's share of a run, summed over the ranks.
type MPICallTotal struct {
	Call    string  `json:"call"`
	Calls   int     `json:"calls"`
	Seconds float64 `json:"seconds"` // time inside the call, s
}

// NewMPICalls returns an empty tally for n ranks.
func NewMPICalls(n int) *MPICalls {
	return &MPICalls{open: make([]float64, n)}
}

// Hook is the ranks.Hook that feeds the tally.
func (m *MPICalls) Hook(ev *ranks.Event) {
	switch ev.Kind {
	case ranks.CallStart:
		m.open[ev.Rank] = ev.Time
	case ranks.CallEnd:
		t := m.totals.get(ev.Kernel, newMPICallTotal)
		t.Calls++
		t.Seconds += ev.Time - m.open[ev.Rank]
	}
}

// Totals returns each call's count and seconds, the most time first (then
// by name).
func (m *MPICalls) Totals() []MPICallTotal {
	out := make([]MPICallTotal, 0, len(m.totals.entries))
	for _, t := range m.totals.entries {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Seconds != out[j].Seconds {
			return out[i].Seconds > out[j].Seconds
		}
		return out[i].Call < out[j].Call
	})
	return out
}

func newMPICallTotal(call string) *MPICallTotal { return &MPICallTotal{Call: call} }
