package ranks

// Scan returns on rank i the combination with op of the messages of ranks
// 0..i (MPI_Scan); Exscan that of ranks 0..i−1, and a zero Msg on rank 0
// (MPI_Exscan). Both are SMPI's only algorithm, linear: every rank posts a
// receive from each lower rank and a send to each higher one, waits for
// them all, then combines in rank order — p(p−1)/2 messages.
func (c *Comm) Scan(m Msg, op Op) Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Scan"))
	return c.scan(m, op, true)
}

// Exscan: see Scan.
func (c *Comm) Exscan(m Msg, op Op) Msg {
	defer c.r.mpiExit(c.r.mpiEnter("MPI_Exscan"))
	return c.scan(m, op, false)
}

func (c *Comm) scan(m Msg, op Op, inclusive bool) Msg {
	p, me := c.Size(), c.rank
	m.Bytes = m.size()
	reqs := make([]*Request, 0, p-1)
	for other := 0; other < me; other++ {
		reqs = append(reqs, c.irecv(other, tagScan))
	}
	for other := me + 1; other < p; other++ {
		reqs = append(reqs, c.isend(other, tagScan, m, false))
	}
	var acc Msg
	have := false
	for i, q := range reqs {
		x, _ := q.wait("Scan")
		if i >= me {
			continue // a send
		}
		if have {
			acc = combine(op, acc, x)
		} else {
			acc, have = x, true
		}
	}
	if inclusive {
		if have {
			acc = combine(op, acc, m)
		} else {
			acc = m
		}
	}
	return acc
}
