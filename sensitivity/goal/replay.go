package goal

import (
	"fmt"

	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/traceformat"
)

// ReplayGraph replays s under LogGOPSim's semantics (loggops.Replay) and
// also records, into b, a graph whose longest path at latency ℓ = p.L is
// the replay's runtime: each op and each message's processing becomes a
// vertex, and edges record the program's dependencies, the messages (one
// class-0 latency term each) and each rank's actual order on its CPUs and
// NICs (record.go explains the rules). b must have been made with
// sensitivity.NewBuilder(s.NumRanks()).
func ReplayGraph(s *traceformat.Schedule, p loggops.Params, b *sensitivity.Builder) (*loggops.Result, error) {
	if b == nil {
		return nil, fmt.Errorf("goal: ReplayGraph of %s: nil Builder", s.Name)
	}
	return replay(s, p, b, false)
}

// replay runs the engine, recording into b unless it is nil; reference
// selects LogGOPSim's own data structures (loggops.Options.Reference), and
// makes the recorder read every op's predecessors, as a plain reference
// for tests and benchmarks.
func replay(s *traceformat.Schedule, p loggops.Params, b *sensitivity.Builder, reference bool) (*loggops.Result, error) {
	e, err := loggops.New(s, p, loggops.Options{Reference: reference})
	if err != nil {
		return nil, err
	}
	var rec *recorder
	if b != nil {
		rec = newRecorder(s, e, b)
		rec.walkAll = reference
		e.SetHooks(rec)
	}
	res, err := e.Run()
	if err != nil {
		return nil, err
	}
	if rec != nil && rec.err != nil {
		return nil, rec.err
	}
	return res, nil
}
