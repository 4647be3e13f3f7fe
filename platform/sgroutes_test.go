package platform

import (
	"bufio"
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestRoutesMatchSimGrid builds every <cluster> under testdata/sgroutes and
// compares it with SimGrid 3.32's own view of the same file (the .routes
// beside it, printed by SimGrid's s4u API; testdata/sgroutes/README.md):
// the hosts' names, speeds and cores, every link's name, bandwidth,
// latency and policy, and for every ordered pair of hosts the route's links
// in order, by name, and its latency.
func TestRoutesMatchSimGrid(t *testing.T) {
	files, err := filepath.Glob("testdata/sgroutes/*.xml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no platform under testdata/sgroutes: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".xml"), func(t *testing.T) {
			p, err := ParseXML(readFile(t, file), file)
			if err != nil {
				t.Fatal(err)
			}
			topo, err := p.Build()
			if err != nil {
				t.Fatal(err)
			}
			sg, err := parseSGRoutes(readFile(t, strings.TrimSuffix(file, ".xml")+".routes"))
			if err != nil {
				t.Fatal(err)
			}
			diffs := diffSimGrid(p, topo, sg)
			for i, d := range diffs {
				if i == 20 {
					t.Errorf("... and %d more differences", len(diffs)-i)
					break
				}
				t.Error(d)
			}
		})
	}
}

// sgView is what sgroutes prints of a platform: its hosts, its links and
// the route of every ordered pair of hosts (testdata/sgroutes and
// testdata/zones hold such listings).
type sgView struct {
	hosts  []sgHost
	links  map[string]sgLink
	routes []sgRoute
}

type sgHost struct {
	name  string
	speed float64
	cores int
}

type sgLink struct {
	bw, lat float64
	policy  string
}

type sgRoute struct {
	src, dst string
	lat      float64
	links    []string
	crash    bool // SimGrid crashed computing it ("route SRC DST crash")
}

// parseSGRoutes reads sgroutes' lines: "host NAME speed=S cores=C pstates=P",
// "link NAME bw=B lat=L POLICY", "route SRC DST lat=L LINK...", or "route
// SRC DST crash" where SimGrid crashed computing the route.
func parseSGRoutes(data []byte) (*sgView, error) {
	v := &sgView{links: map[string]sgLink{}}
	value := func(field, key string) (float64, error) {
		s, ok := strings.CutPrefix(field, key+"=")
		if !ok {
			return 0, fmt.Errorf("want %s=, got %q", key, field)
		}
		return strconv.ParseFloat(s, 64)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for n := 1; sc.Scan(); n++ {
		f := strings.Fields(sc.Text())
		var err error
		switch {
		case len(f) == 5 && f[0] == "host":
			h := sgHost{name: f[1]}
			var cores float64
			if h.speed, err = value(f[2], "speed"); err == nil {
				cores, err = value(f[3], "cores")
				h.cores = int(cores)
			}
			v.hosts = append(v.hosts, h)
		case len(f) == 5 && f[0] == "link":
			l := sgLink{policy: f[4]}
			if l.bw, err = value(f[2], "bw"); err == nil {
				l.lat, err = value(f[3], "lat")
			}
			v.links[f[1]] = l
		case len(f) == 4 && f[0] == "route" && f[3] == "crash":
			v.routes = append(v.routes, sgRoute{src: f[1], dst: f[2], crash: true})
		case len(f) >= 4 && f[0] == "route":
			r := sgRoute{src: f[1], dst: f[2], links: f[4:]}
			r.lat, err = value(f[3], "lat")
			v.routes = append(v.routes, r)
		default:
			err = fmt.Errorf("unknown line %q", sc.Text())
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
	}
	return v, sc.Err()
}

// sameFloat: equal to the last bit. emu reads a platform's numbers with
// SimGrid's arithmetic (a latency of "50us" is 50 × 1e-6 =
// 4.9999999999999996e-05, units.ParseUnitTime) and sums a route's latencies
// in SimGrid's order, so nothing is left to round: one bit of a latency
// moves a flow's sharing penalty (docs/evidence/replay46.md).
func sameFloat(a, b float64) bool { return a == b }

// diffSimGrid lists every difference between emu's platform and SimGrid's
// view of it. Two exceptions: where SimGrid's route from a host to itself is
// empty (a torus without loopback_bw/lat, a route SimGrid refuses to use:
// "no connecting path"), emu's is a loopback of SimGrid's default
// bandwidth (fluid.Loopback), a link SimGrid does not list; and SimGrid's
// network model always makes its "__loopback__" link, which emu makes only
// where a route takes it. A route SimGrid crashed on must be one emu
// refuses (fluid.RouteRefusal), and no other.
func diffSimGrid(p *Platform, topo fluid.Topology, sg *sgView) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	byName := map[string]int{}
	for h := range topo.Hosts() {
		byName[topo.HostName(h)] = h
	}
	if len(byName) != len(sg.hosts) {
		add("emu has %d hosts, SimGrid %d", len(byName), len(sg.hosts))
	}
	for _, h := range sg.hosts {
		if _, ok := byName[h.name]; !ok {
			add("host %s: not in emu", h.name)
		} else if e := byName[h.name]; !sameFloat(p.HostSpeed(e), h.speed) || p.Cores(e) != h.cores || p.HostName(e) != h.name {
			add("host %s: emu %s at %g flop/s × %d cores, SimGrid %g × %d", h.name, p.HostName(e), p.HostSpeed(e), p.Cores(e), h.speed, h.cores)
		}
	}
	links := topo.Links()
	emuLinks := map[string]int{}
	for i, l := range links {
		if j, dup := emuLinks[l.Name]; dup {
			add("link %s: emu has it twice (links %d and %d)", l.Name, j, i)
		}
		emuLinks[l.Name] = i
	}
	fallback := map[string]bool{} // emu's loopbacks where SimGrid has no route
	sgUsed := map[string]bool{}
	for _, r := range sg.routes {
		for _, l := range r.links {
			sgUsed[l] = true
		}
		s, okS := byName[r.src]
		d, okD := byName[r.dst]
		if !okS || !okD {
			continue // reported with the hosts
		}
		rt := topo.Route(s, d)
		if refused := fluid.RouteRefusal(topo, s, d); r.crash || refused != nil {
			if !r.crash || refused == nil || len(rt.Links) > 0 {
				add("route %s→%s: SimGrid crashed: %v; emu refuses: %v, route %d links", r.src, r.dst, r.crash, refused, len(rt.Links))
			}
			continue
		}
		got := make([]string, len(rt.Links))
		for i, id := range rt.Links {
			got[i] = links[id].Name
		}
		if s == d && len(r.links) == 0 && r.lat == 0 {
			if len(got) != 1 || links[rt.Links[0]].Class != "loopback" {
				add("route %s→%s: SimGrid has none, emu %v (want its default loopback)", r.src, r.dst, got)
			}
			if len(got) == 1 {
				fallback[got[0]] = true
			}
			continue
		}
		if !slices.Equal(got, r.links) {
			add("route %s→%s: emu %v, SimGrid %v", r.src, r.dst, got, r.links)
		} else if !sameFloat(rt.Latency, r.lat) {
			add("route %s→%s: emu latency %.17g s, SimGrid %.17g s", r.src, r.dst, rt.Latency, r.lat)
		}
	}
	for _, l := range links {
		want, ok := sg.links[l.Name]
		switch {
		case !ok && !fallback[l.Name]:
			add("link %s: in emu, not in SimGrid", l.Name)
		case ok && (!sameFloat(l.Bandwidth, want.bw) || !sameFloat(l.Latency, want.lat) || l.Sharing.String() != want.policy):
			add("link %s: emu %g B/s %g s %s, SimGrid %g B/s %g s %s", l.Name, l.Bandwidth, l.Latency, l.Sharing, want.bw, want.lat, want.policy)
		}
	}
	names := make([]string, 0, len(sg.links))
	for name := range sg.links {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if _, ok := emuLinks[name]; !ok && (name != "__loopback__" || sgUsed[name]) {
			add("link %s: in SimGrid, not in emu", name)
		}
	}
	return out
}
