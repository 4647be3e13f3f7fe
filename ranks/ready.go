package ranks

import "math/bits"

// readyQueue holds the ranks ready to run. In rank order (the default) it
// is a set of rank ids that hands back the lowest; byArrival it is a queue
// in the order ranks became ready (SimGrid's order). Both are
// deterministic. byRankNoted is rank order while a probe is dormant
// (dormant.go): each pop is noted (World.noteRun), out of line, past the
// fifo's empty ring, so that neither order's pops test anything more.
//
// The set holds the ids themselves, not *Rank: finding the lowest then
// reads a few words of one bitmap instead of chasing a pointer into each
// Rank (with 1,024 ranks those cache misses were 13% of a ring message's
// cost), and a push or a pop touches a word per level (two up to 4,096
// ranks) where a heap sifted through about log₂ n entries.
type readyQueue struct {
	order readyOrder
	ranks []*Rank // Rank.gid → rank, to hand back what pop takes out
	byID  idSet   // rank order: the gids of the ready ranks
	noted *World  // byRankNoted: the World whose pops are noted
	// fifo: a ring whose length is a power of two (or 0), holding the
	// ids pushed and not yet popped, oldest first, from ids[head&mask]
	// on; head and tail count the pops and the pushes. A ring pushes and
	// pops with a masked index where a slice appended and, never drained
	// for long, slid its live part down.
	ids        []int32
	head, tail uint
}

// readyOrder is the order in which a readyQueue hands its ranks back.
type readyOrder uint8

const (
	byRank      readyOrder = iota // lowest rank first
	byArrival                     // first ready first (fifo)
	byRankNoted                   // byRank, each pop noted
)

func (q *readyQueue) empty() bool { return q.byID.n == 0 && q.head == q.tail }

func (q *readyQueue) push(r *Rank) {
	id := r.gid
	if q.order != byArrival {
		q.byID.add(id)
		return
	}
	if q.tail-q.head == uint(len(q.ids)) {
		q.grow()
	}
	q.ids[q.tail&uint(len(q.ids)-1)] = id
	q.tail++
}

// grow doubles the fifo's ring (64 ids at first), keeping its ids in order.
func (q *readyQueue) grow() {
	ids := make([]int32, max(64, 2*len(q.ids)))
	n := uint(0)
	for i := q.head; i != q.tail; i++ {
		ids[n] = q.ids[i&uint(len(q.ids)-1)]
		n++
	}
	q.ids, q.head, q.tail = ids, 0, n
}

func (q *readyQueue) pop() *Rank {
	if q.order == byRank {
		if q.byID.n == 0 {
			return nil
		}
		return q.ranks[q.byID.popMin()]
	}
	for q.head != q.tail {
		id := q.ids[q.head&uint(len(q.ids)-1)]
		q.head++
		r := q.ranks[id]
		if r.waitOn != turnStep || r.owed <= 0 || q.head == q.tail {
			return r
		}
		// r's task gave its turn up (turnStep) and owes another while
		// another rank is ready: its step, called again, would only
		// queue r once more (Rank.taskTurn). r goes back to the end at
		// once, into the room its pop made: the turn without the step.
		r.owed--
		q.ids[q.tail&uint(len(q.ids)-1)] = id
		q.tail++
	}
	if q.order == byRankNoted { // its ring is empty: pushes went to byID
		return q.popNoted()
	}
	return nil
}

// idSet is a set of non-negative ids that yields its least member: a bit
// per id (levels[0]) and, above it, a bit per word of the level below that
// has a bit set, up to a level of one word. Adding an id it holds already
// changes nothing (a ready rank is queued once: wakeUp's state check).
type idSet struct {
	levels [][]uint64
	n      int // members
	// With two levels (up to 4,096 ids: a Dahu run's 1,024 ranks), leaf
	// is levels[0] and top levels[1][0], so that add and popMin read
	// neither through levels; leaf is nil otherwise.
	leaf []uint64
	top  *uint64
}

// add puts id in the set.
func (s *idSet) add(id int32) {
	i := int(id)
	if i>>6 < len(s.leaf) {
		// Two levels: the leaf's bit, and the top's when the leaf's word
		// was empty.
		w := &s.leaf[i>>6]
		was := *w
		if *w = was | 1<<(i&63); *w == was {
			return // already in
		}
		s.n++
		if was == 0 {
			*s.top |= 1 << (i >> 6)
		}
		return
	}
	if len(s.levels) == 0 || i>>6 >= len(s.levels[0]) {
		s.grow(i)
	}
	for l, words := range s.levels {
		w := &words[i>>6]
		was := *w
		*w = was | 1<<(i&63)
		if l == 0 {
			if was == *w {
				return // already in
			}
			s.n++
		}
		if was != 0 {
			return // the levels above already mark this word
		}
		i >>= 6
	}
}

// popMin takes the least id out of the set, which must not be empty.
func (s *idSet) popMin() int32 {
	if top := s.top; top != nil {
		// Two levels: the word of the leaf, then the bit, without the
		// general loops.
		i := bits.TrailingZeros64(*top)
		w := &s.leaf[i&63]
		b := bits.TrailingZeros64(*w)
		if *w &^= 1 << b; *w == 0 {
			*top &^= 1 << i
		}
		s.n--
		return int32(i<<6 | b)
	}
	i := 0
	for l := len(s.levels) - 1; l >= 0; l-- {
		i = i<<6 | bits.TrailingZeros64(s.levels[l][i])
	}
	id := i
	for _, words := range s.levels {
		w := &words[i>>6]
		*w &^= 1 << (i & 63)
		if *w != 0 {
			break
		}
		i >>= 6
	}
	s.n--
	return int32(id)
}

// grow makes room for ids up to at least id, keeping the members.
func (s *idSet) grow(id int) {
	var old []uint64
	if len(s.levels) > 0 {
		old = s.levels[0]
	}
	words := max((id>>6)+1, 2*len(old))
	s.levels = s.levels[:0]
	leaf := make([]uint64, words)
	copy(leaf, old)
	s.levels = append(s.levels, leaf)
	for below := leaf; len(below) > 1; {
		up := make([]uint64, (len(below)+63)>>6)
		for j, w := range below {
			if w != 0 {
				up[j>>6] |= 1 << (j & 63)
			}
		}
		s.levels = append(s.levels, up)
		below = up
	}
	s.leaf, s.top = nil, nil
	if len(s.levels) == 2 {
		s.leaf, s.top = s.levels[0], &s.levels[1][0]
	}
}

// readyOrderOf is byRank in rank order, else byArrival.
func readyOrderOf(rankOrder bool) readyOrder {
	if rankOrder {
		return byRank
	}
	return byArrival
}

// popNoted pops the lowest ready rank and notes it runs (World.noteRun);
// or, none being ready, notes that they ran out (World.wakeDormantsBefore).
//
//go:noinline
func (q *readyQueue) popNoted() *Rank {
	if q.byID.n == 0 {
		q.noted.wakeDormantsBefore()
		return nil
	}
	r := q.ranks[q.byID.popMin()]
	q.noted.noteRun(q.noted.eng.Now(), r.gid)
	return r
}
