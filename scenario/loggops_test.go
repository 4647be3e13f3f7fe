package scenario

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
)

// TestLogGOPSScenarioErrors: each scenario the loggops semantics cannot
// read is one line naming the key.
func TestLogGOPSScenarioErrors(t *testing.T) {
	const two = "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n"
	goalFile := map[string]string{"t.goal": two}
	head := "app = \"replay\"\n[replay]\nfile = \"t.goal\"\nsemantics = \"loggops\"\n"
	for _, tc := range []struct {
		name, scenario string
		files          map[string]string
		want           string
	}{
		{"unknown semantics", "app = \"replay\"\n[replay]\nfile = \"t.goal\"\nsemantics = \"logp\"\n" + scenariotest.LogGOPSPlatform, goalFile,
			`s.toml:4: replay.semantics: unknown semantics "logp" (mpi or loggops)`},
		{"TI trace", "app = \"replay\"\n[replay]\nfile = \"t.txt\"\nsemantics = \"loggops\"\n" + scenariotest.LogGOPSPlatform,
			map[string]string{"t.txt": "0 send 1 0 8\n1 recv 0 0 8\n"}, "s.toml:4: replay.semantics: loggops replays GOAL schedules only"},
		{"overheads differ", head + strings.Replace(scenariotest.LogGOPSPlatform, "recv_overhead = \"5us\"", "recv_overhead = \"1us\"", 1), goalFile,
			"s.toml:16: network.recv_overhead: loggops has one overhead o"},
		{"routes differ", head + strings.Replace(scenariotest.LogGOPSPlatform, `topology = "flat"`, "topology = \"torus\"\ntorus = [4, 4, 4]", 1),
			map[string]string{"t.goal": "num_ranks 3\nrank 0 {\nl1: send 8b to 2 tag 0\n}\nrank 1 {\n}\nrank 2 {\nl1: recv 8b from 0 tag 0\n}\n"},
			"s.toml:4: replay.semantics: loggops has one L and one G, but ranks 0→1"},
		{"ranks share a host", head + strings.Replace(scenariotest.LogGOPSPlatform, "cores_per_host = 1", "cores_per_host = 2", 1), goalFile,
			"replay.semantics: loggops gives each rank a host of its own; ranks 0 and 1 share host"},
		{"no eager message", head + strings.Replace(scenariotest.LogGOPSPlatform, "eager_threshold = 65536", "eager_threshold = 0", 1), goalFile,
			"network.eager_threshold: loggops needs eager_threshold ≥ 1 byte"},
		{"gap under mpi", "app = \"replay\"\n[replay]\nfile = \"t.goal\"\ngap = \"1us\"\n" + scenariotest.LogGOPSPlatform, goalFile,
			"s.toml:4: replay.gap: LogGOPS's g has no meaning under replay.semantics = \"mpi\""},
		{"a host slowed", head + scenariotest.LogGOPSPlatform + "[kernels.host_speed]\nhost-1 = 0.5\n", goalFile,
			"kernels.host_speed: loggops has no hosts to slow"},
		{"a spread of hosts", head + scenariotest.LogGOPSPlatform + "[kernels]\nhost_spread = \"5%\"\n", goalFile,
			"kernels.host_spread: loggops has no hosts to slow"},
	} {
		t.Run(tc.name, func(t *testing.T) { wantScenarioError(t, tc.scenario, tc.files, tc.want) })
	}
}

// TestLogGOPSManyRanks: above allPairsRanks, the routes from and to ranks 0
// and 1 are compared; a flat cluster passes, a torus does not.
func TestLogGOPSManyRanks(t *testing.T) {
	const n = allPairsRanks + 2
	var b strings.Builder
	fmt.Fprintf(&b, "num_ranks %d\nrank 0 {\nl1: send 8b to %d tag 0\n}\n", n, n-1)
	for r := 1; r < n-1; r++ {
		fmt.Fprintf(&b, "rank %d {\n}\n", r)
	}
	fmt.Fprintf(&b, "rank %d {\nl1: recv 8b from 0 tag 0\n}\n", n-1)
	platform := strings.Replace(scenariotest.LogGOPSPlatform, "hosts = 64", fmt.Sprintf("hosts = %d", n), 1)
	head := "app = \"replay\"\n[replay]\nfile = \"t.goal\"\nsemantics = \"loggops\"\n"
	dir := scenariotest.WriteScenario(t, map[string]string{"s.toml": head + platform, "t.goal": b.String()})
	s, err := Load(filepath.Join(dir, "s.toml"))
	p := mustPlan(t, s, err)
	if p.LogGOPS.L != 3e-6 {
		t.Errorf("L = %g s, want 3e-6", p.LogGOPS.L)
	}
	torus := strings.Replace(head+platform, `topology = "flat"`, "topology = \"torus\"\ntorus = [2, 1025]", 1)
	torus = strings.Replace(torus, fmt.Sprintf("hosts = %d\n", n), "", 1)
	wantScenarioError(t, torus, map[string]string{"t.goal": b.String()}, "loggops has one L and one G")
}

// TestLogGOPSOverheadBlame: of three overheads that differ, the error names
// the one unlike the other two, or where all three differ the --set. A
// --set network.send_overhead=1us once blamed isend_overhead's line in the
// scenario, a key the user had not touched.
func TestLogGOPSOverheadBlame(t *testing.T) {
	const two = "num_ranks 2\nrank 0 {\nl1: send 8b to 1 tag 0\n}\nrank 1 {\nl1: recv 8b from 0 tag 0\n}\n"
	head := "app = \"replay\"\n[replay]\nfile = \"t.goal\"\nsemantics = \"loggops\"\n"
	five := head + scenariotest.LogGOPSPlatform // overheads on lines 14, 15, 16
	with := func(key, value string) string {
		return strings.Replace(five, key+" = \"5us\"", key+" = \""+value+"\"", 1)
	}
	for _, tc := range []struct {
		name, scenario string
		sets           []string
		want           string
	}{
		{"send differs in the file", with("send_overhead", "1us"), nil, "s.toml:14: network.send_overhead: loggops has one overhead o"},
		{"isend differs in the file", with("isend_overhead", "1us"), nil, "s.toml:15: network.isend_overhead: loggops has one overhead o"},
		{"recv differs in the file", with("recv_overhead", "1us"), nil, "s.toml:16: network.recv_overhead: loggops has one overhead o"},
		{"set send", five, []string{"network.send_overhead=1us"}, "--set network.send_overhead=1us: network.send_overhead: loggops has one overhead o"},
		{"set recv", five, []string{"network.recv_overhead=2us"}, "--set network.recv_overhead=2us: network.recv_overhead: loggops has one overhead o"},
		// two --sets that agree: the one left unlike them is named
		{"set two", five, []string{"network.isend_overhead=2us", "network.recv_overhead=2us"}, "s.toml:14: network.send_overhead: loggops has one overhead o"},
		// all three differ: the --set
		{"set into three", with("recv_overhead", "1us"), []string{"network.send_overhead=3us"}, "--set network.send_overhead=3us: network.send_overhead: loggops has one overhead o"},
		// a --set that agrees with the file leaves the blame to the odd one
		{"set agrees", with("recv_overhead", "1us"), []string{"network.send_overhead=5us"}, "s.toml:16: network.recv_overhead: loggops has one overhead o"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := scenariotest.WriteScenario(t, map[string]string{"s.toml": tc.scenario, "t.goal": two})
			s, err := Load(filepath.Join(dir, "s.toml"))
			if err != nil {
				t.Fatal(err)
			}
			mustSet(t, s, tc.sets)
			_, err = s.Validate()
			if err == nil || !strings.HasPrefix(strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)), tc.want) {
				t.Errorf("error %v\nwant %q...", err, tc.want)
			}
		})
	}
}
