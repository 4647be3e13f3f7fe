package platform

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseXMLPeers(t *testing.T) {
	// shared/peers/smpi/README.md §3: both files declare 256 single-core hosts at
	// 1 Gflop/s named node-0..node-255, links of 10 GB/s and 1 us, SPLITDUPLEX.
	for _, tt := range []struct {
		file, topo, fatTree string
	}{
		{"cluster_flat_256.xml", TopoFlat, ""},
		{"cluster_fattree_256.xml", TopoFatTree, "2;8,32;1,4;1,1"},
	} {
		p, err := ParseXML(peerFile(t, tt.file), tt.file)
		if err != nil {
			t.Fatal(err)
		}
		if p.Topology != tt.topo || p.FatTree != tt.fatTree || p.Hosts != 256 || p.CoresPerHost != 1 ||
			p.LinkBandwidth != 1e10 || p.LinkLatency != 1e-6 || p.Sharing != SharingSplitDuplex ||
			p.Speed != 1e9 || p.HostName(255) != "node-255" || p.BackboneBandwidth != 0 {
			t.Errorf("%s: %+v", tt.file, p)
		}
		// README §3: a flat route is 2 links, 2 us; on the fat tree, a route inside a
		// leaf (8 hosts) is 2 links, across leaves 4 links and 4 us.
		topo, err := p.Build()
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []struct {
			src, dst, links int
			lat             float64
		}{{0, 1, 2, 2e-6}, {0, 7, 2, 2e-6}, {0, 8, 2, 2e-6}, {0, 255, 2, 2e-6}} {
			if tt.topo == TopoFatTree && r.dst >= 8 {
				r.links, r.lat = 4, 4e-6
			}
			route := topo.Route(r.src, r.dst)
			if len(route.Links) != r.links || !close(route.Latency, r.lat) {
				t.Errorf("%s: route %d→%d has %d links, %g s; want %d, %g", tt.file, r.src, r.dst, len(route.Links), route.Latency, r.links, r.lat)
			}
		}
		if topo.HostName(17) != "node-17" {
			t.Errorf("%s: host 17 is %q", tt.file, topo.HostName(17))
		}
	}
}

func TestParseXMLTopologies(t *testing.T) {
	wrap := func(cluster string) []byte {
		return []byte(`<?xml version='1.0'?>
<platform version="4.1">
<zone id="AS0" routing="Full">
  <prop id="smpi/os" value="0"/>
  ` + cluster + `
</zone>
</platform>`)
	}
	// SimGrid's factors, multiplied at run time as xbt_parse_get_time
	// multiplies them: "50us" is 50 × 1e-6 = 4.9999999999999996e-05.
	us, ns := 1e-6, 1e-9
	tests := []struct {
		cluster string
		want    Platform
	}{
		{`<cluster id="c" prefix="n" suffix=".x" radical="0-3,8" speed="1Gf" core="4" bw="125MBps" lat="50us"
		  bb_bw="2.25GBps" bb_lat="500us" bb_sharing_policy="FATPIPE" loopback_bw="5GBps" loopback_lat="100ns" limiter_link="1GBps"/>`,
			Platform{FromFile: true, Name: "c", Prefix: "n", Suffix: ".x", Radical: []int{0, 1, 2, 3, 8}, Hosts: 5, CoresPerHost: 4,
				Speed: 1e9, LinkBandwidth: 125e6, LinkLatency: 50 * us, Sharing: SharingSplitDuplex, Topology: TopoFlat,
				BackboneBandwidth: 2.25e9, BackboneLatency: 500 * us, BackboneSharing: SharingFatPipe,
				LoopbackBandwidth: 5e9, LoopbackLatency: 100 * ns, LimiterBandwidth: 1e9}},
		// torus 2×2×2 = 8 nodes; the radical offers 10 numbers, 8 are used.
		{`<cluster id="t" prefix="t-" suffix="" radical="0-9" speed="1Gf" bw="10Gbps" lat="1us" sharing_policy="SHARED" topology="TORUS" topo_parameters="2,2,2"/>`,
			Platform{FromFile: true, Name: "t", Prefix: "t-", Radical: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, Hosts: 8, CoresPerHost: 1,
				Speed: 1e9, LinkBandwidth: 1.25e9, LinkLatency: 1e-6, Sharing: SharingShared, BackboneSharing: SharingShared, NoLoopback: true,
				Topology: TopoTorus, Torus: []int{2, 2, 2}}},
		// dragonfly 2 groups × 2 chassis × 1 router × 2 nodes = 8 nodes.
		{`<cluster id="d" prefix="d-" suffix="" radical="0-7" speed="1Gf" bw="10GBps" lat="1us" topology="DRAGONFLY" topo_parameters="2,2;2,1;1,2;2"/>`,
			Platform{FromFile: true, Name: "d", Prefix: "d-", Radical: []int{0, 1, 2, 3, 4, 5, 6, 7}, Hosts: 8, CoresPerHost: 1,
				Speed: 1e9, LinkBandwidth: 1e10, LinkLatency: 1e-6, Sharing: SharingSplitDuplex, BackboneSharing: SharingShared, NoLoopback: true,
				Topology: TopoDragonfly, Dragonfly: "2,2;2,1;1,2;2"}},
		// Optional attributes left empty, as SimGrid's DTD defaults them, or
		// zero: no backbone, loopback or limiter (SimGrid builds each only
		// for a value above 0). loopback_lat="0" alone is no loopback.
		{`<cluster id="e" prefix="e" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="1us" bb_bw="" bb_lat="" limiter_link="" loopback_bw="" loopback_lat="" topo_parameters="" router_id=""/>`,
			Platform{FromFile: true, Name: "e", Prefix: "e", Radical: []int{0, 1}, Hosts: 2, CoresPerHost: 1, Speed: 1e9, LinkBandwidth: 1e9, LinkLatency: 1e-6,
				Sharing: SharingSplitDuplex, BackboneSharing: SharingShared, NoLoopback: true, Topology: TopoFlat}},
		{`<cluster id="z" prefix="z" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="1us" bb_bw="0" bb_lat="0s" limiter_link="0Bps" loopback_bw="0Gbps" loopback_lat="0"/>`,
			Platform{FromFile: true, Name: "z", Prefix: "z", Radical: []int{0, 1}, Hosts: 2, CoresPerHost: 1, Speed: 1e9, LinkBandwidth: 1e9, LinkLatency: 1e-6,
				Sharing: SharingSplitDuplex, BackboneSharing: SharingShared, NoLoopback: true, Topology: TopoFlat}},
		{`<cluster id="l" prefix="l" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="1us" loopback_lat="0"/>`,
			Platform{FromFile: true, Name: "l", Prefix: "l", Radical: []int{0, 1}, Hosts: 2, CoresPerHost: 1, Speed: 1e9, LinkBandwidth: 1e9, LinkLatency: 1e-6,
				Sharing: SharingSplitDuplex, BackboneSharing: SharingShared, NoLoopback: true, Topology: TopoFlat}},
		// SimGrid's cluster_torus.xml shape: loopback_bw given, loopback_lat="0".
		{`<cluster id="b" topology="TORUS" topo_parameters="3,2,2" prefix="n-" radical="0-11" suffix=".x" speed="1Gf" bw="125MBps" lat="50us" loopback_bw="100MBps" loopback_lat="0"/>`,
			Platform{FromFile: true, Name: "b", Prefix: "n-", Suffix: ".x", Radical: []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, Hosts: 12, CoresPerHost: 1, Speed: 1e9,
				LinkBandwidth: 125e6, LinkLatency: 50 * us, Sharing: SharingSplitDuplex, BackboneSharing: SharingShared,
				LoopbackBandwidth: 100e6, Topology: TopoTorus, Torus: []int{3, 2, 2}}},
	}
	// A Latin-1 declaration (é as one byte in the suffix) is read as SimGrid
	// reads it.
	latin := []byte("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<platform version=\"4.1\"><cluster id=\"c\" prefix=\"n\" suffix=\".\xe9\" radical=\"0\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\"/></platform>")
	if p, err := ParseXML(latin, "p.xml"); err != nil || p.HostName(0) != "n0.é" {
		t.Errorf("Latin-1 file: %v, %v", p, err)
	}
	for _, tt := range tests {
		p, err := ParseXML(wrap(tt.cluster), "p.xml")
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if !reflect.DeepEqual(*p, tt.want) {
			t.Errorf("got  %+v\nwant %+v", *p, tt.want)
		}
	}
}

func TestParseXMLErrors(t *testing.T) {
	const ok = `speed="1Gf" bw="1GBps" lat="1us"`
	tests := []struct{ xml, want string }{
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="10" lat="1us"/></platform>`,
			`p.xml:1: cluster attribute bw: bandwidth "10" has no unit`},
		// SimGrid reads a bare latency as seconds with a deprecation warning;
		// emu asks for the unit (0 may go without), as for a bandwidth
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="10GBps" lat="1"/></platform>`,
			`p.xml:1: cluster attribute lat: time "1" has no unit (e.g. "1us"; SimGrid would read seconds)`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="10GBps" lat="0" bb_bw="1GBps" bb_lat="2e-6"/></platform>`,
			`p.xml:1: cluster attribute bb_lat: time "2e-6" has no unit`},
		{"<platform version=\"4.1\">\n<zone id=\"z\" routing=\"Full\">\n<link id=\"l\" bandwidth=\"1GBps\" latency=\"5\"/>\n</zone></platform>",
			`p.xml:3: <link id="l"> latency: time "5" has no unit`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="-1GBps" lat="1us"/></platform>`,
			`p.xml:1: cluster attribute bw: bandwidth "-1GBps" must be positive`},
		{"<platform>\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" " + ok + " topology=\"HYPERCUBE\"/></platform>",
			`p.xml:2: cluster attribute topology: unknown topology "HYPERCUBE"`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` topology="FAT_TREE" topo_parameters="2;4,4;1,2;1,2"/></platform>`,
			"p.xml:1: cluster attribute radical: 4 host numbers for a fat-tree of 16 nodes"},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` topology="FAT_TREE" topo_parameters="2;4;1,2;1,2"/></platform>`,
			`p.xml:1: cluster attribute topo_parameters: fat_tree "2;4;1,2;1,2": 2 levels but 1 values`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="3-1" ` + ok + `/></platform>`, "p.xml:1: cluster attribute radical"},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` colour="red"/></platform>`, `p.xml:1: cluster: unknown attribute "colour"`},
		{`<platform><cluster id="c" prefix="n" suffix="" ` + ok + `/></platform>`, `p.xml:1: cluster: attribute "radical" is required`},
		{"<platform>\n\n<host id=\"h\" speed=\"1Gf\"/></platform>", "p.xml:3: <host> inside <platform>: it belongs in a <zone>"},
		{"<platform>\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" core=\"4\" " + ok + " core=\"1\"/></platform>",
			`p.xml:2: malformed XML: <cluster> has attribute "core" twice`},
		{`<platform version="4.1" version="4"><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + `/></platform>`,
			`p.xml:1: malformed XML: <platform> has attribute "version" twice`},
		{`<platform><cluster id="c" prefix="n" suffix=".x" radical="5-9,7" ` + ok + `/></platform>`,
			`p.xml:1: cluster attribute radical: "5-9,7" names host n7.x twice`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf,fast" bw="1GBps" lat="1us"/></platform>`,
			`p.xml:1: cluster attribute speed: "fast" is not a speed`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` bb_bw="1GBps" bb_sharing_policy="SPLITDUPLEX"/></platform>`,
			`p.xml:1: cluster attribute bb_sharing_policy: "SPLITDUPLEX": a backbone is SHARED or FATPIPE`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` bb_lat="5us"/></platform>`,
			`p.xml:1: cluster attribute bb_lat: "5us" without bb_bw: the backbone would have no bandwidth`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` loopback_lat="5us"/></platform>`,
			`p.xml:1: cluster attribute loopback_lat: "5us" without loopback_bw`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` bb_bw="0furlongs"/></platform>`,
			`p.xml:1: cluster attribute bb_bw: "0furlongs" is not a bandwidth`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" ` + ok + ` limiter_link="5"/></platform>`,
			`p.xml:1: cluster attribute limiter_link: bandwidth "5" has no unit`},
		{`<platform><cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="" lat="1us"/></platform>`,
			`p.xml:1: cluster attribute bw: empty bandwidth`},
		{"<platform>\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0\" " + ok + "/>\n<cluster id=\"d\" prefix=\"n\" suffix=\"\" radical=\"0\" " + ok + "/></platform>",
			"p.xml:3: <cluster id=\"d\">: a second top-level zone"},
		{"<platform>\n<cluster id=\"c\"", "p.xml:2: malformed XML"},
		// SimGrid 3.32 aborts ("Required attribute `id' not set for `prop'
		// element"); emu read past them (qa47).
		{"<platform>\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-3\" " + ok + ">\n<prop value=\"1\"/></cluster></platform>",
			"p.xml:3: <prop> without id=: SimGrid requires its id and value"},
		{"<platform>\n<zone id=\"z\" routing=\"Full\">\n<host id=\"h\" speed=\"1Gf\"><prop id=\"smpi/os\"/></host></zone></platform>",
			"p.xml:3: <prop> without value=: SimGrid requires its id and value"},
		{"<platform>\n<config>\n<prop id=\"network/model\"/></config></platform>",
			"p.xml:3: <prop> without value=: SimGrid requires its id and value"},
		{"<platform></platform>", "p.xml:1: no <zone> or <cluster> element"},
		{"<zone/>", "p.xml:1: root element is <zone>"},
		{"<?xml version=\"1.0\" encoding=\"EBCDIC\"?>\n<platform/>", `p.xml:1: malformed XML: xml: opening charset "EBCDIC": emu reads UTF-8, ASCII and ISO-8859-1 platform files`},
		{"", "p.xml:1: no <platform> element"},
		// seed 1052 of the random platforms: host 17's limiter and switch
		// 17's have one name; SimGrid 3.32 aborts on the file
		{"<platform>\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"1-18\" " + ok + ` limiter_link="1GBps" topology="FAT_TREE" topo_parameters="3;2,3,3;1,2,2;2,1,2"/></platform>`,
			`p.xml:2: <cluster id="c">: two links named "c_link_17_limiter"`},
		{"<?xml version='1.0'?>\n<platform version=\"3\">\n<AS id=\"AS0\" routing=\"Full\">\n<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"0-9\" power=\"1000000000\" bw=\"125000000\" lat=\"5E-5\"/></AS></platform>",
			`p.xml:2: platform version 3: emu reads SimGrid's version 4 files (bandwidths with units, speed instead of power); convert it with SimGrid's simgrid_update_xml`},
	}
	for _, tt := range tests {
		_, err := ParseXML([]byte(tt.xml), "p.xml")
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s\n got %v\nwant %q...", tt.xml, err, tt.want)
		}
	}
}

func FuzzParseXML(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(peersDir, "*.xml"))
	zones, _ := filepath.Glob(filepath.Join("testdata", "zones", "*.xml"))
	for _, file := range append(files, zones...) {
		f.Add(readFile(f, file))
	}
	f.Add([]byte(`<platform><cluster id="d" prefix="d-" suffix="" radical="0-7" speed="1Gf" bw="10GBps" lat="1us" topology="DRAGONFLY" topo_parameters="2,2;2,1;1,2;2"/></platform>`))
	f.Add([]byte(`<platform><cluster id="e" prefix="e" suffix="" radical="0-1,1" speed="1Gf,2Gf" bw="1GBps" lat="1us" bb_bw="" loopback_bw="0" loopback_lat="0" limiter_link="0Bps"/></platform>`))
	f.Add([]byte(`<platform><zone><cluster id="t" prefix="t" suffix="" radical="0-7" speed="1f" bw="1Bps" lat="0" topology="TORUS" topo_parameters="2,4"/></zone></platform>`))
	f.Add([]byte("<platform version=\"4.1\"><trace id=\"t\" periodicity=\"3\">0 1\n1 0.5</trace><zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/><link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\"/><route src=\"a\" dst=\"b\"><link_ctn id=\"l\"/></route></zone><trace_connect kind=\"SPEED\" trace=\"t\" element=\"a\"/><trace_connect kind=\"LATENCY\" trace=\"t\" element=\"l\"/></platform>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParseXML(data, "f.xml")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f.xml:") || strings.Contains(err.Error(), "\n") {
				t.Errorf("error without file and line, or on several lines: %q", err)
			}
			return
		}
		if p.Topology == TopoZones {
			if p.Hosts < 1 || len(p.Names) != p.Hosts || len(p.HostCores) != p.Hosts || len(p.Speeds) != p.Hosts {
				t.Errorf("accepted an unusable platform of zones %+v", p)
			}
			topo, err := p.Build()
			if err != nil {
				t.Fatalf("accepted a platform that does not build: %v", err)
			}
			for a := range min(topo.Hosts(), 8) {
				for b := range min(topo.Hosts(), 8) {
					if rt := topo.Route(a, b); !(rt.Latency >= 0) {
						t.Errorf("route %d→%d: latency %v", a, b, rt.Latency)
					}
				}
			}
			return
		}
		if p.Hosts < 1 || p.CoresPerHost < 1 || p.LinkBandwidth <= 0 || p.Hosts > len(p.Radical) {
			t.Errorf("accepted an unusable platform %+v", p)
		}
	})
}
