package replay

import (
	"errors"
	"fmt"
	"math"

	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// Config says how Run turns a trace's work into time.
type Config struct {
	// Speed is the hosts' speed, flop/s: a TI compute of f flops (and a
	// reduction's f flops) lasts f / Speed seconds. Must be > 0.
	Speed float64
	// RankSpeeds, when not nil, is each rank's host's speed, flop/s (a
	// platform whose hosts differ): it replaces Speed rank by rank.
	RankSpeeds []float64
	// RankFactors, when not nil, is each rank's host's speed factor
	// (kernels.host_speed, host_spread: node variability as a what-if): a
	// GOAL calc of d ns lasts d / factor. A TI compute's is in RankSpeeds.
	RankFactors []float64
}

// Result is a replay's outcome; its JSON names are the scenario contract.
type Result struct {
	File   string  `json:"file"`
	Format string  `json:"format"`
	Ranks  int     `json:"ranks"`
	Events int     `json:"events"` // operations replayed (Trace.Events)
	Time   float64 `json:"time_s"` // from the ranks' start to the last rank's end, s
}

// Run replays t on w, one trace rank per world rank. A schedule that
// cannot complete is a *DeadlockError naming each blocked rank and the
// trace line it is at; a message that no receive took (or a receive that
// no message matched) is an *UnmatchedError.
func Run(w *ranks.World, t *traceformat.Trace, cfg Config) (*Result, error) {
	if w.Size() != t.Ranks() {
		return nil, fmt.Errorf("replay: %s has %d ranks, the world %d", t.Name, t.Ranks(), w.Size())
	}
	if !(cfg.Speed > 0) {
		return nil, fmt.Errorf("replay: host speed %g flop/s, want > 0", cfg.Speed)
	}
	if cfg.RankSpeeds != nil && len(cfg.RankSpeeds) != t.Ranks() {
		return nil, fmt.Errorf("replay: %d rank speeds for %d ranks", len(cfg.RankSpeeds), t.Ranks())
	}
	for r, v := range cfg.RankSpeeds {
		if !(v > 0) {
			return nil, fmt.Errorf("replay: rank %d's host speed %g flop/s, want > 0", r, v)
		}
	}
	if cfg.RankFactors != nil && len(cfg.RankFactors) != t.Ranks() {
		return nil, fmt.Errorf("replay: %d rank speed factors for %d ranks", len(cfg.RankFactors), t.Ranks())
	}
	for r, v := range cfg.RankFactors {
		if !(v > 0) || math.IsInf(v, 1) {
			return nil, fmt.Errorf("replay: rank %d's host speed factor %g, want a finite factor > 0", r, v)
		}
	}
	x := &exec{t: t, speed: cfg.Speed, speeds: cfg.RankSpeeds, factors: cfg.RankFactors}
	var main func(r *ranks.Rank)
	if t.GOAL != nil {
		x.goal = make([]*goalRank, t.Ranks())
		x.at = make([]int32, t.Ranks())
		main = x.runGOAL
	} else {
		x.parts = make([][]ranks.Msg, t.Ranks())
		x.waitReqs = make([][]*ranks.Request, t.Ranks())
		x.cur = make([]*traceformat.TIAction, t.Ranks())
		x.ending = make([]bool, t.Ranks())
		x.recv = make([]*traceformat.TIAction, t.Ranks())
		main = x.runTI
		if err := x.tooLong(); err != nil {
			return nil, err
		}
	}
	// The ranks start together: at 0, or at their job's start among
	// [[jobs]]; the replay's time runs from there to its own last rank's
	// end, not to the engine's time when the other jobs are done.
	start := math.NaN()
	body := main
	main = func(r *ranks.Rank) {
		if math.IsNaN(start) {
			start = r.Now()
		}
		body(r)
	}
	err := w.Run(main)
	var dl *ranks.DeadlockError
	if errors.As(err, &dl) {
		return nil, x.deadlock(dl)
	}
	var te *ranks.TruncateError
	if errors.As(err, &te) && x.recv != nil {
		return nil, x.truncated(te)
	}
	if err != nil {
		return nil, fmt.Errorf("replaying %s: %w", t.Name, err)
	}
	if left := w.Unmatched(); len(left) > 0 {
		return nil, x.unmatched(left)
	}
	return &Result{File: t.Name, Format: t.Format.String(), Ranks: t.Ranks(), Events: t.Events(), Time: w.End() - start}, nil
}

// exec is one replay's state, shared by the rank goroutines (one runs at a
// time, ranks' rule).
type exec struct {
	t      *traceformat.Trace
	speed  float64
	speeds []float64 // per rank, when hosts differ (Config.RankSpeeds)
	// factors: per rank, when hosts have speed factors (Config.RankFactors)
	factors []float64
	// What the deadlock report names: cur[r], the TI action rank r is at
	// (nil once it finished); for GOAL, at[r], the calc it runs, or −2
	// while it waits for the ops it posted (goal[r].ops).
	cur    []*traceformat.TIAction
	ending []bool // ending[r]: rank r waits for what its trace left (waitLeft)
	// recv[r] is the TI recv or irecv whose completion rank r observes
	// last (what a truncation names, TruncateError).
	recv     []*traceformat.TIAction
	at       []int32
	parts    [][]ranks.Msg      // per rank: the scratch message list of alltoall and scatter
	waitReqs [][]*ranks.Request // per rank: waitall's scratch request list
	goal     []*goalRank        // per rank: the GOAL executor's state
}

// compute runs flops at the host's speed as SMPI's replayer does, an
// execution (smpi_execute_flops): on a host whose cores the ranks
// outnumber (ranks.World.SetCPUs) it shares them; elsewhere it lasts
// flops / speed.
func (x *exec) compute(r *ranks.Rank, flops float64) {
	if flops > 0 {
		speed := x.speed
		if x.speeds != nil {
			speed = x.speeds[r.ID()]
		}
		r.Execute(flops, speed, "compute")
	}
}

// pendingReq is a TI isend or irecv waiting for its wait, keyed as
// SimGrid's replayer keys them: (source, destination, tag).
type pendingReq struct {
	src, dst, tag int32
	q             *ranks.Request
	a             *traceformat.TIAction // the isend or irecv
}

// runTI executes rank r's TI actions in order.
func (x *exec) runTI(r *ranks.Rank) {
	me := r.ID()
	ti := x.t.TI
	var reqs []pendingReq
	for _, chunk := range ti.Chunks(me) {
		for i := range chunk {
			reqs = x.do(r, &chunk[i], reqs)
		}
	}
	x.ending[me] = true
	x.waitLeft(me, reqs)
	x.cur[me] = nil
}

// waitLeft ends a rank's trace as SimGrid's replayer does
// (smpi_replay_main): one MPI waitall on the requests no wait or waitall
// took — those of an MPI_Waitsome or an MPI_Request_free, which SMPI's
// tracer does not write — but, of each (src, dst, tag) key, only the newest
// (SimGrid 3.32 keeps one per key). Under SimGrid's wake order the waitall
// takes them as they complete, each detached receive paying its receive
// overhead then (smpi/or), not after the ones listed before it; in rank
// order it waits for them newest first. The rank ends when they complete.
func (x *exec) waitLeft(me int, reqs []pendingReq) {
	type key struct{ src, dst, tag int32 }
	var newer map[key]bool
	var left []pendingReq
	for i := len(reqs) - 1; i >= 0; i-- {
		p := reqs[i]
		k := key{p.src, p.dst, p.tag}
		if !newer[k] {
			if newer == nil {
				newer = make(map[key]bool, i+1)
			}
			newer[k] = true
			if p.q != nil { // a test's placeholder is done
				left = append(left, p)
			}
		}
	}
	if len(left) == 0 {
		return
	}
	qs := make([]*ranks.Request, len(left))
	for i, p := range left {
		qs[i] = p.q
	}
	x.cur[me], x.recv[me] = left[0].a, left[0].a // what a deadlock or a truncation names
	ranks.WaitallFunc(qs, func(i int) { x.cur[me], x.recv[me] = left[i].a, left[i].a })
	for _, q := range qs {
		q.Free()
	}
}

// do executes action a of rank r; reqs are its pending requests.
func (x *exec) do(r *ranks.Rank, a *traceformat.TIAction, reqs []pendingReq) []pendingReq {
	me := r.ID()
	c := r.World()
	x.cur[me] = a
	peer, tag := int(a.Peer), int(a.Tag)
	msg := ranks.Msg{Bytes: int(a.Bytes)}
	switch a.Kind {
	case traceformat.TISend:
		c.Send(peer, tag, msg)
	case traceformat.TIIsend:
		reqs = append(reqs, pendingReq{int32(me), a.Peer, a.Tag, c.Isend(peer, tag, msg), a})
	case traceformat.TIRecv:
		// The receive's count bounds it (MPI_ERR_TRUNCATE, as in SMPI).
		x.recv[me] = a
		c.RecvUpTo(peer, tag, int(a.Bytes))
	case traceformat.TIIrecv:
		reqs = append(reqs, pendingReq{a.Peer, int32(me), a.Tag, c.IrecvUpTo(peer, tag, int(a.Bytes)), a})
	case traceformat.TISendrecv:
		x.recv[me] = a
		c.SendrecvUpTo(peer, 0, msg, int(a.Peer2), 0, int(a.RecvBytes()))
	case traceformat.TIWait, traceformat.TITest:
		reqs = x.waitOne(me, reqs, *a)
	case traceformat.TIWaitall:
		x.waitall(me, reqs)
		reqs = reqs[:0]
	case traceformat.TIBarrier:
		c.Barrier()
	case traceformat.TIBcast:
		c.Bcast(peer, msg)
	case traceformat.TIReduce:
		c.Reduce(peer, msg, ranks.Sum)
		x.compute(r, a.Flops)
	case traceformat.TIAllreduce:
		c.AllreduceElem(msg, ranks.Sum, max(int(a.Tag), 1)) // the element size (traceformat; 0: no bytes)
		x.compute(r, a.Flops)
	case traceformat.TIScan:
		c.Scan(msg, ranks.Sum)
		x.compute(r, a.Flops)
	case traceformat.TIExscan:
		c.Exscan(msg, ranks.Sum)
		x.compute(r, a.Flops)
	case traceformat.TIAlltoall:
		c.Alltoall(x.sizes(me, *a, -1))
	case traceformat.TIAlltoallv:
		c.Alltoallv(x.sizes(me, *a, -1))
	case traceformat.TIGather:
		c.Gather(peer, msg)
	case traceformat.TIGatherv:
		c.Gatherv(peer, msg)
	case traceformat.TIScatter:
		// every rank's parts: Open MPI's decision (the ompi set) reads
		// each rank's own count
		c.Scatter(peer, x.sizes(me, *a, -1))
	case traceformat.TIScatterv:
		c.Scatterv(peer, x.sizes(me, *a, peer))
	case traceformat.TIAllgather:
		c.Allgather(msg)
	case traceformat.TIAllgatherv:
		// SMPI's replayer gives every block displacement 0
		c.Allgatherv(msg, x.counts(*a), make([]int, x.t.Ranks()))
	case traceformat.TIReducescatter:
		// SMPI's default (ranks.Comm.ReduceScatter): equal counts reduce
		// to rank 0 then scatter, unequal ones take MPICH's algorithms.
		c.ReduceScatter(x.sizes(me, *a, -1), ranks.Sum, int(a.Tag))
		x.compute(r, a.Flops)
	case traceformat.TICompute:
		x.compute(r, a.Flops)
	case traceformat.TISleep:
		r.Sleep(a.Flops)
	}
	return reqs
}

// waitall runs a TI waitall as SimGrid's replayer does (WaitAllAction):
// one MPI waitall on every pending request (ranks.WaitallFunc), which
// under SimGrid's wake order takes them in the order they complete; then
// it gives them back. SimGrid lists them in its hash map's order, emu in
// the order they were posted: the two differ only in which of several
// requests complete at one instant is taken first.
func (x *exec) waitall(me int, reqs []pendingReq) {
	qs := x.waitReqs[me][:0]
	for _, p := range reqs {
		qs = append(qs, p.q) // a test's placeholder is nil: skipped
	}
	ranks.WaitallFunc(qs, func(i int) { x.recv[me] = reqs[i].a })
	for i, q := range qs {
		if q != nil {
			q.Free()
		}
		qs[i] = nil
	}
	x.waitReqs[me] = qs
}

// waitOne runs a wait or a test on the requests of its (src, dst, tag) key
// as SimGrid's replayer keeps them (RequestStorage: one FIFO list per key,
// here the order of reqs among the key's entries): it pops the key's
// oldest entry. A wait waits for it. A test tests it and pushes it back at
// the end of the key's list — itself if it failed, a done placeholder (q
// nil, SimGrid's MPI_REQUEST_NULL) if it succeeded, which the key's next
// wait or test pops at no cost, even when a newer request of the key is
// pending behind it (a loop that posts the same key again). A wait or test
// of a key with nothing pending returns at once.
func (x *exec) waitOne(me int, reqs []pendingReq, a traceformat.TIAction) []pendingReq {
	for i, p := range reqs {
		if p.src != a.Peer || p.dst != a.Peer2 || p.tag != a.Tag {
			continue
		}
		reqs = append(reqs[:i], reqs[i+1:]...)
		x.recv[me] = p.a
		switch {
		case p.q == nil: // a test's placeholder
		case a.Kind == traceformat.TITest:
			if ok, _, _ := p.q.Test(); ok {
				p.q.Free()
				p.q = nil
			}
			reqs = append(reqs, p)
		default:
			p.q.Wait()
			p.q.Free()
		}
		return reqs
	}
	return reqs
}

// sizes returns the per-rank messages of an alltoall(v), a scatter(v) or
// a reducescatter in the rank's scratch list: every part a.a bytes, or
// the v-collective's counts. A scatter's parts matter at its root only
// (root ≥ 0: other ranks get nil).
func (x *exec) sizes(me int, a traceformat.TIAction, root int) []ranks.Msg {
	if root >= 0 && me != root {
		return nil
	}
	n := x.t.Ranks()
	if x.parts[me] == nil {
		x.parts[me] = make([]ranks.Msg, n)
	}
	parts := x.parts[me]
	switch a.Kind {
	case traceformat.TIAlltoallv, traceformat.TIScatterv, traceformat.TIReducescatter:
		for i, b := range x.t.TI.Counts(&a) {
			parts[i] = ranks.Msg{Bytes: int(b)}
		}
	default:
		for i := range parts {
			parts[i] = ranks.Msg{Bytes: int(a.Bytes)}
		}
	}
	return parts
}

// counts are an allgatherv's receive counts, bytes, as ints: every
// rank's block, which SMPI's ompi decision and its ring read.
func (x *exec) counts(a traceformat.TIAction) []int {
	rc := x.t.TI.RecvCounts(&a)
	out := make([]int, len(rc))
	for i, b := range rc {
		out[i] = int(b)
	}
	return out
}
