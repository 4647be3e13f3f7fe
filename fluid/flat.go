package fluid

// FlatConfig describes a SimGrid FLAT <cluster>: each host has a private
// cable to a crossbar, optionally through a backbone every inter-host
// message crosses.
type FlatConfig struct {
	Hosts    int      // ≥ 1
	Link     LinkSpec // each host's private cable (SplitDuplex: one link per direction)
	Backbone *Backbone
	Loopback Loopback
	Naming   Naming
	// Limiter is the bandwidth (bytes/s) of a per-host Shared link used in
	// both directions, capping the host's total throughput (SimGrid's
	// limiter_link); 0 = none.
	Limiter float64
}

// Backbone is the optional link between the hosts' private links.
type Backbone struct {
	Bandwidth float64 // bytes/s, > 0
	Latency   float64 // s, ≥ 0
	FatPipe   bool    // caps each flow instead of being shared (SimGrid's bb_sharing_policy FATPIPE)
}

// Validate reports the first bad field.
func (c FlatConfig) Validate() error {
	if c.Hosts < 1 {
		return errorf("FlatConfig.Hosts: must be ≥ 1, got %d", c.Hosts)
	}
	if err := c.Link.validate("FlatConfig.Link"); err != nil {
		return wrap(err)
	}
	if c.Backbone != nil {
		spec := LinkSpec{Bandwidth: c.Backbone.Bandwidth, Latency: c.Backbone.Latency, Policy: SharedDuplex}
		if err := spec.validate("FlatConfig.Backbone"); err != nil {
			return wrap(err)
		}
	}
	if err := c.Loopback.validate("FlatConfig.Loopback"); err != nil {
		return wrap(err)
	}
	if err := validateLimiter("FlatConfig.Limiter", c.Limiter); err != nil {
		return wrap(err)
	}
	return wrap(c.Naming.validate("FlatConfig.Naming", c.Hosts))
}

// Flat is a flat cluster. Routes: [limiter of the source], up-link of the
// source, [backbone], down-link of the destination, [limiter of the
// destination], a link appearing twice kept once (SimGrid's star zone);
// link classes "host", "backbone", "limiter", "loopback". Names are
// SimGrid's: host h's private link "<cluster>_link_<radical>" (with _UP and
// _DOWN when split), "<cluster>_backbone", limiters
// "<cluster>_link_<radical>_limiter", loopbacks
// "<cluster>_link_<radical>_loopback".
type Flat struct {
	base
	up, down []LinkID
	limiters []LinkID // per host, -1 if none
	backbone LinkID   // -1 if none
}

// NewFlat builds a flat cluster.
func NewFlat(c FlatConfig) (*Flat, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	t := &Flat{base: base{hosts: c.Hosts, naming: c.Naming.clone(), loopback: c.Loopback, limiter: c.Limiter}, backbone: -1}
	t.up, t.down = make([]LinkID, c.Hosts), make([]LinkID, c.Hosts)
	t.limiters = make([]LinkID, c.Hosts)
	for h := range c.Hosts {
		t.up[h], t.down[h] = t.cable(t.naming.link(t.naming.number(h)), "host", c.Link, 1)
		t.limiters[h] = t.addLimiter(t.naming.number(h))
	}
	if bb := c.Backbone; bb != nil {
		sh := Shared
		if bb.FatPipe {
			sh = FatPipe
		}
		t.backbone = t.add(t.naming.cluster("backbone"), "backbone", bb.Bandwidth, bb.Latency, sh)
	}
	t.addLoopbacks()
	return t, nil
}

// Route returns the path from src to dst.
func (t *Flat) Route(src, dst int) Route {
	t.check(src)
	t.check(dst)
	if src == dst {
		if r, ok := t.loopRoute(src); ok {
			return r
		}
	}
	path := make([]LinkID, 0, 5)
	path = appendLimiter(path, t.limiters[src])
	path = append(path, t.up[src])
	if t.backbone >= 0 {
		path = append(path, t.backbone)
	}
	if t.down[dst] != t.up[src] { // a SHARED private link used both ways appears once
		path = append(path, t.down[dst])
	}
	if dst != src {
		path = appendLimiter(path, t.limiters[dst])
	}
	return t.switched(path)
}

// toRouter appends the path from host h up to the cluster's router
// (SimGrid's star zone of a flat <cluster> among zones): [limiter],
// up-link, [backbone].
func (t *Flat) toRouter(path []LinkID, h int) []LinkID {
	t.check(h)
	path = append(appendLimiter(path, t.limiters[h]), t.up[h])
	if t.backbone >= 0 {
		path = append(path, t.backbone)
	}
	return path
}

// fromRouter appends the path from the router down to host h: [backbone],
// down-link, [limiter].
func (t *Flat) fromRouter(path []LinkID, h int) []LinkID {
	t.check(h)
	if t.backbone >= 0 {
		path = append(path, t.backbone)
	}
	return appendLimiter(append(path, t.down[h]), t.limiters[h])
}
