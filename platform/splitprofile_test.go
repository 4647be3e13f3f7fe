package platform

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestSplitDuplexProfiles: which links a profile of a SPLITDUPLEX link
// lands on. SimGrid 3.32 (checked with smpirun) resolves a
// <trace_connect>'s element among the links by name: a split-duplex
// link's directions NAME_UP and NAME_DOWN are links, the link itself is
// not ("Link NAME undefined"), for a <link sharing_policy="SPLITDUPLEX">
// and a cluster's alike; a profile attribute of such a <link> sets both
// directions (SplitDuplexLinkImpl::set_bandwidth_profile). Refused base
// names say which names to use.
func TestSplitDuplexProfiles(t *testing.T) {
	const (
		head    = "<platform version=\"4.1\">\n<trace id=\"t\" periodicity=\"1\">0 1e6</trace>\n"
		cluster = "<cluster id=\"c\" prefix=\"c-\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" bw=\"1GBps\" lat=\"1us\" sharing_policy=\"SPLITDUPLEX\"/>\n"
		zone    = "<zone id=\"z\" routing=\"Full\"><host id=\"a\" speed=\"1Gf\"/><host id=\"b\" speed=\"1Gf\"/>\n" +
			"<link id=\"l\" bandwidth=\"1GBps\" latency=\"1us\" sharing_policy=\"SPLITDUPLEX\"%s/>\n" +
			"<route src=\"a\" dst=\"b\"><link_ctn id=\"l\" direction=\"UP\"/></route></zone>\n"
		tail = "</platform>\n"
	)
	connect := func(elem string) string {
		return "<trace_connect kind=\"BANDWIDTH\" trace=\"t\" element=\"" + elem + "\"/>\n"
	}
	for _, tc := range []struct {
		name, xml string
		links     []string // the links given the profile, in order
		err       string   // or the error's start
	}{
		{"cluster's link by its name", head + cluster + connect("c_link_0") + tail, nil,
			`p.xml:4: <trace_connect kind="BANDWIDTH" element="c_link_0">: "c_link_0" is a SPLITDUPLEX link: connect the trace to its directions, "c_link_0_UP" and "c_link_0_DOWN"`},
		{"cluster's directions", head + cluster + connect("c_link_1_UP") + connect("c_link_1_DOWN") + tail, []string{"c_link_1_UP", "c_link_1_DOWN"}, ""},
		{"<link> by its name", head + strings.Replace(zone, "%s", "", 1) + connect("l") + tail, nil,
			`p.xml:6: <trace_connect kind="BANDWIDTH" element="l">: "l" is a SPLITDUPLEX link: connect the trace to its directions, "l_UP" and "l_DOWN"`},
		{"<link>'s up direction", head + strings.Replace(zone, "%s", "", 1) + connect("l_UP") + tail, []string{"l_UP"}, ""},
		{"<link>'s attribute", "<platform version=\"4.1\">\n" + strings.Replace(zone, "%s", " bandwidth_file=\"bw.txt\"", 1) + tail, []string{"l_UP", "l_DOWN"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.WriteFile(filepath.Join(dir, "bw.txt"), []byte("0 1e6\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			p, err := ParseXML([]byte(tc.xml), filepath.Join(dir, "p.xml"))
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, tc.err)) || strings.Contains(err.Error(), "\n") {
					t.Fatalf("error %v, want one line starting %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, lp := range p.Profiles.Bandwidth {
				got = append(got, p.Zones.Links[lp.Link].Name)
			}
			if !slices.Equal(got, tc.links) {
				t.Errorf("profiles on %v, want %v", got, tc.links)
			}
		})
	}
}
