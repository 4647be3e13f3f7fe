package platform

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestZonesMatchSimGrid builds each platform of testdata/zones with emu and
// compares every host, link and host-to-host route with SimGrid 3.32's
// (testdata/zones/README.md says how those were produced).
func TestZonesMatchSimGrid(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "zones", "*.xml"))
	if err != nil || len(files) < 16 {
		t.Fatalf("want the 16 platforms of testdata/zones, got %v (%v)", files, err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			want, err := parseSGRoutes(readFile(t, strings.TrimSuffix(file, ".xml")+".sg"))
			if err != nil {
				t.Fatal(err)
			}
			p, err := ParseXML(readFile(t, file), file)
			if err != nil {
				t.Fatal(err)
			}
			topo, err := p.Build()
			if err != nil {
				t.Fatal(err)
			}
			if p.Topology != TopoZones || p.Hosts != len(want.hosts) {
				t.Fatalf("%s with %d hosts, SimGrid has %d", p.Topology, p.Hosts, len(want.hosts))
			}
			if n := len(want.hosts); len(want.routes) != n*n {
				t.Fatalf("SimGrid's listing has %d routes, want %d", len(want.routes), n*n)
			}
			for _, d := range diffSimGrid(p, topo, want) {
				t.Error(d)
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
		{head + "<host id=\"a\" speed=\"1Gf\" state_file=\"st.txt\"/>" + tail, `p.xml:3: <host id="a">: state_file is not supported (emu's hosts do not fail)`},
		{head + "<host id=\"a\" speed=\"1Gf\" availability_file=\"av.txt\"/>" + tail, `p.xml:3: <host id="a"> availability_file: open av.txt: no such file`},
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
		{head + ab + "<route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route>\n<host id=\"c\" speed=\"1Gf\"/>" + tail,
			`p.xml:6: <host> after <route>: SimGrid's DTD puts a zone's routes after its hosts, links and zones ("Starting tag <host> is not allowed here")`},
		{head + "<zone id=\"y\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/></zone>\n<zone id=\"x\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/></zone>\n<link id=\"l\" bandwidth=\"1GBps\"/>\n<zoneRoute src=\"y\" dst=\"x\" gw_src=\"a\" gw_dst=\"b\"><link_ctn id=\"l\"/></zoneRoute>\n<link id=\"m\" bandwidth=\"1GBps\"/>" + tail,
			`p.xml:7: <link> after <zoneRoute>: SimGrid's DTD puts a zone's routes after its hosts, links and zones ("Starting tag <link> is not allowed here")`},
		{head + ab + "<backbone id=\"bb\" bandwidth=\"1GBps\" latency=\"0\"/>" + tail, `p.xml:5: <backbone> belongs in a <zone routing="Cluster">`},
		// SimGrid makes no router for a torus, fat-tree or dragonfly cluster: router_id is read past
		{head + "<cluster id=\"t\" prefix=\"t\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"TORUS\" topo_parameters=\"2,2\" router_id=\"t-gw\"/>\n" +
			"<zone id=\"x\" routing=\"Full\"><host id=\"b\" speed=\"1Gf\"/><router id=\"r\"/></zone>\n<link id=\"l\" bandwidth=\"1GBps\"/>\n" +
			"<zoneRoute src=\"t\" dst=\"x\" gw_src=\"t-gw\" gw_dst=\"r\"><link_ctn id=\"l\"/></zoneRoute>" + tail, `p.xml:6: <zoneRoute> gw_src="t-gw": the router_id of cluster "t", a torus cluster, which has no router (SimGrid makes none): name one of its hosts, e.g. "t0", as the gateway`},
		{head + "<cluster id=\"t\" prefix=\"t\" suffix=\"\" radical=\"0-2\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"TORUS\" topo_parameters=\"2,2\"/>" + tail, `p.xml:3: cluster attribute radical: 3 host numbers for a torus of 4 nodes`},
		{head + "<host id=\"t1\" speed=\"1Gf\"/><cluster id=\"t\" prefix=\"t\" suffix=\"\" radical=\"0-3\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" topology=\"TORUS\" topo_parameters=\"2,2\"/>" + tail, `p.xml:3: <cluster id="t1">: a host, router or zone of that name already exists`},
		{head + ab + "<trace id=\"t\" periodicity=\"1\">\n0 1\n1 x\n</trace>" + tail, `p.xml:7: value "x": want a number ≥ 0`},
		{head + ab + "<trace id=\"t\" periodicity=\"1\">0 1</trace><trace_connect kind=\"SPEED\" trace=\"t\" element=\"c\"/>" + tail, `p.xml:5: <trace_connect kind="SPEED" element="c">: no host "c"`},
		{head + ab + "<trace id=\"t\" periodicity=\"1\">0 1</trace><trace_connect kind=\"LINK_AVAIL\" trace=\"t\" element=\"l\"/>" + tail, `p.xml:5: <trace_connect kind="LINK_AVAIL" element="l">: failures are not supported`},
		// a bandwidth of 0 is a failure: refused, on the link's profile (the same trace is a speed's 0 fine)
		{head + ab + "<trace id=\"t\" periodicity=\"-1\">0.5 1e9\n1.5 0\n</trace><trace_connect kind=\"SPEED\" trace=\"t\" element=\"a\"/>\n<trace_connect kind=\"BANDWIDTH\" trace=\"t\" element=\"l\"/>" + tail, `p.xml:8: <trace_connect kind="BANDWIDTH" element="l">: bandwidth 0 at 1.5 s: a link's bandwidth must stay positive`},
		{head + ab + "<trace id=\"t\" periodicity=\"-1\">0 1e9\n1 1e-320\n</trace><trace_connect kind=\"BANDWIDTH\" trace=\"t\" element=\"l\"/>" + tail, `p.xml:7: <trace_connect kind="BANDWIDTH" element="l">: at 1 s: bandwidth "1e-320Bps" is below 1e-09 B/s`},
		// a speed whose flop/s overflow, a latency past the clock's bound (the latency attribute's)
		{head + ab + "<trace id=\"t\" periodicity=\"-1\">0 1\n2 1e300\n</trace><trace_connect kind=\"SPEED\" trace=\"t\" element=\"a\"/>" + tail, `p.xml:7: <trace_connect kind="SPEED" element="a">: speed 1e+300 at 2 s: 1e+300 times the host's 1e+09 flop/s is beyond a float`},
		{head + ab + "<trace id=\"t\" periodicity=\"-1\">0 1e-5\n3 2e9\n</trace><trace_connect kind=\"LATENCY\" trace=\"t\" element=\"l\"/>" + tail, `p.xml:7: <trace_connect kind="LATENCY" element="l">: latency at 3 s: time "2e+09" is beyond 1e+09s`},
		{head + ab + "<trace_connect kind=\"BANDWIDTH\" trace=\"u\" element=\"l\"/>" + tail, `p.xml:5: <trace_connect kind="BANDWIDTH" element="l">: no <trace id="u">`},
		// SimGrid's DTD requires a <trace>'s periodicity; its parser stops without it
		{head + ab + "<trace id=\"t\">0 1e9\n</trace>" + tail, `p.xml:5: <trace>: attribute "periodicity" is required`},
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
	us, ms := 1e-6, 1e-3 // summed in floats, as SimGrid sums them (constants would sum exactly)
	if got := strings.Join(names, " "); got != "a_link_0_UP ab c_link_299_DOWN" || !sameFloat(rt.Latency, us+ms+us) {
		t.Errorf("a0 → c299: %s, %v s", got, rt.Latency)
	}
	if _, err := ParseXML([]byte(build(false)), "big.xml"); err == nil || !strings.HasPrefix(err.Error(), `big.xml:2: <zone id="w">: no route between zones a and c`) {
		t.Errorf("without a → c: %v", err)
	}
}
