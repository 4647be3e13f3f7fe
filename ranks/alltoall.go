package ranks

// SMPI's alltoall algorithms (SimGrid 3.32's src/smpi/colls/alltoall and
// smpi_openmpi_selector.cpp, read for what they send, when, in which
// order): basic_linear, pair, Bruck's, the non-blocking ialltoallv, and the
// decision by which SMPI's default selector picks among them.

// algoPair is SMPI's alltoall__pair: at step i a Sendrecv with rank^i. It
// is reached through AlgoOMPI only (SMPI's decision picks it).
const algoPair = "pair"

// ompiAlltoall is SMPI's alltoall__ompi decision for p ranks and blocks of
// block bytes (Open MPI's tuned thresholds): each row lists, for
// communicators of fewer than below ranks (two ranks have their own row),
// the algorithm of blocks under each size bound and, past the last bound,
// the algorithm of larger ones.
// Its "linear_sync" and "two_proc" are basic_linear in SMPI.
func ompiAlltoall(p, block int) string {
	const lin, pair, bruck = AlgoLinear, algoPair, AlgoBruck
	type step struct {
		under int // block size bound, bytes
		algo  string
	}
	type row struct {
		below int
		steps []step
		above string
	}
	two := row{3, []step{{2, pair}, {4, lin}, {16, pair}, {64, lin}, {256, pair}, {4096, lin}, {32768, pair}, {262144, lin}, {1048576, lin}}, pair}
	rows := []row{
		{8, []step{{8192, lin}, {16384, lin}, {65536, lin}, {524288, lin}, {1048576, pair}}, lin},
		{16, []step{{262144, lin}}, lin},
		{32, []step{{4, lin}, {512, bruck}, {8192, lin}, {32768, lin}, {262144, lin}, {524288, lin}}, lin},
		{64, []step{{512, bruck}, {524288, lin}}, lin},
		{128, []step{{1024, bruck}, {2048, lin}, {4096, lin}, {262144, lin}}, pair},
		{256, []step{{1024, bruck}, {2048, lin}, {262144, lin}}, pair},
		{512, []step{{1024, bruck}, {8192, lin}, {32768, lin}}, pair},
		{1024, []step{{512, bruck}, {8192, lin}, {16384, lin}, {131072, lin}, {262144, lin}}, pair},
		{2048, []step{{512, bruck}, {1024, lin}, {2048, lin}, {16384, lin}, {262144, lin}}, lin},
		{4096, []step{{1024, bruck}, {4096, lin}, {8192, lin}, {131072, lin}}, lin},
	}
	if p == 2 {
		rows = []row{two}
	}
	algo := AlgoLinear
	for _, r := range rows {
		if p < r.below {
			algo = r.above
			for _, s := range r.steps {
				if block < s.under {
					algo = s.algo
					break
				}
			}
			return pairOrPairwise(algo, p)
		}
	}
	if block < 2048 { // 4096 ranks and more
		algo = bruck
	}
	return algo
}

// pairOrPairwise: SMPI's pair algorithm needs a power of two of ranks
// (SMPI stops the run otherwise); emu runs its modular pairwise instead.
func pairOrPairwise(algo string, p int) string {
	if algo == algoPair && p&(p-1) != 0 {
		return AlgoPairwise
	}
	return algo
}

// alltoallLinear is SMPI's alltoall__basic_linear: an irecv from each
// other rank from rank+1 upwards, an isend to each from rank−1 downwards,
// then each request in the order they complete (SMPI's waitall is a loop
// of waitany).
func (c *Comm) alltoallLinear(parts, out []Msg) {
	p, me := c.Size(), c.rank
	reqs := make([]*Request, 0, 2*(p-1))
	from := make([]int, 0, p-1)
	for i := (me + 1) % p; i != me; i = (i + 1) % p {
		reqs = append(reqs, c.irecv(i, tagAlltoall))
		from = append(from, i)
	}
	for i := (me + p - 1) % p; i != me; i = (i + p - 1) % p {
		reqs = append(reqs, c.isend(i, tagAlltoall, parts[i], false))
	}
	c.waitAllAny(reqs, from, out)
}

// alltoallNBC is SMPI's ialltoallv, waited for: an irecv from each other
// rank in rank order, then an isend to each, then each in the order they
// complete.
func (c *Comm) alltoallNBC(parts, out []Msg) {
	p, me := c.Size(), c.rank
	reqs := make([]*Request, 0, 2*(p-1))
	from := make([]int, 0, p-1)
	for i := 0; i < p; i++ {
		if i != me {
			reqs = append(reqs, c.irecv(i, tagAlltoall))
			from = append(from, i)
		}
	}
	for i := 0; i < p; i++ {
		if i != me {
			reqs = append(reqs, c.isend(i, tagAlltoall, parts[i], false))
		}
	}
	c.waitAllAny(reqs, from, out)
}

// waitAllAny waits for reqs in completion order (SMPI's waitall); the
// first len(from) are receives, whose message goes to out[from[k]].
func (c *Comm) waitAllAny(reqs []*Request, from []int, out []Msg) {
	for {
		k, m, _ := Waitany(reqs)
		if k < 0 {
			return
		}
		if k < len(from) {
			out[from[k]] = m
		}
	}
}

// alltoallPair is SMPI's alltoall__pair: at step i a Sendrecv with rank^i
// (step 0, with itself, is a local copy in SMPI and costs nothing).
func (c *Comm) alltoallPair(parts, out []Msg) {
	p, me := c.Size(), c.rank
	for i := 1; i < p; i++ {
		peer := me ^ i
		out[peer] = c.smpiSendrecv(peer, tagAlltoall, parts[peer], peer, tagAlltoall)
	}
}

// alltoallBruck is SMPI's alltoall__bruck: the blocks rotated so that
// block i goes to rank+i, then in the round of each power of two k < p a
// Sendrecv of every block whose index has bit k, to rank+k from rank−k,
// packed in one message; then rotated back. Its copies to itself are local
// (SMPI's Sendrecv with itself copies), so they cost nothing.
func (c *Comm) alltoallBruck(parts, out []Msg) {
	p, me := c.Size(), c.rank
	blk := make([]Msg, p)
	for i := range blk {
		blk[i] = parts[(me+i)%p]
		blk[i].Bytes = blk[i].size()
	}
	for k := 1; k < p; k <<= 1 {
		sel := make([]Msg, 0, p/2+1) // the receiver keeps it: one per round
		for b := 1; b < p; b++ {
			if b&k != 0 {
				sel = append(sel, blk[b])
			}
		}
		x := c.smpiSendrecv((me+k)%p, tagAlltoall, packed(sel), (me-k+p)%p, tagAlltoall)
		j := 0
		for b := 1; b < p; b++ {
			if b&k != 0 {
				blk[b] = x.parts[j]
				j++
			}
		}
	}
	for i := range blk {
		out[(me-i+p)%p] = blk[i]
	}
}
