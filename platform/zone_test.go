package platform

import (
	"bufio"
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// sgTol is how far (relative) a figure of emu's may be from SimGrid's:
// units are parsed apart (136.931us is 136.931e-6 s in SimGrid, a product,
// and 136.931/1e6 here), a last bit apart.
const sgTol = 1e-15

// sgView is SimGrid's view of a platform, as testdata/zones/*.sg list it.
type sgView struct {
	hosts  map[string][2]float64 // speed, cores
	links  map[string]sgLink
	routes map[[2]string]sgRoute
}

type sgLink struct {
	bw, lat float64
	policy  string
}

type sgRoute struct {
	lat   float64
	links []string
}

// field reads "key=value" as a float.
func field(t *testing.T, w, key string) float64 {
	t.Helper()
	v, ok := strings.CutPrefix(w, key+"=")
	if !ok {
		t.Fatalf("%q: want %s=", w, key)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func readSG(t *testing.T, file string) sgView {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v := sgView{hosts: map[string][2]float64{}, links: map[string]sgLink{}, routes: map[[2]string]sgRoute{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		w := strings.Fields(sc.Text())
		switch {
		case len(w) >= 4 && w[0] == "host":
			v.hosts[w[1]] = [2]float64{field(t, w[2], "speed"), field(t, w[3], "cores")}
		case len(w) == 5 && w[0] == "link":
			v.links[w[1]] = sgLink{field(t, w[2], "bw"), field(t, w[3], "lat"), w[4]}
		case len(w) >= 4 && w[0] == "route":
			v.routes[[2]string{w[1], w[2]}] = sgRoute{field(t, w[3], "lat"), w[4:]}
		default:
			t.Fatalf("%s: unexpected line %q", file, sc.Text())
		}
	}
	return v
}

func near(a, b float64) bool {
	return a == b || math.Abs(a-b) <= sgTol*math.Max(math.Abs(a), math.Abs(b))
}

// TestZonesMatchSimGrid builds each platform of testdata/zones with emu and
// compares every host, link and host-to-host route with SimGrid 3.32's
// (testdata/zones/README.md says how those were produced).
func TestZonesMatchSimGrid(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "zones", "*.xml"))
	if err != nil || len(files) < 9 {
		t.Fatalf("want the 9 platforms of testdata/zones, got %v (%v)", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want := readSG(t, strings.TrimSuffix(file, ".xml")+".sg")
			p, err := ParseXML(readFile(t, file), file)
			if err != nil {
				t.Fatal(err)
			}
			topo, err := p.Build()
			if err != nil {
				t.Fatal(err)
			}
			if p.Topology != TopoZones || topo.Hosts() != len(want.hosts) || p.Hosts != len(want.hosts) {
				t.Fatalf("%s with %d hosts, SimGrid has %d", p.Topology, topo.Hosts(), len(want.hosts))
			}
			for h := range topo.Hosts() {
				name := topo.HostName(h)
				w, ok := want.hosts[name]
				if !ok || p.HostName(h) != name {
					t.Errorf("host %d %q (%q): not SimGrid's", h, name, p.HostName(h))
					continue
				}
				if !near(p.HostSpeed(h), w[0]) || float64(p.Cores(h)) != w[1] {
					t.Errorf("host %s: speed %v cores %d, SimGrid %v and %v", name, p.HostSpeed(h), p.Cores(h), w[0], w[1])
				}
			}
			links := topo.Links()
			if len(links) != len(want.links) {
				t.Errorf("%d links, SimGrid %d", len(links), len(want.links))
			}
			for _, l := range links {
				w, ok := want.links[l.Name]
				if !ok || !near(l.Bandwidth, w.bw) || !near(l.Latency, w.lat) || l.Sharing.String() != w.policy {
					t.Errorf("link %s: %v B/s %v s %v, SimGrid %+v", l.Name, l.Bandwidth, l.Latency, l.Sharing, w)
				}
			}
			for a := range topo.Hosts() {
				for b := range topo.Hosts() {
					rt := topo.Route(a, b)
					w := want.routes[[2]string{topo.HostName(a), topo.HostName(b)}]
					got := make([]string, len(rt.Links))
					for i, l := range rt.Links {
						got[i] = links[l].Name
					}
					if strings.Join(got, " ") != strings.Join(w.links, " ") || !near(rt.Latency, w.lat) {
						t.Errorf("route %s → %s: %v %v s, SimGrid %v %v s", topo.HostName(a), topo.HostName(b), got, rt.Latency, w.links, w.lat)
					}
				}
			}
		})
	}
}

// TestZonesRefused: what SimGrid refuses (or aborts on when it routes) and
// what emu does not model are one line naming the file, the line and the
// element.
func TestZonesRefused(t *testing.T) {
	const (
		head = "<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n"
		tail = "</zone></platform>"
		ab   = "<host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/>\n"
	)
	tests := []struct{ xml, want string }{
		{head + ab + "<route src=\"a\" dst=\"x\"><link_ctn id=\"l\"/></route>" + tail, `p.xml:5: <route> dst="x": no host, router or zone of that name`},
		{head + ab + "<route src=\"a\" dst=\"b\"><link_ctn id=\"m\"/></route>" + tail, `p.xml:5: <link_ctn id="m">: no such link`},
		{head + ab + "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route>" + tail, `p.xml:5: <link_ctn id="l" direction="UP">: no such SPLITDUPLEX link`},
		{head + "<link id=\"s\" bandwidth=\"1GBps\" sharing_policy=\"SPLITDUPLEX\"/>" + ab + "<route src=\"a\" dst=\"b\"><link_ctn id=\"s\"/></route>" + tail, `p.xml:5: <link_ctn id="s">: a SPLITDUPLEX link needs direction="UP" or "DOWN"`},
		{head + ab + "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n<route src=\"b\" dst=\"a\"><link_ctn id=\"l\"/></route>" + tail, `p.xml:6: <route>: the route from b to a already exists`},
		{head + ab + "<host id=\"a\" speed=\"1Gf\"/>" + tail, `p.xml:5: <host id="a">: a host, router or zone of that name already exists`},
		{head + ab + "<link id=\"l\" bandwidth=\"1GBps\"/>" + tail, `p.xml:5: <link>: a link named "l" already exists`},
		{head + ab + "<route src=\"a\" dst=\"b\"></route>" + tail, `p.xml:5: <route>: empty route from a to b`},
		{head + "<host id=\"a\" speed=\"1Gf\" availability_file=\"av.txt\"/>" + tail, `p.xml:3: <host id="a">: availability_file is not supported`},
		{head + "<host id=\"a\" speed=\"1Gf,2Gf\" pstate=\"2\"/>" + tail, `p.xml:3: <host id="a"> pstate: "2" is not one of the 2 speeds' index`},
		{head + "<host id=\"a\" speed=\"1Gf,2Gf\" pstate=\"0.5\"/>" + tail, `p.xml:3: <host id="a"> pstate: "0.5" is not one of the 2 speeds' index`},
		{head + "<host id=\"a\" speed=\"1Gf\" core=\"0\"/>" + tail, `p.xml:3: <host id="a"> core: "0" is not a positive integer`},
		{head + "<link id=\"w\" bandwidth=\"1GBps\" sharing_policy=\"WIFI\"/>" + tail, `p.xml:3: <link id="w"> sharing_policy: unknown sharing policy "WIFI"`},
		{"<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Vivaldi\">" + tail, `p.xml:2: <zone id="z">: routing "Vivaldi" is not supported`},
		{"<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Floyd\">\n" + ab + tail, `p.xml:2: <zone id="z">: no route from a to b (Floyd)`},
		{"<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Dijkstra\">\n" + ab + "<route src=\"a\" dst=\"a\" symmetrical=\"NO\"><link_ctn id=\"l\"/></route>" + tail, `p.xml:2: <zone id="z">: no route from a to b (Dijkstra)`},
		{"<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Dijkstra\">\n" + ab + "<route src=\"a\" dst=\"a\"><link_ctn id=\"l\"/></route>" + tail, `p.xml:5: <route>: the route from a to a already exists`},
		{"<platform version=\"4.1\">\n<zone id=\"z\" routing=\"None\">\n" + ab + tail, `p.xml:2: <zone id="z">: a zone of routing None routes nothing`},
		{head + "<zone id=\"y\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n<zone id=\"x\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>" + tail, `p.xml:2: <zone id="z">: no route between zones y and x in zone z`},
		{head + "<zone id=\"y\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n<host id=\"c\" speed=\"1Gf\"/>" + tail, `p.xml:4: <host> in zone z, which also holds zones`},
		{head + "<zone id=\"y\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n<zone id=\"x\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/><router id=\"r\"/></zone>\n<link id=\"l\" bandwidth=\"1GBps\"/>\n<zoneRoute src=\"y\" dst=\"x\" gw_src=\"r\" gw_dst=\"b\"><link_ctn id=\"l\"/></zoneRoute>" + tail,
			`p.xml:6: <zoneRoute>: gateway r is not inside zone y`},
		{head + ab + "<backbone id=\"bb\" bandwidth=\"1GBps\" latency=\"0\"/>" + tail, `p.xml:5: <backbone> belongs in a <zone routing="Cluster">`},
		{head + ab + "<cluster id=\"t\" prefix=\"t\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"TORUS\" topo_parameters=\"2,2\"/>" + tail, `p.xml:5: <cluster id="t">: a torus cluster among zones is not supported`},
		{head + ab + "<trace id=\"t\" periodicity=\"1\"/>" + tail, `p.xml:5: <trace> is not supported`},
		{head + "<zone id=\"y\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n<zone id=\"x\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>\n<link id=\"l\" bandwidth=\"1GBps\"/>\n<bypassRoute src=\"y\" dst=\"x\"><link_ctn id=\"l\"/></bypassRoute>" + tail,
			`p.xml:6: <bypassRoute>: a bypass route between zones is a <bypassZoneRoute> with gateways`},
	}
	for _, tt := range tests {
		_, err := ParseXML([]byte(tt.xml), "p.xml")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s\n got %v\nwant %q...", tt.xml, err, tt.want)
		}
	}
}

// TestZonesPlacement: without a hostfile each host takes as many ranks as
// it has cores, in the file's order; with np, smpirun's rule (hosts by name).
func TestZonesPlacement(t *testing.T) {
	p, err := ParseXML(readFile(t, filepath.Join("testdata", "zones", "full.xml")), "full.xml")
	if err != nil {
		t.Fatal(err)
	}
	// alpha 4 cores, beta 2, gamma 1, delta 8, eps 1
	if p.Ranks() != 16 || p.Capacity() != "5 hosts, 16 cores" {
		t.Fatalf("Ranks %d, Capacity %q", p.Ranks(), p.Capacity())
	}
	want := []int{0, 0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3, 3, 4}
	if got := p.Placement(16); !equalInts(got, want) {
		t.Errorf("Placement(16) = %v, want %v", got, want)
	}
	p.NP = 6 // by name: alpha beta delta eps gamma
	if got, want := p.Placement(6), []int{0, 1, 3, 4, 2, 0}; !equalInts(got, want) {
		t.Errorf("np 6: %v, want %v", got, want)
	}
	var _ fluid.Topology = (*fluid.Zones)(nil)
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestZonesLargeChecked: past the hosts whose every route NewZones computes,
// a missing route is still found (checkParts), and a whole platform loads.
func TestZonesLargeChecked(t *testing.T) {
	build := func(withRoute bool) string {
		var b strings.Builder
		b.WriteString("<platform version=\"4.1\">\n<zone id=\"w\" routing=\"Full\">\n")
		for _, c := range []string{"a", "b", "c"} {
			b.WriteString(`<cluster id="` + c + `" prefix="` + c + `" suffix="" radical="0-299" speed="1Gf" bw="1GBps" lat="1us"/>` + "\n")
		}
		b.WriteString("<link id=\"ab\" bandwidth=\"1GBps\" latency=\"1ms\"/>\n")
		b.WriteString(`<zoneRoute src="a" dst="b" gw_src="aa_router" gw_dst="bb_router"><link_ctn id="ab"/></zoneRoute>` + "\n")
		b.WriteString(`<zoneRoute src="b" dst="c" gw_src="bb_router" gw_dst="cc_router"><link_ctn id="ab"/></zoneRoute>` + "\n")
		if withRoute {
			b.WriteString(`<zoneRoute src="a" dst="c" gw_src="aa_router" gw_dst="cc_router"><link_ctn id="ab"/></zoneRoute>` + "\n")
		}
		b.WriteString("</zone></platform>\n")
		return b.String()
	}
	p, err := ParseXML([]byte(build(true)), "big.xml")
	if err != nil {
		t.Fatal(err)
	}
	topo, err := p.Build()
	if err != nil || topo.Hosts() != 900 {
		t.Fatalf("%v hosts, %v", topo.Hosts(), err)
	}
	// a0 → c299: a0's link up, the zone route, c299's link down
	rt := topo.Route(0, 899)
	var names []string
	for _, l := range rt.Links {
		names = append(names, topo.Links()[l].Name)
	}
	if got := strings.Join(names, " "); got != "a_link_0_UP ab c_link_299_DOWN" || !near(rt.Latency, 1e-6+1e-3+1e-6) {
		t.Errorf("a0 → c299: %s, %v s", got, rt.Latency)
	}
	if _, err := ParseXML([]byte(build(false)), "big.xml"); err == nil || !strings.HasPrefix(err.Error(), `big.xml:2: <zone id="w">: no route between zones a and c`) {
		t.Errorf("without a → c: %v", err)
	}
}
