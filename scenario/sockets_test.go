package scenario

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/platform"
)

const socketBase = "[platform]\nhosts = 2\ncores_per_host = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"

func validate(doc string) (*Plan, error) {
	s, err := Parse([]byte(doc), "s.toml")
	if err != nil {
		return nil, err
	}
	return s.Validate()
}

// TestPlatformRadicalAndSocketKeys: host names from platform.radical, and the
// errors of the new keys name their key and line.
func TestPlatformRadicalAndSocketKeys(t *testing.T) {
	p, err := validate(strings.Replace(socketBase, "[platform]\n", "[platform]\nhost_prefix = \"dahu-\"\nradical = \"1-2\"\nsockets_per_host = 2\nsocket_order = \"cyclic\"\n", 1))
	if err != nil {
		t.Fatal(err)
	}
	if a, b := p.Platform.HostName(0), p.Platform.HostName(1); a != "dahu-1" || b != "dahu-2" {
		t.Errorf("hosts %s, %s; want dahu-1, dahu-2", a, b)
	}
	if p.Platform.SocketsPerHost != 2 || p.Platform.SocketOrder != platform.SocketsCyclic {
		t.Errorf("sockets %d %q", p.Platform.SocketsPerHost, p.Platform.SocketOrder)
	}
	for _, c := range []struct{ key, want string }{
		{"radical = \"1-x\"", "s.toml:2: platform.radical: radical \"1-x\": \"1-x\" is not a range A-B with A ≤ B"},
		{"radical = \"5\"", "s.toml:2: platform.radical: \"5\" names 1 hosts, the platform has 2"},
		// Two hosts of one name (SimGrid refuses a second host of a name):
		// "1-2,1" made two "dahu-1", with one link name, one model, one speed.
		{"radical = \"1-2,1\"", "s.toml:2: platform.radical: \"1-2,1\" names host host-1 twice"},
		{"radical = \"3,1-4\"", "s.toml:2: platform.radical: \"3,1-4\" names host host-3 twice"},
		{"sockets_per_host = 5", "s.toml:2: platform.sockets_per_host: 5: want 1 to cores_per_host (4)"},
		{"sockets_per_host = -1", "s.toml:2: platform.sockets_per_host: -1: want 1 to cores_per_host (4)"},
		{"socket_order = \"round\"", "s.toml:2: platform.socket_order: \"round\": want \"block\" or \"cyclic\""},
	} {
		_, err := validate(strings.Replace(socketBase, "[platform]\n", "[platform]\n"+c.key+"\n", 1))
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.key, err, c.want)
		}
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

// TestOverheadTables: network.*_overhead take SimGrid's piecewise tables
// (smpi/os "bound:offset:perbyte;...") as well as a time; a bad table names
// its key and line.
func TestOverheadTables(t *testing.T) {
	const plat = "[platform]\nhosts = 2\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[network]\n"
	p, err := validate(plat + "send_overhead = \"0:1e-6:1e-10;8133:4e-6:2e-10;64000:0:0\"\nisend_overhead = \"2us\"\nrecv_overhead = 3e-6\n")
	if err != nil {
		t.Fatal(err)
	}
	n := p.Network
	for _, c := range []struct {
		size int
		want float64
	}{
		{0, 0},                    // at or below the first bound: 0 (SimGrid's default)
		{1000, 1e-6 + 1e-10*1000}, // (0, 8133]
		{8133, 1e-6 + 1e-10*8133}, // a bound belongs to the piece below it
		{8134, 4e-6 + 2e-10*8134}, // (8133, 64000]
		{100000, 0},               // (64000, ∞)
	} {
		if got := n.SendOverhead.Value(c.size, 0); abs(got-c.want) > 1e-18 {
			t.Errorf("send_overhead(%d) = %g, want %g", c.size, got, c.want)
		}
	}
	if a, b := n.IsendOverhead.Value(100, 0), n.RecvOverhead.Value(1e6, 0); a != 2e-6 || b != 3e-6 {
		t.Errorf("constant overheads %g, %g; want 2e-6, 3e-6", a, b)
	}
	for _, c := range []struct{ doc, want string }{
		{"recv_overhead = \"0:1e-6;0:2e-6\"", "s.toml:6: network.recv_overhead"},
		{"isend_overhead = \"0:-1e-6\"", "s.toml:6: network.isend_overhead"},
		{"send_overhead = \"x:1\"", "s.toml:6: network.send_overhead"},
	} {
		_, err := validate(plat + c.doc + "\n")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s...", c.doc, err, c.want)
		}
	}
}

// TestRadicalNamingMoreHostsIsNoted: a radical naming more hosts than the
// platform has (Dahu's "0-31,33" on 32 hosts, or "1-32" with platform.hosts =
// 16 to emulate part of it) left the extra names unused without a word, where
// one naming fewer is an error; emu now notes which names went unused.
func TestRadicalNamingMoreHostsIsNoted(t *testing.T) {
	for _, c := range []struct{ radical, want string }{
		{"1-2", ""},
		{"1-3", `platform.radical: "1-3" names 3 hosts, the platform has 2: dahu-3 unused`},
		{"0,2,4-9", `platform.radical: "0,2,4-9" names 8 hosts, the platform has 2: dahu-4, dahu-5, dahu-6, dahu-7 and 2 more unused`},
	} {
		p, err := validate(strings.Replace(socketBase, "[platform]\n", "[platform]\nhost_prefix = \"dahu-\"\nradical = \""+c.radical+"\"\n", 1))
		if err != nil {
			t.Fatal(err)
		}
		var got string
		for _, n := range p.Notes {
			if strings.HasPrefix(n, "platform.radical") {
				got = n
			}
		}
		if got != c.want {
			t.Errorf("radical %q: note %q, want %q", c.radical, got, c.want)
		}
	}
}
