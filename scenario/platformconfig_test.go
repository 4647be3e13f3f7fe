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
		{"bw factor at 1 KiB", n.BwFactor.Value(1024, -1), 0.5},
		{"bw factor at 1 MiB", n.BwFactor.Value(1<<20, -1), 0.9},
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
	if len(p.Notes) != 1 || !strings.Contains(p.Notes[0], xml+`:14: <prop id="smpi/host-speed">: a SimGrid setting emu does not model`) {
		t.Errorf("notes %q, want one about smpi/host-speed at line 14", p.Notes)
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
		{`  <prop value="1"/>` + "\n", `:4: <prop> in <config> without an id`},
		{`  <prop id="smpi/coll-selector" value="mpich"/>` + "\n", `:4: <prop id="smpi/coll-selector">: value "mpich": want "default" (SMPI's own selector)`},
	} {
		xml := write(t, c.props)
		if _, err := plan(t, xml); err == nil || !strings.Contains(err.Error(), xml+c.want) {
			t.Errorf("%s: err = %v, want %q", strings.TrimSpace(c.props), err, xml+c.want)
		}
	}
	xml = write(t, `  <prop id="network/model" value="LV08"/>`+"\n")
	if p, err = plan(t, xml); err != nil || len(p.Notes) != 1 || !strings.Contains(p.Notes[0], `network model "LV08"`) {
		t.Errorf("LV08: err %v, notes %q; want a note", err, p.Notes)
	}
}
