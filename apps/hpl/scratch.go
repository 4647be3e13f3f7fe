package hpl

import "slices"

// Per-rank scratch for the swap index computations (swapindex.go). HPL
// allocates nothing per panel beyond its workspace; the port computed these
// arrays with fresh slices and maps on every panel, and in model mode, where
// no floating-point work is done, that bookkeeping was most of the CPU. The
// buffers here live as long as the solver and are only used between two
// points with no MPI call in between, so no other panel can see them.

// swapScratch holds the reusable arrays; each method documents which it uses.
type swapScratch struct {
	// rowIDs: the rows a panel's moves name, numbered densely.
	ia, jb int
	far    []int // sorted distinct rows ≥ ia+jb that the moves name

	dstID []int // pipid: row id of each DPIV entry
	at    []int // pipid: row id → index (odd) of the row in ipid, −1 when absent
	ids   []int // pipid: row id of each ipid entry (−1 for a placeholder), for nextOf
	bySrc []int // nextOf: row id → dst of the first move from that row, −1 when none

	slot, permU []int // plindx1's position-ordered slots and final rows of U

	iwork, lindxA, where, inv []int // perm
}

// zeroed returns buf resized to n with every element zero, reusing its array
// when it is large enough.
func zeroed(buf []int, n int) []int {
	if cap(buf) < n {
		return make([]int, n)
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

// number starts a dense numbering of the rows a panel at ia of width jb can
// name: its own rows ia … ia+jb−1 become 0 … jb−1 and the rows ≥ ia+jb that
// the caller put in far (repeats allowed: far is sorted and deduplicated in
// place) follow in increasing order. It returns how many ids there are.
func (sc *swapScratch) number(ia, jb int) int {
	sc.ia, sc.jb = ia, jb
	slices.Sort(sc.far)
	sc.far = slices.Compact(sc.far)
	return jb + len(sc.far)
}

// id is the number of row, which must be one of the rows given to number.
func (sc *swapScratch) id(row int) int {
	if d := row - sc.ia; d < sc.jb {
		return d
	}
	k, _ := slices.BinarySearch(sc.far, row)
	return sc.jb + k
}
