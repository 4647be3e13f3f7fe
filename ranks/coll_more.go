package ranks

// allreduceRDB is MPICH's recursive doubling: the first 2·rem ranks (rem =
// p − largest power of two ≤ p) fold pairwise into pof2 participants, which
// exchange and combine with partners at distance 1, 2, 4, ...; the folded
// ranks get the result back at the end.
func (c *Comm) allreduceRDB(m Msg, op Op) Msg {
	return c.recursiveDoubling(m, op, func(dst, sendTag int, m Msg, src, recvTag int) Msg {
		x, _ := c.sendrecv(dst, sendTag, m, src, recvTag)
		return x
	})
}

// recursiveDoubling is allreduceRDB's algorithm with the exchange of each
// round given: emu's sendrecv, or SMPI's (allreduceSMPIRDB), whose order of
// posts and waits differs. The folds are blocking in both.
func (c *Comm) recursiveDoubling(m Msg, op Op, exchange func(dst, sendTag int, m Msg, src, recvTag int) Msg) Msg {
	p, me := c.Size(), c.rank
	pof2 := 1
	for pof2*2 <= p {
		pof2 *= 2
	}
	rem := p - pof2
	acc := m
	newRank := me - rem
	if me < 2*rem {
		if me%2 == 0 {
			c.send(me+1, tagAllreduce, acc)
			newRank = -1
		} else {
			acc = combine(op, c.recv(me-1, tagAllreduce), acc)
			newRank = me / 2
		}
	}
	if newRank >= 0 {
		for mask := 1; mask < pof2; mask <<= 1 {
			nd := newRank ^ mask
			dst := nd + rem
			if nd < rem {
				dst = 2*nd + 1
			}
			x := exchange(dst, tagAllreduce, acc, dst, tagAllreduce)
			if dst < me {
				acc = combine(op, x, acc) // keep a fixed operand order on both sides
			} else {
				acc = combine(op, acc, x)
			}
		}
	}
	if me < 2*rem {
		if me%2 == 0 {
			acc = c.recv(me+1, tagAllreduce)
		} else {
			c.send(me-1, tagAllreduce, acc)
		}
	}
	return acc
}

// segments cuts m into p pieces of near-equal element (or byte) counts.
func segments(m Msg, p int) []Msg {
	out := make([]Msg, p)
	n := m.Bytes
	if m.Data != nil {
		n = len(m.Data)
	}
	for i := range out {
		lo, hi := n*i/p, n*(i+1)/p
		if m.Data != nil {
			out[i] = Msg{Bytes: 8 * (hi - lo), Data: append([]float64(nil), m.Data[lo:hi]...)}
		} else {
			out[i] = Msg{Bytes: hi - lo}
		}
	}
	return out
}

// allreduceRing is the bandwidth-optimal ring: p−1 reduce-scatter steps
// then p−1 allgather steps, each moving one p-th of the data to the right.
func (c *Comm) allreduceRing(m Msg, op Op) Msg {
	p, me := c.Size(), c.rank
	if p == 1 {
		return m
	}
	seg := segments(m, p)
	right, left := (me+1)%p, (me-1+p)%p
	for step := 0; step < p-1; step++ {
		si, ri := (me-step+p)%p, (me-step-1+p)%p
		x, _ := c.sendrecv(right, tagAllreduce, seg[si], left, tagAllreduce)
		seg[ri] = combine(op, x, seg[ri])
	}
	for step := 0; step < p-1; step++ {
		si, ri := (me-step+1+p)%p, (me-step+p)%p
		seg[ri], _ = c.sendrecv(right, tagAllreduce, seg[si], left, tagAllreduce)
	}
	out := Msg{Bytes: m.Bytes}
	if m.Data != nil {
		out.Data = make([]float64, 0, len(m.Data))
		for _, s := range seg {
			out.Data = append(out.Data, s.Data...)
		}
	}
	return out
}

// Gather collects every member's m at root, indexed by rank there (nil
// elsewhere). Config.GatherAlgo: binomial or linear.
func (c *Comm) Gather(root int, m Msg) []Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Gather"))
	c.checkRank("Gather", root)
	m.Bytes = m.size()
	if c.r.w.cfg.GatherAlgo == AlgoOMPI {
		return c.ompiGatherRun(root, m)
	}
	if c.r.w.cfg.GatherAlgo == AlgoLinear {
		return c.gatherLinear(root, m)
	}
	return c.gatherBinomial(root, m)
}

// gatherLinear is SMPI's default gather (its igather, waited for).
func (c *Comm) gatherLinear(root int, m Msg) []Msg {
	p, me := c.Size(), c.rank
	if me != root {
		// SMPI's gather__default posts an isend_init, so the send
		// costs MPI_Isend's overhead (smpi/ois), not MPI_Send's.
		sq := c.isend(root, tagGather, m, false)
		sq.await("Gather")
		sq.w.release(sq)
		return nil
	}
	out := make([]Msg, p)
	reqs := make([]*Request, p)
	for i := range reqs {
		if i != root {
			reqs[i] = c.irecv(i, tagGather)
		}
	}
	// the sub-requests' waitall, as for Allgather
	WaitallFunc(reqs, func(i int) { out[i] = reqs[i].msg })
	out[root] = m
	return out
}

// gatherBinomial: a subtree's blocks, in relative-rank order, travel
// together to the subtree's parent; a rank receives from its children
// rank+1, rank+2, rank+4, ... in turn, blocking (Open MPI's in-order
// binomial tree: SMPI's gather__ompi_binomial, to the message).
func (c *Comm) gatherBinomial(root int, m Msg) []Msg {
	p, me := c.Size(), c.rank
	rel := (me - root + p) % p
	blocks := []Msg{m}
	for mask := 1; mask < p; mask <<= 1 {
		if rel&mask != 0 {
			c.send((rel&^mask+root)%p, tagGather, packed(blocks))
			return nil
		}
		if src := rel | mask; src < p {
			blocks = append(blocks, c.recv((src+root)%p, tagGather).parts...)
		}
	}
	out := make([]Msg, p)
	for i, b := range blocks {
		out[(i+root)%p] = b
	}
	return out
}

// Scatter sends parts[i] from root to rank i and returns this rank's part
// (parts is read on root only; under "ompi", whose decision reads each
// rank's count, every rank gives parts, parts[me] its size).
// Config.ScatterAlgo: binomial or linear.
func (c *Comm) Scatter(root int, parts []Msg) Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Scatter"))
	c.checkRank("Scatter", root)
	p, me := c.Size(), c.rank
	if me == root && len(parts) != p {
		panic("ranks: Scatter needs one part per rank")
	}
	if c.r.w.cfg.ScatterAlgo == AlgoOMPI {
		// Open MPI's decision reads each rank's own count (MPI's
		// recvcount off the root), which parts[me] gives here.
		if len(parts) != p {
			panic("ranks: Scatter under the ompi collectives needs one part per rank on every rank (its own gives its receive count)")
		}
		return c.ompiScatterRun(root, parts, parts[me].size())
	}
	if c.r.w.cfg.ScatterAlgo == AlgoLinear {
		return c.scatterLinear(root, parts)
	}
	// Binomial: a rank receives its subtree's blocks from its parent, then
	// hands each child the upper part of what it holds, farthest first.
	rel, low, blocks := c.scatterSubtree(root, parts)
	for mask := low >> 1; mask > 0; mask >>= 1 {
		if mask < len(blocks) {
			c.send((rel+mask+root)%p, tagScatter, packed(blocks[mask:]))
			blocks = blocks[:mask]
		}
	}
	return blocks[0]
}

// scatterSubtree is the receiving half of a binomial scatter on the tree of
// ranks relative to root: it returns this rank's relative rank, the lowest
// set bit of it (for the root, a power of two ≥ p) and the blocks of its
// subtree in relative order, the root's from parts, the others' received
// from the parent, rel − low.
func (c *Comm) scatterSubtree(root int, parts []Msg) (rel, low int, blocks []Msg) {
	p := c.Size()
	rel = (c.rank - root + p) % p
	if rel != 0 {
		low = rel & -rel
		return rel, low, c.recv((rel-low+root)%p, tagScatter).parts
	}
	low = 1
	for low < p {
		low <<= 1
	}
	blocks = make([]Msg, p)
	for i := range blocks {
		blocks[i] = parts[(i+root)%p]
		blocks[i].Bytes = blocks[i].size()
	}
	return rel, low, blocks
}

// scatterLinear is SMPI's default scatter (its iscatter, waited for): the
// root isends every part in rank order, then waits for them all.
func (c *Comm) scatterLinear(root int, parts []Msg) Msg {
	p, me := c.Size(), c.rank
	if me != root {
		return c.recv(root, tagScatter)
	}
	reqs := make([]*Request, 0, p-1)
	for i := 0; i < p; i++ {
		if i != root {
			reqs = append(reqs, c.isend(i, tagScatter, parts[i], false))
		}
	}
	Waitall(reqs...)
	return parts[root]
}

// Allgather collects every member's m on all of them, indexed by rank
// (Config.AllgatherAlgo: recursive doubling when the size is a power of
// two, otherwise — or with "ring" — the ring; or "linear", SMPI's default).
func (c *Comm) Allgather(m Msg) []Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Allgather"))
	p, me := c.Size(), c.rank
	m.Bytes = m.size()
	out := make([]Msg, p)
	out[me] = m
	if c.r.w.cfg.AllgatherAlgo == AlgoOMPI {
		c.ompiAllgatherRun(out)
		return out
	}
	if c.r.w.cfg.AllgatherAlgo == AlgoLinear {
		// SMPI's default (its non-blocking iallgather, waited for): to
		// every other rank in rank order an isend, then an irecv.
		reqs := make([]*Request, 2*p)
		for i := 0; i < p; i++ {
			if i != me {
				reqs[2*i], reqs[2*i+1] = c.isend(i, tagAllgather, m, false), c.irecv(i, tagAllgather)
			}
		}
		// Waited as SMPI waits a non-blocking collective (its sub-requests'
		// waitall): under SimGrid's order as they complete, each detached
		// receive paying smpi/or then.
		WaitallFunc(reqs, func(k int) {
			if k%2 == 1 {
				out[k/2] = reqs[k].msg
			}
		})
		return out
	}
	if c.r.w.cfg.AllgatherAlgo != AlgoRing && p&(p-1) == 0 {
		// Recursive doubling: after the exchange at distance mask, each rank
		// holds the aligned group of 2·mask blocks containing it.
		for mask := 1; mask < p; mask <<= 1 {
			base := me &^ (mask - 1)
			peer := me ^ mask
			x, _ := c.sendrecv(peer, tagAllgather, packed(out[base:base+mask]), peer, tagAllgather)
			copy(out[peer&^(mask-1):], x.parts)
		}
		return out
	}
	right, left := (me+1)%p, (me-1+p)%p
	for step := 0; step < p-1; step++ {
		si, ri := (me-step+p)%p, (me-step-1+p)%p
		out[ri], _ = c.sendrecv(right, tagAllgather, out[si], left, tagAllgather)
	}
	return out
}

// Alltoall sends parts[i] to rank i and returns what each rank sent here,
// indexed by source (Config.AlltoallAlgo: pairwise; linear, SMPI's
// basic_linear; or ompi, SMPI's default, which picks basic_linear, pair or
// Bruck's by the number of ranks and the block's size, alltoall.go). The
// parts are the same size, as MPI_Alltoall's; Alltoallv takes any sizes.
func (c *Comm) Alltoall(parts []Msg) []Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Alltoall"))
	return c.alltoall(parts, false)
}

// Alltoallv is Alltoall with parts of any size (MPI_Alltoallv). Under
// AlltoallAlgo "ompi" it runs SMPI's default alltoallv, its non-blocking
// ialltoallv waited for; under the others, Alltoall's algorithm.
func (c *Comm) Alltoallv(parts []Msg) []Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Alltoallv"))
	return c.alltoall(parts, true)
}

func (c *Comm) alltoall(parts []Msg, v bool) []Msg {
	p, me := c.Size(), c.rank
	if len(parts) != p {
		panic("ranks: Alltoall needs one part per rank")
	}
	out := make([]Msg, p)
	out[me] = parts[me]
	out[me].Bytes = out[me].size()
	algo := c.r.w.cfg.AlltoallAlgo
	if algo == AlgoOMPI {
		if v && c.r.w.cfg.Selector == CollectivesOMPI {
			c.ompiAlltoallvRun(parts, out)
			return out
		}
		if v {
			c.alltoallNBC(parts, out)
			return out
		}
		algo = ompiAlltoall(p, parts[0].size())
		if algo == AlgoPairwise && c.r.w.cfg.Selector == CollectivesOMPI {
			// the ompi set runs no algorithm in place of another
			c.refuse("MPI_Alltoall", parts[0].size(), "alltoall__pair", "which needs a power of two of ranks (SMPI 3.32 stops the run there)")
		}
	}
	switch algo {
	case AlgoLinear:
		c.alltoallLinear(parts, out)
	case AlgoBruck:
		c.alltoallBruck(parts, out)
	case algoPair:
		c.alltoallPair(parts, out)
	default:
		// Pairwise: at step k send to rank+k and receive from rank−k.
		for step := 1; step < p; step++ {
			dst, src := (me+step)%p, (me-step+p)%p
			out[src], _ = c.sendrecv(dst, tagAlltoall, parts[dst], src, tagAlltoall)
		}
	}
	return out
}
