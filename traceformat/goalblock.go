package traceformat

// A dependency never leaves its rank block, so the successor and
// predecessor lists of a block's ops are built when the block closes, from
// the block's dependencies alone: the counting sorts then run over a few
// thousand ops that are still in cache, and no list of the whole file's
// dependencies is ever held (on the 64×64 stencil, 14 M pairs: 0.1 GB
// and a pass of scattered writes saved in the parse, and as much in the
// recorder, which used to derive the predecessor lists itself).

// dep is one dependency line: succ waits for pred (global op indices).
type dep struct{ pred, succ int32 }

// groupBlock appends the open block's dependencies to the Schedule's
// successor lists (requires and irequires) and predecessor lists, and
// sets the list offsets of the block's ops.
func (p *parser) groupBlock() {
	s := p.s
	first, end := p.blockFirst, int32(len(s.ops))
	for i := first; i < end; i++ {
		s.ops[i].succ = int32(len(s.succ))
		s.ops[i].isucc = int32(len(s.isucc))
	}
	s.succ = p.groupBy(s.succ, p.deps, first, end, func(i int32, off int32) { s.ops[i].succ = off })
	s.isucc = p.groupBy(s.isucc, p.ideps, first, end, func(i int32, off int32) { s.ops[i].isucc = off })
	p.predecessors(first, end)
	p.deps, p.ideps = p.deps[:0], p.ideps[:0]
}

// groupBy appends the succ of deps to list grouped by pred, keeping file
// order within a group (a stable counting sort), and calls setStart with
// each op of first..end−1 and the offset of its group in list.
func (p *parser) groupBy(list []int32, deps []dep, first, end int32, setStart func(op, off int32)) []int32 {
	if len(deps) == 0 {
		return list
	}
	n := int(end - first)
	// Counts go to count[q+2] so that, after the prefix sums, count[q+1]
	// is q's first slot and can serve as its write cursor: once q's entries
	// are placed it has advanced to q+1's first slot.
	count := p.scratch(n + 2)
	for _, d := range deps {
		count[d.pred-first+2]++
	}
	for i := 2; i < n+2; i++ {
		count[i] += count[i-1]
	}
	base := int32(len(list))
	list = append(list, make([]int32, len(deps))...)
	for _, d := range deps {
		k := d.pred - first + 1
		list[base+count[k]] = d.succ
		count[k]++
	}
	for i := int32(0); i < int32(n); i++ {
		setStart(first+i, base+count[i])
	}
	return list
}

// predecessors appends the block's predecessor lists to the Schedule's:
// scanning the successor lists op by op in increasing order (requires,
// then irequires) gives each op its predecessors in increasing order.
func (p *parser) predecessors(first, end int32) {
	s := p.s
	n := int(end - first)
	base := int32(len(s.pred))
	nd := len(p.deps) + len(p.ideps)
	if nd == 0 {
		for i := 0; i < n; i++ {
			s.predStart = append(s.predStart, base)
		}
		return
	}
	count := p.scratch(n + 2)
	for _, d := range p.deps {
		count[d.succ-first+2]++
	}
	for _, d := range p.ideps {
		count[d.succ-first+2]++
	}
	for i := 2; i < n+2; i++ {
		count[i] += count[i-1]
	}
	for i := 0; i < n; i++ {
		s.predStart = append(s.predStart, base+count[i+1])
	}
	s.pred = append(s.pred, make([]int32, nd)...)
	for q := first; q < end; q++ {
		for _, w := range s.Requires(int(q)) {
			k := w - first + 1
			s.pred[base+count[k]] = q
			count[k]++
		}
		for _, w := range s.IRequires(int(q)) {
			k := w - first + 1
			s.pred[base+count[k]] = -1 - q
			count[k]++
		}
	}
}

// scratch returns p.count resized to n zeros.
func (p *parser) scratch(n int) []int32 {
	if cap(p.count) < n {
		p.count = make([]int32, n)
	}
	p.count = p.count[:n]
	clear(p.count)
	return p.count
}
