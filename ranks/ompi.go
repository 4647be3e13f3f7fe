package ranks

import "fmt"

// SMPI 3.32's "ompi" collective selector (smpi/coll-selector:ompi,
// smpi_openmpi_selector.cpp): Open MPI's fixed decision rules, which pick
// an algorithm for each call by the number of ranks and the message's size
// in bytes, and the algorithms they pick, as SMPI runs them (read for what
// they send, to whom, blocking or not, in which order). Every reduction
// emu runs is commutative (Sum, Max, Min) and SMPI's TI replayer reduces
// with MPI_OP_NULL, so only the rules of commutative operations apply.
// An algorithm emu does not run stops the run with an
// UnsupportedCollectiveError rather than running another one.

// The algorithms of the ompi selector, by SMPI's names.
const (
	ompiBarrierLinear  = "barrier__ompi_basic_linear"
	ompiBarrierRDB     = "barrier__ompi_recursivedoubling"
	ompiBarrierBruck   = "barrier__ompi_bruck"
	ompiBarrierTree    = "barrier__ompi_tree"
	ompiBcastBinomial  = "bcast__binomial_tree"
	ompiBcastNTSL      = "bcast__NTSL"
	ompiBcastNTSB      = "bcast__NTSB"
	ompiBcastPipeline  = "bcast__ompi_pipeline"
	ompiReduceLinear   = "reduce__ompi_basic_linear"
	ompiAllreduceRDB   = "allreduce__rdb"
	ompiAllreduceRB    = "allreduce__redbcast"
	ompiGatherLinear   = "gather__ompi_basic_linear"
	ompiGatherBinomial = "gather__ompi_binomial"
	ompiGatherSync     = "gather__ompi_linear_sync"
	ompiScatterLinear  = "scatter__ompi_basic_linear"
	ompiScatterBinom   = "scatter__ompi_binomial"
	ompiScatterNB      = "scatter__ompi_linear_nb"
	ompiAllgatherPair  = "allgather__pair"
	ompiAllgatherRDB   = "allgather__rdb"
	ompiAllgatherRing  = "allgather__ring"
	ompiAllgatherNE    = "allgather__ompi_neighborexchange"
	ompiAllgatherBruck = "allgather__bruck"
	ompiAlltoallvLin   = "alltoallv__ompi_basic_linear"
	ompiAllgathervGB   = "allgatherv__GB"
	ompiAllgathervRing = "allgatherv__mpich_ring"
	ompiAlltoallvPair  = "alltoallv__pair"
)

// UnsupportedCollectiveError stops a run at a collective call for which
// SMPI's selector picks an algorithm emu does not run: emu never runs
// another algorithm in its place, whose time would differ from SMPI's.
type UnsupportedCollectiveError struct {
	Rank     int    // world rank that made the call
	Call     string // "MPI_Bcast", ...
	Ranks    int    // communicator size
	Bytes    int    // the size the decision read (the count times the datatype's size)
	Selector string // "ompi"
	Algo     string // SMPI's algorithm, e.g. "bcast__NTSB"
	Why      string // optional: why emu does not run it
}

// InputFault marks the error as the input's: the scenario chose the
// collective set.
func (e *UnsupportedCollectiveError) InputFault() {}

func (e *UnsupportedCollectiveError) Error() string {
	why := "which emu does not implement"
	if e.Why != "" {
		why = e.Why
	}
	return fmt.Sprintf("rank %d: %s of %d bytes on %d ranks: SMPI 3.32's %q collective selector runs %s there, %s (network.collectives = \"smpi\" runs SMPI's default selector)",
		e.Rank, e.Call, e.Bytes, e.Ranks, e.Selector, e.Algo, why)
}

// refuse stops the run at a collective whose algorithm emu does not run.
func (c *Comm) refuse(call string, bytes int, algo, why string) {
	panic(&UnsupportedCollectiveError{Rank: c.r.id, Call: call, Ranks: c.Size(), Bytes: bytes, Selector: CollectivesOMPI, Algo: algo, Why: why})
}

// band is one row of a decision: below a bound, the algorithm; past the
// last bound, else.
type band struct {
	under int
	algo  string
}

// pick returns the algorithm of the first band whose bound exceeds size,
// or else.
func pick(size int, bands []band, otherwise string) string {
	for _, b := range bands {
		if size < b.under {
			return b.algo
		}
	}
	return otherwise
}

// ompiBarrier is barrier__ompi's decision on the number of ranks.
func ompiBarrier(p int) string {
	return pick(p, []band{{4, ompiBarrierRDB}, {8, ompiBarrierLinear}, {64, ompiBarrierRDB}, {256, ompiBarrierBruck},
		{512, ompiBarrierTree}, {1024, ompiBarrierBruck}, {4096, ompiBarrierTree}}, ompiBarrierBruck)
}

// ompiBcast is bcast__ompi's decision.
func ompiBcast(p, n int) string {
	const (
		ntsl     = ompiBcastNTSL
		pipeline = ompiBcastPipeline
		split    = "bcast__ompi_split_bintree"
		ntsb     = ompiBcastNTSB
		binomial = ompiBcastBinomial
		knomial  = "bcast__mvapich2_knomial_intra_node"
		scatRDB  = "bcast__scatter_rdb_allgather"
	)
	switch {
	case p < 4:
		return pick(n, []band{{32, pipeline}, {256, ntsb}, {512, pipeline}, {1024, knomial}, {32768, ntsl}, {131072, ntsb},
			{262144, pipeline}, {524288, ntsl}, {1048576, binomial}}, ntsb)
	case p < 8:
		return pick(n, []band{{64, ntsb}, {128, binomial}, {2048, ntsb}, {8192, binomial}, {1048576, ntsl}}, pipeline)
	case p < 16:
		return pick(n, []band{{8, knomial}, {64, ntsb}, {4096, knomial}, {16384, ntsb}, {32768, binomial}}, ntsl)
	case p < 32:
		return pick(n, []band{{4096, knomial}, {1048576, binomial}}, scatRDB)
	case p < 64:
		return pick(n, []band{{2048, binomial}}, knomial)
	case p < 128:
		return knomial
	case p < 256:
		return pick(n, []band{{2, binomial}, {16384, ntsb}, {32768, ntsl}, {65536, ntsb}}, knomial)
	case p < 1024:
		return pick(n, []band{{16384, knomial}, {32768, split}}, knomial)
	case p < 2048:
		return pick(n, []band{{524288, knomial}}, scatRDB)
	case p < 4096:
		return pick(n, []band{{262144, knomial}}, scatRDB)
	}
	return pick(n, []band{{8192, knomial}, {16384, ntsb}, {262144, knomial}}, scatRDB)
}

// ompiReduce is reduce__ompi's decision for a commutative operation.
func ompiReduce(p, n int) string {
	const (
		linear   = ompiReduceLinear
		chain    = "reduce__ompi_chain"
		pipeline = "reduce__ompi_pipeline"
		binary   = "reduce__ompi_binary"
		binomial = "reduce__ompi_binomial"
		inorder  = "reduce__ompi_in_order_binary"
	)
	switch {
	case p < 4:
		return pick(n, []band{{8, linear}, {16, binary}, {32, pipeline}, {262144, linear}, {524288, pipeline}, {1048576, chain}}, pipeline)
	case p < 8:
		return pick(n, []band{{4096, binary}, {65536, chain}, {262144, binomial}, {524288, linear}, {1048576, binomial}}, linear)
	case p < 16:
		return pick(n, []band{{8192, binary}}, binomial)
	case p < 32:
		return pick(n, []band{{4096, binary}}, binomial)
	case p < 256:
		return binomial
	case p < 512:
		return pick(n, []band{{8192, binomial}, {16384, inorder}}, binomial)
	case p < 2048:
		return binomial
	case p < 4096:
		return pick(n, []band{{512, binomial}, {1024, inorder}, {8192, binomial}, {16384, inorder}}, binomial)
	}
	return pick(n, []band{{16, binomial}, {32, inorder}, {1024, binomial}, {2048, inorder}, {8192, binomial}, {16384, inorder}}, binomial)
}

// ompiAllreduce is allreduce__ompi's decision for a commutative operation
// (its basic_linear and nonoverlapping are both redbcast in SMPI).
func ompiAllreduce(p, n int) string {
	const (
		rb   = ompiAllreduceRB
		rdb  = ompiAllreduceRDB
		lr   = "allreduce__lr"
		seg  = "allreduce__ompi_ring_segmented"
		rabr = "allreduce__rab_rdb"
	)
	switch {
	case p < 4:
		return pick(n, []band{{8, lr}, {4096, rdb}, {8192, lr}, {16384, rdb}, {65536, lr}, {262144, seg}}, rabr)
	case p < 8:
		return pick(n, []band{{16, lr}, {8192, rdb}}, rabr)
	case p < 16:
		return pick(n, []band{{8192, rdb}}, rabr)
	case p < 32:
		return pick(n, []band{{64, seg}, {4096, rdb}}, rabr)
	case p < 64:
		return pick(n, []band{{128, seg}}, rabr)
	case p < 128:
		return pick(n, []band{{262144, rdb}}, rabr)
	case p < 256:
		return pick(n, []band{{131072, rb}, {262144, rdb}}, rabr)
	case p < 512:
		return pick(n, []band{{4096, rb}}, rabr)
	case p < 2048:
		return pick(n, []band{{2048, rb}, {16384, rdb}}, rabr)
	case p < 4096:
		return pick(n, []band{{2048, rb}, {4096, seg}, {16384, rdb}}, rabr)
	}
	return pick(n, []band{{2048, rb}, {16384, seg}, {32768, rdb}}, rabr)
}

// ompiGather is gather__ompi's decision.
func ompiGather(p, n int) string {
	const lin, bin, sync = ompiGatherLinear, ompiGatherBinomial, ompiGatherSync
	switch {
	case p < 4:
		return pick(n, []band{{2, sync}, {4, lin}, {32768, bin}, {65536, lin}, {131072, bin}}, sync)
	case p < 8:
		return pick(n, []band{{1024, bin}, {8192, lin}, {32768, bin}, {262144, lin}}, sync)
	case p < 256:
		return bin
	case p < 512:
		return pick(n, []band{{2048, bin}, {8192, lin}}, bin)
	}
	return bin
}

// ompiScatter is scatter__ompi's decision.
func ompiScatter(p, n int) string {
	const lin, bin, nb = ompiScatterLinear, ompiScatterBinom, ompiScatterNB
	switch {
	case p < 4:
		return pick(n, []band{{2, nb}, {131072, lin}, {262144, nb}}, lin)
	case p < 8:
		return pick(n, []band{{2048, bin}, {4096, lin}, {8192, bin}, {32768, lin}, {1048576, nb}}, lin)
	case p < 16:
		return pick(n, []band{{16384, bin}, {1048576, nb}}, lin)
	case p < 32:
		return pick(n, []band{{16384, bin}, {32768, lin}}, nb)
	case p < 64:
		return pick(n, []band{{512, bin}, {8192, nb}, {16384, bin}}, nb)
	}
	return pick(n, []band{{512, bin}}, nb)
}

// ompiAllgather is allgather__ompi's decision.
func ompiAllgather(p, n int) string {
	const rdb, bruck, ring, ne = ompiAllgatherRDB, ompiAllgatherBruck, ompiAllgatherRing, ompiAllgatherNE
	switch {
	case p == 2:
		return ompiAllgatherPair
	case p < 32:
		return rdb
	case p < 64:
		return pick(n, []band{{1024, rdb}, {65536, ne}}, ring)
	case p < 128:
		return pick(n, []band{{512, rdb}, {65536, ne}}, ring)
	case p < 256:
		return pick(n, []band{{512, rdb}, {131072, ne}, {524288, ring}, {1048576, ne}}, ring)
	case p < 512:
		return pick(n, []band{{32, rdb}, {128, bruck}, {1024, rdb}, {131072, ne}, {524288, ring}, {1048576, ne}}, ring)
	case p < 1024:
		return pick(n, []band{{64, rdb}, {256, bruck}, {2048, rdb}}, ne)
	case p < 2048:
		return pick(n, []band{{4, rdb}, {8, bruck}, {16, rdb}, {32, bruck}, {256, rdb}, {512, bruck}, {4096, rdb}}, ne)
	case p < 4096:
		return pick(n, []band{{32, bruck}, {128, rdb}, {512, bruck}, {4096, rdb}}, ne)
	}
	return pick(n, []band{{2, rdb}, {8, bruck}, {16, rdb}, {512, bruck}, {4096, rdb}}, ne)
}

// ompiAlltoallv is alltoallv__ompi's decision, on the number of ranks only.
func ompiAlltoallv(p int) string {
	return pick(p, []band{{4, ompiAlltoallvPair}, {64, ompiAlltoallvLin}, {128, ompiAlltoallvPair}, {256, ompiAlltoallvLin},
		{1024, ompiAlltoallvPair}}, ompiAlltoallvLin)
}

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

// ompiAllreduceRun runs allreduce__ompi's choice.
func (c *Comm) ompiAllreduceRun(m Msg, op Op) Msg {
	switch algo := ompiAllreduce(c.Size(), m.Bytes); algo {
	case ompiAllreduceRDB:
		return c.allreduceSMPIRDB(m, op)
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
		for i := 1; i < p; i++ {
			q := c.rank ^ i
			out[q] = c.smpiSendrecv(q, tagAllgather, out[c.rank], q, tagAllgather)
		}
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

// ompiAllgatherv is allgatherv__ompi's decision on the mean block size,
// which emu names when it refuses it.
func ompiAllgatherv(p, n int) string {
	const gb, bruck, ring, ne, pair = ompiAllgathervGB, "allgatherv__ompi_bruck", ompiAllgathervRing, "allgatherv__ompi_neighborexchange", "allgatherv__pair"
	switch {
	case p == 2:
		return pick(n, []band{{2048, ring}, {4096, pair}, {8192, ring}}, pair)
	case p < 8:
		return pick(n, []band{{256, gb}, {4096, ne}, {8192, ring}, {16384, ne}, {262144, bruck}}, ne)
	case p < 16:
		return pick(n, []band{{1024, gb}}, bruck)
	case p < 32:
		return pick(n, []band{{128, gb}, {262144, bruck}}, ring)
	case p < 64:
		return pick(n, []band{{256, gb}, {8192, bruck}}, ring)
	case p < 128:
		return pick(n, []band{{256, gb}, {4096, bruck}}, ring)
	case p < 256:
		return pick(n, []band{{1024, bruck}, {65536, ne}}, ring)
	case p < 512:
		return pick(n, []band{{1024, bruck}}, ring)
	case p < 1024:
		return pick(n, []band{{512, bruck}, {1024, gb}, {4096, bruck}, {1048576, ne}}, ring)
	}
	return pick(n, []band{{4096, bruck}}, ne)
}

// ompiReduceScatter is reduce_scatter__ompi's decision on the total size
// for a commutative operation, which emu names when it refuses it.
func ompiReduceScatter(p, n int) string {
	const def, halving, ring, butterfly = "reduce_scatter__default", "reduce_scatter__ompi_basic_recursivehalving", "reduce_scatter__ompi_ring", "reduce_scatter__ompi_butterfly"
	switch {
	case p < 4:
		return pick(n, []band{{65536, ring}, {131072, butterfly}}, ring)
	case p < 8:
		return pick(n, []band{{8, def}, {262144, halving}}, ring)
	case p < 32:
		return pick(n, []band{{262144, halving}}, ring)
	case p < 64:
		return pick(n, []band{{64, def}, {2048, halving}, {524288, butterfly}}, ring)
	case p < 128:
		return pick(n, []band{{256, def}, {512, halving}, {2048, butterfly}, {4096, halving}}, butterfly)
	case p < 256:
		return pick(n, []band{{256, def}, {512, halving}}, butterfly)
	case p < 512:
		return pick(n, []band{{256, def}, {1024, halving}}, butterfly)
	case p < 1024:
		return pick(n, []band{{512, def}, {2048, halving}, {8192, butterfly}, {16384, halving}}, butterfly)
	case p < 2048:
		return pick(n, []band{{512, def}, {4096, halving}, {16384, butterfly}, {32768, halving}}, butterfly)
	case p < 4096:
		return pick(n, []band{{512, def}, {4096, halving}}, butterfly)
	}
	return pick(n, []band{{1024, def}, {8192, halving}}, butterfly)
}

// Gatherv is MPI_Gatherv with this rank's block m (of any size): SMPI 3.32
// runs one algorithm for it whatever the selector (its igatherv, waited
// for), which is the linear Gather; so under the ompi set it runs that,
// and under the others Gather's algorithm (the linear one under "smpi").
func (c *Comm) Gatherv(root int, m Msg) []Msg {
	if c.r.w.cfg.Selector != CollectivesOMPI {
		return c.Gather(root, m)
	}
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Gather"))
	c.checkRank("Gather", root)
	m.Bytes = m.size()
	return c.gatherLinear(root, m)
}

// Scatterv is MPI_Scatterv (parts of any sizes, read on root only): as
// Gatherv, SMPI's one algorithm (its iscatterv) under the ompi set, the
// linear Scatter; Scatter's algorithm under the others.
func (c *Comm) Scatterv(root int, parts []Msg) Msg {
	if c.r.w.cfg.Selector != CollectivesOMPI {
		return c.Scatter(root, parts)
	}
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Scatter"))
	c.checkRank("Scatter", root)
	if c.rank == root && len(parts) != c.Size() {
		panic("ranks: Scatter needs one part per rank")
	}
	return c.scatterLinear(root, parts)
}

// Allgatherv is MPI_Allgatherv with this rank's block m; counts[i] is
// rank i's block size in bytes (MPI's recvcounts times the datatype's
// size) and displs[i] its offset in the receive buffer, bytes (nil: the
// blocks end to end), the same on every rank. Under the ompi set it runs
// Open MPI's pick: allgatherv__GB (a Gatherv to rank 0, then a Bcast of
// the buffer up to its furthest block's end, max displs[i]+counts[i], by
// bcast__ompi's own choice) or allgatherv__mpich_ring (below); its other
// picks stop the run. Under the other sets it runs Allgather's algorithm
// (SMPI's default under "smpi").
func (c *Comm) Allgatherv(m Msg, counts, displs []int) []Msg {
	p := c.Size()
	if c.r.w.cfg.Selector != CollectivesOMPI {
		return c.Allgather(m)
	}
	if len(counts) != p {
		panic("ranks: Allgatherv needs one count per rank")
	}
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Allgather"))
	total, end := 0, 0
	for i, n := range counts {
		at := total
		if displs != nil {
			at = displs[i]
		}
		total += n
		end = max(end, at+n)
	}
	m.Bytes = m.size()
	switch algo := ompiAllgatherv(p, total/p); algo {
	case ompiAllgathervGB:
		out := c.gatherLinear(0, m)
		all := c.ompiBcastRun(0, Msg{Bytes: end, parts: out})
		return all.parts
	case ompiAllgathervRing:
		return c.allgathervRing(m, counts)
	default:
		c.refuse("MPI_Allgatherv", total, algo, "")
	}
	return nil
}

// allgathervRing is SMPI's allgatherv__mpich_ring: blocks travel to the
// right around the ring, each cut into chunks of the least block's size
// but at least 256 KiB; at each step a rank sends its next chunk to the
// right and receives the next from the left, by one Sendrecv, or a
// blocking send or receive alone when only one side has data left.
func (c *Comm) allgathervRing(m Msg, counts []int) []Msg {
	p, me := c.Size(), c.rank
	out := make([]Msg, p)
	out[me] = m
	left, right := (me+p-1)%p, (me+1)%p
	total, least := 0, counts[0]
	for _, n := range counts {
		total += n
		least = min(least, n)
	}
	chunk := max(least, 32768*8)
	torecv, tosend := total-counts[me], total-counts[right]
	sidx, ridx, soff, roff := me, left, 0, 0
	for tosend > 0 || torecv > 0 {
		sendnow, recvnow := min(counts[sidx]-soff, chunk), min(counts[ridx]-roff, chunk)
		if tosend == 0 {
			sendnow = 0
		}
		if torecv == 0 {
			recvnow = 0
		}
		// a block's last chunk carries the block, for its payload
		piece := Msg{Bytes: sendnow}
		if soff+sendnow == counts[sidx] {
			piece.parts = []Msg{out[sidx]}
		}
		var x Msg
		switch {
		case sendnow == 0 && recvnow == 0:
		case sendnow == 0:
			x = c.recv(left, tagAllgather)
		case recvnow == 0:
			c.send(right, tagAllgather, piece)
		default:
			x = c.smpiSendrecv(right, tagAllgather, piece, left, tagAllgather)
		}
		tosend -= sendnow
		torecv -= recvnow
		if x.parts != nil {
			out[ridx] = x.parts[0]
		}
		if soff += sendnow; soff == counts[sidx] {
			soff, sidx = 0, (sidx+p-1)%p
		}
		if roff += recvnow; roff == counts[ridx] {
			if out[ridx].Bytes == 0 && out[ridx].Data == nil {
				out[ridx] = Msg{Bytes: counts[ridx]}
			}
			roff, ridx = 0, (ridx+p-1)%p
		}
	}
	return out
}
