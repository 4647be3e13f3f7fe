package scenario

import "github.com/emu-hpc/emu/fluid"

// classBandwidthTopo is a topology whose links of some classes have another
// bandwidth; routes, hosts and names are the wrapped topology's, and a route's
// link IDs index the same links.
type classBandwidthTopo struct {
	fluid.Topology
	links []fluid.Link
}

func (c classBandwidthTopo) Links() []fluid.Link { return c.links }

// withClassBandwidth returns topo with every link of a class in bw at that
// bandwidth (B/s); topo itself when bw names none of its classes.
func withClassBandwidth(topo fluid.Topology, bw map[string]float64) fluid.Topology {
	if len(bw) == 0 {
		return topo
	}
	links := append([]fluid.Link(nil), topo.Links()...)
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

// ClassBandwidths is the bandwidth of each link class of the platform, B/s: the
// most common bandwidth of the class's links (the largest of equally common
// ones), in the order the topology first lists a class. Limiter and loopback
// links are not cables and are left out.
func ClassBandwidths(p *Platform) (names []string, bw []float64, err error) {
	topo, err := p.Build()
	if err != nil {
		return nil, nil, err
	}
	count := map[string]map[float64]int{}
	for _, l := range topo.Links() {
		if l.Class == "limiter" || l.Class == "loopback" {
			continue
		}
		if count[l.Class] == nil {
			count[l.Class] = map[float64]int{}
			names = append(names, l.Class)
		}
		count[l.Class][l.Bandwidth]++
	}
	for _, n := range names {
		best, k := 0.0, 0
		for b, c := range count[n] {
			if c > k || c == k && b > best {
				best, k = b, c
			}
		}
		bw = append(bw, best)
	}
	return names, bw, nil
}
