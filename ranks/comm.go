package ranks

import (
	"fmt"
	"sort"
)

// AnySource and AnyTag are the receive wildcards (MPI_ANY_SOURCE,
// MPI_ANY_TAG). AnyTag matches only tags ≥ 0: negative tags are reserved
// for the collectives.
const AnySource, AnyTag = -1, -1

// Undefined is MPI_UNDEFINED: a Split color that puts the rank in no
// communicator (Split then returns nil). Any negative color does the same.
const Undefined = -32766

// commCtx is what the members of one communicator share.
type commCtx struct {
	id      int32    // unique in the World; 0 is the world communicator
	size    int32    // number of members
	members []int32  // comm rank → world rank; nil means the identity (world)
	prog    *program // the last Uncontended program played on it, compiled
}

// Comm is one rank's view of a communicator.
type Comm struct {
	r        *Rank
	ctx      *commCtx
	rank     int   // this rank's number in the communicator
	splitSeq int32 // Splits called so far on this communicator
	uncSeq   int32 // Uncontended calls so far on this communicator
}

// Rank returns the calling rank's number in the communicator.
func (c *Comm) Rank() int { return c.rank }

// Size returns the number of ranks in the communicator.
func (c *Comm) Size() int { return int(c.ctx.size) }

// WorldRank translates a rank of the communicator into a world rank.
func (c *Comm) WorldRank(rank int) int {
	if c.ctx.members == nil {
		return rank
	}
	return int(c.ctx.members[rank])
}

// checkRank panics (programmer misuse, reported as the rank's panic) when
// rank is not a member of c.
// The panic's message is built out of line (badRank), so that the check
// is a compare and a branch.
func (c *Comm) checkRank(call string, rank int) {
	if uint(rank) >= uint(c.ctx.size) {
		c.badRank(call, rank)
	}
}

// badRank panics for checkRank. Never inlined: default.pgo inlined it
// into checkRank, whose cost then passed the inliner's budget, and the
// check was a call at the sends' and receives' hot sites.
//
//go:noinline
func (c *Comm) badRank(call string, rank int) {
	panic(fmt.Sprintf("ranks: %s to rank %d of a communicator of size %d", call, rank, c.ctx.size))
}

type splitKey struct{ comm, seq int32 }

// splitRound gathers the (color, key) of every member of one Split call.
type splitRound struct {
	colors, keys []int
	arrived      int
	out          []*Comm // comm rank in the parent → new communicator (nil for Undefined)
}

// Split partitions the communicator like MPI_Comm_split: ranks that give
// the same color form a new communicator, ordered by key then by their rank
// here; a negative color (Undefined) gives nil. Every member must call it.
// It costs no simulated time, except under Config.WakeOrder = WakeSimGrid, where it
// exchanges SMPI's messages (splitSMPI).
func (c *Comm) Split(color, key int) *Comm {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Comm_split"))
	w := c.r.w
	k := splitKey{c.ctx.id, c.splitSeq}
	c.splitSeq++
	round := w.splits[k]
	if round == nil {
		n := int(c.ctx.size)
		round = &splitRound{colors: make([]int, n), keys: make([]int, n)}
		w.splits[k] = round
	}
	round.colors[c.rank], round.keys[c.rank] = color, key
	round.arrived++
	if w.simgrid {
		return c.splitSMPI(k, round)
	}
	if round.arrived < int(c.ctx.size) {
		for round.out == nil {
			c.r.block("Split", noPeer, 0)
		}
		return round.out[c.rank]
	}
	delete(w.splits, k)
	round.out = w.split(c, round)
	for i := 0; i < int(c.ctx.size); i++ {
		if i != c.rank {
			w.wakeUp(w.ranks[c.WorldRank(i)])
		}
	}
	return round.out[c.rank]
}

// split builds the new communicators of a complete round, in ascending
// color order so that their ids are deterministic.
func (w *World) split(parent *Comm, round *splitRound) []*Comm {
	n := len(round.colors)
	order := make([]int, 0, n)
	for i := 0; i < n; i++ {
		if round.colors[i] >= 0 {
			order = append(order, i)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		ia, ib := order[a], order[b]
		if round.colors[ia] != round.colors[ib] {
			return round.colors[ia] < round.colors[ib]
		}
		return round.keys[ia] < round.keys[ib] // stable: ties keep parent rank order
	})
	out := make([]*Comm, n)
	for start := 0; start < len(order); {
		end := start
		for end < len(order) && round.colors[order[end]] == round.colors[order[start]] {
			end++
		}
		w.commSeq++
		ctx := &commCtx{id: w.commSeq, size: int32(end - start), members: make([]int32, end-start)}
		for i, p := range order[start:end] {
			wr := parent.WorldRank(p)
			ctx.members[i] = int32(wr)
			out[p] = &Comm{r: w.ranks[wr], ctx: ctx, rank: i}
		}
		start = end
	}
	return out
}

// Sizes of SMPI's split messages: a (color, key) pair of ints, and the
// group handle (MPI_PTR) rank 0 sends back.
const (
	splitPairBytes  = 8
	splitGroupBytes = 8
	commIDBytes     = 4 // the new communicator's id, one int
)

// splitSMPI is MPI_Comm_split as SMPI 3.32 performs it (smpi_comm.cpp),
// message for message, so that a run under SimGrid's order starts its
// timed part at SMPI's very instants: rank 0 gathers every (color, key)
// (a linear gather: one receive posted per rank, in rank order); then,
// for each color in the order of its lowest member, it sends the group to
// the other members, ordered by key, and waits for those sends before the
// next color; a member takes its group from rank 0; and each new
// communicator broadcasts its id from its rank 0 (the Comm constructor).
// Ranks giving Undefined leave after the gather.
func (c *Comm) splitSMPI(k splitKey, round *splitRound) *Comm {
	w := c.r.w
	p := int(c.ctx.size)
	if c.rank != 0 {
		Waitall(c.isend(0, tagSplit, Msg{Bytes: splitPairBytes}, false))
		if round.colors[c.rank] < 0 {
			return nil
		}
		c.recv(0, tagSplit)
	} else {
		reqs := make([]*Request, 0, p-1)
		for src := 1; src < p; src++ {
			reqs = append(reqs, c.irecv(src, tagSplit))
		}
		Waitall(reqs...)
		delete(w.splits, k)
		round.out = w.split(c, round)
		done := make([]bool, p)
		for i := 0; i < p; i++ {
			if done[i] || round.colors[i] < 0 {
				continue
			}
			group := round.out[i]
			reqs = reqs[:0]
			for _, wr := range group.ctx.members {
				j := c.rankOfWorld(int(wr))
				done[j] = true
				if j != 0 {
					reqs = append(reqs, c.isend(j, tagSplit, Msg{Bytes: splitGroupBytes}, false))
				}
			}
			Waitall(reqs...)
		}
	}
	out := round.out[c.rank]
	if out != nil {
		out.Bcast(0, Msg{Bytes: commIDBytes})
	}
	return out
}

// rankOfWorld returns the rank in c of world rank wr (which must be a member).
func (c *Comm) rankOfWorld(wr int) int {
	if c.ctx.members == nil {
		return wr
	}
	for i, m := range c.ctx.members {
		if int(m) == wr {
			return i
		}
	}
	panic(fmt.Sprintf("ranks: world rank %d is not in the communicator", wr))
}
