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
	id      int32   // unique in the World; 0 is the world communicator
	size    int32   // number of members
	members []int32 // comm rank → world rank; nil means the identity (world)
}

// Comm is one rank's view of a communicator.
type Comm struct {
	r        *Rank
	ctx      *commCtx
	rank     int   // this rank's number in the communicator
	splitSeq int32 // Splits called so far on this communicator
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
func (c *Comm) checkRank(call string, rank int) {
	if rank < 0 || rank >= int(c.ctx.size) {
		panic(fmt.Sprintf("ranks: %s to rank %d of a communicator of size %d", call, rank, c.ctx.size))
	}
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
// It costs no simulated time (SMPI charges the exchange of the colors; emu
// does not, a known small difference at start-up).
func (c *Comm) Split(color, key int) *Comm {
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
