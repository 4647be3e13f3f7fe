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
// bcast__mvapich2_knomial_intra_node), never with another algorithm's time; Allgatherv and
// ReduceScatter, whose ompi algorithms emu lacks, stop too.
func TestOMPIRefuses(t *testing.T) {
	cfg := preset(t, "smpi")
	if err := cfg.SetCollectives(CollectivesOMPI); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		call func(c *Comm)
		want string
	}{
		{"bcast", func(c *Comm) { c.Bcast(0, Msg{Bytes: 700}) }, "MPI_Bcast of 700 bytes on 3 ranks: SMPI 3.32's \"ompi\" collective selector runs bcast__mvapich2_knomial_intra_node there"},
		{"reduce", func(c *Comm) { c.Reduce(0, Msg{Bytes: 12}, Sum) }, "MPI_Reduce of 12 bytes on 3 ranks: SMPI 3.32's \"ompi\" collective selector runs reduce__ompi_binary"},
		{"allgatherv", func(c *Comm) { c.Allgatherv(Msg{Bytes: 3000}, []int{3000, 3000, 3000}, nil) }, "MPI_Allgatherv of 9000 bytes on 3 ranks: SMPI 3.32's \"ompi\" collective selector runs allgatherv__ompi_neighborexchange"},
		{"alltoallv", func(c *Comm) { c.Alltoallv([]Msg{{Bytes: 8}, {Bytes: 8}, {Bytes: 8}}) }, "alltoallv__pair there, which needs a power of two of ranks"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w, err := NewWorld(cfg, newCrossbar(3, 1e9, 1e-6), identity(3), 1)
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
