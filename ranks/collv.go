package ranks

// The v-collectives (blocks of differing sizes): one algorithm in SMPI
// whatever the selector but for allgatherv, which the ompi set picks.

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
// bcast__ompi's own choice), allgatherv__mpich_ring (below), or
// allgatherv__ompi_bruck, _ompi_neighborexchange (SMPI's allgatherv__ring
// on an odd number of ranks) and _pair, which send the blocks as the
// allgathers of those names do (SMPI's indexed datatypes: a message is
// its blocks' sizes summed; a rank's exchange with itself is a copy). Under the other sets it runs Allgather's algorithm
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
	algo := ompiAllgatherv(p, total/p)
	switch algo {
	case ompiAllgathervGB:
		out := c.gatherLinear(0, m)
		all := c.ompiBcastRun(0, Msg{Bytes: end, parts: out})
		return all.parts
	case ompiAllgathervRing:
		return c.allgathervRing(m, counts)
	}
	// the allgather algorithms of the same names, each block its own size
	out := make([]Msg, p)
	out[c.rank] = m
	switch algo {
	case ompiAllgathervBrk:
		c.allgatherSMPIBruck(out)
	case ompiAllgathervNE:
		if p%2 == 1 {
			c.allgatherSMPIRing(out) // SMPI's allgatherv__ring
		} else {
			c.allgatherOMPINeighbor(out)
		}
	case ompiAllgathervPair: // picked on 2 ranks only, a power of two as it needs
		c.ompiAllgatherPairs(out)
	}
	return out
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
