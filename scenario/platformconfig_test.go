package scenario

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/ranks"
)

// TestPlatformConfig: the SMPI settings a platform file's <config> carries
// apply as the [network] keys they stand for (over the scenario's, under a
// --set), a setting emu does not model is a note, a bad value an error at the
// file's line, and the <prop>s of a <cluster> are not settings.
func TestPlatformConfig(t *testing.T) {
	const cluster = `  <cluster id="c" prefix="n" radical="0-3" suffix="" speed="1Gf" bw="10Gbps" lat="1us">
    <prop id="smpi/iprobe" value="7"/>
  </cluster>`
	write := func(t *testing.T, props string) string {
		path := filepath.Join(t.TempDir(), "p.xml")
		doc := "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<config id=\"General\">\n" + props + "</config>\n" + cluster + "\n</platform>\n"
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	plan := func(t *testing.T, xml string, sets ...string) (*Plan, error) {
		s := Default()
		if err := s.UsePlatformXML(xml); err != nil {
			t.Fatal(err)
		}
		mustSet(t, s, append([]string{"hpl.n=200"}, sets...))
		return s.Validate()
	}
	all := `  <prop id="network/model" value="CM02"/>
  <prop id="smpi/os" value="0:1e-6:1e-9;1024:2e-6:0"/>
  <prop id="smpi/or" value="3e-6"/>
  <prop id="smpi/bw-factor" value="0:0.5;65536:0.9"/>
  <prop id="smpi/send-is-detached-thresh" value="1024"/>
  <prop id="smpi/iprobe" value="2e-6"/>
  <prop id="smpi/grow-injected-times" value="no"/>
  <prop id="network/TCP-gamma" value="65536"/>
  <prop id="network/crosstraffic" value="yes"/>
  <prop id="smpi/coll-selector" value="default"/>
  <prop id="smpi/host-speed" value="1Gf"/>
`
	xml := write(t, all)
	p, err := plan(t, xml)
	if err != nil {
		t.Fatal(err)
	}
	cm02, _ := ranks.Preset("cm02")
	n := p.Network
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"os at 100 B", n.SendOverhead.Value(100, -1), 1e-6 + 100*1e-9},
		{"os at 2 KiB", n.SendOverhead.Value(2048, -1), 2e-6},
		{"or", n.RecvOverhead.Value(10, -1), 3e-6},
		// SimGrid reads smpi/bw-factor only in its SMPI model: CM02's stays
		{"bw factor at 1 KiB", n.BwFactor.Value(1024, -1), cm02.BwFactor.Value(1024, -1)},
		{"bw factor at 1 MiB", n.BwFactor.Value(1<<20, -1), cm02.BwFactor.Value(1<<20, -1)},
		{"eager threshold", float64(n.EagerThreshold), 1024},
		{"iprobe", n.IprobeCost, 2e-6},
		{"TCP gamma", float64(n.TCPGamma), 65536},
		{"cross-traffic", n.CrossTraffic, ranks.SMPICrossTraffic},
		{"cm02's weight-S", float64(n.WeightS), float64(cm02.WeightS)},
	} {
		if c.got != c.want {
			t.Errorf("%s: %g, want %g", c.what, c.got, c.want)
		}
	}
	if !n.NoGrowth {
		t.Error("smpi/grow-injected-times=no: the probe costs still grow")
	}
	if len(p.Notes) != 2 || !strings.Contains(p.Notes[0], xml+`:14: <prop id="smpi/host-speed">: a SimGrid setting emu does not model`) ||
		!strings.Contains(p.Notes[1], xml+`:7: <prop id="smpi/bw-factor">: SimGrid reads it only in its SMPI network model; under CM02`) {
		t.Errorf("notes %q, want one about smpi/host-speed at line 14, one about smpi/bw-factor under CM02 at line 7", p.Notes)
	}
	// The same factors under SMPI's model (the file's, or the default) apply,
	// wherever the model's prop stands; a --set of the model decides as well.
	for _, c := range []struct {
		props string
		sets  []string
		want  float64 // the bw factor at 1 KiB
	}{
		{`  <prop id="smpi/bw-factor" value="0:0.5;65536:0.9"/>` + "\n", nil, 0.5},
		{`  <prop id="smpi/bw-factor" value="0:0.5"/>` + "\n" + `  <prop id="network/model" value="SMPI"/>` + "\n", nil, 0.5},
		{`  <prop id="smpi/lat-factor" value="0:3"/>` + "\n" + `  <prop id="smpi/bw-factor" value="0:0.5"/>` + "\n", []string{"network.model=cm02"}, cm02.BwFactor.Value(1024, -1)},
	} {
		p, err := plan(t, write(t, c.props), c.sets...)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Network.BwFactor.Value(1024, -1); got != c.want {
			t.Errorf("%q %q: bw factor %g, want %g", c.props, c.sets, got, c.want)
		}
	}
	if n.AlltoallAlgo != ranks.AlgoOMPI || n.BarrierAlgo != ranks.AlgoLinear {
		t.Errorf("smpi/coll-selector=default: alltoall %q, barrier %q; want SMPI's (ompi, linear)", n.AlltoallAlgo, n.BarrierAlgo)
	}

	// a --set wins over the file, wherever it stands
	p, err = plan(t, xml, "network.iprobe_cost=5us", "network.cross_traffic=0")
	if err != nil {
		t.Fatal(err)
	}
	if p.Network.IprobeCost != 5e-6 || p.Network.CrossTraffic != 0 {
		t.Errorf("--set iprobe_cost, cross_traffic: %g, %g; want 5e-06, 0", p.Network.IprobeCost, p.Network.CrossTraffic)
	}

	for _, c := range []struct{ props, want string }{
		{`  <prop id="smpi/iprobe" value="fast"/>` + "\n", `:4: <prop id="smpi/iprobe">: value "fast": want a number of seconds`},
		{`  <prop id="network/crosstraffic" value="maybe"/>` + "\n", `:4: <prop id="network/crosstraffic">: value "maybe": want yes or no`},
		{`  <prop id="smpi/bw-factor" value="0:x"/>` + "\n", `:4: <prop id="smpi/bw-factor">: network.bw_factor:`},
		{`  <prop value="1"/>` + "\n", `:4: <prop> without id=: SimGrid requires its id and value`},
		{`  <prop id="smpi/coll-selector" value="mpich"/>` + "\n", `:4: <prop id="smpi/coll-selector">: value "mpich": want "default" (SMPI's own selector) or "ompi"`},
	} {
		xml := write(t, c.props)
		if _, err := plan(t, xml); err == nil || !strings.Contains(err.Error(), xml+c.want) {
			t.Errorf("%s: err = %v, want %q", strings.TrimSpace(c.props), err, xml+c.want)
		}
	}
	// the ompi selector: every collective by Open MPI's decision
	p, err = plan(t, write(t, `  <prop id="smpi/coll-selector" value="ompi"/>`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Network; n.Selector != ranks.CollectivesOMPI || n.BcastAlgo != ranks.AlgoOMPI || n.GatherAlgo != ranks.AlgoOMPI {
		t.Errorf("smpi/coll-selector=ompi: selector %q, bcast %q, gather %q; want ompi", n.Selector, n.BcastAlgo, n.GatherAlgo)
	}
	xml = write(t, `  <prop id="network/model" value="LV08"/>`+"\n")
	if p, err = plan(t, xml); err != nil || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], `network model "LV08"`) {
		t.Errorf("LV08: err %v, notes %q; want a note", err, p.Notes)
	}
}

// TestHostOverheadProps: SMPI reads smpi/os, ois and or from a host's <prop>
// (or a cluster's, which SimGrid sets on each of its hosts) over the global
// setting; emu read them past and charged the global overheads, so a
// platform with 1 ms of smpi/os on its hosts ran with none. The same value
// on every host is now the setting, over the <config>'s; a --set still wins;
// hosts that differ, or some without it, are refused at the prop's line.
func TestHostOverheadProps(t *testing.T) {
	zones := func(h0, h1 string) string {
		return `<zone id="w" routing="Full">
<host id="h0" speed="1Gf">` + h0 + `</host>
<host id="h1" speed="1Gf">` + h1 + `</host>
<link id="l" bandwidth="1GBps" latency="1us"/>
<route src="h0" dst="h1"><link_ctn id="l"/></route>
</zone>`
	}
	const os1ms, os2ms = `<prop id="smpi/os" value="0:1e-3:0"/>`, `<prop id="smpi/os" value="0:2e-3:0"/>`
	for _, tc := range []struct {
		name, body string
		sets       []string
		os, or     float64 // the overheads of a 100-byte message
		err        string  // or the refusal, after the file's name
	}{
		{"a cluster's prop", `<config><prop id="smpi/os" value="5e-6"/></config>
<cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us">` + os1ms + `<prop id="smpi/or" value="0:1e-6:1e-9"/><prop id="watt_per_state" value="1:2"/></cluster>`,
			nil, 1e-3, 1e-6 + 100e-9, ""},
		{"a --set wins", `<cluster id="c" prefix="n" suffix="" radical="0-3" speed="1Gf" bw="1GBps" lat="1us">` + os1ms + `</cluster>`,
			[]string{"network.send_overhead=3us"}, 3e-6, 0, ""},
		{"every host the same", zones(os1ms, os1ms), nil, 1e-3, 0, ""},
		{"another prop of a host", zones(`<prop id="color" value="red"/>`, ""), nil, 0, 0, ""},
		{"one host without", zones(os1ms, ""), nil, 0, 0, `:4: <prop id="smpi/os"> is set on some hosts, not on h1: emu models one smpi/os for every host (network.send_overhead)`},
		{"hosts that differ", zones(os1ms, os2ms), nil, 0, 0, `:5: <prop id="smpi/os">: value "0:2e-3:0", where line 4 gives "0:1e-3:0"`},
		{"a bad value", zones(`<prop id="smpi/os" value="fast"/>`, `<prop id="smpi/os" value="fast"/>`), nil, 0, 0, `:4: <prop id="smpi/os">: network.send_overhead:`},
		{"a cluster among zones, a host without", `<zone id="w" routing="Full">
<cluster id="c" prefix="n" suffix="" radical="0-1" speed="1Gf" bw="1GBps" lat="1us" router_id="r">` + os1ms + `</cluster>
<zone id="z" routing="Full"><host id="h" speed="1Gf"/></zone>
<link id="wan" bandwidth="1GBps" latency="1us"/>
<zoneRoute src="c" dst="z" gw_src="r" gw_dst="h"><link_ctn id="wan"/></zoneRoute>
</zone>`, nil, 0, 0, `:4: <prop id="smpi/os"> is set on some hosts, not on h:`},
	} {
		path := filepath.Join(t.TempDir(), "p.xml")
		doc := "<?xml version='1.0'?>\n<platform version=\"4.1\">\n" + tc.body + "\n</platform>\n"
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		s := Default()
		if err := s.UsePlatformXML(path); err != nil {
			if tc.err != "" && strings.Contains(err.Error(), path+tc.err) {
				continue
			}
			t.Fatalf("%s: %v", tc.name, err)
		}
		mustSet(t, s, append([]string{"app=pingpong"}, tc.sets...))
		p, err := s.Validate()
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), path+tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, path+tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		default:
			if os, or := p.Network.SendOverhead.Value(100, 0), p.Network.RecvOverhead.Value(100, 0); os != tc.os || or != tc.or {
				t.Errorf("%s: os %g, or %g at 100 B; want %g, %g", tc.name, os, or, tc.os, tc.or)
			}
		}
	}
}
