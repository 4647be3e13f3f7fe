package hpl

import "math"

// HPL's own tree collectives on tag 9001 (hpl.md §2.4). HPL never calls an MPI
// collective; these binomial trees are what its messages look like. Values travel
// as float64 whatever their C type; elem is the C type's size in bytes so the wire
// size is HPL's (4 for MPI_INT, 8 for MPI_DOUBLE).

type reduceOp uint8

const (
	opSum reduceOp = iota
	opMax
	opMin
)

// treeBcast broadcasts buf (count values) from root; returns the received values.
func treeBcast(c commPort, root int, buf []float64, count, elem int) []float64 {
	size := c.size()
	if size <= 1 || count <= 0 {
		return buf
	}
	d := modSub(c.rank(), root, size)
	for s := pow2floor(size - 1); s >= 1; s /= 2 {
		if d%s != 0 {
			continue
		}
		if d&s != 0 {
			buf = c.recv(modAdd(d-s, root, size), tagTree)
		} else if d+s < size {
			c.send(modAdd(d+s, root, size), tagTree, count*elem, buf)
		}
	}
	return buf
}

// treeReduce combines buf element-wise at root; only root's result is meaningful.
func treeReduce(c commPort, root int, buf []float64, count, elem int, op reduceOp) []float64 {
	size := c.size()
	if size <= 1 || count <= 0 {
		return buf
	}
	d := modSub(c.rank(), root, size)
	for s := 1; s < size; s *= 2 {
		if d%s != 0 {
			break
		}
		if d&s != 0 {
			c.send(modAdd(d-s, root, size), tagTree, count*elem, buf)
			break
		}
		if d+s < size {
			in := c.recv(modAdd(d+s, root, size), tagTree)
			buf = combine(buf, in, op)
		}
	}
	return buf
}

// combine applies op element-wise (own := op(received, own)); nil slices (model
// mode) stay nil.
func combine(own, in []float64, op reduceOp) []float64 {
	if own == nil || in == nil {
		return own
	}
	for i := range own {
		if i >= len(in) {
			break
		}
		switch op {
		case opSum:
			own[i] += in[i]
		case opMax:
			own[i] = math.Max(in[i], own[i])
		case opMin:
			own[i] = math.Min(in[i], own[i])
		}
	}
	return own
}

// treeAllreduce is reduce to 0 then broadcast from 0.
func treeAllreduce(c commPort, buf []float64, count, elem int, op reduceOp) []float64 {
	buf = treeReduce(c, 0, buf, count, elem, op)
	return treeBcast(c, 0, buf, count, elem)
}

// treeBarrier is a broadcast of one int from 0.
func treeBarrier(c commPort) {
	treeBcast(c, 0, []float64{0}, 1, bytesPerInt)
}
