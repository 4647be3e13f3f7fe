package ranks

// Open MPI's segmented reduce trees as SMPI 3.32 runs them under the ompi
// selector (reduce__ompi_chain, _pipeline, _binary, _binomial and
// _in_order_binary): one tree builder each, and one engine,
// reduceOMPISegmented, that pipelines the message up the tree in segments.
//
// Segments are cut in bytes. SMPI cuts them in elements of the datatype
// (a segment is the byte size over the element's size, one more when the
// rest exceeds half an element); every predefined SMPI datatype's size is
// 0 or a power of two up to 32 B and every segment size here a multiple of
// 1 KiB, so the bytes are the same for any datatype, and a message of n
// bytes has n/seg full segments and the rest. An empty message is refused:
// SMPI divides by its count of zero elements there.

// The segmented reduce algorithms, by SMPI's names.
const (
	ompiReduceChain    = "reduce__ompi_chain"
	ompiReducePipeline = "reduce__ompi_pipeline"
	ompiReduceBinary   = "reduce__ompi_binary"
	ompiReduceBinomial = "reduce__ompi_binomial"
	ompiReduceInOrder  = "reduce__ompi_in_order_binary"
)

// reduceTree is one rank's place in a reduce tree: its parent (−1 at the
// tree's root) and its children, in the order it receives from them.
type reduceTree struct {
	parent int
	kids   []int
}

// ompiKaryTree is Open MPI's k-ary tree rooted at root, filled level by
// level on ranks relative to the root: level l holds k^l ranks; a rank at
// level l with relative rank s has children s + j·k^l (j = 1..k, while
// below p), and its parent is found by stepping s down by k^(l−1) until
// it falls among the ranks of the levels above.
func ompiKaryTree(p, me, root, k int) reduceTree {
	t := reduceTree{parent: -1}
	if p < 2 {
		return t
	}
	s := (me - root + p) % p
	// the level of s: the levels 0..l hold 1 + k + ... + k^l ranks
	level, width, upto := 0, 1, 1
	for upto <= s {
		level++
		width *= k
		upto += width
	}
	for j := 1; j <= k && s+j*width < p; j++ {
		t.kids = append(t.kids, (s+j*width+root)%p)
	}
	above := upto - width // ranks on the levels above s's
	sp := s
	if sp < k {
		sp = 0
	} else {
		for sp >= above {
			sp -= width / k
		}
	}
	t.parent = (sp + root) % p
	if s == 0 {
		t.parent = -1
	}
	return t
}

// ompiInOrderBinomial is Open MPI's in-order binomial tree rooted at root
// (relative ranks): a rank's parent is itself less its lowest set bit; its
// children are itself plus 1, 2, 4, ... below that bit, nearest first.
func ompiInOrderBinomial(p, me, root int) reduceTree {
	t := reduceTree{parent: -1}
	v := (me - root + p) % p
	for mask := 1; mask < p; mask <<= 1 {
		q := v ^ mask
		if q < v {
			t.parent = (q + root) % p
			break
		}
		if q < p {
			t.kids = append(t.kids, (q+root)%p)
		}
	}
	return t
}

// ompiChainTree is Open MPI's chain tree with fanout chains hanging from
// root (relative ranks 1..p−1 cut into fanout runs, the first (p−1) mod
// fanout of them one rank longer): the root's children are the runs'
// heads, every other rank's child the next rank of its run. A fanout
// below 1 is 1, above 32 (Open MPI's most) 32, above p−1 p−1.
func ompiChainTree(p, me, root, fanout int) reduceTree {
	t := reduceTree{parent: -1}
	fanout = min(max(fanout, 1), 32, p-1)
	if p < 2 {
		return t
	}
	s := (me - root + p) % p
	long := (p - 1) / fanout // a long run's length
	nlong := (p - 1) % fanout
	if nlong != 0 {
		long++
	} else {
		nlong = fanout // every run has the same length
	}
	// head and length of the run of relative rank 1 + i·... by run index
	head := func(run int) (int, int) {
		if run < nlong {
			return 1 + run*long, long
		}
		return 1 + nlong*long + (run-nlong)*(long-1), long - 1
	}
	if s == 0 {
		for run := 0; run < fanout; run++ {
			h, _ := head(run)
			t.kids = append(t.kids, (h+root)%p)
		}
		return t
	}
	var run int
	if s-1 < nlong*long {
		run = (s - 1) / long
	} else {
		run = nlong + (s-1-nlong*long)/(long-1)
	}
	h, n := head(run)
	if s == h {
		t.parent = root
	} else {
		t.parent = (s - 1 + root) % p
	}
	if s != h+n-1 && s+1 < p {
		t.kids = []int{(s + 1 + root) % p}
	}
	return t
}

// ompiInOrderBinary is Open MPI's in-order binary tree, rooted at rank
// p−1 whatever the reduce's root: a subtree of n ranks ending at its root
// r holds its right subtree, the n/2 ranks from its start, and its left
// one, the ranks between them and r; each child is the last rank of its
// subtree (the left child r−1, the right one start + n/2 − 1).
func ompiInOrderBinary(p, me int) reduceTree {
	t := reduceTree{parent: -1}
	start, n := 0, p // the subtree holding me: ranks start .. start+n−1
	for {
		r := start + n - 1
		right := n / 2
		if me == r {
			if n > 1 {
				t.kids = append(t.kids, r-1)
				if r-1-start > 0 {
					t.kids = append(t.kids, start+right-1)
				}
			}
			return t
		}
		if n <= 2 || me >= start+right { // the left subtree: start+right .. r−1
			if me == r-1 {
				t.parent = r
			}
			start, n = start+right, n-right-1
		} else { // the right subtree: start .. start+right−1
			if me == start+right-1 {
				t.parent = r
			}
			n = right
		}
	}
}

// reduceOMPIBinomialSegment is reduce__ompi_binomial's segment: none
// (the message whole) on fewer than 8 ranks under 20 KiB, under 2 KiB,
// and wherever p does not exceed Open MPI's fitted 0.6016/1024·n +
// 1.3496; 1 KiB where it does.
func reduceOMPIBinomialSegment(p, n int) int {
	if p < 8 && n < 20480 || n < 2048 {
		return 0
	}
	if float64(p) > 0.6016/1024*float64(n)+1.3496 {
		return 1024
	}
	return 0
}

// reduceOMPIPipelineSegment is reduce__ompi_pipeline's segment by Open
// MPI's fitted bounds: 1 KiB on more ranks than 0.0410/1024·n + 9.7128,
// else 32 KiB on more than 0.0033/1024·n + 1.6761, else 64 KiB.
func reduceOMPIPipelineSegment(p, n int) int {
	s, x := float64(p), float64(n)
	switch {
	case s > 0.0410/1024*x+9.7128:
		return 1024
	case s > 0.0033/1024*x+1.6761:
		return 32 << 10
	}
	return 64 << 10
}

// reduceOMPITree runs one of Open MPI's segmented reduces (algo, one of
// the names above) of m to root.
func (c *Comm) reduceOMPITree(algo string, root int, m Msg, op Op) Msg {
	p, me := c.Size(), c.rank
	n := m.Bytes
	switch {
	case n == 0:
		c.refuse("MPI_Reduce", n, algo, "which divides by zero on an empty message (SMPI 3.32 crashes there)")
	case p == 1:
		c.refuse("MPI_Reduce", n, algo, "whose lone rank sends to a parent it lacks (SMPI 3.32 aborts there)")
	}
	var t reduceTree
	var seg int
	switch algo {
	case ompiReduceChain:
		t, seg = ompiChainTree(p, me, root, p/2), 64<<10
	case ompiReducePipeline:
		t, seg = ompiChainTree(p, me, root, 1), reduceOMPIPipelineSegment(p, n)
	case ompiReduceBinary:
		t, seg = ompiKaryTree(p, me, root, 2), 32<<10
	case ompiReduceBinomial:
		t, seg = ompiInOrderBinomial(p, me, root), reduceOMPIBinomialSegment(p, n)
	case ompiReduceInOrder:
		t = ompiInOrderBinary(p, me)
		acc := c.reduceOMPISegmented(m, op, t, n)
		// the tree's root, rank p−1, hands the result to the reduce's
		if root != p-1 {
			switch me {
			case root:
				acc = c.recv(p-1, tagReduce).parts[0]
			case p - 1:
				c.send(root, tagReduce, Msg{Bytes: n, parts: []Msg{acc}})
			}
		}
		if me != root {
			return Msg{}
		}
		return acc
	}
	if seg == 0 || seg >= n {
		seg = n
	}
	acc := c.reduceOMPISegmented(m, op, t, seg)
	if me != root {
		return Msg{}
	}
	return acc
}

// reduceOMPISegmented is SMPI's generic segmented reduce on tree t (Open
// MPI's reduce_generic, with no cap on outstanding sends, as every caller
// passes), m cut into segments of seg bytes (the last shorter). A rank
// with children goes through the (segment, child) pairs in order, one step
// each and one more at the end: it posts the receive of the pair (none at
// the last step), then waits for the previous pair's; after it waits for a
// segment's last child, at the step that posts the next segment's first
// receive, it sends that segment to its parent, blocking (the tree's root
// sends nothing). A rank without children, never the root on 2 ranks or
// more, sends its segments to its parent, one blocking send each. The
// sends carry the rank's partial result with the last segment; it returns
// that result.
func (c *Comm) reduceOMPISegmented(m Msg, op Op, t reduceTree, seg int) Msg {
	n := m.Bytes
	segs := (n + seg - 1) / seg
	size := func(i int) int { return min(seg, n-i*seg) }
	send := func(i int, acc Msg) {
		x := Msg{Bytes: size(i)}
		if i == segs-1 {
			x.parts = []Msg{acc}
		}
		c.send(t.parent, tagReduce, x)
	}
	if len(t.kids) == 0 {
		for i := 0; i < segs; i++ {
			send(i, m)
		}
		return m
	}
	acc := m
	k := len(t.kids)
	var prev *Request
	for step := 0; step <= segs*k; step++ {
		var q *Request
		if step < segs*k {
			q = c.irecv(t.kids[step%k], tagReduce)
		}
		if prev != nil {
			Waitall(prev)
			if x := prev.msg; x.parts != nil {
				acc = combine(op, acc, x.parts[0])
			}
			prev.w.recycle(prev)
			// the previous pair ended a segment: it goes up
			if step%k == 0 && t.parent >= 0 {
				send(step/k-1, acc)
			}
		}
		prev = q
	}
	return acc
}
