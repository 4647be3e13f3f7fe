package ranks

// mpichPairThreshold is the number of elements above which SMPI's
// reduce_scatter__mpich takes its pairwise algorithm (at most: recursive
// doubling), for a commutative operation.
const mpichPairThreshold = 524288

// ReduceScatter combines every member's parts with op, part by part, and
// returns this rank's part of the result: parts[i] of every rank combined
// (MPI_Reduce_scatter; parts holds one entry per rank, of the same sizes on
// every rank). elem is the size of an element in bytes (the datatype's), by
// which SMPI picks its algorithm. As SMPI's default: with parts of equal
// sizes, a Reduce of the whole vector to rank 0 then a Scatter of its
// parts (Config.ReduceAlgo and ScatterAlgo); with unequal ones, MPICH's
// pairwise exchange above 524,288 elements in all, else its recursive
// doubling (reduce_scatter__mpich_pair and _rdb, SimGrid 3.32).
func (c *Comm) ReduceScatter(parts []Msg, op Op, elem int) Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Reduce_scatter"))
	p, me := c.Size(), c.rank
	if len(parts) != p {
		panic("ranks: ReduceScatter needs one part per rank")
	}
	blocks := make([]Msg, p)
	total, regular := 0, true
	for i, m := range parts {
		blocks[i] = m
		blocks[i].Bytes = m.size()
		total += blocks[i].Bytes
		regular = regular && blocks[i].Bytes == blocks[0].Bytes
	}
	if c.r.w.cfg.Selector == CollectivesOMPI {
		c.refuse("MPI_Reduce_scatter", total, ompiReduceScatter(p, total), "")
	}
	if regular {
		// The whole vector (the parts' data end to end) is reduced to
		// rank 0, cut back into parts there and scattered.
		whole := Msg{Bytes: total}
		for _, b := range blocks {
			whole.Data = append(whole.Data, b.Data...)
		}
		if len(whole.Data) == 0 {
			whole.Data = nil
		}
		r := c.Reduce(0, whole, op)
		var out []Msg
		if me == 0 {
			out = make([]Msg, p)
			at := 0
			for i, b := range blocks {
				out[i] = Msg{Bytes: b.Bytes}
				if n := len(b.Data); n > 0 && len(r.Data) >= at+n {
					out[i].Data = r.Data[at : at+n : at+n]
					at += n
				}
			}
		}
		return c.Scatter(0, out)
	}
	if elem > 0 && total/elem > mpichPairThreshold {
		return c.reduceScatterPair(blocks, op)
	}
	return c.reduceScatterRDB(blocks, op)
}

// reduceScatterPair is reduce_scatter__mpich_pair: at step i a Sendrecv of
// the part of rank+i, to it, from rank−i, combined into this rank's part.
func (c *Comm) reduceScatterPair(blocks []Msg, op Op) Msg {
	p, me := c.Size(), c.rank
	acc := blocks[me]
	for i := 1; i < p; i++ {
		dst, src := (me+i)%p, (me-i+p)%p
		x := c.smpiSendrecv(dst, tagReduceScatter, blocks[dst], src, tagReduceScatter)
		acc = combine(op, acc, x)
	}
	return acc
}

// reduceScatterRDB is reduce_scatter__mpich_rdb, recursive doubling: at the
// step of each power of two mask < p a rank exchanges with rank^mask every
// part outside its own subtree's (the parts of ranks mask-aligned with it)
// and combines what it gets, the parts outside the partner's subtree;
// with p no power of two, the ranks whose partner does not exist get those
// parts from a rank of the subtree that had them, down a binomial tree.
func (c *Comm) reduceScatterRDB(blocks []Msg, op Op) Msg {
	p, me := c.Size(), c.rank
	results := append([]Msg(nil), blocks...)
	tmp := make([]Msg, p) // tmp_recvbuf: the parts last received
	outside := func(parts []Msg, root, mask int) []Msg {
		var sel []Msg
		for j := range parts {
			if j < root || j >= root+mask {
				sel = append(sel, parts[j])
			}
		}
		return sel
	}
	into := func(dst []Msg, x Msg, root, mask int) {
		k := 0
		for j := range dst {
			if j < root || j >= root+mask {
				dst[j] = x.parts[k]
				k++
			}
		}
	}
	for i, mask := 0, 1; mask < p; i, mask = i+1, mask<<1 {
		dst := me ^ mask
		dstRoot, myRoot := dst>>i<<i, me>>i<<i
		received := false
		if dst < p {
			x := c.smpiSendrecv(dst, tagReduceScatter, packed(outside(results, myRoot, mask)), dst, tagReduceScatter)
			into(tmp, x, dstRoot, mask)
			received = true
		}
		if dstRoot+mask > p {
			done := p - myRoot - mask
			k := 0
			for j := mask; j != 0; j >>= 1 {
				k++
			}
			k--
			for t := mask >> 1; t > 0; t >>= 1 {
				peer := me ^ t
				root := me >> k << k
				switch {
				case peer > me && me < root+done && peer >= root+done:
					c.send(peer, tagReduceScatter, packed(outside(tmp, dstRoot, mask)))
				case peer < me && peer < root+done && me >= root+done:
					into(tmp, c.recv(peer, tagReduceScatter), dstRoot, mask)
					received = true
				}
				k--
			}
		}
		if received {
			for j := range results {
				if j < dstRoot || j >= dstRoot+mask {
					results[j] = combine(op, results[j], tmp[j])
				}
			}
		}
	}
	return results[me]
}

// smpiSendrecv is SMPI's Request::sendrecv: the isend posted before the
// irecv, then both waited for in the order they complete (its waitall).
// It returns the message received.
func (c *Comm) smpiSendrecv(dst, sendTag int, m Msg, src, recvTag int) Msg {
	reqs := []*Request{c.isend(dst, sendTag, m, false), c.irecv(src, recvTag)}
	var got Msg
	for {
		k, x, _ := Waitany(reqs)
		if k < 0 {
			return got
		}
		if k == 1 {
			got = x
		}
	}
}
