package ranks

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestOMPIAlgorithmsResults runs each algorithm of the ompi set that emu
// implements on 1 to 9, 16 and 33 ranks (powers of two and not) with real
// payloads, roots 0 and p−1, and checks every rank's result against the
// collective's definition; the algorithms' order of messages against SMPI
// is TestTIOmpiAgainstSMPI's (validation).
func TestOMPIAlgorithmsResults(t *testing.T) {
	cfg := preset(t, "smpi")
	cfg.WakeOrder = WakeSimGrid
	for _, p := range []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 33} {
		t.Run(fmt.Sprintf("p=%d", p), func(t *testing.T) {
			run(t, cfg, newCrossbar(p, 1e9, 1e-6), p, func(r *Rank) { checkOMPIAlgorithms(t, r.World()) })
		})
	}
}

func checkOMPIAlgorithms(t *testing.T, c *Comm) {
	p, me := c.Size(), c.rank
	fail := func(what string, got, want any) {
		t.Helper()
		t.Errorf("p=%d rank %d: %s = %v, want %v", p, me, what, got, want)
	}
	one := func(x float64) Msg { return Msg{Data: []float64{x}} }
	c.barrierOMPIRecDoubling()
	c.barrierOMPIBruck()
	c.barrierOMPITree()
	c.barrierLinear()
	for _, root := range []int{0, p - 1} {
		// the bcasts' trees with whole messages, 8 KiB segments and Open
		// MPI's pipeline segments (16 KiB at 3 ranks and 300 kB)
		for _, n := range []int{100, 3 * bcastSegment, 300000} {
			for k, algo := range []string{ompiBcastNTSL, ompiBcastNTSB, ompiBcastPipeline, ompiBcastBinomial} {
				if n%bcastSegment != 0 && k < 2 && n > bcastSegment {
					continue // its remainder would take bcast__ompi's own choice
				}
				want := []float64{float64(n), float64(root), float64(k)}
				var in Msg
				if me == root {
					in = Msg{Bytes: n, Data: want}
				} else {
					in = Msg{Bytes: n}
				}
				var got Msg
				switch k {
				case 0:
					got = c.bcastSegmented(root, in, (me+p-1)%p, []int{(me + 1) % p}[:min(1, p-1-me)])
				case 1:
					var kids []int
					for _, x := range []int{2*me + 1, 2*me + 2} {
						if x < p {
							kids = append(kids, x)
						}
					}
					got = c.bcastSegmented(root, in, (me-1)/2, kids)
				case 2:
					got = c.bcastOMPIPipeline(root, in)
				case 3:
					got = c.bcastBinomial(root, in)
				}
				if fmt.Sprint(got.Data) != fmt.Sprint(want) {
					fail(fmt.Sprintf("%s of %d B", algo, n), got.Data, want)
				}
			}
		}
		if got := c.reduceOMPILinear(root, Msg{Data: []float64{float64(me), 1}}, Sum); me == root && fmt.Sprint(got.Data) != fmt.Sprint([]float64{float64(p * (p - 1) / 2), float64(p)}) {
			fail("reduce__ompi_basic_linear", got.Data, p*(p-1)/2)
		}
		// Open MPI's segmented trees: 3,000 B cuts 1 KiB segments for
		// the binomial tree from 8 ranks, 100,000 B several of 32 and
		// 64 KiB; one rank is refused (SMPI aborts there)
		for _, n := range []int{3000, 100000} {
			for _, algo := range []string{ompiReduceChain, ompiReducePipeline, ompiReduceBinary, ompiReduceBinomial, ompiReduceInOrder} {
				if p == 1 {
					break
				}
				got := c.reduceOMPITree(algo, root, Msg{Bytes: n, Data: []float64{float64(me), 1}}, Sum)
				want := []float64{float64(p * (p - 1) / 2), float64(p)}
				if me == root && fmt.Sprint(got.Data) != fmt.Sprint(want) || me != root && got.Data != nil {
					fail(fmt.Sprintf("%s of %d B to %d", algo, n, root), got.Data, want)
				}
			}
		}
		// in one order on every rank (a map's would differ)
		for _, g := range []struct {
			name string
			run  func(int, Msg) []Msg
		}{{ompiGatherLinear, c.gatherOMPILinear}, {ompiGatherBinomial, c.gatherBinomial}, {ompiGatherSync, c.gatherOMPISync}} {
			name := g.name
			// 200,000 bytes: gather__ompi_linear_sync cuts a first segment
			g := g.run(root, Msg{Bytes: 200000, Data: []float64{float64(10 * me)}})
			if me != root {
				continue
			}
			for i := 0; i < p; i++ {
				if g[i].Data[0] != float64(10*i) {
					fail(name, g, "10·i")
					break
				}
			}
		}
		parts := make([]Msg, p)
		for i := range parts {
			parts[i] = one(float64(100 + i))
		}
		got := []Msg{c.scatterOMPILinear(root, parts, false), c.scatterOMPILinear(root, parts, true), c.scatterOMPIBinomial(root, parts)}
		for i, name := range []string{ompiScatterLinear, ompiScatterNB, ompiScatterBinom} {
			if got[i].Data[0] != float64(100+me) {
				fail(name, got[i].Data, 100+me)
			}
		}
	}
	data := []float64{float64(me), 2}
	if got := c.allreduceSMPIRDB(Msg{Data: data}, Sum); fmt.Sprint(got.Data) != fmt.Sprint([]float64{float64(p * (p - 1) / 2), float64(2 * p)}) {
		fail("allreduce__rdb", got.Data, p*(p-1)/2)
	}
	// allreduce__rab_rdb: 1,001 doubles (blocks of count/pof2 elements,
	// the last longer) and 3 (fewer elements than ranks: empty blocks)
	for _, n := range []int{8008, 24} {
		got := c.allreduceSMPIRabRDB(Msg{Bytes: n, Data: data}, Sum, 8)
		if fmt.Sprint(got.Data) != fmt.Sprint([]float64{float64(p * (p - 1) / 2), float64(2 * p)}) || got.Bytes != n {
			fail(fmt.Sprintf("allreduce__rab_rdb of %d B", n), got, p*(p-1)/2)
		}
	}
	names := []string{ompiAllgatherRDB, ompiAllgatherRing, ompiAllgatherBruck}
	allgathers := []func([]Msg){c.allgatherSMPIRDB, c.allgatherSMPIRing, c.allgatherSMPIBruck}
	if p%2 == 0 {
		names, allgathers = append(names, ompiAllgatherNE), append(allgathers, c.allgatherOMPINeighbor)
	}
	for k, ag := range allgathers {
		name := names[k]
		out := make([]Msg, p)
		out[me] = one(float64(me))
		ag(out)
		for i := 0; i < p; i++ {
			if out[i].Data == nil || out[i].Data[0] != float64(i) {
				fail(name, out, "i")
				break
			}
		}
	}
	// allgatherv__mpich_ring with uneven blocks: empty, small, and over
	// its 256 KiB chunk
	counts := make([]int, p)
	for i := range counts {
		counts[i] = []int{0, 1000, 600000}[i%3]
	}
	mine := Msg{Bytes: counts[me], Data: []float64{float64(me)}}
	if counts[me] == 0 {
		mine = Msg{}
	}
	agv := c.allgathervRing(mine, counts)
	for i := 0; i < p; i++ {
		if agv[i].size() != counts[i] || counts[i] > 0 && (agv[i].Data == nil || agv[i].Data[0] != float64(i)) { // an empty block carries nothing
			fail(ompiAllgathervRing, agv, "i")
			break
		}
	}
	// allgatherv's bruck, neighbour exchange (the ring on odd p) and
	// pair (powers of two): the allgathers' exchanges, blocks uneven
	agvNames := []string{ompiAllgathervBrk, ompiAllgathervNE}
	agvs := []func([]Msg){c.allgatherSMPIBruck, c.allgatherOMPINeighbor}
	if p%2 == 1 {
		agvs[1] = c.allgatherSMPIRing
	}
	if p&(p-1) == 0 {
		agvNames, agvs = append(agvNames, ompiAllgathervPair), append(agvs, c.ompiAllgatherPairs)
	}
	for k, ag := range agvs {
		out := make([]Msg, p)
		out[me] = Msg{Bytes: 100 * (1 + me%3), Data: []float64{float64(me)}}
		ag(out)
		for i := 0; i < p; i++ {
			if out[i].size() != 100*(1+i%3) || out[i].Data == nil || out[i].Data[0] != float64(i) {
				fail(agvNames[k], out, "i")
				break
			}
		}
	}
	a2a := make([]Msg, p)
	for i := range a2a {
		a2a[i] = Msg{Bytes: 1000 * (1 + i%3), Data: []float64{float64(me*100 + i)}}
	}
	out := make([]Msg, p)
	out[me] = a2a[me]
	c.alltoallNBC(a2a, out)
	for i := 0; i < p; i++ {
		if out[i].Data[0] != float64(i*100+me) {
			fail(ompiAlltoallvLin, out, "src·100+me")
			break
		}
	}
}

// TestOMPIRefuses: a call for which SMPI's ompi selector picks an
// algorithm emu does not run stops the run with an error naming the call,
// its size, the number of ranks and SMPI's algorithm (3 ranks, 700 bytes:
// bcast__mvapich2_knomial_intra_node), never with another algorithm's
// time; so do Open MPI's segmented reduces where SMPI crashes (an empty
// message, one rank).
func TestOMPIRefuses(t *testing.T) {
	cfg := preset(t, "smpi")
	if err := cfg.SetCollectives(CollectivesOMPI); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		ranks int
		call  func(c *Comm)
		want  string
	}{
		{"bcast", 3, func(c *Comm) { c.Bcast(0, Msg{Bytes: 700}) }, "MPI_Bcast of 700 bytes on 3 ranks: SMPI 3.32's \"ompi\" collective selector runs bcast__mvapich2_knomial_intra_node there"},
		{"allreduce", 3, func(c *Comm) { c.Allreduce(Msg{Bytes: 100000}, Sum) }, "MPI_Allreduce of 100000 bytes on 3 ranks: SMPI 3.32's \"ompi\" collective selector runs allreduce__ompi_ring_segmented there"},
		{"reduce-empty", 4, func(c *Comm) { c.Reduce(0, Msg{}, Sum) }, "MPI_Reduce of 0 bytes on 4 ranks: SMPI 3.32's \"ompi\" collective selector runs reduce__ompi_binary there, which divides by zero"},
		{"reduce-alone", 1, func(c *Comm) { c.Reduce(0, Msg{Bytes: 12}, Sum) }, "MPI_Reduce of 12 bytes on 1 ranks: SMPI 3.32's \"ompi\" collective selector runs reduce__ompi_binary there, whose lone rank sends to a parent it lacks"},
		{"alltoallv", 3, func(c *Comm) { c.Alltoallv([]Msg{{Bytes: 8}, {Bytes: 8}, {Bytes: 8}}) }, "alltoallv__pair there, which needs a power of two of ranks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := NewWorld(cfg, newCrossbar(c.ranks, 1e9, 1e-6), identity(c.ranks), 1)
			if err != nil {
				t.Fatal(err)
			}
			err = w.Run(func(r *Rank) { c.call(r.World()) })
			var u *UnsupportedCollectiveError
			if !errors.As(err, &u) || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("err = %v, want one line with %q", err, c.want)
			}
		})
	}
}

// TestOMPIBcastEmpty: Open MPI's pipeline (its pick at 1 to 3 ranks under
// 32 B) returns at once on one rank, as SMPI's does, and an empty message
// on more, which SMPI 3.32 divides by zero on, is refused.
func TestOMPIBcastEmpty(t *testing.T) {
	cfg := preset(t, "smpi")
	if err := cfg.SetCollectives(CollectivesOMPI); err != nil {
		t.Fatal(err)
	}
	run(t, cfg, newCrossbar(1, 1e9, 1e-6), 1, func(r *Rank) { r.World().Bcast(0, Msg{}) })
	w, err := NewWorld(cfg, newCrossbar(2, 1e9, 1e-6), identity(2), 1)
	if err != nil {
		t.Fatal(err)
	}
	err = w.Run(func(r *Rank) { r.World().Bcast(0, Msg{}) })
	if u := (*UnsupportedCollectiveError)(nil); !errors.As(err, &u) || u.Algo != ompiBcastPipeline {
		t.Errorf("an empty bcast on 2 ranks: %v, want bcast__ompi_pipeline refused", err)
	}
}

// TestOMPIReduceTrees checks Open MPI's tree builders against the trees
// its topology code draws in its comments (SimGrid's coll_tuned_topo.cpp):
// the binary tree of 7 ranks, the in-order binomial tree of 8 and the
// in-order binary tree of 9 (rooted at rank 8); and chains of 3 runs on 7
// and 8 ranks, drawn by hand from the rule (the first (p−1) mod 3 runs one
// rank longer); each rooted at 0 and, shifted, at 2.
func TestOMPIReduceTrees(t *testing.T) {
	type tree map[int][]int // rank: parent, then children
	for _, c := range []struct {
		name  string
		p     int
		build func(p, me, root int) reduceTree
		want  tree
	}{
		{"binary", 7, func(p, me, root int) reduceTree { return ompiKaryTree(p, me, root, 2) },
			tree{0: {-1, 1, 2}, 1: {0, 3, 5}, 2: {0, 4, 6}, 3: {1}, 4: {2}, 5: {1}, 6: {2}}},
		{"binomial", 8, ompiInOrderBinomial,
			tree{0: {-1, 1, 2, 4}, 1: {0}, 2: {0, 3}, 3: {2}, 4: {0, 5, 6}, 5: {4}, 6: {4, 7}, 7: {6}}},
		{"in-order binary", 9, func(p, me, root int) reduceTree { return ompiInOrderBinary(p, me) },
			tree{8: {-1, 7, 3}, 7: {8, 6, 5}, 3: {8, 2, 1}, 6: {7}, 5: {7, 4}, 4: {5}, 2: {3}, 1: {3, 0}, 0: {1}}},
		{"chain 7", 7, func(p, me, root int) reduceTree { return ompiChainTree(p, me, root, 3) },
			tree{0: {-1, 1, 3, 5}, 1: {0, 2}, 2: {1}, 3: {0, 4}, 4: {3}, 5: {0, 6}, 6: {5}}},
		{"chain 8", 8, func(p, me, root int) reduceTree { return ompiChainTree(p, me, root, 3) },
			tree{0: {-1, 1, 4, 6}, 1: {0, 2}, 2: {1, 3}, 3: {2}, 4: {0, 5}, 5: {4}, 6: {0, 7}, 7: {6}}},
	} {
		for _, root := range []int{0, 2} {
			if c.name == "in-order binary" && root != 0 {
				continue // rooted at p−1 whatever the root
			}
			for me := 0; me < c.p; me++ {
				got := c.build(c.p, me, root)
				shift := func(r int) int {
					if r < 0 {
						return r
					}
					return (r + root) % c.p
				}
				// the picture's rank x is rank x+root here
				w := c.want[(me-root+c.p)%c.p]
				want := []int{shift(w[0])}
				for _, k := range w[1:] {
					want = append(want, shift(k))
				}
				if g := append([]int{got.parent}, got.kids...); fmt.Sprint(g) != fmt.Sprint(want) {
					t.Errorf("%s tree at root %d, rank %d: parent and children %v, want %v", c.name, root, me, g, want)
				}
			}
		}
	}
}
