package sensitivity

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// A column holds what a slice would, whatever the sizes and reservations,
// across block boundaries: the slice, filled by append, is the reference.
func TestColumnMatchesSlice(t *testing.T) {
	for _, c := range []struct {
		name       string
		n, reserve int
	}{
		{"empty", 0, 0},
		{"one", 1, 0},
		{"small", 7, 0},
		{"small reserved", 7, 100},
		{"block less one", blockLen - 1, 0},
		{"one block", blockLen, 0},
		{"one block reserved", blockLen, blockLen},
		{"block and one", blockLen + 1, 0},
		{"three blocks reserved beyond", 3*blockLen + 5, 10 * blockLen},
	} {
		t.Run(c.name, func(t *testing.T) {
			var col column[int32]
			col.reserve(c.reserve)
			var ref []int32
			for i := range c.n {
				x := int32(i*7 + 3)
				col.append(x)
				ref = append(ref, x)
			}
			// Writes at the block boundaries and the ends.
			for _, i := range []int{0, blockLen - 1, blockLen, 2 * blockLen, c.n - 1} {
				if i >= 0 && i < c.n {
					col.set(i, -5)
					col.add(i, 2)
					ref[i] = -3
				}
			}
			checkColumn(t, &col, ref)
			// A column made at its length, then grown, from its last block on.
			made := columnOf(ref)
			made.append(11)
			made.append(12)
			checkColumn(t, &made, append(slices.Clone(ref), 11, 12))
			zeros := makeColumn[int32](c.n)
			checkColumn(t, &zeros, make([]int32, c.n))
		})
	}
}

// checkColumn compares col with ref entry by entry and checks the block
// layout at relies on: every block full but the last, none beyond blockLen.
func checkColumn(t *testing.T, col *column[int32], ref []int32) {
	t.Helper()
	if col.len() != len(ref) {
		t.Fatalf("len %d, want %d", col.len(), len(ref))
	}
	for i, x := range ref {
		if got := col.at(i); got != x {
			t.Fatalf("entry %d = %d, want %d", i, got, x)
		}
	}
	if s := col.slice(); !slices.Equal(s, ref) {
		t.Fatalf("slice differs from the reference (%d entries, want %d)", len(s), len(ref))
	}
	for k, b := range col.blocks {
		if len(b) > blockLen || k < len(col.blocks)-1 && len(b) != blockLen {
			t.Fatalf("block %d of %d holds %d entries (block size %d)", k, len(col.blocks), len(b), blockLen)
		}
	}
}

// A graph of several blocks of vertices and edges, with joins whose
// in-edges straddle block boundaries, evaluates as a plain dynamic
// programme over the edges as they were added does; built in creation
// order (the recorders' path, which keeps the columns as they are) and
// shuffled (topological sort, permute and scatter), and read back from
// its file.
func TestGraphAcrossBlocks(t *testing.T) {
	for _, shuffle := range []bool{false, true} {
		rng := rand.New(rand.NewPCG(5, 6))
		const nv = 3*blockLen + 123
		type edge struct {
			from, to   int // positions in the hidden topological order
			rest       float64
			class      uint8
			count      int32
			bytes      float64
			hasLatency bool
		}
		cost := make([]float64, nv)
		var edges []edge
		for v := 1; v < nv; v++ {
			in := rng.IntN(3)
			if v%1000 == 0 {
				in = 2500 // a join: its in-edges span block boundaries
			}
			for range in {
				e := edge{from: rng.IntN(v), to: v, rest: float64(rng.IntN(3000)) * 1e-9, bytes: float64(rng.IntN(1 << 16))}
				if rng.IntN(2) == 0 {
					e.class, e.count, e.hasLatency = uint8(rng.IntN(2)), int32(1+rng.IntN(3)), true
				}
				edges = append(edges, e)
			}
		}
		order := make([]int, nv) // creation index → position; created in this order
		for i := range order {
			order[i] = i
		}
		if shuffle {
			rng.Shuffle(nv, func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		id := make([]VertexID, nv) // position → builder ID
		b := NewBuilder(4)
		for _, p := range order {
			cost[p] = float64(rng.IntN(5000)) * 1e-9
			id[p] = b.Vertex(p%4, Calc, cost[p])
		}
		for _, e := range edges {
			if e.hasLatency {
				b.EdgeBytes(id[e.from], id[e.to], e.rest, e.bytes, LatTerm{Class: e.class, Count: e.count})
			} else {
				b.EdgeBytes(id[e.from], id[e.to], e.rest, e.bytes)
			}
		}
		g := mustBuild(t, b)
		if g.NumEdges() <= 2*blockLen {
			t.Fatalf("%d edges, want more than two blocks", g.NumEdges())
		}
		straddle := false
		for v := range g.NumVertices() {
			first, end := g.InEdges(VertexID(v))
			straddle = straddle || end > first && first>>blockBits != (end-1)>>blockBits
		}
		if !straddle {
			t.Fatal("no vertex's in-edges cross a block boundary")
		}

		lat := []float64{1.5e-6, 4e-7}
		finish := make([]float64, nv) // the reference, by position
		e := 0
		for v := range nv {
			start := 0.0
			for ; e < len(edges) && edges[e].to == v; e++ {
				c := edges[e].rest
				if edges[e].hasLatency {
					c += float64(edges[e].count) * lat[edges[e].class]
				}
				start = max(start, finish[edges[e].from]+c)
			}
			finish[v] = start + cost[v]
		}
		want := slices.Max(finish)

		var file bytes.Buffer
		if _, err := g.WriteTo(&file); err != nil {
			t.Fatal(err)
		}
		h, err := ReadGraph(&file)
		if err != nil {
			t.Fatal(err)
		}
		sameGraph(t, g, h)
		for name, gr := range map[string]*Graph{"built": g, "read": h} {
			if got := gr.Runtime(lat); math.Abs(got-want) > 1e-12*want {
				t.Errorf("shuffle %v, %s: T = %v, want %v", shuffle, name, got, want)
			}
			if got, _, _, _ := gr.Slopes(lat, 0); math.Abs(got-want) > 1e-12*want { // the evaluator, on its slot plan
				t.Errorf("shuffle %v, %s: the evaluator's T = %v, want %v", shuffle, name, got, want)
			}
			ft := gr.FinishTimes(lat)
			for p := range nv {
				if got := ft[g.ID(id[p])]; math.Abs(got-finish[p]) > 1e-12*want {
					t.Fatalf("shuffle %v, %s: vertex at %d finishes at %v, want %v", shuffle, name, p, got, finish[p])
				}
			}
		}
	}
}
