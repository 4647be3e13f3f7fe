package fluid

import "strconv"

// TorusConfig describes a SimGrid TORUS <cluster>, topo_parameters
// "d0,d1,...": a torus with Dims[i] nodes along dimension i, every node a
// host with one cable per dimension to its + neighbour (wrapping).
type TorusConfig struct {
	Dims []int // ≥ 1 dimension, each ≥ 1
	Link LinkSpec
	// Loopback.Disabled (a SimGrid torus without loopback_bw/lat) routes a
	// host's traffic to itself through its limiter alone, as SimGrid does;
	// without limiters that route would be empty (SimGrid stops: "no
	// connecting path"), so the hosts keep their loopbacks.
	Loopback Loopback
	Naming   Naming
	// Limiter is the bandwidth (bytes/s) of a Shared link given to every
	// node and crossed by all its traffic (SimGrid's limiter_link); 0 = none.
	Limiter float64
}

// Validate reports the first bad field.
func (c TorusConfig) Validate() error {
	if len(c.Dims) == 0 {
		return errorf("TorusConfig.Dims: need at least one dimension")
	}
	n := 1
	for i, d := range c.Dims {
		if d < 1 {
			return errorf("TorusConfig.Dims[%d]: must be ≥ 1, got %d", i, d)
		}
		if n *= d; n > maxNodes {
			return errorf("TorusConfig.Dims: %v gives more than %d hosts", c.Dims, maxNodes)
		}
	}
	if err := c.Link.validate("TorusConfig.Link"); err != nil {
		return wrap(err)
	}
	if err := validateLimiter("TorusConfig.Limiter", c.Limiter); err != nil {
		return wrap(err)
	}
	if err := c.Loopback.validate("TorusConfig.Loopback"); err != nil {
		return wrap(err)
	}
	return wrap(c.Naming.validate("TorusConfig.Naming", n))
}

// Torus routes in dimension order, as SimGrid's TorusZone: dimension 0
// first, each dimension in the shorter direction (ties go +). A + hop from
// node u uses u's cable (up side); a − hop from u to v uses v's cable (down
// side). With limiters, each hop is preceded by the limiter of the node it
// leaves and the destination's closes the route. Link classes: "torusN"
// for the cables of dimension N (from 0), "limiter", "loopback". Names are
// SimGrid's: node n's cable of a dimension to its + neighbour m
// "<cluster>_link_from_<n>_to_<m>" (by index; _UP and _DOWN when split), a
// limiter "<cluster>_link_<n>_limiter", a loopback
// "<cluster>_link_<radical>_loopback".
type Torus struct {
	base
	dims   []int
	stride []int    // Π_{j<i} dims[j]
	up     []LinkID // cable of node n in dimension i: index n·len(dims)+i
	down   []LinkID
	lims   []LinkID // per node, -1 if none
	// keptLoops: loopbacks made only for a host's route to itself, which
	// SimGrid's torus (without loopback_bw/lat or limiters) makes empty
	// (selfEmpty).
	keptLoops bool
}

// NewTorus builds the torus.
func NewTorus(c TorusConfig) (*Torus, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	t := &Torus{dims: append([]int(nil), c.Dims...), stride: make([]int, len(c.Dims))}
	n := 1
	for i, d := range c.Dims {
		t.stride[i] = n
		n *= d
	}
	t.base = base{hosts: n, naming: c.Naming.clone(), loopback: c.Loopback, limiter: c.Limiter}
	if c.Limiter == 0 && t.loopback.Disabled {
		t.loopback.Disabled = false // the route to self would be empty
		t.keptLoops = true
	}
	D := len(c.Dims)
	t.up, t.down = make([]LinkID, n*D), make([]LinkID, n*D)
	for node := range n {
		for i, d := range c.Dims {
			next := node + t.stride[i]
			if (node/t.stride[i])%d == d-1 {
				next = node - (d-1)*t.stride[i]
			}
			name := t.naming.cluster("link_from_" + strconv.Itoa(node) + "_to_" + strconv.Itoa(next))
			t.up[node*D+i], t.down[node*D+i] = t.cable(name, "torus"+strconv.Itoa(i), c.Link, 1)
		}
	}
	t.lims = make([]LinkID, n)
	for node := range n {
		t.lims[node] = t.addLimiter(node)
	}
	t.addLoopbacks()
	return t, nil
}

// Route returns the dimension-order route from src to dst.
func (t *Torus) Route(src, dst int) Route {
	t.check(src)
	t.check(dst)
	if src == dst {
		if r, ok := t.loopRoute(src); ok {
			return r
		}
		return t.switched([]LinkID{t.lims[src]}) // the loop below adds none
	}
	D := len(t.dims)
	var path []LinkID
	cur := src
	for i, d := range t.dims {
		s, g := (src/t.stride[i])%d, (dst/t.stride[i])%d
		plus := (g > s && g <= s+d/2) || (s > d/2 && (s+d/2)%d >= g)
		for c := s; c != g; {
			path = appendLimiter(path, t.lims[cur])
			if plus {
				path = append(path, t.up[cur*D+i])
				if c == d-1 {
					cur, c = cur-(d-1)*t.stride[i], 0
				} else {
					cur, c = cur+t.stride[i], c+1
				}
			} else {
				if c == 0 {
					cur, c = cur+(d-1)*t.stride[i], d-1
				} else {
					cur, c = cur-t.stride[i], c-1
				}
				path = append(path, t.down[cur*D+i])
			}
		}
	}
	path = appendLimiter(path, t.lims[dst])
	return t.switched(path)
}

// selfEmpty reports whether SimGrid's route from a host to itself is empty
// where emu's takes the host's loopback: SimGrid 3.32's TorusZone without
// loopback or limiters adds no link there. A message on that route alone
// SimGrid refuses ("no connecting path"), and emu runs over the loopback;
// but as the part of a longer route from a host to its zone's gateway,
// itself (Zones.globalPart), it adds nothing in SimGrid, and must add
// nothing here either.
func (t *Torus) selfEmpty() bool { return t.keptLoops }

// Dims returns the torus's dimensions.
func (t *Torus) Dims() []int { return append([]int(nil), t.dims...) }
