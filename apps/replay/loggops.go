package replay

import (
	"errors"
	"fmt"
	"strings"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/traceformat"
)

// Semantics is how a replay turns a trace into time.
type Semantics uint8

const (
	// SemanticsMPI (the default) runs the trace through ranks: MPI's
	// matching at posting, SMPI's protocols and overheads, messages as
	// flows of the fluid network that share links max-min (Run).
	SemanticsMPI Semantics = iota
	// SemanticsLogGOPS runs a GOAL schedule as LogGOPSim does
	// (shared/reference/goal-and-llamp.md §5; RunLogGOPS): each rank's CPU
	// pays o per send and per received message, its NIC spaces sends and
	// receives by g + (s−1)·G, every message takes L, larger than S it is
	// rendezvous, matching happens when the message is processed, and
	// nothing is shared between ranks.
	SemanticsLogGOPS
)

var semanticsNames = [...]string{SemanticsMPI: "mpi", SemanticsLogGOPS: "loggops"}

func (s Semantics) String() string {
	if int(s) < len(semanticsNames) {
		return semanticsNames[s]
	}
	return fmt.Sprintf("Semantics(%d)", s)
}

// ParseSemantics reads "mpi" (or "") or "loggops".
func ParseSemantics(s string) (Semantics, error) {
	if s == "" {
		return SemanticsMPI, nil
	}
	for v, name := range semanticsNames {
		if strings.EqualFold(s, name) {
			return Semantics(v), nil
		}
	}
	return 0, fmt.Errorf("unknown semantics %q (mpi or loggops)", s)
}

// RunLogGOPS replays t, a GOAL schedule, under LogGOPSim's semantics with
// the LogGOPS parameters p. The schedule is evaluated by package loggops'
// engine — the one implementation of those semantics in emu, equal to
// LogGOPSim's runtime on the study's schedules — so ranks' model is not
// involved: there are no flows, no factors, no envelope, and GOAL's cpu
// and nic indices are honoured as LogGOPSim honours them (§5.8: time does
// not cross between CPUs through a dependency). A TI trace has no LogGOPS
// reading and is refused; so is a schedule on which LogGOPSim's unsigned
// time would wrap (loggops.WrapError: a 0-byte message with g < G, or
// o < G or O), where LogGOPSim prints an artefact, or one with a message
// too long for the replay's integer time (loggops.ScaleError).
func RunLogGOPS(t *traceformat.Trace, p loggops.Params) (*Result, error) {
	if t.GOAL == nil {
		return nil, fmt.Errorf("replay: %s is a %s trace; the loggops semantics replays GOAL schedules only", t.Name, t.Format)
	}
	res, err := loggops.Replay(t.GOAL, p)
	if err != nil {
		var inc *loggops.IncompleteError
		var wrap *loggops.WrapError
		var scale *loggops.ScaleError
		if errors.As(err, &inc) || errors.As(err, &wrap) || errors.As(err, &scale) {
			return nil, &IncompleteError{Err: err}
		}
		return nil, err
	}
	if res.Unstarted > 0 {
		// LogGOPSim prints a time for such a schedule, silently leaving
		// ops out (a rendezvous message taken by a receive of at most S
		// bytes); a replay says so.
		more := ""
		if res.Unstarted > 1 {
			more = fmt.Sprintf(" and %d more", res.Unstarted-1)
		}
		return nil, &IncompleteError{Err: fmt.Errorf("%s:%d: this op%s never started under loggops (a rendezvous message matched a receive of at most S bytes)", t.Name, res.UnstartedLine, more)}
	}
	return &Result{File: t.Name, Format: t.Format.String(), Ranks: t.Ranks(), Events: t.Events(), Time: res.Runtime}, nil
}
