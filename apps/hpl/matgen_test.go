package hpl

import "testing"

func TestMatgenReferenceValues(t *testing.T) {
	// Values from compiling and running HPL's own generator (hpl.md §10.1).
	cases := []struct {
		n, i, j int
		want    float64
	}{
		{7, 0, 0, -5.1599441937666413e-05},
		{7, 1, 0, 0.38413122531282284},
		{7, 0, 1, -0.047680656152731316},
		{7, 0, 7, -0.22629422831999735},
		{1000, 123456 % 1000, 123456 / 1000, -0.3327599014732654},
		{1000, 999, 999, -0.4588445242892768},
		{1000, 999, 1000, 0.19857774149730228},
	}
	for _, c := range cases {
		if got := matEntry(c.n, c.i, c.j); got != c.want {
			t.Errorf("N=%d (%d,%d): got %.17g want %.17g", c.n, c.i, c.j, got, c.want)
		}
	}
}

func TestMatgenLocalMatchesGlobal(t *testing.T) {
	// Every rank's local fill must equal the global entries at l2g positions.
	const n, nb, p, q = 23, 3, 2, 3
	for r := 0; r < p*q; r++ {
		row, col := gridCoords(r, p, q, RowMajor)
		g := &grid{p: p, q: q, myrow: row, mycol: col}
		mp, nq := numroc(n, nb, row, p), numroc(n, nb, col, q)
		lda := max(1, mp)
		a := make([]float64, lda*(nq+1))
		matgen(a, lda, n, nb, g, mp, nq)
		ncols := nq
		if g2p(n, nb, q) == col {
			ncols++
		}
		for lj := 0; lj < ncols; lj++ {
			for li := 0; li < mp; li++ {
				gi, gj := l2g(li, nb, row, p), l2g(lj, nb, col, q)
				if a[lj*lda+li] != matEntry(n, gi, gj) {
					t.Fatalf("rank %d (%d,%d)", r, li, lj)
				}
			}
		}
	}
}

func TestNumrocMatchesCount(t *testing.T) {
	for _, nb := range []int{1, 2, 3, 5} {
		for np := 1; np <= 5; np++ {
			for n := 0; n < 40; n++ {
				for p := 0; p < np; p++ {
					cnt := 0
					for g := 0; g < n; g++ {
						if g2p(g, nb, np) == p {
							if l2g(g2l(g, nb, np), nb, p, np) != g {
								t.Fatalf("l2g∘g2l(%d) nb=%d np=%d", g, nb, np)
							}
							cnt++
						}
					}
					if got := numroc(n, nb, p, np); got != cnt {
						t.Fatalf("numroc(%d,%d,%d,%d)=%d want %d", n, nb, p, np, got, cnt)
					}
				}
			}
		}
	}
}
