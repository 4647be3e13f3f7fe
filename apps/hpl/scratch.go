package hpl

import "math/bits"

// Per-rank scratch for the swap index computations (swapindex.go). HPL
// allocates nothing per panel beyond its workspace; the port computed these
// arrays with fresh slices and maps on every panel, and in model mode, where
// no floating-point work is done, that bookkeeping was most of the CPU. The
// buffers here live as long as the solver and are only used between two
// points with no MPI call in between, so no other panel can see them.

// swapScratch holds the reusable arrays; each method documents which it uses.
type swapScratch struct {
	// number: an open-addressing table from row to id; a slot is in use when
	// it holds the current generation, so starting afresh costs nothing.
	rows []rowSlot
	cur  uint32

	dstID []int // pipid: row id of each DPIV entry
	at    []int // pipid: row id → index (odd) of the row in ipid, −1 when absent
	ids   []int // pipid: row id of each ipid entry (−1 for a placeholder), for nextOf
	bySrc []int // nextOf: row id → dst of the first move from that row, −1 when none

	slot, permU []int // buildSpread's position-ordered slots and final rows of U
	next        []int // buildSpread: next free slot of each position's piece
	rowOffs     []int // buildSpread: each process row's local offset of the panel
	rows1       []int // buildSpread: entries of each process row's lindxA

	readRows, writeRows []int // laswp.go's moves: rows of A a call reads and writes
	llen                []int // plindx0's rows per process row, before the Shared list keeps a copy

	// swapBinary's hypercube counts (hypercubeRows): unlike the others, held
	// across the hypercube's messages, which is safe as a rank makes one
	// swap at a time and only swapBinary uses them
	pre []int

	iwork, lindxA, where, inv []int // perm
}

// rowSlot is one slot of number's table, in one piece so a probe touches one
// cache line.
type rowSlot struct {
	row int
	id  int32
	gen uint32
}

// zeroed returns buf resized to n with every element zero, reusing its array
// when it is large enough.
func zeroed[T int | float64](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	buf = buf[:n]
	clear(buf)
	return buf
}

// filled returns buf resized to n with every element v.
func filled(buf []int, n, v int) []int {
	if cap(buf) < n {
		buf = make([]int, n)
	}
	buf = buf[:n]
	for i := range buf {
		buf[i] = v
	}
	return buf
}

// number gives dense ids to the rows a panel at ia of width jb can name (its
// moves are between its own rows and the pivot rows dpiv names, all ≥ ia): row
// ia+i is i, and each row ≥ ia+jb gets the next id the first time dpiv names
// it. The ids only index arrays, so their order does not matter. It returns the
// id of each dpiv entry, in sc.dstID, and how many ids there are.
func (sc *swapScratch) number(ia, jb int, dpiv []float64) ([]int, int) {
	if size := len(sc.rows); size < 2*jb { // at most half full: short probe runs
		size = max(size, 8)
		for size < 2*jb {
			size <<= 1
		}
		sc.rows = make([]rowSlot, size)
		sc.cur = 0
	}
	rows := sc.rows
	mask := len(rows) - 1
	shift := 65 - bits.Len(uint(len(rows))) // the hash's top log2(size) bits
	sc.cur++
	if sc.cur == 0 { // the generation wrapped: stale slots could look in use
		clear(rows)
		sc.cur = 1
	}
	dstID := zeroed(sc.dstID, jb)
	n := jb
	for i, d := range dpiv[:jb] {
		r := int(d)
		if r-ia < jb {
			dstID[i] = r - ia
			continue
		}
		h := int(uint64(r)*0x9E3779B97F4A7C15>>shift) & mask // Fibonacci hashing
		for rows[h].gen == sc.cur && rows[h].row != r {
			h = (h + 1) & mask
		}
		if rows[h].gen != sc.cur {
			rows[h] = rowSlot{row: r, id: int32(n), gen: sc.cur}
			n++
		}
		dstID[i] = int(rows[h].id)
	}
	sc.dstID = dstID
	return dstID, n
}
