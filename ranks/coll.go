package ranks

import "fmt"

// Op is a reduction operator, applied elementwise to Msg.Data.
type Op uint8

// The reduction operators.
const (
	Sum Op = iota
	Max
	Min
)

func (op Op) String() string {
	switch op {
	case Sum:
		return "Sum"
	case Max:
		return "Max"
	case Min:
		return "Min"
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// combine returns op(a, b) elementwise in a fresh slice (never aliasing an
// input). In model mode (nil Data) only the size is kept. Reductions cost
// no simulated time, as in SMPI's online mode.
func combine(op Op, a, b Msg) Msg {
	out := Msg{Bytes: a.size()}
	if a.Data == nil || b.Data == nil {
		if a.Data != nil {
			out.Data = append([]float64(nil), a.Data...)
		} else if b.Data != nil {
			out.Data = append([]float64(nil), b.Data...)
		}
		return out
	}
	if len(a.Data) != len(b.Data) {
		panic(fmt.Sprintf("ranks: %v reduction of %d and %d elements", op, len(a.Data), len(b.Data)))
	}
	out.Data = make([]float64, len(a.Data))
	for i, x := range a.Data {
		y := b.Data[i]
		switch op {
		case Sum:
			out.Data[i] = x + y
		case Max:
			out.Data[i] = max(x, y)
		case Min:
			out.Data[i] = min(x, y)
		default:
			panic(fmt.Sprintf("ranks: unknown reduction %v", op))
		}
	}
	return out
}

// Tags of the collectives' internal messages: negative, so that no user
// receive (AnyTag included) can take them.
const (
	tagBarrier = -10 - iota
	tagBcast
	tagReduce
	tagGather
	tagScatter
	tagAllreduce
	tagAllgather
	tagAlltoall
	tagSplit
	tagScan
	tagReduceScatter
)

// send (p2p.go) and recv are the collectives' blocking point-to-point
// calls; they pay the same overheads, protocols and network costs as the
// user's.
func (c *Comm) recv(src, tag int) Msg {
	q := c.irecv(src, tag)
	m, _ := q.wait("Recv")
	q.w.recycle(q)
	return m
}

// packed returns a message carrying parts by reference, sized as their sum.
func packed(parts []Msg) Msg {
	n := 0
	for _, p := range parts {
		n += p.size()
	}
	return Msg{Bytes: n, parts: parts}
}

// Barrier blocks until every member has entered it (Config.BarrierAlgo:
// dissemination by default, or linear through rank 0 as SMPI's default,
// barrier__ompi_basic_linear: rank 0 posts every receive, waits for them,
// then posts every send and waits for them).
func (c *Comm) Barrier() {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Barrier"))
	p, me := c.Size(), c.rank
	switch c.r.w.cfg.BarrierAlgo {
	case AlgoLinear:
		c.barrierLinear()
		return
	case AlgoOMPI:
		c.ompiBarrierRun()
		return
	}
	// Dissemination: in round k every rank signals rank+2^k and waits for
	// rank−2^k; after ceil(log2 p) rounds everyone has heard from everyone.
	for mask := 1; mask < p; mask <<= 1 {
		c.sendrecv((me+mask)%p, tagBarrier, Msg{}, (me-mask+p)%p, tagBarrier)
	}
}

// barrierLinear is SMPI's barrier__ompi_basic_linear.
func (c *Comm) barrierLinear() {
	p, me := c.Size(), c.rank
	if me == 0 {
		reqs := make([]*Request, 0, p-1)
		for i := 1; i < p; i++ {
			reqs = append(reqs, c.irecv(i, tagBarrier))
		}
		Waitall(reqs...)
		reqs = reqs[:0]
		for i := 1; i < p; i++ {
			reqs = append(reqs, c.isend(i, tagBarrier, Msg{}, false))
		}
		Waitall(reqs...)
		return
	}
	c.send(0, tagBarrier, Msg{})
	c.recv(0, tagBarrier)
}

// Bcast sends root's message to every member and returns it (Config.
// BcastAlgo: binomial tree by default, or linear). Non-root ranks' m is
// ignored, but for its size under "ompi", whose decision reads every
// rank's count (give each rank the size root sends).
func (c *Comm) Bcast(root int, m Msg) Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Bcast"))
	c.checkRank("Bcast", root)
	p, me := c.Size(), c.rank
	if me == root {
		m.Bytes = m.size()
	}
	if c.r.w.cfg.BcastAlgo == AlgoOMPI {
		// Open MPI's decision reads every rank's count: m's size here.
		return c.ompiBcastRun(root, m)
	}
	if c.r.w.cfg.BcastAlgo == AlgoLinear {
		if me != root {
			return c.recv(root, tagBcast)
		}
		reqs := make([]*Request, 0, p-1)
		for i := 0; i < p; i++ {
			if i != root {
				reqs = append(reqs, c.isend(i, tagBcast, m, false))
			}
		}
		Waitall(reqs...)
		return m
	}
	return c.bcastBinomial(root, m)
}

// bcastBinomial is the binomial tree on ranks relative to the root (SMPI's
// bcast__binomial_tree): a rank receives from rel − lowbit(rel), then
// sends to rel + mask for each smaller mask, blocking.
func (c *Comm) bcastBinomial(root int, m Msg) Msg {
	p, me := c.Size(), c.rank
	rel := (me - root + p) % p
	mask := 1
	for ; mask < p; mask <<= 1 {
		if rel&mask != 0 {
			m = c.recv((rel-mask+root)%p, tagBcast)
			break
		}
	}
	for mask >>= 1; mask > 0; mask >>= 1 {
		if rel+mask < p {
			c.send((rel+mask+root)%p, tagBcast, m)
		}
	}
	return m
}

// Reduce combines every member's m with op at root and returns the result
// there (a zero Msg elsewhere). Config.ReduceAlgo: binomial, or linear as
// SMPI's default (its non-blocking ireduce, waited for: every rank but the
// root isends to it and waits; the root posts every receive, in rank
// order, then waits for them all: in rank order, or under WakeSimGrid in
// the order they complete, SMPI's waitall).
func (c *Comm) Reduce(root int, m Msg, op Op) Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Reduce"))
	c.checkRank("Reduce", root)
	p, me := c.Size(), c.rank
	m.Bytes = m.size()
	if c.r.w.cfg.ReduceAlgo == AlgoOMPI {
		return c.ompiReduceRun(root, m, op)
	}
	if c.r.w.cfg.ReduceAlgo == AlgoLinear {
		if me != root {
			Waitall(c.isend(root, tagReduce, m, false))
			return Msg{}
		}
		reqs := make([]*Request, p)
		for i := range reqs {
			if i != root {
				reqs[i] = c.irecv(i, tagReduce)
			}
		}
		// Under WakeSimGrid, as SMPI: the ireduce's wait is a waitall on
		// the receives (finish_nbc_requests), which takes them in the
		// order they complete; the op is applied in rank order after.
		sg := c.r.w.simgrid
		if sg {
			Waitall(reqs...)
		}
		acc := m
		for _, q := range reqs {
			if q != nil {
				x := q.msg
				if !sg {
					x, _ = q.wait("Reduce")
				}
				acc = combine(op, acc, x)
			}
		}
		return acc
	}
	// Binomial: at bit k a rank with bit k set sends its partial result to
	// the rank without it and leaves; the others receive and combine.
	rel := (me - root + p) % p
	acc := m
	for mask := 1; mask < p; mask <<= 1 {
		if rel&mask != 0 {
			c.send((rel&^mask+root)%p, tagReduce, acc)
			return Msg{}
		}
		if src := rel | mask; src < p {
			acc = combine(op, acc, c.recv((src+root)%p, tagReduce))
		}
	}
	return acc
}

// Allreduce combines every member's m with op and returns the result on
// all (Config.AllreduceAlgo: recursive doubling, ring or reduce_bcast;
// "ompi" for any of Open MPI's picks, ompi.go, as every collective). Its
// elements are doubles (8 B): AllreduceElem names another size.
func (c *Comm) Allreduce(m Msg, op Op) Msg { return c.AllreduceElem(m, op, 8) }

// AllreduceElem is Allreduce of elements of elem bytes (the datatype's
// size), by which some of Open MPI's algorithms cut the vector (the ompi
// set's allreduce__rab_rdb); the other algorithms ignore it.
func (c *Comm) AllreduceElem(m Msg, op Op, elem int) Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Allreduce"))
	m.Bytes = m.size()
	switch c.r.w.cfg.AllreduceAlgo {
	case AlgoRing:
		return c.allreduceRing(m, op)
	case AlgoReduceBcast:
		return c.Bcast(0, c.Reduce(0, m, op))
	case AlgoOMPI:
		return c.ompiAllreduceRun(m, op, elem)
	}
	return c.allreduceRDB(m, op)
}
