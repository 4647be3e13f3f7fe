package sensitivity

// blockBits sets the size of a column's blocks: 1<<16 entries, 256 KiB of
// 4-byte values, small next to a recorded HPL's tens of millions of
// vertices and edges and large enough that the block index stays short.
const (
	blockBits = 16
	blockLen  = 1 << blockBits
	blockMask = blockLen - 1
)

// column is a growable array of 4-byte values kept in fixed-size blocks:
// appending never copies what is already there. A slice grown by append
// copies itself at each growth, and until the collector runs the old copy
// and the new one are both held; for the vertex and edge arrays of a
// recorded HPL that was most of what emu run --graph held beyond the graph
// itself (docs/evidence/graphchunk.md). The first block grows by doubling
// up to blockLen, so a small graph costs no more than a slice; every later
// block is made at its full size.
type column[T ~int32 | ~uint32] struct {
	blocks [][]T // each full (blockLen entries) but the last
	n      int
}

// len is the number of entries.
func (c *column[T]) len() int { return c.n }

// at is entry i.
func (c *column[T]) at(i int) T { return c.blocks[i>>blockBits][i&blockMask] }

// set makes entry i x.
func (c *column[T]) set(i int, x T) { c.blocks[i>>blockBits][i&blockMask] = x }

// add adds d to entry i.
func (c *column[T]) add(i int, d T) { c.blocks[i>>blockBits][i&blockMask] += d }

// append adds x at the end.
func (c *column[T]) append(x T) {
	if k := len(c.blocks) - 1; k >= 0 && len(c.blocks[k]) < cap(c.blocks[k]) {
		c.blocks[k] = append(c.blocks[k], x)
		c.n++
		return
	}
	c.room(1)
	k := len(c.blocks) - 1
	c.blocks[k] = append(c.blocks[k], x)
	c.n++
}

// room makes the last block able to take at least one more entry, and n
// more where that still fits in one block. Blocks come at their full size
// but the first, which grows by doubling, and the last of makeColumn's.
func (c *column[T]) room(n int) {
	k := len(c.blocks) - 1
	switch {
	case k < 0:
		c.blocks = append(c.blocks, make([]T, 0, min(max(n, 8), blockLen)))
	case len(c.blocks[k]) == blockLen:
		c.blocks = append(c.blocks, make([]T, 0, blockLen))
	case cap(c.blocks[k])-len(c.blocks[k]) < n:
		b := c.blocks[k]
		nb := make([]T, len(b), min(max(2*cap(b), len(b)+n), blockLen))
		copy(nb, b)
		c.blocks[k] = nb
	}
}

// reserve makes room for n more entries in the last block, as far as it
// can hold them, which saves growing a small first block step by step;
// beyond it blocks come as they are needed.
func (c *column[T]) reserve(n int) {
	if n > 0 {
		c.room(n)
	}
}

// makeColumn is a column of n zero entries.
func makeColumn[T ~int32 | ~uint32](n int) column[T] {
	c := column[T]{n: n}
	for n > 0 {
		k := min(n, blockLen)
		c.blocks = append(c.blocks, make([]T, k))
		n -= k
	}
	return c
}

// columnOf is a column holding s's entries.
func columnOf[T ~int32 | ~uint32](s []T) column[T] {
	c := makeColumn[T](len(s))
	for k, b := range c.blocks {
		copy(b, s[k<<blockBits:])
	}
	return c
}

// slice is a contiguous copy of the entries.
func (c *column[T]) slice() []T {
	s := make([]T, 0, c.n)
	for _, b := range c.blocks {
		s = append(s, b...)
	}
	return s
}

// The passes over a graph (the evaluator's run, asymptote and parametric
// pass, Runtime) read every vertex's in-edges in turn, so they walk the
// edge columns with a cursor held in local variables, which the compiler
// keeps in registers: the block of each column that holds the next edge,
// the index of its first entry and the next block. A vertex's in-edges are
// read as index runs within a block, a run ending where the vertex's edges
// or the block end, so the inner loops index plain slices instead of
// paying at's shift, mask and block lookup per entry
// (docs/evidence/evalmem.md). The vertex columns are walked block by block
// the same way, each vertex's in-edges ending where inEnd says.

// inEnd is inStart(v+1) for the vertex v whose inStart entry is is[j] (is
// a block of inStart): the end of v's in-edges.
func (g *Graph) inEnd(is []int32, j, v int) int {
	if j+1 < len(is) {
		return int(is[j+1])
	}
	return int(g.inStart.at(v + 1))
}
