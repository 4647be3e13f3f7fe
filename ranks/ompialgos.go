package ranks

// The algorithms SMPI 3.32's ompi selector picks (ompi.go's decisions), as
// SMPI runs them: the same peers, sizes, blocking or not, and order of
// posts and waits.

// ompiBarrierRun runs barrier__ompi's choice.
func (c *Comm) ompiBarrierRun() {
	switch algo := ompiBarrier(c.Size()); algo {
	case ompiBarrierLinear:
		c.barrierLinear()
	case ompiBarrierRDB:
		c.barrierOMPIRecDoubling()
	case ompiBarrierBruck:
		c.barrierOMPIBruck()
	case ompiBarrierTree:
		c.barrierOMPITree()
	}
}

// barrierOMPIRecDoubling is barrier__ompi_recursivedoubling: the ranks
// past the largest power of two pof2 ≤ p first Sendrecv with rank−pof2,
// which only receives from them; the pof2 lower ranks Sendrecv with
// rank^mask for each mask; then each lower rank that had a partner sends
// to it, which ends that partner's Sendrecv.
func (c *Comm) barrierOMPIRecDoubling() {
	p, me := c.Size(), c.rank
	pof2 := 1
	for pof2*2 <= p {
		pof2 *= 2
	}
	if pof2 != p {
		if me >= pof2 {
			c.smpiSendrecv(me-pof2, tagBarrier, Msg{}, me-pof2, tagBarrier)
		} else if me < p-pof2 {
			c.recv(me+pof2, tagBarrier)
		}
	}
	if me < pof2 {
		for mask := 1; mask < pof2; mask <<= 1 {
			c.smpiSendrecv(me^mask, tagBarrier, Msg{}, me^mask, tagBarrier)
		}
	}
	if pof2 != p && me < p-pof2 {
		c.send(me+pof2, tagBarrier, Msg{})
	}
}

// barrierOMPIBruck is barrier__ompi_bruck: for each distance d = 1, 2,
// 4, ... < p, a Sendrecv to rank+d from rank−d.
func (c *Comm) barrierOMPIBruck() {
	p, me := c.Size(), c.rank
	for d := 1; d < p; d <<= 1 {
		c.smpiSendrecv((me+d)%p, tagBarrier, Msg{}, (me-d+p)%p, tagBarrier)
	}
}

// barrierOMPITree is barrier__ompi_tree: up a binomial tree (a rank
// receives from rank+jump for rising jumps while it is aligned, then sends
// to rank−jump), then down it in reverse.
func (c *Comm) barrierOMPITree() {
	p, me := c.Size(), c.rank
	depth := 1
	for depth < p {
		depth <<= 1
	}
	for jump := 1; jump < depth; jump <<= 1 {
		if q := me ^ jump; q&(jump-1) == 0 && q < p {
			if q > me {
				c.recv(q, tagBarrier)
			} else {
				c.send(q, tagBarrier, Msg{})
			}
		}
	}
	for jump := depth >> 1; jump > 0; jump >>= 1 {
		if q := me ^ jump; q&(jump-1) == 0 && q < p {
			if q > me {
				c.send(q, tagBarrier, Msg{})
			} else {
				c.recv(q, tagBarrier)
			}
		}
	}
}

// ompiBcastRun runs bcast__ompi's choice; every rank's m gives its count.
func (c *Comm) ompiBcastRun(root int, m Msg) Msg {
	p, me := c.Size(), c.rank
	n := m.size()
	switch algo := ompiBcast(p, n); algo {
	case ompiBcastBinomial:
		return c.bcastBinomial(root, m)
	case ompiBcastNTSL:
		next := []int{(me + 1) % p}
		if me == p-1 {
			next = nil
		}
		return c.bcastSegmented(root, m, (me+p-1)%p, next)
	case ompiBcastPipeline:
		if n == 0 && p > 1 {
			c.refuse("MPI_Bcast", n, algo, "which divides by zero on an empty message (SMPI 3.32 crashes there)")
		}
		return c.bcastOMPIPipeline(root, m)
	case ompiBcastNTSB:
		var kids []int
		for _, k := range []int{2*me + 1, 2*me + 2} {
			if k < p {
				kids = append(kids, k)
			}
		}
		return c.bcastSegmented(root, m, (me-1)/2, kids)
	default:
		c.refuse("MPI_Bcast", n, algo, "")
	}
	return Msg{}
}

// bcastSegment is the segment of SMPI's bcast__NTSL and bcast__NTSB, bytes
// (8 KiB; SMPI counts it in elements of 8192 B / the datatype's extent, the
// same bytes for any extent dividing 8192).
const bcastSegment = 8192

// bcastSegmented is SMPI's bcast__NTSL (a chain 0 → 1 → ... → p−1: next
// is rank+1) and bcast__NTSB (a binary tree rooted at 0: next is 2·rank+1
// and 2·rank+2) on the tree parent → this rank → next. A root other than 0
// first sends the whole message to rank 0. Up to 8 KiB, each rank receives
// it whole from its parent and sends it to each child, blocking. Above, in
// segments of 8 KiB: rank 0 isends each segment to each child, a leaf
// posts every segment's irecv and waits for them all, a relay posts every
// irecv then, segment by segment, waits for it and isends it to each
// child, and waits for all its sends; the remainder (the size modulo 8 KiB)
// then goes by bcast__ompi's own choice for its size, from the root.
func (c *Comm) bcastSegmented(root int, m Msg, parent int, next []int) Msg {
	me := c.rank
	n := m.size()
	if me == root {
		m.Bytes = n
	}
	if root != 0 {
		if me == root {
			c.send(0, tagBcast, m)
		} else if me == 0 {
			m = c.recv(root, tagBcast)
		}
	}
	if n <= bcastSegment {
		if me != 0 {
			m = c.recv(parent, tagBcast)
		}
		for _, k := range next {
			c.send(k, tagBcast, m)
		}
		return m
	}
	segs := n / bcastSegment
	// every segment carries the message by reference, for its payload
	seg := Msg{Bytes: bcastSegment, parts: []Msg{m}}
	if me != 0 {
		recvs := make([]*Request, segs)
		for i := range recvs {
			recvs[i] = c.irecv(parent, tagBcast)
		}
		got := func(x Msg) {
			if x.parts != nil {
				m = x.parts[0]
			}
		}
		if len(next) == 0 {
			WaitallFunc(recvs, func(i int) { got(recvs[i].msg) })
			recvs = nil
		}
		// a relay waits for each segment before forwarding it
		sends := make([]*Request, segs*len(next))
		for i, q := range recvs {
			x, _ := q.wait("Bcast")
			q.w.recycle(q)
			got(x)
			seg.parts = []Msg{m}
			for j, k := range next {
				sends[i+j*segs] = c.isend(k, tagBcast, seg, false)
			}
		}
		Waitall(sends...)
	} else {
		sends := make([]*Request, segs*len(next))
		for i := 0; i < segs; i++ {
			for j, k := range next {
				sends[i+j*segs] = c.isend(k, tagBcast, seg, false)
			}
		}
		Waitall(sends...)
	}
	if rem := n % bcastSegment; rem != 0 {
		c.ompiBcastRun(root, Msg{Bytes: rem})
	}
	return m
}

// pipelineSegment is bcast__ompi_pipeline's segment for n bytes on p
// ranks, by Open MPI's fitted bounds (128, 64 or 16 KiB; 128 KiB past
// them), never more than n.
func pipelineSegment(p, n int) int {
	seg := 128 << 10
	x, s := float64(n), float64(p)
	switch {
	case s < 1.6134e-6*x+2.1102:
	case s < 2.3679e-6*x+1.1787:
		seg = 64 << 10
	case s < 3.2118e-6*x+8.7936:
		seg = 16 << 10
	}
	return min(seg, n)
}

// bcastOMPIPipeline is SMPI's bcast__ompi_pipeline: a chain from the root
// (root → root+1 → ...), the message in segments (pipelineSegment, the
// last one shorter). The root isends each segment to its child and waits
// for it before the next; a relay keeps one receive posted ahead: it posts
// the next segment's irecv, waits for the previous one, isends it and
// waits for that send; a leaf posts the next irecv, then waits for the
// previous one.
func (c *Comm) bcastOMPIPipeline(root int, m Msg) Msg {
	p, me := c.Size(), c.rank
	n := m.size()
	if p == 1 { // SMPI returns before cutting segments
		m.Bytes = n
		return m
	}
	rel := (me - root + p) % p
	seg := pipelineSegment(p, n)
	segs := (n + seg - 1) / seg
	last := n - (segs-1)*seg
	parent, child := (me-1+p)%p, (me+1)%p
	hasChild := rel+1 < p
	size := func(i int) int {
		if i == segs-1 {
			return last
		}
		return seg
	}
	forward := func(bytes int) {
		if hasChild {
			q := c.isend(child, tagBcast, Msg{Bytes: bytes, parts: []Msg{m}}, false)
			Waitall(q)
		}
	}
	if rel == 0 {
		m.Bytes = n
		for i := 0; i < segs; i++ {
			forward(size(i))
		}
		return m
	}
	take := func(q *Request) {
		x, _ := q.wait("Bcast")
		q.w.recycle(q)
		if x.parts != nil {
			m = x.parts[0]
		}
	}
	prev := c.irecv(parent, tagBcast)
	for i := 1; i < segs; i++ {
		next := c.irecv(parent, tagBcast)
		take(prev)
		forward(seg)
		prev = next
	}
	take(prev)
	forward(last)
	return m
}

// ompiReduceRun runs reduce__ompi's choice.
func (c *Comm) ompiReduceRun(root int, m Msg, op Op) Msg {
	switch algo := ompiReduce(c.Size(), m.Bytes); algo {
	case ompiReduceLinear:
		return c.reduceOMPILinear(root, m, op)
	case ompiReduceChain, ompiReducePipeline, ompiReduceBinary, ompiReduceBinomial, ompiReduceInOrder:
		return c.reduceOMPITree(algo, root, m, op)
	default:
		c.refuse("MPI_Reduce", m.Bytes, algo, "")
	}
	return Msg{}
}

// reduceOMPILinear is reduce__ompi_basic_linear: every rank but the root
// sends to it; the root receives, blocking, from rank p−1 down to rank 0
// and combines in that order.
func (c *Comm) reduceOMPILinear(root int, m Msg, op Op) Msg {
	p, me := c.Size(), c.rank
	if me != root {
		c.send(root, tagReduce, m)
		return Msg{}
	}
	var acc Msg
	for i := p - 1; i >= 0; i-- {
		x := m
		if i != me {
			x = c.recv(i, tagReduce)
		}
		if i == p-1 {
			acc = x
		} else {
			acc = combine(op, x, acc)
		}
	}
	return acc
}

// ompiAllreduceRun runs allreduce__ompi's choice; elem is the size of an
// element, bytes.
func (c *Comm) ompiAllreduceRun(m Msg, op Op, elem int) Msg {
	switch algo := ompiAllreduce(c.Size(), m.Bytes); algo {
	case ompiAllreduceRDB:
		return c.allreduceSMPIRDB(m, op)
	case ompiAllreduceRab:
		return c.allreduceSMPIRabRDB(m, op, elem)
	case ompiAllreduceRB:
		// colls::reduce then colls::bcast, each by its own decision; a
		// rank other than 0 enters the bcast with its count.
		r := c.Reduce(0, m, op)
		if c.rank != 0 {
			r = Msg{Bytes: m.Bytes}
		}
		return c.Bcast(0, r)
	default:
		c.refuse("MPI_Allreduce", m.Bytes, algo, "")
	}
	return Msg{}
}

// allreduceSMPIRDB is SMPI's allreduce__rdb: MPICH's recursive doubling
// (allreduceRDB) with SMPI's Sendrecv (its send posted first, both
// waited for as they complete) and blocking folds.
func (c *Comm) allreduceSMPIRDB(m Msg, op Op) Msg {
	return c.recursiveDoubling(m, op, c.smpiSendrecv)
}

// allreduceSMPIRabRDB is SMPI's allreduce__rab_rdb (MPICH's Rabenseifner:
// a reduce-scatter by recursive halving, then an allgather by recursive
// doubling), the vector of n bytes cut in elements of elem bytes. On p
// ranks, pof2 the largest power of two ≤ p and rem = p − pof2, the even
// ranks below 2·rem first send their vector to rank+1 (blocking) and sit
// out; the others take new ranks (odd ones below 2·rem rank/2, the rest
// rank − rem). The vector is cut into pof2 blocks of count/pof2 elements,
// the last taking the rest. At halving step mask = 1, 2, ... a rank
// exchanges, by one Sendrecv with the rank of new rank ^ mask, the half of
// its current range that the partner keeps for the half it keeps; the
// allgather retraces the steps backwards, each side sending the range it
// holds. Finally the odd ranks below 2·rem send the result to rank−1
// (blocking). Each message carries the sender's partial result, for the
// payload.
func (c *Comm) allreduceSMPIRabRDB(m Msg, op Op, elem int) Msg {
	p, me := c.Size(), c.rank
	n := m.Bytes
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
			acc = combine(op, acc, c.recv(me-1, tagAllreduce))
			newRank = me / 2
		}
	}
	if newRank >= 0 {
		// block i's bytes: count/pof2 elements, the last block the rest
		block := 0
		if elem > 0 {
			block = n / elem / pof2 * elem
		}
		bytes := func(from, to int) int {
			b := (to - from) * block
			if to == pof2 {
				b += n - pof2*block
			}
			return b
		}
		peer := func(mask int) int { // the real rank of new rank ^ mask
			nd := newRank ^ mask
			if nd < rem {
				return 2*nd + 1
			}
			return nd + rem
		}
		sendIdx, recvIdx, lastIdx := 0, 0, pof2
		mask := 1
		for ; mask < pof2; mask <<= 1 {
			dst := peer(mask)
			half := pof2 / (mask * 2)
			// send the partner's half of blocks sendIdx..lastIdx (a
			// message's size is its sender's: the receive's is not needed)
			var sent int
			if newRank < newRank^mask {
				sendIdx = recvIdx + half
				sent = bytes(sendIdx, lastIdx)
			} else {
				recvIdx = sendIdx + half
				sent = bytes(sendIdx, recvIdx)
			}
			x := c.smpiSendrecv(dst, tagAllreduce, Msg{Bytes: sent, parts: []Msg{acc}}, dst, tagAllreduce)
			acc = combine(op, acc, x.parts[0])
			sendIdx = recvIdx
			if mask*2 < pof2 {
				lastIdx = recvIdx + pof2/(mask*2)
			}
		}
		for mask >>= 1; mask > 0; mask >>= 1 {
			dst := peer(mask)
			half := pof2 / (mask * 2)
			var sent int
			if newRank < newRank^mask {
				if mask != pof2/2 {
					lastIdx += half
				}
				recvIdx = sendIdx + half
				sent = bytes(sendIdx, recvIdx)
			} else {
				recvIdx = sendIdx - half
				sent = bytes(sendIdx, lastIdx)
			}
			c.smpiSendrecv(dst, tagAllreduce, Msg{Bytes: sent}, dst, tagAllreduce)
			if newRank > newRank^mask {
				sendIdx = recvIdx
			}
		}
	}
	if me < 2*rem {
		if me%2 == 1 {
			c.send(me-1, tagAllreduce, acc)
		} else {
			acc = c.recv(me+1, tagAllreduce)
		}
	}
	acc.Bytes = n
	return acc
}

// ompiGatherRun runs gather__ompi's choice; m is this rank's block.
func (c *Comm) ompiGatherRun(root int, m Msg) []Msg {
	switch algo := ompiGather(c.Size(), m.Bytes); algo {
	case ompiGatherLinear:
		return c.gatherOMPILinear(root, m)
	case ompiGatherSync:
		return c.gatherOMPISync(root, m)
	default: // gather__ompi_binomial: emu's binomial gather, to the message
		return c.gatherBinomial(root, m)
	}
}

// gatherOMPILinear is gather__ompi_basic_linear: every rank but the root
// sends; the root receives, blocking, in rank order.
func (c *Comm) gatherOMPILinear(root int, m Msg) []Msg {
	p, me := c.Size(), c.rank
	if me != root {
		c.send(root, tagGather, m)
		return nil
	}
	out := make([]Msg, p)
	for i := range out {
		if i == me {
			out[i] = m
		} else {
			out[i] = c.recv(i, tagGather)
		}
	}
	return out
}

// gatherSyncSegment is gather__ompi_linear_sync's first segment: 32 KiB
// for blocks over 90 KiB, else 1 KiB (whole when the block is smaller).
func gatherSyncSegment(block int) int {
	seg := 1024
	if block > 92160 {
		seg = 32768
	}
	return min(seg, block)
}

// gatherOMPISync is gather__ompi_linear_sync: each non-root rank waits
// for the root's empty message, then sends its block's first segment and
// the rest (possibly empty) as two blocking sends. The root, for each other
// rank in rank order, posts the first segment's receive, sends the empty
// message (blocking), posts the rest's receive and waits for the first;
// then it waits for all the rests.
func (c *Comm) gatherOMPISync(root int, m Msg) []Msg {
	p, me := c.Size(), c.rank
	first := gatherSyncSegment(m.Bytes)
	if me != root {
		c.recv(root, tagGather)
		c.send(root, tagGather, Msg{Bytes: first})
		c.send(root, tagGather, Msg{Bytes: m.Bytes - first, parts: []Msg{m}})
		return nil
	}
	out := make([]Msg, p)
	rest := make([]*Request, p)
	for i := 0; i < p; i++ {
		if i == me {
			continue
		}
		q := c.irecv(i, tagGather)
		c.send(i, tagGather, Msg{})
		rest[i] = c.irecv(i, tagGather)
		q.wait("Gather")
		q.w.recycle(q)
	}
	WaitallFunc(rest, func(i int) { out[i] = rest[i].msg.parts[0] })
	out[me] = m
	return out
}

// ompiScatterRun runs scatter__ompi's choice; block is this rank's block
// size (MPI's scount at the root, rcount elsewhere).
func (c *Comm) ompiScatterRun(root int, parts []Msg, block int) Msg {
	switch algo := ompiScatter(c.Size(), block); algo {
	case ompiScatterLinear, ompiScatterNB:
		return c.scatterOMPILinear(root, parts, algo == ompiScatterNB)
	default:
		return c.scatterOMPIBinomial(root, parts)
	}
}

// scatterOMPILinear is scatter__ompi_basic_linear (the root sends to each
// other rank in rank order, blocking) or, nb, scatter__ompi_linear_nb (it
// isends them all in rank order, then waits for them all).
func (c *Comm) scatterOMPILinear(root int, parts []Msg, nb bool) Msg {
	p, me := c.Size(), c.rank
	if me != root {
		return c.recv(root, tagScatter)
	}
	var reqs []*Request
	for i := 0; i < p; i++ {
		switch {
		case i == me:
		case nb:
			reqs = append(reqs, c.isend(i, tagScatter, parts[i], false))
		default:
			c.send(i, tagScatter, parts[i])
		}
	}
	Waitall(reqs...)
	return parts[me]
}

// scatterOMPIBinomial is scatter__ompi_binomial on Open MPI's in-order
// binomial tree: a rank receives its subtree's blocks (relative order)
// from its parent, rank − its lowest set bit, then sends its children
// rank+1, rank+2, rank+4, ... (nearest first) their subtrees' blocks,
// blocking.
func (c *Comm) scatterOMPIBinomial(root int, parts []Msg) Msg {
	p := c.Size()
	rel, low, blocks := c.scatterSubtree(root, parts)
	for mask := 1; mask < low && rel+mask < p; mask <<= 1 {
		n := min(mask, p-rel-mask)
		c.send((rel+mask+root)%p, tagScatter, packed(blocks[mask:mask+n]))
	}
	return blocks[0]
}

// ompiAllgatherRun runs allgather__ompi's choice into out (out[me] set).
func (c *Comm) ompiAllgatherRun(out []Msg) {
	p := c.Size()
	switch algo := ompiAllgather(p, out[c.rank].Bytes); algo {
	case ompiAllgatherPair:
		c.ompiAllgatherPairs(out)
	case ompiAllgatherRDB:
		c.allgatherSMPIRDB(out)
	case ompiAllgatherNE:
		if p%2 == 1 {
			c.allgatherSMPIRing(out)
		} else {
			c.allgatherOMPINeighbor(out)
		}
	case ompiAllgatherRing:
		c.allgatherSMPIRing(out)
	case ompiAllgatherBruck:
		c.allgatherSMPIBruck(out)
	}
}

// ompiAllgatherPairs is SMPI's allgather__pair (p a power of two): at
// step i a Sendrecv of this rank's block with rank^i.
func (c *Comm) ompiAllgatherPairs(out []Msg) {
	for i := 1; i < c.Size(); i++ {
		q := c.rank ^ i
		out[q] = c.smpiSendrecv(q, tagAllgather, out[c.rank], q, tagAllgather)
	}
}

// allgatherSMPIRing is SMPI's allgather__ring: at step i a Sendrecv of
// this rank's block to rank+i from rank−i.
func (c *Comm) allgatherSMPIRing(out []Msg) {
	p, me := c.Size(), c.rank
	for i := 1; i < p; i++ {
		src := (me - i + p) % p
		out[src] = c.smpiSendrecv((me+i)%p, tagAllgather, out[me], src, tagAllgather)
	}
}

// allgatherSMPIRDB is SMPI's allgather__rdb (MPICH's recursive doubling):
// at distance mask a Sendrecv of the aligned group of blocks held with
// rank^mask when it exists; where that partner is missing (p not a power
// of two), the ranks that got the group's blocks pass them down a binomial
// tree to the ranks that could not (blocking sends and receives).
func (c *Comm) allgatherSMPIRDB(out []Msg) {
	p, me := c.Size(), c.rank
	have := 1 // blocks held, from this rank's group's root
	last := 0 // blocks received last
	for mask, i := 1, 0; mask < p; mask, i = mask<<1, i+1 {
		dst := me ^ mask
		dstRoot, myRoot := dst>>i<<i, me>>i<<i
		if dst < p {
			x := c.smpiSendrecv(dst, tagAllgather, packed(out[myRoot:myRoot+have]), dst, tagAllgather)
			copy(out[dstRoot:], x.parts)
			last = len(x.parts)
			have += last
		}
		if dstRoot+mask <= p {
			continue
		}
		done := p - myRoot - mask // ranks of this subtree that hold the data
		k := 0
		for j := mask; j > 1; j >>= 1 {
			k++
		}
		off := myRoot + mask
		for tmp := mask >> 1; tmp > 0; tmp, k = tmp>>1, k-1 {
			d := me ^ tmp
			treeRoot := me >> k << k
			switch {
			case d > me && me < treeRoot+done && d >= treeRoot+done:
				c.send(d, tagAllgather, packed(out[off:off+last]))
			case d < me && d < treeRoot+done && me >= treeRoot+done:
				x := c.recv(d, tagAllgather)
				copy(out[off:], x.parts)
				last = len(x.parts)
				have += last
			}
		}
	}
}

// allgatherOMPINeighbor is allgather__ompi_neighborexchange (p even): a
// first Sendrecv of one block with one neighbour (rank+1 for even ranks,
// rank−1 for odd ones), then p/2 − 1 Sendrecvs of two blocks with the
// two neighbours in turn, each sending the pair it received last.
func (c *Comm) allgatherOMPINeighbor(out []Msg) {
	p, me := c.Size(), c.rank
	var nb, from [2]int
	var step [2]int
	if me%2 == 0 {
		nb = [2]int{(me + 1) % p, (me - 1 + p) % p}
		from = [2]int{me, me}
		step = [2]int{2, -2}
	} else {
		nb = [2]int{(me - 1 + p) % p, (me + 1) % p}
		from = [2]int{nb[0], nb[0]}
		step = [2]int{-2, 2}
	}
	out[nb[0]] = c.smpiSendrecv(nb[0], tagAllgather, out[me], nb[0], tagAllgather)
	send := me
	if me%2 == 1 {
		send = from[0]
	}
	for i := 1; i < p/2; i++ {
		k := i % 2
		from[k] = (from[k] + step[k] + p) % p
		x := c.smpiSendrecv(nb[k], tagAllgather, packed(out[send:send+2]), nb[k], tagAllgather)
		copy(out[from[k]:], x.parts)
		send = from[k]
	}
}

// allgatherSMPIBruck is SMPI's allgather__bruck: blocks held from this
// rank up; in rounds of 1, 2, 4, ... blocks a Sendrecv of the blocks held
// to rank−pof2 from rank+pof2, then one of the remainder.
func (c *Comm) allgatherSMPIBruck(out []Msg) {
	p, me := c.Size(), c.rank
	tmp := make([]Msg, 1, p)
	tmp[0] = out[me]
	pof2 := 1
	for ; pof2 <= p/2; pof2 <<= 1 {
		x := c.smpiSendrecv((me-pof2+p)%p, tagAllgather, packed(tmp), (me+pof2)%p, tagAllgather)
		tmp = append(tmp, x.parts...)
	}
	if rem := p - pof2; rem > 0 {
		x := c.smpiSendrecv((me-pof2+p)%p, tagAllgather, packed(tmp[:rem]), (me+pof2)%p, tagAllgather)
		tmp = append(tmp, x.parts...)
	}
	for j, b := range tmp {
		out[(me+j)%p] = b
	}
}

// ompiAlltoallvRun runs alltoallv__ompi's choice.
func (c *Comm) ompiAlltoallvRun(parts, out []Msg) {
	p, me := c.Size(), c.rank
	switch algo := ompiAlltoallv(p); {
	case algo == ompiAlltoallvLin:
		c.alltoallNBC(parts, out)
	case p&(p-1) != 0:
		c.refuse("MPI_Alltoallv", parts[me].size(), algo, "which needs a power of two of ranks (SMPI 3.32 stops the run there)")
	default:
		for i := 1; i < p; i++ {
			q := me ^ i
			out[q] = c.smpiSendrecv(q, tagAlltoall, parts[q], q, tagAlltoall)
		}
	}
}
