package hpl

// Block-cyclic index arithmetic and the process grid (hpl.md §2). Every function
// is pure integer arithmetic shared by all ranks, so all ranks agree on sizes
// without exchanging them.

// numroc is how many of the global indices 0..n-1 process p of np owns with
// block size nb (distribution starting at process 0).
func numroc(n, nb, p, np int) int {
	blocks := n / nb
	cnt := (blocks / np) * nb
	extra := blocks % np
	if p < extra {
		cnt += nb
	} else if p == extra {
		cnt += n % nb
	}
	return cnt
}

// numrocI is how many of the global indices i..i+n-1 process p owns.
func numrocI(n, i, nb, p, np int) int {
	return numroc(i+n, nb, p, np) - numroc(i, nb, p, np)
}

// prevProc is modSub(a, 1, n) for 0 ≤ a < n, without its two divisions.
func prevProc(a, n int) int {
	if a == 0 {
		return n - 1
	}
	return a - 1
}

// g2p is the process owning global index g.
func g2p(g, nb, np int) int { return (g / nb) % np }

// g2l is the local index of global index g on its owner.
func g2l(g, nb, np int) int { return (g/(nb*np))*nb + g%nb }

// l2g is the global index of local index l on process p.
func l2g(l, nb, p, np int) int { return (l/nb)*nb*np + p*nb + l%nb }

// pow2floor is the largest power of two ≤ x (x ≥ 1).
func pow2floor(x int) int {
	p := 1
	for p*2 <= x {
		p *= 2
	}
	return p
}

// log2 of a power of two.
func log2(x int) int {
	h := 0
	for x > 1 {
		x >>= 1
		h++
	}
	return h
}

// modSub is (a - b) mod n, non-negative.
func modSub(a, b, n int) int { return ((a-b)%n + n) % n }

// modAdd is (a + b) mod n.
func modAdd(a, b, n int) int { return (a + b) % n }

// grid is one rank's view of the P×Q process grid and its three communicators.
type grid struct {
	p, q         int
	myrow, mycol int
	all          commPort // the P·Q ranks of the grid
	row          commPort // the Q ranks of my process row; my rank in it is mycol
	col          commPort // the P ranks of my process column; my rank in it is myrow
}

// gridCoords places world rank r on the grid (hpl.md §2.1).
func gridCoords(r, p, q int, m PMap) (row, col int) {
	if m == ColumnMajor {
		return r % p, r / p
	}
	return r / q, r % q
}

// newGrid splits world into the grid, row and column communicators as HPL_grid_init
// does. Ranks ≥ P·Q take part in the split and get nil.
func newGrid(world commPort, p, q int, m PMap) *grid {
	r := world.rank()
	in := r < p*q
	color := 0
	if !in {
		color = -1 // MPI_UNDEFINED: no communicator
	}
	all := world.split(color, r)
	if !in {
		return nil
	}
	row, col := gridCoords(r, p, q, m)
	g := &grid{p: p, q: q, myrow: row, mycol: col, all: all}
	g.row = all.split(row, col)
	g.col = all.split(col, row)
	return g
}
