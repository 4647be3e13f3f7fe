package hpl

// HPL's matrix generator, bit for bit (hpl.md §10.1): a 64-bit linear congruential
// sequence X(k+1) = a·X(k) + c mod 2⁶⁴ fills the global N×(N+1) matrix [A | b]
// column by column, entry (i, j) taking X(1 + j·N + i). It does not depend on the
// distribution, so each rank jumps straight to its own entries.

const (
	lcgMul  uint64 = 6364136223846793005
	lcgAdd  uint64 = 1
	lcgSeed uint64 = 100
)

// lcgJump returns (A, C) with X(k+s) = A·X(k) + C, by binary powering of the
// affine map.
func lcgJump(s uint64) (uint64, uint64) {
	A, C := uint64(1), uint64(0) // identity
	pa, pc := lcgMul, lcgAdd     // the map x → a·x + c, squared at each bit
	for s > 0 {
		if s&1 != 0 {
			A, C = pa*A, pa*C+pc
		}
		pa, pc = pa*pa, pa*pc+pc
		s >>= 1
	}
	return A, C
}

// lcgValue maps a state to (−0.5, 0.5] in HPL's order of float64 operations.
func lcgValue(x uint64) float64 {
	hi := float64(uint32(x >> 32))
	lo := float64(uint32(x))
	t := lo/2147483648.0*0.5 + hi
	return 0.5 - t/2147483648.0*0.5
}

// matEntry is entry (i, j) of [A | b] for order n (slow path, for tests and checks).
func matEntry(n, i, j int) float64 {
	A, C := lcgJump(uint64(1 + j*n + i))
	return lcgValue(A*lcgSeed + C)
}

// matgen fills the local part of [A | b]: a is mp × ncols column-major with leading
// dimension lda, ncols = nq+1 when this process column holds column N (b) or not —
// the extra column is filled only where it is global column N.
func matgen(a []float64, lda, n, nb int, g *grid, mp, nq int) {
	ncols := nq
	if g2p(n, nb, g.q) == g.mycol {
		ncols = nq + 1 // b is the last local column
	}
	for lj := 0; lj < ncols; lj++ {
		gj := l2g(lj, nb, g.mycol, g.q)
		for li := 0; li < mp; li += nb {
			gi := l2g(li, nb, g.myrow, g.p)
			A, C := lcgJump(uint64(1 + gj*n + gi))
			x := A*lcgSeed + C
			rows := min(nb, mp-li)
			col := a[lj*lda+li:]
			for r := 0; r < rows; r++ {
				col[r] = lcgValue(x)
				x = lcgMul*x + lcgAdd
			}
		}
	}
}
