package ranks

import (
	"fmt"
	"strings"
)

// BlockedRank describes what a rank was waiting for when the simulation
// deadlocked.
type BlockedRank struct {
	Rank int    // world rank
	Call string // the MPI call it is blocked in ("Recv", "Wait", "Barrier", ...)
	Peer int    // world rank it waits on, AnySource for a wildcard, -2 for none
	Tag  int    // tag it waits on (AnyTag for a wildcard)
}

// noPeer marks a blocked call that waits on no particular peer.
const noPeer = -2

// DeadlockError reports that no rank could run and no event was pending,
// listing every blocked rank in rank order — emu's version of SimGrid's
// deadlock report.
type DeadlockError struct {
	Time    float64 // s, when it was detected
	Blocked []BlockedRank
	// Stalled counts the messages in flight that will never complete:
	// under SimGrid's order, messages whose latency phase held a change of
	// a link's bandwidth or latency, which SimGrid 3.32 stalls until a
	// later change re-rates them (StalledNote).
	Stalled int
}

// StalledNote is what a deadlock's report adds when messages stalled.
func StalledNote(n int) string {
	return fmt.Sprintf("; %d message(s) in flight never complete: a link they cross changed in their latency phase, which SimGrid 3.32 stalls, as emu does under network.wake_order = \"simgrid\" (docs/network.md)", n)
}

func (e *DeadlockError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "deadlock at t=%gs: %d rank(s) blocked", e.Time, len(e.Blocked))
	for i, r := range e.Blocked {
		if i == 8 {
			fmt.Fprintf(&b, "; ... %d more", len(e.Blocked)-i)
			break
		}
		fmt.Fprintf(&b, "; rank %d in %s", r.Rank, r.Call)
		switch {
		case r.Peer == AnySource:
			b.WriteString(" from any source")
		case r.Peer >= 0:
			fmt.Fprintf(&b, " peer %d", r.Peer)
		}
		if r.Peer != noPeer {
			if r.Tag == AnyTag {
				b.WriteString(" any tag")
			} else {
				fmt.Fprintf(&b, " tag %d", r.Tag)
			}
		}
	}
	if e.Stalled > 0 {
		b.WriteString(StalledNote(e.Stalled))
	}
	return b.String()
}

// PanicError is an application panic, caught in the rank that raised it.
type PanicError struct {
	Rank  int
	Value any
	Stack string // the panicking goroutine's stack
}

func (e *PanicError) Error() string {
	if u, ok := e.Value.(*UnroutedError); ok { // the platform's fault, not the rank's
		return fmt.Sprintf("rank %d: %v", e.Rank, u)
	}
	if f, ok := e.Value.(InputFault); ok { // an input's fault, which names it
		return f.Error()
	}
	if t, ok := e.Value.(*TruncateError); ok { // MPI's error, which names the rank
		return t.Error()
	}
	return fmt.Sprintf("rank %d panicked: %v", e.Rank, e.Value)
}

// InputFault is a panic value that stops a run for a fault of its input,
// which its message names (kernels.CallTooLongError: a kernel model whose
// calls last for days): PanicError reads as its message alone.
type InputFault interface {
	error
	InputFault()
}

// EndlessError stops a run at a Compute or Sleep of +Inf seconds, or an
// Execute of +Inf flops on a shared host, which would leave the rank's clock
// at infinity: a model that overflowed (its coefficient or its sizes far off)
// is the usual cause. NaN and negative durations charge nothing (Compute's
// documentation).
type EndlessError struct {
	Rank   int    // world rank
	Call   string // "Compute", "Sleep" or "Execute"
	Kernel string // Compute's kernel
}

// InputFault marks the error as its input's fault: the model's or the
// program's, which the message names.
func (e *EndlessError) InputFault() {}

func (e *EndlessError) Error() string {
	if e.Call == "Sleep" {
		return fmt.Sprintf("rank %d: Sleep(+Inf): a duration must be finite", e.Rank)
	}
	return fmt.Sprintf("rank %d: %s(+Inf, %q): a duration must be finite (a model that overflowed?)", e.Rank, e.Call, e.Kernel)
}

// UnroutedError stops a run at a message between two hosts the platform
// does not connect (an empty route of no latency: two hosts of a zone with
// no route declared between them), or whose route SimGrid 3.32 cannot
// build (Why, fluid.RouteRefusal: it fails at that message too). SimGrid
// aborts there too ("no connecting path"); moving the data in no time
// would be silently wrong.
type UnroutedError struct {
	From, To string
	Why      error // the topology's refusal of the route; nil: no route
}

func (e *UnroutedError) Error() string {
	if e.Why != nil {
		return fmt.Sprintf("a message from host %s to host %s: %v (SimGrid fails on it too)", e.From, e.To, e.Why)
	}
	return fmt.Sprintf("a message from host %s to host %s, which the platform does not connect (SimGrid aborts on it too)", e.From, e.To)
}

// Unwrap exposes a panic value that is an error.
func (e *PanicError) Unwrap() error {
	if err, ok := e.Value.(error); ok {
		return err
	}
	return nil
}
