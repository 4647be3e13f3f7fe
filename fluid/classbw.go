package fluid

// classBandwidthTopo is a topology whose links of some classes have another
// bandwidth; routes, hosts and names are the wrapped topology's, and a route's
// link IDs index the same links.
type classBandwidthTopo struct {
	Topology
	links []Link
}

func (c classBandwidthTopo) Links() []Link { return c.links }

// WithClassBandwidth returns topo with every link of a class in bw at that
// bandwidth (B/s): a what-if per link class (emu sensitivity's bandwidth
// search). Routes, hosts and names are topo's, and a route's link IDs index
// the same links; topo itself when bw names none of its classes.
func WithClassBandwidth(topo Topology, bw map[string]float64) Topology {
	if len(bw) == 0 {
		return topo
	}
	links := append([]Link(nil), topo.Links()...)
	changed := false
	for i := range links {
		if b, ok := bw[links[i].Class]; ok {
			links[i].Bandwidth, changed = b, true
		}
	}
	if !changed {
		return topo
	}
	return classBandwidthTopo{Topology: topo, links: links}
}

// ClassBandwidths is the bandwidth of each link class of topo, B/s: the
// most common bandwidth of the class's links (the largest of equally common
// ones), in the order the topology first lists a class. Limiter and loopback
// links are not cables and are left out.
func ClassBandwidths(topo Topology) (names []string, bw []float64) {
	type tally struct {
		bw    float64
		count int
	}
	var tallies [][]tally // per class in names' order: each bandwidth and its links
	index := map[string]int{}
	for _, l := range topo.Links() {
		if l.Class == "limiter" || l.Class == "loopback" {
			continue
		}
		c, ok := index[l.Class]
		if !ok {
			c = len(names)
			index[l.Class] = c
			names = append(names, l.Class)
			tallies = append(tallies, nil)
		}
		i := 0
		for i < len(tallies[c]) && tallies[c][i].bw != l.Bandwidth {
			i++
		}
		if i == len(tallies[c]) {
			tallies[c] = append(tallies[c], tally{bw: l.Bandwidth})
		}
		tallies[c][i].count++
	}
	for _, ts := range tallies {
		best := ts[0]
		for _, t := range ts[1:] {
			if t.count > best.count || t.count == best.count && t.bw > best.bw {
				best = t
			}
		}
		bw = append(bw, best.bw)
	}
	return names, bw
}

func (x classBandwidthTopo) unwrap() Topology { return x.Topology }
