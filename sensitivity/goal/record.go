package goal

import (
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/traceformat"
)

// recorder turns a replay into a sensitivity graph whose longest path at
// ℓ = L equals the replay's runtime and which keeps the replay's order of
// each CPU and NIC when ℓ changes.
//
// Every time in LogGOPSim's loop is a maximum of "next free" times and
// arrivals, each of which is the finish of an earlier occupation plus a
// constant (or plus L for an arrival). The recorder writes each such term
// as an edge. Vertices, with their cost (s):
//
//   - calc: its duration, on its CPU;
//   - send: o+(s−1)·O, on its CPU (the vertex finishes when the CPU is free);
//   - message processing at the receiver: o, plus its in-edges' (s−1)·G
//     (LogGOPSim charges o+max((s−1)O,(s−1)G) at arrival, on the CPU with
//     the send's index); rendezvous messages get a second, zero-cost vertex
//     for the processing start, where the rendezvous completes;
//   - recv posting (zero cost), only when it cannot be named by an earlier
//     vertex (LogGOPSim posts a recv at its CPU's free time when it becomes
//     ready: usually that is the finish of the CPU's last occupation);
//   - rendezvous send completion (zero cost): the later of the send's
//     occupation and the match.
//
// Edges: CPU order (each occupation after the previous one on that CPU,
// and after the match times of rendezvous that raised the CPU's free time
// meanwhile), NIC order (send gap g+(s−1)G after the previous send's start,
// receive gap after the previous message's processing start), message
// edges (send start + o + 1·ℓ ≤ processing start), and the GOAL
// dependencies. A dependency edge is left out when CPU order already
// implies it (its source is an earlier occupation of the same CPU), which
// keeps the graph near one vertex and two edges per op.
//
// The graph is exact for schedules that use one CPU index per rank. With
// several, LogGOPSim lets a dependency across CPUs start at the other CPU's
// free time, even before its predecessor ends (§5.8), which no graph edge
// can express; the recorder then writes the dependency anyway.
type recorder struct {
	e          *loggops.Engine
	s          *traceformat.Schedule
	ncpu, nnic int // CPU and NIC indices per rank
	b          *sensitivity.Builder
	err        error

	cpuLast  []int32 // per (rank, cpu): last occupation vertex, -1 if none
	cpuBumps [][]ref // per (rank, cpu): rendezvous matches since then

	nicS      []ref   // per (rank, nic): constraint on the next send's start
	nicSCPU   []uint8 // CPU index of the op behind nicS
	nicSBumps [][]ref
	nicR      []ref // per (rank, nic): constraint on the next message's processing start
	nicRCPU   []uint8

	ops []traceformat.OpRec // the Schedule's ops
	op  []loggops.OpState   // the engine's per-op state, whose V, Aux and Flags are the recorder's
	sd  map[int32]int32     // rendezvous send → its completion vertex

	curMs int32 // processing-start vertex of the rendezvous message being processed
	match ref   // when the current event completes a rendezvous: the match time

	walkAll bool // reference mode: read every op's predecessor list, as if meet had marked them all
}

// ref is a time: the finish of vertex v plus rest ps (carrying bytes·G).
type ref struct {
	v     int32
	rest  int64
	bytes int64
}

const (
	flagPostVertex = 1 << iota // op[recv].aux is its own posting vertex
	flagMsgOwnCPU              // the recv's message was processed on the recv's CPU index
	flagRendezvous             // the send completed by a match (sd holds the vertex)
	flagOwnDeps                // a dependency of the op is not implied by CPU order (see meet)
)

func newRecorder(s *traceformat.Schedule, e *loggops.Engine, b *sensitivity.Builder) *recorder {
	n := s.NumOps()
	r := &recorder{e: e, s: s, ncpu: s.CPUs(), nnic: s.NICs(), b: b, curMs: -1}
	nc, nn := s.NumRanks()*r.ncpu, s.NumRanks()*r.nnic
	r.cpuLast = fill(make([]int32, nc), -1)
	r.cpuBumps = make([][]ref, nc)
	r.nicS = fill(make([]ref, nn), ref{v: -1})
	r.nicSCPU = make([]uint8, nn)
	r.nicSBumps = make([][]ref, nn)
	r.nicR = fill(make([]ref, nn), ref{v: -1})
	r.nicRCPU = make([]uint8, nn)
	r.op = e.States()
	r.sd = make(map[int32]int32)
	r.ops = s.Ops()
	// Typical shapes: one vertex per op, 1.4 edges per op (stencil, all-to-all).
	b.Grow(n+n/8, n+n/2)
	return r
}

func fill[T any](s []T, v T) []T {
	for i := range s {
		s[i] = v
	}
	return s
}

func sec(ps int64) float64 { return float64(ps) / loggops.PsPerSecond }

func (r *recorder) edge(from ref, to int32, addRest, addBytes int64, lat ...sensitivity.LatTerm) {
	if from.v < 0 {
		return // a time of 0: no constraint
	}
	r.b.EdgeBytes(sensitivity.VertexID(from.v), sensitivity.VertexID(to), sec(from.rest+addRest), float64(max(0, from.bytes+addBytes)), lat...)
}

// cpuIn adds the CPU-order edges of an occupation (or a posting) of CPU c.
func (r *recorder) cpuIn(v int32, c int, add, addBytes int64) {
	r.edge(ref{v: r.cpuLast[c]}, v, add, addBytes)
	for _, b := range r.cpuBumps[c] {
		r.edge(b, v, add, addBytes)
	}
}

func (r *recorder) occupy(c int, v int32) {
	r.cpuLast[c] = v
	r.cpuBumps[c] = r.cpuBumps[c][:0]
}

// implied reports whether CPU order already implies that an op on CPU
// index cpu starts after predecessor q started (start) or completed.
func (r *recorder) implied(q int32, start bool, cpu uint8) bool {
	if r.ops[q].CPU != cpu {
		return false
	}
	switch r.ops[q].Kind {
	case traceformat.OpSend:
		return start || r.op[q].Flags&flagRendezvous == 0
	case traceformat.OpRecv:
		return r.op[q].Flags&flagPostVertex == 0 && (start || r.op[q].Flags&flagMsgOwnCPU != 0)
	}
	return true
}

// Met is called as op q starts (start) or completes, with w one of the
// ops that wait for that and w's state: it marks w if CPU order does not
// imply the dependency, so that depsIn and ready need to read w's
// predecessor list (a cache miss per op) only for the ops marked. What
// implied reads of q is settled by then: q's posting vertex when it was
// queued, its match and rendezvous before it completes.
func (r *recorder) Met(q, w int32, start bool, st *loggops.OpState) {
	var cpu uint8 // with one CPU index in the schedule, w's record need not be read
	if r.ncpu > 1 {
		cpu = r.ops[w].CPU
	}
	if !r.implied(q, start, cpu) {
		st.Flags |= flagOwnDeps
	}
}

// depsIn adds the dependency edges of op into v, which runs on CPU index
// cpu, leaving out those that CPU order implies.
func (r *recorder) depsIn(v int32, op int32, cpu uint8) {
	if r.op[op].Flags&flagOwnDeps == 0 && !r.walkAll {
		return // CPU order implies all of them
	}
	for _, q := range r.s.Preds(int(op)) {
		start := q < 0
		if start {
			q = -1 - q
		}
		if r.implied(q, start, cpu) {
			continue
		}
		switch r.ops[q].Kind {
		case traceformat.OpCalc:
			r.edge(ref{v: r.op[q].V}, v, 0, 0)
		case traceformat.OpSend:
			if !start && r.op[q].Flags&flagRendezvous != 0 {
				r.edge(ref{v: r.sd[q]}, v, 0, 0)
			} else {
				r.edge(ref{v: r.op[q].V}, v, 0, 0)
			}
		case traceformat.OpRecv:
			r.edge(ref{v: r.op[q].Aux}, v, 0, 0)
			if !start {
				r.edge(ref{v: r.op[q].V}, v, 0, 0)
			}
		}
	}
}
