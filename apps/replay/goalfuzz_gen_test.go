package replay

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The generator of testdata/goalfuzz: GOAL schedules that cover what
// LogGOPSim's txt2bin accepts (shared/reference/goal-and-llamp.md §1) —
// sends and receives with tags and sizes on both sides of every S the
// golden runs use, calcs, requires and irequires, cpu and nic indices,
// receives from any source and with any tag, 2 to 64 ranks — shaped as the
// patterns Schedgen makes (binomial tree, dissemination, ring, recursive
// doubling, halo, linear all-to-all) and as random DAGs. TestGOALFuzzSchedules
// pins the files to it; LogGOPSim's figures on them are loggopsim.csv.

// fuzzSizes are the message sizes drawn: most S of the golden runs' fixed
// parameter sets (testdata/goalfuzz/README.md) and S + 1, and 0 (where
// LogGOPSim's (s−1)·G goes below 0).
var fuzzSizes = []int64{0, 1, 8, 100, 512, 513, 1024, 1025, 4096, 4097, 65535, 65536, 100000, 100001, 262144}

// gOp is one op of a generated rank.
type gOp struct {
	kind     byte  // 's', 'r', 'c'
	size     int64 // bytes, or ns for a calc
	peer     int   // -1: any source
	tag      int   // -1: any tag
	cpu, nic int
}

// gDep is a dependency line: op a (i)requires op b, indices in the rank.
type gDep struct {
	a, b  int
	start bool // irequires
}

type gRank struct {
	ops  []gOp
	deps []gDep
}

// goalGen builds one schedule.
type goalGen struct {
	r     *rand.Rand
	ranks []gRank
	// shuffle writes each rank's ops in a random order (labels keep the
	// dependencies), so that a rank's offsets differ from its creation order.
	shuffle bool
	// clauses writes tag, cpu and nic even when they are 0.
	clauses bool
}

func newGoalGen(seed uint64, n int) *goalGen {
	return &goalGen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), ranks: make([]gRank, n)}
}

// add appends op to rank and returns its index there.
func (g *goalGen) add(rank int, op gOp) int {
	g.ranks[rank].ops = append(g.ranks[rank].ops, op)
	return len(g.ranks[rank].ops) - 1
}

// dep makes op a of rank wait for op b (completion, or start if start).
func (g *goalGen) dep(rank, a, b int, start bool) {
	if a >= 0 && b >= 0 {
		g.ranks[rank].deps = append(g.ranks[rank].deps, gDep{a, b, start})
	}
}

// msg adds a send from src to dst and its receive, and returns their
// indices.
func (g *goalGen) msg(src, dst int, size int64, tag int) (send, recv int) {
	send = g.add(src, gOp{kind: 's', size: size, peer: dst, tag: tag})
	recv = g.add(dst, gOp{kind: 'r', size: size, peer: src, tag: tag})
	return
}

func (g *goalGen) calc(rank int, ns int64) int {
	return g.add(rank, gOp{kind: 'c', size: ns})
}

func (g *goalGen) size() int64 { return fuzzSizes[g.r.IntN(len(fuzzSizes))] }

// text writes the schedule in the form txt2bin reads: statements in
// column 0, labels l<k>, dependency lines after a rank's ops.
func (g *goalGen) text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "num_ranks %d\n", len(g.ranks))
	for ri, rk := range g.ranks {
		fmt.Fprintf(&b, "\nrank %d {\n", ri)
		order := make([]int, len(rk.ops))
		for i := range order {
			order[i] = i
		}
		if g.shuffle {
			g.r.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		}
		for _, i := range order {
			op := rk.ops[i]
			b.WriteString("l" + strconv.Itoa(i) + ": ")
			switch op.kind {
			case 'c':
				fmt.Fprintf(&b, "calc %d", op.size)
			case 's':
				fmt.Fprintf(&b, "send %db to %d", op.size, op.peer)
			case 'r':
				fmt.Fprintf(&b, "recv %db from %d", op.size, op.peer)
			}
			if op.kind != 'c' && (g.clauses || op.tag != 0) {
				fmt.Fprintf(&b, " tag %d", op.tag)
			}
			if g.clauses || op.cpu != 0 || op.nic != 0 {
				fmt.Fprintf(&b, " cpu %d", op.cpu)
			}
			if op.kind != 'c' && (g.clauses || op.nic != 0) {
				fmt.Fprintf(&b, " nic %d", op.nic)
			}
			b.WriteByte('\n')
		}
		for _, d := range rk.deps {
			kw := "requires"
			if d.start {
				kw = "irequires"
			}
			fmt.Fprintf(&b, "l%d %s l%d\n", d.a, kw, d.b)
		}
		b.WriteString("}\n")
	}
	return b.String()
}

// spread gives each op a cpu in [0, cpus) and each send and receive a nic
// in [0, nics), at random.
func (g *goalGen) spread(cpus, nics int) {
	for ri := range g.ranks {
		for i := range g.ranks[ri].ops {
			op := &g.ranks[ri].ops[i]
			op.cpu = g.r.IntN(cpus)
			if op.kind != 'c' {
				op.nic = g.r.IntN(nics)
			}
		}
	}
}

// calcNS draws a calc duration: 0 now and then, else up to 20 µs.
func (g *goalGen) calcNS() int64 {
	if g.r.IntN(8) == 0 {
		return 0
	}
	return 1 + g.r.Int64N(20000)
}

// binomialBcast: root 0 sends to its binomial children after receiving
// from its parent (any source when anySource), a calc after.
func binomialBcast(g *goalGen, anySource bool) {
	n := len(g.ranks)
	size := g.size()
	recvOf := make([]int, n)
	for r := range recvOf {
		recvOf[r] = -1
	}
	for mask := 1; mask < n; mask <<= 1 {
		for r := 0; r < mask && r+mask < n; r++ {
			s, rv := g.msg(r, r+mask, size, 0)
			if anySource {
				g.ranks[r+mask].ops[rv].peer = -1
			}
			g.dep(r, s, recvOf[r], false)
			recvOf[r+mask] = rv
		}
	}
	for r := range n {
		c := g.calc(r, g.calcNS())
		g.dep(r, c, recvOf[r], false)
	}
}

// dissemination: round k sends to r+2^k and receives from r−2^k; a round
// waits for the previous one's send and receive; a calc at the end.
func dissemination(g *goalGen, tagged bool) {
	n := len(g.ranks)
	size := g.size()
	last := make([][2]int, n)
	for r := range last {
		last[r] = [2]int{-1, -1}
	}
	for k, dist := 0, 1; dist < n; k, dist = k+1, dist*2 {
		tag := 0
		if tagged {
			tag = k
		}
		cur := make([][2]int, n)
		for r := range n {
			s := g.add(r, gOp{kind: 's', size: size, peer: (r + dist) % n, tag: tag})
			cur[r][0] = s
		}
		for r := range n {
			rv := g.add(r, gOp{kind: 'r', size: size, peer: (r - dist + n) % n, tag: tag})
			cur[r][1] = rv
			for _, p := range last[r] {
				g.dep(r, cur[r][0], p, false)
				g.dep(r, rv, p, false)
			}
		}
		last = cur
	}
	for r := range n {
		c := g.calc(r, g.calcNS())
		g.dep(r, c, last[r][0], false)
		g.dep(r, c, last[r][1], false)
	}
}

// ringAllreduce: 2(n−1) steps around the ring, step i's tag i (FIFO tags),
// each send after the previous step's receive and its reduction calc.
func ringAllreduce(g *goalGen) {
	n := len(g.ranks)
	size := g.size()
	prev := make([]int, n)
	for r := range prev {
		prev[r] = -1
	}
	for step := 0; step < 2*(n-1); step++ {
		cur := make([]int, n)
		for r := range n {
			s := g.add(r, gOp{kind: 's', size: size, peer: (r + 1) % n, tag: step})
			g.dep(r, s, prev[r], false)
		}
		for r := range n {
			rv := g.add(r, gOp{kind: 'r', size: size, peer: (r - 1 + n) % n, tag: step})
			g.dep(r, rv, prev[r], false)
			c := g.calc(r, g.calcNS())
			g.dep(r, c, rv, false)
			cur[r] = c
		}
		prev = cur
	}
}

// recursiveDoubling: n a power of two; round k exchanges with r XOR 2^k
// (recv posted first, the send irequires it), then a calc.
func recursiveDoubling(g *goalGen) {
	n := len(g.ranks)
	size := g.size()
	prev := make([]int, n)
	for r := range prev {
		prev[r] = -1
	}
	for k, d := 0, 1; d < n; k, d = k+1, d*2 {
		for r := range n {
			rv := g.add(r, gOp{kind: 'r', size: size, peer: r ^ d, tag: k})
			s := g.add(r, gOp{kind: 's', size: size, peer: r ^ d, tag: k})
			g.dep(r, rv, prev[r], false)
			g.dep(r, s, rv, true)
			c := g.calc(r, g.calcNS())
			g.dep(r, c, rv, false)
			g.dep(r, c, s, false)
			prev[r] = c
		}
	}
}

// halo2D: a px×py torus, iters iterations of a calc then four halo
// exchanges (tag = direction), the next calc after all eight.
func halo2D(g *goalGen, px, py, iters int) {
	size := g.size()
	prev := make([]int, px*py)
	for r := range prev {
		prev[r] = g.calc(r, g.calcNS())
	}
	for it := 0; it < iters; it++ {
		waits := make([][]int, px*py)
		for r := range px * py {
			x, y := r%px, r/px
			nb := [4]int{((x+1)%px + y*px), ((x-1+px)%px + y*px), x + ((y+1)%py)*px, x + ((y-1+py)%py)*px}
			for dir, peer := range nb {
				s := g.add(r, gOp{kind: 's', size: size, peer: peer, tag: dir})
				g.dep(r, s, prev[r], false)
				waits[r] = append(waits[r], s)
			}
			for dir, peer := range nb {
				rv := g.add(r, gOp{kind: 'r', size: size, peer: peer, tag: dir ^ 1})
				g.dep(r, rv, prev[r], true)
				waits[r] = append(waits[r], rv)
			}
		}
		for r := range px * py {
			c := g.calc(r, g.calcNS())
			for _, w := range waits[r] {
				g.dep(r, c, w, false)
			}
			prev[r] = c
		}
	}
}

// linearAlltoall: every rank sends to and receives from every other, all
// independent (many ready ops at once: the type sort's long path).
func linearAlltoall(g *goalGen) {
	n := len(g.ranks)
	size := g.size()
	for r := range n {
		for i := 1; i < n; i++ {
			g.add(r, gOp{kind: 's', size: size, peer: (r + i) % n})
		}
		for i := 1; i < n; i++ {
			g.add(r, gOp{kind: 'r', size: size, peer: (r - i + n) % n})
		}
	}
}

// randomDAG: steps in a global order, each a calc on one rank or a message
// between two (a rank to itself now and then); every new op depends on up
// to three earlier ops of its rank (requires, or irequires one time in
// four). Messages of one source, destination and tag have one size, so
// that whichever of them a receive takes is on its side of S; they may
// still be taken out of step order, which can hold a rendezvous send
// forever (LogGOPSim and emu then both report the run incomplete). wild
// makes some receives take any source or any tag; mismatch gives some
// receives a size other than their send's.
func randomDAG(g *goalGen, steps int, wild, mismatch bool) {
	n := len(g.ranks)
	tags := 1 + g.r.IntN(4)
	sizes := map[[3]int]int64{}
	link := func(rank, op int) {
		have := op // earlier ops of rank
		for range g.r.IntN(4) {
			if have == 0 {
				return
			}
			// biased to recent ops
			b := have - 1 - min(have-1, int(g.r.ExpFloat64()*4))
			g.dep(rank, op, b, g.r.IntN(4) == 0)
		}
	}
	for range steps {
		a := g.r.IntN(n)
		if g.r.IntN(10) < 3 {
			link(a, g.calc(a, g.calcNS()))
			continue
		}
		b := g.r.IntN(n)
		if b == a && g.r.IntN(4) != 0 {
			b = (a + 1 + g.r.IntN(n-1)) % n
		}
		// One size per (source, destination, tag): whichever of them a
		// receive matches, it is on the same side of S as its send.
		tag := g.r.IntN(tags)
		k := [3]int{a, b, tag}
		if _, ok := sizes[k]; !ok {
			sizes[k] = g.size()
		}
		s, rv := g.msg(a, b, sizes[k], tag)
		op := &g.ranks[b].ops[rv]
		if wild && g.r.IntN(8) == 0 {
			op.peer = -1
		}
		if wild && g.r.IntN(12) == 0 {
			op.tag = -1
		}
		if mismatch && g.r.IntN(6) == 0 {
			op.size = g.size()
		}
		link(a, s)
		link(b, rv)
	}
	// Drop duplicate dependency lines (txt2bin would keep both).
	for ri := range g.ranks {
		seen := map[gDep]bool{}
		g.ranks[ri].deps = slices.DeleteFunc(g.ranks[ri].deps, func(d gDep) bool {
			k := gDep{d.a, d.b, false}
			if seen[k] {
				return true
			}
			seen[k] = true
			return false
		})
	}
}

// lateMatch: each rank sends a large message to the next (a rendezvous
// under every S below its size) and then computes, while the next rank
// posts a receive of only 8 bytes after a calc of random length: where the
// message comes first, LogGOPSim decides by the receive's size that it was
// eager and the send never completes (its calc never runs; the replay's
// Unstarted), where the receive comes first the message's own size decides.
func lateMatch(g *goalGen) {
	n := len(g.ranks)
	for r := range n {
		s, rv := g.msg(r, (r+1)%n, 100001, 7)
		g.ranks[(r+1)%n].ops[rv].size = 8
		g.dep(r, g.calc(r, g.calcNS()), s, false)
		g.dep((r+1)%n, rv, g.calc((r+1)%n, g.calcNS()), false)
	}
}

// manyRoots gives each rank more than 16 ops ready at once, sends,
// receives and calcs mixed in random order (LogGOPSim's type sort of its
// ready ops then leaves insertion sort), and a second wave that waits for
// some of them.
func manyRoots(g *goalGen) {
	n := len(g.ranks)
	var later []gDep // dependencies of second-wave ops, on ranks laterRank
	var laterRank []int
	for wave := range 2 {
		var ops [][2]int // rank, op
		for r := range n {
			for range 17 + g.r.IntN(20) {
				var op int
				switch g.r.IntN(3) {
				case 0:
					op = g.calc(r, g.calcNS())
				default:
					peer := g.r.IntN(n)
					s, rv := g.msg(r, peer, g.size(), wave)
					if g.r.IntN(2) == 0 {
						op = s
					} else {
						ops = append(ops, [2]int{peer, rv})
						continue
					}
				}
				ops = append(ops, [2]int{r, op})
			}
		}
		if wave == 1 {
			break
		}
		// The second wave's first op on each rank waits for some ops of
		// the first.
		for _, o := range ops {
			if g.r.IntN(4) == 0 {
				later = append(later, gDep{len(g.ranks[o[0]].ops), o[1], g.r.IntN(2) == 0})
				laterRank = append(laterRank, o[0])
			}
		}
	}
	for i, d := range later {
		g.dep(laterRank[i], d.a, d.b, d.start)
	}
}

// fuzzSchedule is one generated file: its name and how it is made.
type fuzzSchedule struct {
	name string
	make func(seed uint64) *goalGen
}

// fuzzSchedules lists the files of testdata/goalfuzz.
func fuzzSchedules() []fuzzSchedule {
	var fs []fuzzSchedule
	add := func(name string, f func(seed uint64) *goalGen) {
		fs = append(fs, fuzzSchedule{name, f})
	}
	for i, n := range []int{2, 5, 16, 37, 64} {
		add(fmt.Sprintf("bcast_%d", n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			binomialBcast(g, i%2 == 1)
			return g
		})
	}
	for i, n := range []int{3, 8, 23, 64} {
		add(fmt.Sprintf("dissem_%d", n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			dissemination(g, i%2 == 0)
			g.clauses = i == 1
			return g
		})
	}
	for _, n := range []int{2, 6, 17} {
		add(fmt.Sprintf("ring_%d", n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			ringAllreduce(g)
			return g
		})
	}
	for i, n := range []int{2, 8, 32} {
		add(fmt.Sprintf("recdoub_%d", n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			recursiveDoubling(g)
			if i == 2 {
				g.spread(2, 2)
			}
			return g
		})
	}
	for _, d := range [][3]int{{2, 2, 3}, {4, 3, 2}, {8, 8, 2}} {
		add(fmt.Sprintf("halo_%dx%d", d[0], d[1]), func(seed uint64) *goalGen {
			g := newGoalGen(seed, d[0]*d[1])
			halo2D(g, d[0], d[1], d[2])
			if d[0] == 4 {
				g.spread(2, 2)
			}
			return g
		})
	}
	for _, n := range []int{4, 12, 24} {
		add(fmt.Sprintf("alltoall_%d", n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			linearAlltoall(g)
			if n == 12 {
				g.spread(1, 3)
			}
			return g
		})
	}
	for _, n := range []int{2, 5, 16} {
		add(fmt.Sprintf("latematch_%d", n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			lateMatch(g)
			return g
		})
	}
	for i, n := range []int{2, 6, 19} {
		add(fmt.Sprintf("roots_%d", n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			manyRoots(g)
			g.spread(1+i*2, 1+i)
			g.shuffle = i > 0
			return g
		})
	}
	// Ranks with no ops beside busy ones.
	add("dag_idle_9", func(seed uint64) *goalGen {
		g := newGoalGen(seed, 6)
		randomDAG(g, 60, false, false)
		g.ranks = append(g.ranks, make([]gRank, 3)...)
		return g
	})
	// Random DAGs: ranks, steps per rank, and a variant each.
	for i := range 56 {
		n := []int{2, 3, 4, 7, 16, 33, 64}[i%7]
		variant := i % 5
		add(fmt.Sprintf("dag_%02d_%d", i, n), func(seed uint64) *goalGen {
			g := newGoalGen(seed, n)
			steps := n * (4 + g.r.IntN(12))
			randomDAG(g, steps, variant == 1 || variant == 4, variant == 4)
			switch variant {
			case 2:
				g.spread(2, 1)
			case 3:
				g.spread(3, 2)
			}
			g.shuffle = variant >= 2
			g.clauses = variant == 3
			return g
		})
	}
	return fs
}

// fuzzBigSchedules are 12 schedules of 64 ranks, 8.5 MB in all, for a
// check at scale (testdata/goalfuzz/README.md): halos, rings, ten
// recursive-doubling rounds overlapping and two all-to-alls, spread over
// CPUs and NICs and written out of order in the later ones.
func fuzzBigSchedules() []fuzzSchedule {
	var fs []fuzzSchedule
	for i := range 12 {
		kind := []string{"halo", "ring", "recdoub10", "alltoall2"}[i%4]
		fs = append(fs, fuzzSchedule{fmt.Sprintf("big_%02d_%s", i, kind), func(seed uint64) *goalGen {
			g := newGoalGen(seed+4000, 64)
			switch i % 4 {
			case 0:
				halo2D(g, 8, 8, 20)
			case 1:
				ringAllreduce(g)
			case 2:
				for range 10 {
					recursiveDoubling(g)
				}
			case 3:
				linearAlltoall(g)
				linearAlltoall(g)
			}
			if i >= 4 {
				g.spread(1+i%3, 1+i%2)
			}
			g.shuffle = i >= 8
			return g
		}})
	}
	return fs
}

// fuzzSeed is the seed of the i-th file.
func fuzzSeed(i int) uint64 { return 1000 + uint64(i) }
