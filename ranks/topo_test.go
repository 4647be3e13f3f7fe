package ranks

import "github.com/emu-hpc/emu/fluid"

// crossbar is a test topology: every host has a private up and down link to
// a non-blocking switch (SimGrid's flat split-duplex cluster without
// backbone), and a zero-latency fat-pipe loopback. Route a→b (a≠b) is
// [up_a, down_b] with latency 2·lat and 1 hop.
type crossbar struct {
	hosts   int
	bw, lat float64
	links   []fluid.Link
}

// withUpLatency gives host h's up link latency lat (route latencies then
// differ by sender, for weight tests).
func (x *crossbar) withUpLatency(h int, lat float64) *crossbar {
	x.links[2*h].Latency = lat
	return x
}

func newCrossbar(hosts int, bw, lat float64) *crossbar {
	x := &crossbar{hosts: hosts, bw: bw, lat: lat}
	for h := 0; h < hosts; h++ {
		x.links = append(x.links,
			fluid.Link{Name: "up", Bandwidth: bw, Latency: lat},
			fluid.Link{Name: "down", Bandwidth: bw, Latency: lat})
	}
	for h := 0; h < hosts; h++ {
		x.links = append(x.links, fluid.Link{Name: "lo", Bandwidth: 10 * bw, Sharing: fluid.FatPipe})
	}
	return x
}

func (x *crossbar) Hosts() int            { return x.hosts }
func (x *crossbar) Links() []fluid.Link   { return x.links }
func (x *crossbar) HostName(h int) string { return "node-" + itoa(h) }
func (x *crossbar) Route(a, b int) fluid.Route {
	if a == b {
		return fluid.Route{Links: []fluid.LinkID{fluid.LinkID(2*x.hosts + a)}}
	}
	up, down := fluid.LinkID(2*a), fluid.LinkID(2*b+1)
	return fluid.Route{Links: []fluid.LinkID{up, down}, Latency: x.links[up].Latency + x.links[down].Latency, Hops: 1}
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}

// identity places rank i on host i.
func identity(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}
