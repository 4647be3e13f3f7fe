package sensitivity

// An evaluation needs a vertex's state (its finish time, counts and bytes)
// from the moment the vertex is computed until its last out-edge is read,
// and in a recorded run that is a short while: a rank's next operation, a
// message's receive. Keeping one record per vertex for the whole pass made
// the evaluator's 32 bytes a vertex the biggest thing emu analyze held
// beside the graph (docs/evidence/evalmem.md). A slotPlan instead gives
// each vertex a slot of a small frontier array, taken when the vertex is
// computed and given back after its last out-edge is read; a later vertex
// reuses it. The plan is made once per evaluator and read by every pass in
// the order the passes walk the graph, so the edges' sources come as one
// sequential column (eSlot) instead of random reads of a per-vertex array.

// slotPlan is where the passes of an evaluator keep each vertex's state.
type slotPlan struct {
	// vSlot is, per vertex, its slot<<1, | 1 when the vertex has no
	// out-edge (its state is read only while it is computed).
	vSlot column[uint32]
	// eSlot is, per edge, its source's slot<<1, | 1 when the edge is the
	// source's last out-edge (the slot is free after it).
	eSlot  column[uint32]
	slots  int    // the size of the frontier: the most vertices live at once
	negOut []bool // per vertex: has an out-edge of negative rest (nil if none)
}

// newSlotPlan plans g's slots: a slot given back is reused first (a stack),
// and a vertex may take the slot its last in-edge's source gave back, as
// the passes read all of a vertex's in-edges before they write its state.
// A first pass, backwards over the edges, marks each vertex's last
// out-edge (the first one it meets) with one bit a vertex; a second,
// forwards, hands out the slots.
func newSlotPlan(g *Graph) *slotPlan {
	nv, ne := g.NumVertices(), g.NumEdges()
	p := &slotPlan{vSlot: makeColumn[uint32](nv), eSlot: makeColumn[uint32](ne)}
	seen := make([]uint64, (nv+63)/64) // per vertex: an out-edge of it has been met
	for e := ne - 1; e >= 0; e-- {
		u := g.eFrom.at(e)
		if seen[u/64]&(1<<(u%64)) == 0 {
			seen[u/64] |= 1 << (u % 64)
			p.eSlot.set(e, 1) // u's last out-edge
		}
		if g.rest(e) < 0 {
			if p.negOut == nil {
				p.negOut = make([]bool, nv)
			}
			p.negOut[u] = true
		}
	}
	var free []uint32
	e := 0
	for v := range nv {
		for end := int(g.inStart.at(v + 1)); e < end; e++ {
			s := p.vSlot.at(int(g.eFrom.at(e))) >> 1
			last := p.eSlot.at(e)
			p.eSlot.set(e, s<<1|last)
			if last != 0 {
				free = append(free, s)
			}
		}
		var s uint32
		if n := len(free); n > 0 {
			s, free = free[n-1], free[:n-1]
		} else {
			s = uint32(p.slots)
			p.slots++
		}
		w := s << 1
		if seen[v/64]&(1<<(v%64)) == 0 { // no out-edge: the slot is free again at once
			w |= 1
			free = append(free, s)
		}
		p.vSlot.set(v, w)
	}
	return p
}
