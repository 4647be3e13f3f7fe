package fluid

import (
	"fmt"
	"slices"
	"strconv"
)

// FatTreeConfig describes a SimGrid FAT_TREE <cluster>,
// topo_parameters "L;d1,...,dL;u1,...,uL;c1,...,cL" (reference §4.6).
type FatTreeConfig struct {
	Levels   int   // L, switch levels, ≥ 1
	Down     []int // d_i: children per level-i switch, L entries ≥ 1
	Up       []int // u_i: parents per level-(i−1) node, L entries ≥ 1
	Parallel []int // c_i: parallel cables between a level-(i−1) node and each parent, L entries ≥ 1
	Link     LinkSpec
	Loopback Loopback
	Naming   Naming
	// Limiter is the bandwidth (bytes/s) of a Shared link given to every
	// host and switch and crossed by all its traffic (SimGrid's
	// limiter_link); 0 = none.
	Limiter float64
	// FirstCable is the number SimGrid gives the first cable in its name
	// (link_from_<child>_<parent>_<k>): SimGrid numbers the cables of all
	// the fat trees of a platform in one sequence, in the order it builds
	// them, so a second fat tree's start where the first's end (Cables).
	FirstCable int
}

// Validate reports the first bad field.
func (c FatTreeConfig) Validate() error {
	if c.Levels < 1 {
		return errorf("FatTreeConfig.Levels: must be ≥ 1, got %d", c.Levels)
	}
	for _, v := range []struct {
		name string
		xs   []int
	}{{"Down", c.Down}, {"Up", c.Up}, {"Parallel", c.Parallel}} {
		if len(v.xs) != c.Levels {
			return errorf("FatTreeConfig.%s: %d entries for %d levels", v.name, len(v.xs), c.Levels)
		}
		for i, x := range v.xs {
			if x < 1 {
				return errorf("FatTreeConfig.%s[%d]: must be ≥ 1, got %d", v.name, i, x)
			}
		}
	}
	if n := c.hosts(); n > maxNodes {
		return errorf("FatTreeConfig.Down: %v gives more than %d hosts", c.Down, maxNodes)
	}
	// Every level holds up to as many nodes as the hosts: a deep tree of few
	// hosts a level can still hold more nodes than memory (20 levels of
	// 2^20 nodes, each with a label of 20 numbers), so the sum is bounded too.
	if n := c.nodes(); n > maxTreeNodes {
		return errorf("FatTreeConfig.Levels: %d levels of %v down, %v up hold more than %d nodes (hosts and switches)", c.Levels, c.Down, c.Up, maxTreeNodes)
	}
	if err := c.Link.validate("FatTreeConfig.Link"); err != nil {
		return wrap(err)
	}
	if err := c.Loopback.validate("FatTreeConfig.Loopback"); err != nil {
		return wrap(err)
	}
	if err := validateLimiter("FatTreeConfig.Limiter", c.Limiter); err != nil {
		return wrap(err)
	}
	if c.FirstCable < 0 {
		return errorf("FatTreeConfig.FirstCable: must be ≥ 0, got %d", c.FirstCable)
	}
	return wrap(c.Naming.validate("FatTreeConfig.Naming", c.hosts()))
}

// maxNodes bounds the nodes of a generated topology, so that a typo in a
// parameter string yields an error rather than an out-of-memory crash.
const maxNodes = 1 << 22

// maxTreeNodes bounds a fat-tree's nodes over all its levels (NewFatTree's
// memory grows as nodes × levels).
const maxTreeNodes = 2 * maxNodes

// nodes is the number of nodes over every level, hosts included, saturated
// at maxTreeNodes+1: level l has Π_{j<l} u_j · Π_{j≥l} d_j.
func (c FatTreeConfig) nodes() int {
	total := 0
	for l := 0; l <= c.Levels; l++ {
		n := 1
		for j := 0; j < c.Levels; j++ {
			f := c.Down[j]
			if j < l {
				f = c.Up[j]
			}
			n *= f
			if n > maxTreeNodes {
				return maxTreeNodes + 1
			}
		}
		if total += n; total > maxTreeNodes {
			return maxTreeNodes + 1
		}
	}
	return total
}

// hosts is Π d_i, saturated at maxNodes+1.
func (c FatTreeConfig) hosts() int {
	n := 1
	for _, d := range c.Down {
		n *= d
		if n > maxNodes {
			return maxNodes + 1
		}
	}
	return n
}

// FatTree is a k-ary fat-tree with SimGrid's labels and d-mod-k routing.
// Level 0 holds the hosts, level L the top switches. Link classes: "host"
// for host↔level-1 cables, "levelN" for cables between level N and N+1
// switches, "limiter", "loopback".
//
// Links have SimGrid's names, which use its node ids: host h is h, and the
// switches count down from 2·hosts−1, level by level from level 1, each
// level in position order. A cable is "link_from_<child>_<parent>_<k>",
// the k-th cable made (no cluster prefix; _UP and _DOWN when split); a
// node's limiter "<cluster>_link_<id>_limiter", a host's loopback
// "<cluster>_link_<radical>_loopback". Where the switches outnumber the
// hosts, switch ids run into the hosts' (and below 0) and limiter names
// repeat: SimGrid refuses such a platform with limiters.
type FatTree struct {
	base
	spec          LinkSpec
	levels        int
	down, up, par []int
	cables        int         // cables made (each one link, or two when split)
	count         []int       // nodes per level 0..L
	offset        []int       // global index of the first node of each level
	labels        []int32     // node g's label is labels[g*L : g*L+L]
	limiters      []LinkID    // per node, -1 if none
	parents       [][]ftCable // per node below the top: u·c cables, by port
	children      [][]ftCable // per switch: d·c cables, by port (nil for hosts)
}

// ftCable is one parallel cable between a node and one of its parents.
type ftCable struct {
	upLink, downLink LinkID
	parent, child    int32 // global node indices
}

// NewFatTree builds the fat-tree. Building is linear in the number of
// cables; routes are computed on demand.
func NewFatTree(c FatTreeConfig) (*FatTree, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	L := c.Levels
	t := &FatTree{base: base{hosts: c.hosts(), naming: c.Naming.clone(), loopback: c.Loopback, limiter: c.Limiter},
		spec: c.Link, levels: L, down: slices.Clone(c.Down), up: slices.Clone(c.Up), par: slices.Clone(c.Parallel)}
	t.count = make([]int, L+1)
	t.offset = make([]int, L+2)
	for l := 0; l <= L; l++ {
		n := 1
		for j := 0; j < L; j++ {
			if j < l {
				n *= c.Up[j]
			} else {
				n *= c.Down[j]
			}
		}
		if n > maxNodes {
			return nil, errorf("FatTreeConfig.Up: %v gives more than %d level-%d switches", c.Up, maxNodes, l)
		}
		t.count[l] = n
		t.offset[l+1] = t.offset[l] + n
	}
	total := t.offset[L+1]
	t.labels = make([]int32, total*L)
	t.parents = make([][]ftCable, total)
	t.children = make([][]ftCable, total)
	t.limiters = make([]LinkID, total)
	for g := range total {
		t.limiters[g] = t.addLimiter(t.nodeID(g))
	}
	for l := 0; l <= L; l++ {
		for p := 0; p < t.count[l]; p++ {
			g := t.offset[l] + p
			rest := p
			for j := 0; j < L; j++ { // mixed radix, digit 0 fastest
				r := t.radix(l, j)
				t.labels[g*L+j] = int32(rest % r)
				rest /= r
			}
			if l < L {
				t.parents[g] = make([]ftCable, c.Up[l]*c.Parallel[l])
			}
			if l > 0 {
				t.children[g] = make([]ftCable, c.Down[l-1]*c.Parallel[l-1])
			}
		}
	}
	cables := c.FirstCable
	for l := 0; l < L; l++ {
		class := "host"
		if l > 0 {
			class = "level" + strconv.Itoa(l)
		}
		for p := 0; p < t.count[l]; p++ {
			t.connectParents(t.offset[l]+p, l, class, &cables)
		}
	}
	t.cables = cables - c.FirstCable
	t.addLoopbacks()
	return t, nil
}

// Cables returns the number of cables between the tree's nodes (each one
// link, or two when split): where the next fat tree's names start.
func (t *FatTree) Cables() int { return t.cables }

// radix is the range of label digit j at level l: u_j below l, d_j above.
func (t *FatTree) radix(l, j int) int {
	if j < l {
		return t.up[j]
	}
	return t.down[j]
}

func (t *FatTree) label(g, j int) int { return int(t.labels[g*t.levels+j]) }

// nodeID is SimGrid's id of node g: a host's index, or for a switch 2·hosts
// − 1 counting down over the switches in emu's order (level, position).
func (t *FatTree) nodeID(g int) int {
	if g < t.hosts {
		return g
	}
	return 2*t.hosts - 1 - (g - t.hosts)
}

// connectParents cables node g of level l to its parents: the level-(l+1)
// switches whose labels equal g's except for digit l, in position order,
// each with c_{l+1} parallel cables. Port numbers follow SimGrid: the
// parent sees the child at g.label[l] + j·d, the child sees the parent at
// parent.label[l] + j·u. *cables counts the cables made so far (SimGrid's
// name suffix).
func (t *FatTree) connectParents(g, l int, class string, cables *int) {
	L := t.levels
	// Position of the parent with digit l = 0; digit l has weight Π_{i<l} u_i.
	pos0, weight, w := 0, 0, 1
	for j := 0; j < L; j++ {
		if j == l {
			weight = w
		} else {
			pos0 += t.label(g, j) * w
		}
		w *= t.radix(l+1, j)
	}
	for p := 0; p < t.up[l]; p++ {
		parent := t.offset[l+1] + pos0 + p*weight
		for j := 0; j < t.par[l]; j++ {
			name := fmt.Sprintf("link_from_%d_%d_%d", t.nodeID(g), t.nodeID(parent), *cables)
			*cables++
			up, down := t.cable(name, class, t.spec, 1)
			cable := ftCable{upLink: up, downLink: down, parent: int32(parent), child: int32(g)}
			t.children[parent][t.label(g, l)+j*t.down[l]] = cable
			t.parents[g][t.label(parent, l)+j*t.up[l]] = cable
		}
	}
}

// Route returns SimGrid's d-mod-k route from src to dst: up until the
// current switch's subtree holds dst, taking at level l the parent port
// (dst / Π_{i<l} u_i) mod (u_{l+1}·c_{l+1}); then down towards dst's label.
// With limiters, a node's limiter precedes each up-link leaving it and
// follows each down-link leaving it; the destination's closes the route.
func (t *FatTree) Route(src, dst int) Route {
	t.check(src)
	t.check(dst)
	if src == dst {
		if r, ok := t.loopRoute(src); ok {
			return r
		}
	}
	path, cur, level := t.climb(src, dst)
	for cur != dst {
		// Among parallel cables, start at the one picked by the source's
		// position. Like SimGrid, the scan index carries over to the next
		// level after a descent instead of restarting; that only changes
		// which parallel cable is taken lower down. SimGrid scans the
		// children one by one for the next index i with i mod d equal to
		// dst's digit; here that index is computed, which gives the same
		// cables without walking a top switch's hundreds of children
		// (TestFatTreeRouteMatchesScan).
		i := (src % t.par[level-1]) * t.down[level-1]
		for level > 0 {
			kids, d := t.children[cur], t.down[level-1]
			i += ((t.label(dst, level-1)-i%d)%d + d) % d
			if i >= len(kids) {
				break
			}
			cable := kids[i]
			path = append(path, cable.downLink)
			path = appendLimiter(path, t.limiters[cur])
			cur, level = int(cable.child), level-1
			i++
		}
	}
	path = appendLimiter(path, t.limiters[dst])
	return t.switched(path)
}

// climb is the up half of Route: the links from host src up to the first
// switch whose subtree holds dst, that switch and its level.
func (t *FatTree) climb(src, dst int) (path []LinkID, cur, level int) {
	path = make([]LinkID, 0, 2*t.levels)
	cur = src // hosts are nodes 0..hosts-1 of level 0
	for !t.covers(cur, level, dst) {
		port := dst
		for i := 0; i < level; i++ {
			port /= t.up[i]
		}
		port %= t.up[level] * t.par[level]
		cable := t.parents[cur][port]
		path = appendLimiter(path, t.limiters[cur])
		path = append(path, cable.upLink)
		cur, level = int(cable.parent), level+1
	}
	return path, cur, level
}

// covers reports whether the subtree of switch g at level holds host h:
// their labels agree on every digit from level up.
func (t *FatTree) covers(g, level, h int) bool {
	if level == 0 {
		return false
	}
	for j := level; j < t.levels; j++ {
		if t.label(g, j) != t.label(h, j) {
			return false
		}
	}
	return true
}

// Switches returns the number of switches at each level 1..L.
func (t *FatTree) Switches() []int { return append([]int(nil), t.count[1:]...) }
