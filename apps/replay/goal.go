package replay

import (
	"fmt"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// nsPerSecond converts GOAL's calc durations (ns, Schedgen's convention).
const nsPerSecond = 1e9

// checkGOAL refuses what has no MPI meaning: a send with tag -1 (GOAL's
// "any tag", which matches any receive in LogGOPSim).
func checkGOAL(s *traceformat.Schedule) error {
	for i := 0; i < s.NumOps(); i++ {
		if op := s.Op(i); op.Kind == traceformat.OpSend && op.Tag == traceformat.AnyTag {
			return fmt.Errorf("%s:%d: a send with tag -1 (any tag) has no MPI equivalent; give it a tag", s.Name, op.Line)
		}
	}
	return nil
}

// Load reads the trace at path in format f (traceformat.Load) and refuses
// what an MPI replay cannot run: a GOAL send with tag -1 (checkGOAL). Both
// semantics replay what Load returns.
func Load(path string, f traceformat.Format) (*traceformat.Trace, error) {
	t, err := traceformat.Load(path, f)
	if err != nil {
		return nil, err
	}
	if t.GOAL != nil {
		if err := checkGOAL(t.GOAL); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// goalTag turns a GOAL tag (txt2bin's uint32, held as an int) into an MPI
// tag: -1 stays the wildcard, other values are read unsigned.
func goalTag(tag int) int {
	if tag == traceformat.AnyTag {
		return ranks.AnyTag
	}
	return int(uint32(tag))
}

// goalRank is one rank's GOAL executor: its ops become ready when their
// dependencies allow (requires: the predecessor completed; irequires: it
// started), sends and receives are posted at once, calcs run one at a
// time, and the rank waits for any posted op when nothing else can start.
type goalRank struct {
	first int // global index of the rank's first op
	// pending[i−first] counts op i's dependencies not yet met; once the op
	// is posted it is opPosted, once complete opDone (the deadlock report
	// lists the posted ones).
	pending []int32
	comms   []int32 // ready sends and receives, in the order they became ready (global indices)
	calcs   []int32 // ready calcs, likewise
	posted  *ranks.WaitSet
}

// Marks in goalRank.pending.
const (
	opPosted = -1
	opDone   = -2
)

// runGOAL executes rank r's ops.
func (x *exec) runGOAL(r *ranks.Rank) {
	s := x.t.GOAL
	me := r.ID()
	first, end := s.RankOps(me)
	g := &goalRank{first: first, pending: make([]int32, end-first), posted: r.NewWaitSet()}
	x.goal[me] = g
	for i := first; i < end; i++ {
		for _, w := range s.Requires(i) {
			g.pending[int(w)-first]++
		}
		for _, w := range s.IRequires(i) {
			g.pending[int(w)-first]++
		}
	}
	for i := first; i < end; i++ {
		if g.pending[i-first] == 0 {
			g.ready(s, int32(i))
		}
	}
	c := r.World()
	for left := end - first; left > 0; {
		switch {
		case len(g.comms) > 0:
			g.postReady(c, s)
		case g.posted.Done() > 0:
			// Completions first: their successors may be sends that a calc
			// ready now would hold back (LogGOPSim serves a message before
			// the calc that follows it on the CPU).
			x.complete(g, s)
			left--
		case len(g.calcs) > 0:
			i := g.calcs[0]
			g.calcs = g.calcs[1:]
			// Ops that wait for the calc to start are posted before it runs.
			g.release(s, s.IRequires(int(i)))
			g.postReady(c, s)
			x.at[me] = i
			d := float64(s.Op(int(i)).Size) / nsPerSecond
			if x.factors != nil {
				d /= x.factors[r.ID()]
			}
			r.Compute(d, "calc")
			g.pending[int(i)-first] = opDone
			g.release(s, s.Requires(int(i)))
			left--
		default:
			x.at[me] = -2 // waiting for the ops it posted
			if g.posted.Len() == 0 {
				panic("replay: GOAL rank with ops left and nothing posted") // Parse rejects cycles
			}
			x.complete(g, s)
			left--
		}
	}
	x.at[me] = -1
}

// complete takes the next posted op to complete (waiting for it if none
// has) and releases its successors.
func (x *exec) complete(g *goalRank, s *traceformat.Schedule) {
	q, i, _, _ := g.posted.Next()
	q.Free()
	g.pending[i-g.first] = opDone
	g.release(s, s.Requires(i))
}

// postReady posts every ready send and receive, and those their posting
// makes ready (irequires).
func (g *goalRank) postReady(c *ranks.Comm, s *traceformat.Schedule) {
	for len(g.comms) > 0 {
		i := g.comms[0]
		g.comms = g.comms[1:]
		op := s.Op(int(i))
		var q *ranks.Request
		if op.Kind == traceformat.OpSend {
			q = c.Isend(op.Peer, goalTag(op.Tag), ranks.Msg{Bytes: int(op.Size)})
		} else {
			q = c.Irecv(op.Peer, goalTag(op.Tag))
		}
		g.pending[int(i)-g.first] = opPosted
		g.posted.Add(q, int(i))
		g.release(s, s.IRequires(int(i)))
	}
}

// ready queues op i, whose dependencies are all met.
func (g *goalRank) ready(s *traceformat.Schedule, i int32) {
	if s.Op(int(i)).Kind == traceformat.OpCalc {
		g.calcs = append(g.calcs, i)
	} else {
		g.comms = append(g.comms, i)
	}
}

// release meets one dependency of each successor.
func (g *goalRank) release(s *traceformat.Schedule, succ []int32) {
	for _, w := range succ {
		if g.pending[int(w)-g.first]--; g.pending[int(w)-g.first] == 0 {
			g.ready(s, w)
		}
	}
}
