package hpl

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refPipid and refPerm are HPL_pipid and HPL_perm with HPL's linear searches,
// the reference the indexed versions must reproduce.
func refPipid(dpiv []float64, ia, jb int) []int {
	ipid := make([]int, 0, 4*jb)
	src, dst := ia, int(dpiv[0])
	ipid = append(ipid, dst, src)
	if src != dst {
		ipid = append(ipid, src, dst)
	}
	for i := 1; i < jb; i++ {
		src, dst = ia+i, int(dpiv[i])
		K := len(ipid)
		var lst int
		j := 1
		if src == dst {
			fnds := 0
			for {
				if src == ipid[j] {
					fnds = j
				} else {
					j += 2
				}
				if fnds != 0 || j >= K {
					break
				}
			}
			if fnds == 0 {
				lst = K
				ipid = append(ipid, src, 0)
			} else {
				lst = fnds - 1
			}
			ipid[lst+1] = dst
		} else {
			fnds, fndd := 0, 0
			for {
				if src == ipid[j] {
					fnds = j
				} else if dst == ipid[j] {
					fndd = j
				}
				j += 2
				if (fnds != 0 && fndd != 0) || j >= K {
					break
				}
			}
			off := 0
			if fnds == 0 {
				ipid = append(ipid, src, dst)
				off = 2
			} else {
				ipid[fnds] = dst
			}
			if fndd == 0 {
				lst = K + off
				ipid = append(ipid, dst, 0)
			} else {
				lst = fndd - 1
			}
			ipid[lst+1] = src
		}
		if j2 := i << 1; lst != j2 {
			ipid[j2], ipid[lst] = ipid[lst], ipid[j2]
			ipid[j2+1], ipid[lst+1] = ipid[lst+1], ipid[j2+1]
		}
	}
	return ipid
}

func refPerm(n int, slot, permU []int) []int {
	iwork := make([]int, n)
	lindxA := make([]int, n)
	for i := range n {
		iwork[slot[i]] = i
	}
	for i := range n {
		lindxA[i] = permU[iwork[i]]
		iwork[i] = i
	}
	out := make([]int, n)
	for i := range n {
		j := 0
		for lindxA[j] != i {
			j++
		}
		k := 0
		for iwork[k] != j {
			k++
		}
		iwork[i], iwork[k] = iwork[k], iwork[i]
		out[i] = k
	}
	return out
}

// randomPivots draws a legal DPIV for a panel at ia of width jb in an order-n
// system: each column's pivot row is in [ia+i, n), as partial pivoting gives.
func randomPivots(rng *rand.Rand, ia, jb, n int) []float64 {
	d := make([]float64, jb)
	for i := range d {
		d[i] = float64(ia + i + rng.IntN(min(n-ia-i, 3*jb)))
	}
	return d
}

func TestPipidAndPermMatchHPLSearches(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	// One solver for all trials, so its scratch arrays are reused; 3 process
	// rows of 40-row blocks, and panels that start anywhere in a block, so
	// that some span two.
	s := &solver{nb: 40, g: &grid{p: 3}, real: true} // real: next is computed
	var permOut []int
	for trial := 0; trial < 3000; trial++ {
		jb := 1 + rng.IntN(40)
		ia := rng.IntN(100)
		n := ia + jb + rng.IntN(200)
		dpiv := randomPivots(rng, ia, jb, n)
		pn := &panel{s: s, jb: jb, ia: ia, dpiv: dpiv, prow: g2p(ia, s.nb, s.g.p)}
		pn.moves()
		got, want := pn.swp.ipid, refPipid(dpiv, ia, jb)
		if !slices.Equal(got, want) {
			t.Fatalf("pipid(%v): got %v want %v", dpiv, got, want)
		}
		next := pn.swp.next
		for i := range next {
			if w := refMovedFrom(got, got[2*i+1]); next[i] != w {
				t.Fatalf("nextOf(%v)[%d] = %d, want %d", got, i, next[i], w)
			}
		}
		for i, r := range got {
			if w := g2p(r, s.nb, s.g.p); pn.swp.owner[i] != w {
				t.Fatalf("owner of row %d (ia %d jb %d) = %d, want %d", r, ia, jb, pn.swp.owner[i], w)
			}
		}
		// perm on a random slot assignment of a random permutation
		slot := rng.Perm(jb)
		permU := rng.Perm(jb)
		permOut = s.swap.perm(permOut, jb, slot, permU)
		if g, w := permOut, refPerm(jb, slot, permU); !slices.Equal(g, w) {
			t.Fatalf("perm: got %v want %v", g, w)
		}
	}
}

// refMovedFrom is HPL's search: the dst of the first move whose src is x, or
// the last move's dst when none is.
func refMovedFrom(ipid []int, x int) int {
	j := 0
	for {
		fnd := ipid[j] == x
		j += 2
		if fnd || j >= len(ipid) {
			break
		}
	}
	return ipid[j-1]
}
