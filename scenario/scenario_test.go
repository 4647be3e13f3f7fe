package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/ranks"
)

func mustPlan(t *testing.T, s *Scenario, err error) *Plan {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestIssue2Scenario(t *testing.T) {
	s, err := Load("testdata/pingpong.toml")
	p := mustPlan(t, s, err)
	if p.App != AppPingpong || p.Seed != 1 || p.Ranks != 2 || p.Platform.Hosts != 2 ||
		p.Platform.LinkBandwidth != 1e10 || p.Platform.LinkLatency != 1e-6 ||
		p.Network.EagerThreshold != 65536 || p.Network.LatFactor.IsZero() || p.Iterations != 10 ||
		len(p.Sizes) != 4 || p.Sizes[3] != 1<<20 {
		t.Errorf("plan %+v", p)
	}
}

func TestHPLScenario(t *testing.T) {
	s, err := Load("testdata/hpl.toml")
	p := mustPlan(t, s, err)
	// 2 grids × 2 Ns × 1 NB × 2 depths × 2 bcasts × 2 rfacts = 32 tests; the largest
	// grid 4×8 = 32 ranks fits the fat tree's 16 hosts × 2 cores.
	if len(p.HPL) != 32 || p.Ranks != 32 || p.Platform.Hosts != 16 || p.Platform.Topology != platform.TopoFatTree {
		t.Fatalf("%d tests on %d ranks, platform %+v", len(p.HPL), p.Ranks, p.Platform)
	}
	first := p.HPL[0]
	want := hpl.Params{N: 2000, NB: 128, P: 4, Q: 8, PMap: hpl.ColumnMajor, PFact: hpl.Right, RFact: hpl.Left,
		NBMin: 4, NDiv: 2, BCast: hpl.OneRingM, Depth: 0, Swap: hpl.Mix, SwapThreshold: 64,
		L1Transposed: false, UTransposed: true, Equilibration: false, Alignment: 8, Threshold: 16}
	if first != want {
		t.Errorf("first test\n got %+v\nwant %+v", first, want)
	}
	if p.Network.Model != "cm02" || p.Network.IprobeCost != 1e-6 || !p.Network.LatFactor.IsZero() {
		t.Errorf("network %+v", p.Network)
	}
	if p.Kernels.Mode != kernels.Model || p.Pivot != "splitmix" {
		t.Errorf("kernels %+v pivot %s", p.Kernels, p.Pivot)
	}
	// dgemm(100, 100, 100) = 1.029e-11 · 1e6 + 1.981e-12 s.
	if got := p.Kernels.Models.For("dgemm", "").Mean(models.Vars{M: 100, N: 100, K: 100, W: 1e6}); !close(got, 1.029e-5+1.981e-12) {
		t.Errorf("dgemm model gives %g", got)
	}
}

func TestSetOverrides(t *testing.T) {
	s, err := Load("testdata/hpl.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"network.eager_threshold=1GiB", "hpl.nb=[64,256]", "hpl.n=1000", "kernels.mode=real", "network.local_solve=true"} {
		if err := s.Set(arg); err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
	}
	if err := s.Set("kernels.dgemm.intercept=0"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("platform.link_latency=5us"); err != nil {
		t.Fatal(err)
	}
	p := mustPlan(t, s, nil)
	if p.Network.EagerThreshold != 1<<30 || len(p.HPL) != 32 || p.HPL[0].NB != 64 || p.HPL[0].N != 1000 ||
		p.Kernels.Mode != kernels.Real || p.Platform.LinkLatency != 5e-6 || !p.Network.LocalSolve {
		t.Errorf("overrides not applied: eager %d, %d tests, first %+v, mode %v, lat %g, local solve %v",
			p.Network.EagerThreshold, len(p.HPL), p.HPL[0], p.Kernels.Mode, p.Platform.LinkLatency, p.Network.LocalSolve)
	}
	// The override kept the rest of the dgemm model.
	if got := p.Kernels.Models.For("dgemm", "").Mean(models.Vars{M: 100, N: 100, K: 100, W: 1e6}); !close(got, 1.029e-5) {
		t.Errorf("dgemm model after --set gives %g", got)
	}
}

func TestBadScenarios(t *testing.T) {
	const base = `[platform]
hosts = 4
link_bandwidth = "10Gbps"
link_latency = "1us"
`
	tests := []struct {
		name, doc string
		sets      []string
		want      string
	}{
		{"unknown topology", "[platform]\ntopology = \"hypercube\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n", nil,
			`s.toml:2: platform.topology: unknown topology "hypercube"`},
		// A topology without its shape is the topology key's fault: its line, or the
		// --set that chose it (not the [platform] line of a file that never had the shape).
		{"torus without dimensions", "[platform]\ntopology = \"torus\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n", nil,
			`s.toml:2: platform.topology: torus needs platform.torus: torus: no dimensions given`},
		{"set a dragonfly without its shape", base, []string{"platform.topology=dragonfly"},
			`--set platform.topology=dragonfly: platform.topology: dragonfly needs platform.dragonfly: `},
		{"set a fat tree without its shape", base, []string{"platform.topology=fat-tree"},
			`--set platform.topology=fat-tree: platform.topology: fat-tree needs platform.fat_tree: `},
		{"set a bad torus shape", base, []string{"platform.topology=torus", "platform.torus=[0,2]"},
			`--set platform.torus=[0,2]: platform.torus: torus: dimension 0 must be ≥ 1`},
		{"unit-less bandwidth", "[platform]\nhosts = 4\nlink_bandwidth = 10\n", nil, `s.toml:3: platform.link_bandwidth: bandwidth 10 has no unit`},
		{"unit-less bandwidth string", "[platform]\nhosts = 4\nlink_bandwidth = \"10\"\n", nil, `s.toml:3: platform.link_bandwidth: bandwidth "10" has no unit`},
		{"negative bandwidth", "[platform]\nhosts = 4\nlink_bandwidth = \"-10Gbps\"\n", nil, `s.toml:3: platform.link_bandwidth: bandwidth "-10Gbps" must be positive`},
		{"missing bandwidth", "[platform]\nhosts = 4\nlink_latency = \"1us\"\n", nil, `s.toml:1: platform.link_bandwidth: required`},
		{"too few hosts", base + "[hpl]\ngrids = [[2, 4]]\n", nil, "s.toml:6: hpl.grids: a 8-process grid needs more ranks than the 4"},
		{"malformed TOML", base + "[hpl\nn = 3\n", nil, "s.toml:5: malformed TOML: "},
		{"unknown key", base + "[hpl]\nnbb = 3\n", nil, "s.toml:6: hpl.nbb: unknown key"},
		{"unknown table", base + "[hpll]\nnb = 3\n", nil, "s.toml:6: hpll.nb: unknown key"},
		{"wrong type", base + "[hpl]\nnb = \"big\"\n", nil, "s.toml:6: hpl.nb: want an integer"},
		{"NB zero", base + "[hpl]\nnb = [64, 0]\n", nil, "s.toml:6: hpl.nb: 0 must be ≥ 1"},
		{"unknown bcast", base + "[hpl]\nbcast = \"3ring\"\n", nil, `s.toml:6: hpl.bcast: hpl: unknown bcast "3ring"`},
		{"unknown app", "app = \"nbody\"\n" + base, nil, `s.toml:1: app: unknown application "nbody"`},
		{"unknown mode", base + "[kernels]\nmode = \"fast\"\n", nil, `s.toml:6: kernels.mode: unknown mode "fast"`},
		{"bad model", base + "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1.0, 2.0]\n", nil, "s.toml:7: kernels.dgemm.coef: "},
		{"unknown model key", base + "[kernels.dgemm]\ncoefs = [1.0]\n", nil, "s.toml:6: kernels.dgemm.coefs: unknown key"},
		{"bad lat factor", base + "[network]\nlat_factor = \"x:y\"\n", nil, "s.toml:6: network.lat_factor: "},
		{"zero bw factor", base + "[network]\nbw_factor = \"0:0\"\n", nil, `s.toml:6: network.bw_factor: "0:0" has a zero factor (a message would never finish)`},
		{"set a zero bw factor chunk", base, []string{"network.bw_factor=0:1;65536:0"},
			`--set network.bw_factor=0:1;65536:0: network.bw_factor: "0:1;65536:0" has a zero factor`},
		{"unknown algorithm", base + "[network]\nbcast = \"pipelined\"\n", nil, `s.toml:6: network.bcast: unknown algorithm "pipelined"`},
		{"unknown collective set", base + "[network]\ncollectives = \"mpich\"\n", nil, `s.toml:6: network.collectives: "mpich": want "emu", "smpi" (SMPI 3.32's default selector) or "ompi"`},
		{"negative delay", base + "[network]\nmessage_delay = \"-2us\"\n", nil, `s.toml:6: network.message_delay: `},
		{"unknown delay dist", base + "[network]\nmessage_delay = \"2us\"\nmessage_delay_dist = \"gauss\"\n", nil,
			`s.toml:7: network.message_delay_dist: unknown delay distribution "gauss" (const or exp)`},
		{"unknown delay class", base + "[network]\nmessage_delay_class = \"global\"\n", nil,
			`s.toml:6: network.message_delay_class: no link of the platform has class "global" (it has host, loopback)`},
		{"torus hosts mismatch", "[platform]\ntopology = \"torus\"\ntorus = [2, 2]\nhosts = 5\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n", nil,
			"s.toml:4: platform.hosts: 5, but the torus platform.torus has 4 hosts"},
		{"bad fat tree", "[platform]\ntopology = \"fat-tree\"\nfat_tree = \"2;4;1;1\"\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n", nil,
			`s.toml:3: platform.fat_tree: fat_tree "2;4;1;1": 2 levels but 1 values`},
		{"too many tests", base + "[hpl]\nn = [1,2,3,4,5,6,7,8,9,10,11]\nnb = [1,2,3,4,5,6,7,8,9,10]\nnbmin = [1,2,3,4,5,6,7,8,9,10]\ndepth = [0,1,2,3,4,5,6,7,8,9]\nndiv = [2,3,4,5,6,7,8,9,10,11]\n", nil,
			"s.toml:5: hpl: the lists make 110000 tests"},
		{"too many ranks", base + "[hpl]\ngrids = [[100000, 100000]]\n", nil, "s.toml:6: hpl.grids: 100000x100000: more than 4194304 ranks"},
		{"key of another topology", base + "torus = [2, 2]\n", nil, "s.toml:5: platform.torus: given for a flat platform"},
		{"negative seed", "seed = -1\n" + base, nil, "s.toml:1: seed: seed -1: want an integer from 0 to 9223372036854775807"},
		{"seed past int64", base, []string{"seed=9223372036854775808"}, "--set seed=9223372036854775808: seed: want an integer from 0 to 9223372036854775807, got \"9223372036854775808\""},
		{"scalar for a table", "platform = 3\n", nil, "s.toml:1: platform: want a table, not an integer"},
		// BurntSushi's "type mismatch for scenario.PlatformTable: expected table but found []map[string]any" named Go's types
		{"list of tables for a table", "[[platform]]\nhosts = 4\n", nil, "s.toml:1: platform: want a table, not a list of tables ([[...]])"},
		{"list for a table", "platform = [1, 2]\n", nil, "s.toml:1: platform: want a table, not a list"},
		{"set a list for a table", base, []string{"hpl=[1]"}, "--set hpl=[1]: hpl: want a table, not a list"},
		{"integer for a name", base + "[network]\nmodel = 2\n", nil, "s.toml:6: network.model: want a string, got an integer"},
		{"a table for [[jobs]]", base + "[jobs]\napp = \"ring\"\nranks = 2\n", nil, "s.toml:5: jobs: want a list, got a table"},
		{"N beyond HPL's int", base + "[hpl]\nn = 9223372036854775807\n", nil, "s.toml:6: hpl.n: 9223372036854775807: at most 2147483647"},
		{"huge look-ahead depth", base + "[hpl]\ndepth = [1, 1000000]\n", nil, "s.toml:6: hpl.depth: 1000000: at most 1024"},
		{"set huge depth", base, []string{"hpl.depth=9223372036854775807"}, "--set hpl.depth=9223372036854775807: hpl.depth: 9223372036854775807: at most 1024"},
		{"NaN threshold", base + "[hpl]\nthreshold = nan\n", nil, "s.toml:6: hpl.threshold: nan: want a number"},
		{"string for a number", base + "[hpl]\nthreshold = \"16\"\n", nil, "s.toml:6: hpl.threshold: want a number, got a string"},
		{"set integer for a name", base, []string{"network.model=2"}, "--set network.model=2: network.model: want a string, got an integer"},
		{"set integer for a boolean", base, []string{"network.iprobe_growth=1"}, "--set network.iprobe_growth=1: network.iprobe_growth: want true or false, got an integer"},
		{"set a word for a boolean", base, []string{"network.local_solve=yes"}, "--set network.local_solve=yes: network.local_solve: want true or false, got a string"},
		{"set integer for a model's list", base, []string{"kernels.dgemm.coef=1"}, "--set kernels.dgemm.coef=1: kernels.dgemm.coef: want a list, got an integer"},
		{"set unknown key", base, []string{"network.eager=1KiB"}, "--set network.eager=1KiB: unknown key network.eager"},
		{"typo", base, []string{"platform.link_latncy=5us"}, "--set platform.link_latncy=5us: unknown key platform.link_latncy (did you mean platform.link_latency?)"},
		// a key without its table, as emu tune's short names (--sweep nb=…)
		// are spelt: it said "unknown key nb" alone
		{"set a key without its table", base, []string{"nb=64"}, "--set nb=64: unknown key nb (did you mean hpl.nb?)"},
		{"set a short name's key", base, []string{"grid=2x2"}, "--set grid=2x2: unknown key grid (did you mean hpl.grids?)"},
		{"set a key of two tables", base, []string{"iterations=3"}, "--set iterations=3: unknown key iterations (did you mean congestor.iterations, pingpong.iterations or ring.iterations?)"},
		{"key without its table in file", "threshold = 1.0\n" + base, nil, "s.toml:1: threshold: unknown key (did you mean hpl.threshold?)"},
		{"typo in file", base + "[network]\neager_treshold = \"1KiB\"\n", nil, "s.toml:6: network.eager_treshold: unknown key (did you mean network.eager_threshold?)"},
		{"set unknown table", base, []string{"netwrk.eager_threshold=1KiB"}, "--set netwrk.eager_threshold=1KiB: unknown key netwrk.eager_threshold"},
		{"set bad value", base, []string{"platform.link_bandwidth=10"}, "--set platform.link_bandwidth=10: platform.link_bandwidth: bandwidth 10 has no unit"},
		{"set wrong type", base, []string{"hpl.nb=big"}, "--set hpl.nb=big: hpl.nb: want an integer"},
		{"set no value", base, []string{"hpl.nb"}, "--set hpl.nb: want key=value"},
		// A newline in the argument is escaped, so that the error stays one
		// line, and a key may not hold one.
		{"set a newline", base, []string{"\n"}, `--set \n: want key=value`},
		{"set a newline in a key", base, []string{"hpl.n\nb=64"}, `--set hpl.n\nb=64: "hpl.n\nb" is not a dotted key`},
		{"set then invalid", base, []string{"hpl.grids=[[4,4]]"}, "--set hpl.grids=[[4,4]]: hpl.grids: a 16-process grid needs more ranks"},
		{"zero cores", base, []string{"platform.cores_per_host=0"}, "--set platform.cores_per_host=0: platform.cores_per_host: 0 must be ≥ 1"},
		{"zero speed ratio", base, []string{"kernels.speed_ratio=0"}, "--set kernels.speed_ratio=0: kernels.speed_ratio: 0 must be positive"},
		// Values that stretch a message or a kernel past the clock: a polling
		// HPL rank then polls for ever (1e-300, 1e300 hung; 1e-320 and +Inf
		// failed later, as a deadlock or a Compute(+Inf), exit 1 or 2).
		{"infinite speed ratio", base, []string{"kernels.speed_ratio=inf"}, "--set kernels.speed_ratio=inf: kernels.speed_ratio: +Inf: at most 1e+09"},
		{"huge speed ratio", base + "[kernels]\nspeed_ratio = 1e300\n", nil, "s.toml:6: kernels.speed_ratio: 1e+300: at most 1e+09 (a measured second would pass the clock's 1e9 s)"},
		{"tiny TCP window", base, []string{"network.tcp_gamma=1e-300"}, "--set network.tcp_gamma=1e-300: network.tcp_gamma: 1e-300 bytes: a TCP window under one byte holds every message back"},
		{"half-byte TCP window", base + "[network]\ntcp_gamma = 0.5\n", nil, "s.toml:6: network.tcp_gamma: 0.5 bytes: a TCP window under one byte"},
		{"tiny bw factor", base, []string{`network.bw_factor="1e-300"`}, `--set network.bw_factor="1e-300": network.bw_factor: "1e-300" has a factor of 1e-300, below 1e-09: a message would crawl`},
		{"tiny bw factor chunk", base + "[network]\nbw_factor = \"0:1;65536:1e-12\"\n", nil, `s.toml:6: network.bw_factor: "0:1;65536:1e-12" has a factor of 1e-12, below 1e-09`},
		{"zero iterations", "app = \"pingpong\"\n" + base + "[pingpong]\niterations = 0\n", nil, "s.toml:7: pingpong.iterations: 0 must be ≥ 1"},
		// window = 0 ran osu_bw's 64 in silence: a window given is a window of messages
		{"zero window", "app = \"pingpong\"\n" + base + "[pingpong]\nwindow = 0\n", nil, "s.toml:7: pingpong.window: 0 must be ≥ 1"},
		{"set zero window", "app = \"pingpong\"\n" + base, []string{"pingpong.window=0"}, "--set pingpong.window=0: pingpong.window: 0 must be ≥ 1"},
		// a ring has no bandwidth test: its window was read and ignored
		{"ring window", "app = \"ring\"\n" + base + "[ring]\nwindow = 8\n", nil, "s.toml:7: ring.window: a ring has no window (pingpong's bandwidth test has one)"},
		// sizes = [] ran the default sizes, where hpl.n = [] is an error
		{"empty sizes", "app = \"pingpong\"\n" + base + "[pingpong]\nsizes = []\n", nil, "s.toml:7: pingpong.sizes: empty list"},
		// A size too large is whole: it said "1.099511627776e+12 bytes is not a
		// whole number of bytes below 2GiB".
		{"eager threshold past 2GiB", base, []string{"network.eager_threshold=1TiB"}, "--set network.eager_threshold=1TiB: network.eager_threshold: 1099511627776 bytes: more than 2GiB − 1 (2147483647)"},
		// 1e300 bytes were written out in 301 digits
		{"huge envelope", base, []string{"network.envelope=1e300"}, "--set network.envelope=1e300: network.envelope: 1e+300 bytes: more than 2GiB − 1 (2147483647)"},
		{"huge ping-pong size", "app = \"pingpong\"\n" + base + "[pingpong]\nsizes = [1e300]\n", nil, "s.toml:7: pingpong.sizes: 1e+300 bytes: more than 1TiB"},
		{"fractional envelope", base, []string{"network.envelope=0.5"}, "--set network.envelope=0.5: network.envelope: 0.5 bytes is not a whole number of bytes"},
		{"ping-pong size past 1TiB", "app = \"pingpong\"\n" + base + "[pingpong]\nsizes = [\"2TiB\"]\n", nil, "s.toml:7: pingpong.sizes: 2199023255552 bytes: more than 1TiB"},
		{"empty ring sizes", "app = \"ring\"\n" + base, []string{"ring.sizes=[]"}, "--set ring.sizes=[]: ring.sizes: empty list"},
		{"zero cores in file", base + "cores_per_host = 0\n", nil, "s.toml:5: platform.cores_per_host: 0 must be ≥ 1"},
		{"too many flat hosts", "[platform]\nhosts = 2000000000\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n", nil,
			"s.toml:2: platform.hosts: 2000000000: more than 16777216 hosts"},
		{"too many cores", base, []string{"platform.cores_per_host=9223372036854775807"},
			"--set platform.cores_per_host=9223372036854775807: platform.cores_per_host: 9223372036854775807: more than 16777216 cores a host"},
		{"unused [hpl]", "app = \"pingpong\"\n" + base + "[hpl]\nnb = [-5]\n", nil, "s.toml:7: hpl.nb: -5 must be ≥ 1"},
		// HPL's integers are C ints: NB = 99999999999 ran and was printed so.
		{"NB past a C int", base, []string{"hpl.nb=99999999999"}, "--set hpl.nb=99999999999: hpl.nb: 99999999999: at most 2147483647 (HPL holds it in a C int)"},
		{"NBMIN past a C int", base + "[hpl]\nnbmin = [4, 2147483648]\n", nil, "s.toml:6: hpl.nbmin: 2147483648: at most 2147483647"},
		{"NDIV past a C int", base, []string{"hpl.ndiv=9999999999"}, "--set hpl.ndiv=9999999999: hpl.ndiv: 9999999999: at most 2147483647"},
		{"swap threshold past a C int", base, []string{"hpl.swap_threshold=2147483648"}, "--set hpl.swap_threshold=2147483648: hpl.swap_threshold: 2147483648: at most 2147483647"},
		{"alignment past a C int", base, []string{"hpl.alignment=9999999999"}, "--set hpl.alignment=9999999999: hpl.alignment: 9999999999: at most 2147483647"},
		{"unused [ring]", base + "[ring]\niterations = 0\n", nil, "s.toml:6: ring.iterations: 0 must be ≥ 1"},
		{"unused [pingpong]", base + "[pingpong]\nsizes = [\"0.5B\"]\n", nil, "s.toml:6: pingpong.sizes: 0.5 bytes is not a whole number"},
		{"unused [congestor]", base + "[congestor]\npattern = \"storm\"\n", nil, `s.toml:6: congestor.pattern: unknown pattern "storm"`},
		{"top-level [hpl] beside [[jobs]]", base + "[hpl]\nbcast = \"3ring\"\n[[jobs]]\napp = \"ring\"\nranks = 2\n", nil,
			`s.toml:6: hpl.bcast: hpl: unknown bcast "3ring"`},
		{"unused table of a job", base + "[[jobs]]\napp = \"ring\"\nranks = 2\n[jobs.hpl]\nnb = [0]\n", nil, "s.toml:9: jobs[0].hpl.nb: 0 must be ≥ 1"},
		{"bad shape of another topology", "[platform]\ntopology = \"flat\"\nhosts = 4\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\ntorus = [2, 0]\n", nil,
			`s.toml:6: platform.torus: torus: dimension 0 must be ≥ 1 (checked for platform.topology = "torus")`},
		{"set a bad shape of another topology", "[platform]\ntopology = \"flat\"\nhosts = 4\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n", []string{"platform.fat_tree=2;4;1;1"},
			`--set platform.fat_tree=2;4;1;1: platform.fat_tree: fat_tree "2;4;1;1": 2 levels but 1 values`},
		{"set too many flat hosts", base, []string{"platform.hosts=16777217"}, "--set platform.hosts=16777217: platform.hosts: 16777217: more than 16777216 hosts"},
		// An inline table TOML refuses was read as a string, and the key
		// then said it wanted a table (qa47).
		{"set an inline table with a key twice", base, []string{`kernels.host_speed={"host-1" = 0.5, "host-1" = 0.6}`},
			`--set kernels.host_speed={"host-1" = 0.5, "host-1" = 0.6}: kernels.host_speed: {"host-1" = 0.5, "host-1" = 0.6} is no TOML inline table: Key 'kernels.host_speed.host-1' has already been defined`},
		{"set an unclosed inline table", base, []string{`kernels.host_speed={"host-1" = 0.5`},
			`--set kernels.host_speed={"host-1" = 0.5: kernels.host_speed: {"host-1" = 0.5 is no TOML inline table: expected a comma or an inline table terminator '}'`},
		// Tables past the bounds of a time given alone ran HPL to a Time
		// printed in 300 digits (qa47).
		{"set an overhead offset past the clock", base, []string{`network.send_overhead="0:1e300:0"`},
			`--set network.send_overhead="0:1e300:0": network.send_overhead: "0:1e300:0": an offset of 1e+300 s, beyond 1e+09 s`},
		{"set an overhead per byte past the clock", base, []string{`network.recv_overhead="0:1e-6:1e-9;65536:0:1e-3"`},
			`--set network.recv_overhead="0:1e-6:1e-9;65536:0:1e-3": network.recv_overhead: "0:1e-6:1e-9;65536:0:1e-3": a cost of 0.001 s per byte, beyond 0.000909 s`},
		{"an isend overhead past the clock", base + "[network]\nisend_overhead = \"0:2e9:0\"\n", nil,
			`s.toml:6: network.isend_overhead: "0:2e9:0": an offset of 2e+09 s, beyond 1e+09 s`},
		{"set a latency factor past the bound", base, []string{`network.lat_factor="0:1e300"`},
			`--set network.lat_factor="0:1e300": network.lat_factor: "0:1e+300" has a factor of 1e+300, beyond 1e+09`},
		{"set a table with a key twice", base, []string{`platform={hosts=2, hosts=3}`},
			`--set platform={hosts=2, hosts=3}: platform: {hosts=2, hosts=3} is no TOML inline table: Key 'platform.hosts' has already been defined`},
	}
	for _, tt := range tests {
		s, err := Parse([]byte(tt.doc), "s.toml")
		for _, a := range tt.sets {
			if err == nil {
				err = s.Set(a)
			}
		}
		if err == nil {
			_, err = s.Validate()
		}
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s:\n got %v\nwant %q...", tt.name, err, tt.want)
		}
	}
}

func TestKeyLine(t *testing.T) {
	doc := "app = \"hpl\"\n[platform]\n# comment\nhosts = 4\n[kernels.dgemm]\ncoef = [1]\n[[x.y]]\n\"q\" = 1\n"
	for key, want := range map[string]int{"app": 1, "platform": 2, "platform.hosts": 4, "kernels.dgemm": 5,
		"kernels.dgemm.coef": 6, "kernels.dgemm.coef[0]": 6, "kernels.dtrsm": 0, "x.y.q": 8} {
		if got := keyLine([]byte(doc), key); got != want {
			t.Errorf("%s: line %d, want %d", key, got, want)
		}
	}
}

func FuzzParseScenario(f *testing.F) {
	for _, file := range []string{"testdata/pingpong.toml", "testdata/hpl.toml"} {
		f.Add(readFile(f, file), "hpl.nb=64")
	}
	f.Add([]byte("[platform]\nhosts=1\n"), "platform.torus=[2,2]")
	f.Fuzz(func(t *testing.T, data []byte, set string) {
		s, err := Parse(data, "f.toml")
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "f.toml") {
				t.Fatalf("error %q: want one line naming f.toml", msg)
			}
			return
		}
		if err := s.Set(set); err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || !strings.HasPrefix(msg, "--set ") {
				t.Fatalf("error %q: want one line naming the --set", msg)
			}
			return
		}
		p, err := s.Validate()
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("multi-line error %q", err)
			}
			return
		}
		if p.Ranks > p.Platform.Ranks() || p.Platform.Hosts < 1 || p.Platform.LinkBandwidth <= 0 {
			t.Errorf("accepted an unusable plan %+v", p)
		}
	})
}

func TestModelsFileAndInlineTables(t *testing.T) {
	// kernels.models names a models.toml beside the scenario; inline tables win over it.
	dir := t.TempDir()
	modelsDoc := "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n\n[kernels.dtrsm]\nterms = [\"w\"]\ncoef = [3e-11]\n"
	if err := os.WriteFile(filepath.Join(dir, "models.toml"), []byte(modelsDoc), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := "[platform]\nhosts = 1\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[kernels]\nmodels = \"models.toml\"\n[kernels.dtrsm]\nterms = [\"w\"]\ncoef = [5e-11]\n"
	path := filepath.Join(dir, "s.toml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	p := mustPlan(t, s, err)
	v := models.Vars{M: 10, N: 10, K: 10, W: 1000}
	if got := p.Kernels.Models.For("dgemm", "").Mean(v); !close(got, 2e-8) {
		t.Errorf("dgemm from the models file: %g s, want 2e-8", got)
	}
	if got := p.Kernels.Models.For("dtrsm", "").Mean(v); !close(got, 5e-8) {
		t.Errorf("dtrsm inline: %g s, want 5e-8", got)
	}
	// A broken models file is reported with its own name and line.
	if err := os.WriteFile(filepath.Join(dir, "models.toml"), []byte("[kernels.dgemm]\nterms = [\"q\"]\ncoef = [1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, _ = Load(path)
	if _, err := s.Validate(); err == nil || !strings.Contains(err.Error(), "models.toml:") {
		t.Errorf("broken models file: %v", err)
	}
}

func TestPlatformFileWithOverrides(t *testing.T) {
	// platform.file is read relative to the scenario; keys beside it override the XML.
	dir := t.TempDir()
	xml := `<platform version="4.1"><cluster id="c" prefix="n" suffix="" radical="0-7" speed="1Gf" bw="10GBps" lat="1us"/></platform>`
	if err := os.WriteFile(filepath.Join(dir, "c.xml"), []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	doc := "app = \"ring\"\n[platform]\nfile = \"c.xml\"\ncores_per_host = 2\nlink_latency = \"5us\"\n"
	path := filepath.Join(dir, "s.toml")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := Load(path)
	p := mustPlan(t, s, err)
	if p.Platform.Hosts != 8 || p.Platform.CoresPerHost != 2 || p.Ranks != 16 || p.Platform.LinkLatency != 5e-6 ||
		p.Platform.LinkBandwidth != 1e10 || !p.Platform.NoLoopback || p.Platform.HostName(3) != "n3" {
		t.Errorf("platform %+v, %d ranks", p.Platform, p.Ranks)
	}
	if err := s.Set("platform.file=missing.xml"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "--set platform.file=missing.xml: platform.file: cannot read") {
		t.Errorf("missing platform file: %v", err)
	}
}

// TestPlatformXMLErrorsNameTheXML: with --platform (UsePlatformXML) the
// scenario's [platform] table is replaced, so a platform too small for the run
// is the XML's fault: the error names the XML's <cluster> line, not the line of
// the replaced table (the embedded default's "default.toml:9: platform.hosts").
func TestPlatformXMLErrorsNameTheXML(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "c.xml")
	doc := "<?xml version='1.0'?>\n<platform version=\"4.1\">\n<cluster id=\"c\" prefix=\"n\" suffix=\"\" radical=\"0-1\" speed=\"1Gf\" bw=\"10GBps\" lat=\"1us\"/>\n</platform>\n"
	if err := os.WriteFile(xml, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		sets []string
		want string
	}{
		{"HPL grid of the default", nil, "scenario/default.toml:36: hpl.grids: a 4-process grid needs more ranks than the 2 the platform offers"},
		{"ring of more ranks", []string{"app=\"ring\"", "ring.iterations=1"}, ""},
		{"a --set key is still the --set's", []string{"platform.cores_per_host=0"}, "--set platform.cores_per_host=0: platform.cores_per_host: 0 must be ≥ 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := Default()
			if err := s.UsePlatformXML(xml); err != nil {
				t.Fatal(err)
			}
			var err error
			for _, a := range tc.sets {
				if err == nil {
					err = s.Set(a)
				}
			}
			if err == nil {
				_, err = s.Validate()
			}
			if tc.want == "" {
				if err != nil {
					t.Errorf("got %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v\nwant %q...", err, tc.want)
			}
		})
	}
	// A replayed trace of 8 ranks on the 2 hosts, from a scenario file whose own
	// [platform] table (replaced) had a hosts line.
	s, err := Parse([]byte("app = \"replay\"\n[platform]\nhosts = 16\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[replay]\nfile = \"../examples/replay-ring.txt\"\n"), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.UsePlatformXML(xml); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), xml+":3: cluster: platform.hosts: 2 hosts × 1 cores hold 2 ranks, the run needs 8") {
		t.Errorf("replay on a small --platform: %v", err)
	}
}

func TestKnownKeys(t *testing.T) {
	// Every key docs/scenario.md (with scenario-models.md and
	// reference/scenario-apps.md) and the examples use is known, and only those.
	for _, k := range []string{"app", "seed", "platform.link_bandwidth", "platform.fat_tree", "network.iprobe_cost",
		"network.allreduce", "kernels.mode", "kernels.pivots", "hpl.swap_threshold", "hpl.max_iterations", "pingpong.window", "ring.sizes"} {
		i := sort.SearchStrings(knownKeys, k)
		if i == len(knownKeys) || knownKeys[i] != k {
			t.Errorf("%s is not a known key", k)
		}
	}
	if d := editDistance("kitten", "sitting"); d != 3 {
		t.Errorf("editDistance(kitten, sitting) = %d, want 3", d)
	}
}

func TestNetworkLinkKeysOverridePlatform(t *testing.T) {
	// Issue 6 sweeps network.link_latency: it must move the platform's links, and win
	// over platform.link_latency and over a platform XML.
	for _, tc := range []struct {
		name string
		xml  bool
	}{{"toml", false}, {"xml", true}} {
		s, err := Load("testdata/hpl.toml")
		if err != nil {
			t.Fatal(err)
		}
		if tc.xml {
			if err := s.UsePlatformXML(peersDir + "/cluster_flat_256.xml"); err != nil {
				t.Fatalf("vendored peer platform: %v", err)
			}
		}
		for _, arg := range []string{"platform.link_latency=3us", "network.link_latency=20us", "network.link_bandwidth=1GBps"} {
			if err := s.Set(arg); err != nil {
				t.Fatalf("%s: %s: %v", tc.name, arg, err)
			}
		}
		p := mustPlan(t, s, nil)
		if p.Platform.LinkLatency != 20e-6 || p.Platform.LinkBandwidth != 1e9 {
			t.Errorf("%s: link latency %g s, bandwidth %g B/s; want 2e-05 and 1e+09", tc.name, p.Platform.LinkLatency, p.Platform.LinkBandwidth)
		}
	}
}

func TestKernelBackendAndClock(t *testing.T) {
	s, err := Load("testdata/hpl.toml")
	if err != nil {
		t.Fatal(err)
	}
	for _, arg := range []string{"kernels.mode=timed", "kernels.clock=cpu", "kernels.backend=gonum"} {
		if err := s.Set(arg); err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
	}
	p := mustPlan(t, s, nil)
	if p.Kernels.Clock != kernels.CPUClock || p.Kernels.Backend != "gonum" {
		t.Errorf("clock %v backend %q; want cpu and gonum", p.Kernels.Clock, p.Kernels.Backend)
	}
	refusals := map[string]string{
		"kernels.clock=sundial": `kernels.clock: unknown clock "sundial"`,
		"kernels.backend=mkl":   `kernels.backend: unknown BLAS backend "mkl"`,
	}
	if !slices.Contains(kernels.Backends(), "openblas") {
		// A build without -tags cblas names the tag that brings OpenBLAS.
		refusals["kernels.backend=openblas"] = `kernels.backend: unknown BLAS backend "openblas" (rebuild with -tags cblas)`
	}
	for arg, want := range refusals {
		s, _ := Load("testdata/hpl.toml")
		if err := s.Set(arg); err != nil {
			t.Fatalf("%s: %v", arg, err)
		}
		if _, err := s.Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want it to contain %q", arg, err, want)
		}
	}
}

func TestWakeOrder(t *testing.T) {
	for v, want := range map[string]ranks.WakeOrder{"rank": ranks.WakeRank, "fifo": ranks.WakeFIFO, "simgrid": ranks.WakeSimGrid} {
		s, _ := Load("testdata/hpl.toml")
		if err := s.Set("network.wake_order=" + v); err != nil {
			t.Fatal(err)
		}
		if p := mustPlan(t, s, nil); p.Network.WakeOrder != want {
			t.Errorf("wake_order=%s: WakeOrder %v, want %v", v, p.Network.WakeOrder, want)
		}
	}
	s, _ := Load("testdata/hpl.toml")
	s.Set("network.wake_order=random")
	if _, err := s.Validate(); err == nil || !strings.Contains(err.Error(), `network.wake_order: unknown order "random"`) {
		t.Errorf("bad order: %v", err)
	}
}

func TestProbeVisibility(t *testing.T) {
	for v, want := range map[string]bool{"": false, "posted": false, "progressed": true} {
		s, _ := Load("testdata/hpl.toml")
		if v != "" {
			if err := s.Set("network.probe_visibility=" + v); err != nil {
				t.Fatal(err)
			}
		}
		if p := mustPlan(t, s, nil); p.Network.ProbeAfterProgress != want {
			t.Errorf("probe_visibility=%q: ProbeAfterProgress %v, want %v", v, p.Network.ProbeAfterProgress, want)
		}
	}
	s, _ := Load("testdata/hpl.toml")
	s.Set("network.probe_visibility=mpich")
	if _, err := s.Validate(); err == nil || !strings.Contains(err.Error(), `network.probe_visibility: "mpich": want "posted" (SMPI) or "progressed" (Open MPI's ob1)`) {
		t.Errorf("bad visibility: %v", err)
	}
}

// The tables of the apps a run does not use are checked for their values only:
// an [hpl] grid larger than the platform waits for the --set app=hpl that
// would use it, and is refused then.
func TestUnusedTablesCheckValuesOnly(t *testing.T) {
	const doc = `app = "pingpong"
[platform]
hosts = 4
link_bandwidth = "10Gbps"
link_latency = "1us"
[hpl]
n = 1000
grids = [[8, 8]]
[ring]
sizes = ["1KiB"]
[congestor]
pattern = "incast"
`
	s, err := Parse([]byte(doc), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatalf("valid unused tables: %v", err)
	}
	if p.App != AppPingpong || p.Ranks != 2 || len(p.HPL) != 0 || p.Congestor.Pattern != "" {
		t.Errorf("plan took the unused tables: app %s, %d ranks, %d HPL tests, congestor %q", p.App, p.Ranks, len(p.HPL), p.Congestor.Pattern)
	}
	if err := s.Set("app=hpl"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "s.toml:8: hpl.grids: a 64-process grid needs more ranks than the 4") {
		t.Errorf("app=hpl: got %v, want the grid refused", err)
	}
}

// TestModelsPathHint: a models path is the scenario folder's, a --set one too;
// when it names no file there but a file of the working folder, the error says
// how to give that one, and when it names nothing at all it says no more.
func TestModelsPathHint(t *testing.T) {
	work := t.TempDir()
	t.Chdir(work)
	if err := os.Mkdir("sc", 0o755); err != nil {
		t.Fatal(err)
	}
	doc := "[platform]\nhosts = 1\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n"
	if err := os.WriteFile(filepath.Join("sc", "s.toml"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("here.toml", []byte("[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ set, want string }{
		{"kernels.models=here.toml", "--set kernels.models=here.toml: kernels.models: cannot read sc/here.toml: no such file or directory (paths are relative to the scenario's folder; for ./here.toml give $PWD/here.toml)"},
		{"kernels.models=nowhere.toml", "--set kernels.models=nowhere.toml: kernels.models: cannot read sc/nowhere.toml: no such file or directory"},
		// an input that never ends is refused with why (it took the memory;
		// then it said "cannot read /dev/zero" and not why)
		{"kernels.models=/dev/zero", "--set kernels.models=/dev/zero: kernels.models: cannot read /dev/zero: not a regular file, and more than 256 MiB came from it (a device such as /dev/zero never ends): give a file"},
		{"kernels.models=" + filepath.Join(work, "here.toml"), ""},
	} {
		if _, err := os.Stat("/dev/zero"); err != nil && strings.Contains(c.set, "/dev/zero") {
			continue
		}
		s, err := Load(filepath.Join("sc", "s.toml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Set(c.set); err != nil {
			t.Fatal(err)
		}
		_, err = s.Validate()
		if got := fmt.Sprint(err); (c.want == "" && err != nil) || (c.want != "" && got != c.want) {
			t.Errorf("--set %s: %v, want %q", c.set, err, c.want)
		}
	}
}
