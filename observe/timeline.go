package observe

import "github.com/emu-hpc/emu/ranks"

// TimelineKinds are the events GraphRecorder and TraceWriter read: compute
// bursts, messages' posts, matches and completions, and each rank's end.
// They read neither Stack (an overhead's or a poll's cost: they see that
// time as the gap before the rank's next event) nor the bounds of MPI
// calls, and listening to them is not free: a World whose listeners hear
// Stack fires every failed poll of a blocking probe loop without the growth
// (network.iprobe_growth = false), where it otherwise lets the polls sleep
// dormant (ranks/dormant.go), about 10 times less CPU at 1,024 ranks. The
// graph and the trace are the same either way:
// TestTimelineListenersMatchEveryKind.
const TimelineKinds = ranks.KindSet(1<<ranks.ComputeStart | 1<<ranks.ComputeEnd |
	1<<ranks.SendPost | 1<<ranks.RecvPost | 1<<ranks.Match | 1<<ranks.SendDone |
	1<<ranks.RecvDone | 1<<ranks.Finished)

// Listener is the recorder's listener: Hook for TimelineKinds.
func (g *GraphRecorder) Listener() ranks.Listener {
	return ranks.Listener{Kinds: TimelineKinds, Hook: g.Hook}
}

// Listener is the trace's listener: Hook for TimelineKinds.
func (t *TraceWriter) Listener() ranks.Listener {
	return ranks.Listener{Kinds: TimelineKinds, Hook: t.Hook}
}

// JobListener is JobHook's listener, for TimelineKinds.
func (t *TraceWriter) JobListener(job int, name string, first, n int) ranks.Listener {
	return ranks.Listener{Kinds: TimelineKinds, Hook: t.JobHook(job, name, first, n)}
}
