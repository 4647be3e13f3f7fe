package scenario

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/platform"
)

func varPlan(t *testing.T, doc string, sets ...string) (*Plan, error) {
	t.Helper()
	s, err := Parse([]byte(doc), "var.toml")
	if err != nil {
		return nil, err
	}
	for _, kv := range sets {
		if err := s.Set(kv); err != nil {
			return nil, err
		}
	}
	return s.Validate()
}

// TestHostSpeedKeys: every spelling of [kernels.host_speed] and
// host_spread resolves to the factors worked out by hand; factors of several
// matching entries multiply.
func TestHostSpeedKeys(t *testing.T) {
	// Hosts are n0 … n3 (host_prefix and numbers from 0).
	sp := func(seed uint64, host string) float64 { return platform.SpreadFactor(seed, host, 0.05) }
	cases := []struct {
		name string
		doc  string
		sets []string
		want map[string]float64
	}{
		{"none", scenariotest.VarScenario, nil, nil},
		{"one host by --set", scenariotest.VarScenario, []string{"kernels.host_speed.n2=0.5"}, map[string]float64{"n2": 0.5}},
		{"a range by --set inline table", scenariotest.VarScenario, []string{`kernels.host_speed={"n1..2" = 0.8}`}, map[string]float64{"n1": 0.8, "n2": 0.8}},
		// A quoted part of a dotted key holds the range's dots, as in TOML.
		{"a range by --set quoted key", scenariotest.VarScenario, []string{`kernels.host_speed."n1..2"=0.8`}, map[string]float64{"n1": 0.8, "n2": 0.8}},
		{"a glob by --set quoted key", scenariotest.VarScenario, []string{`kernels.host_speed."n[02]"=0.5`}, map[string]float64{"n0": 0.5, "n2": 0.5}},
		{"file table, glob and host compose", scenariotest.VarScenario + "[kernels.host_speed]\n\"n*\" = 0.5\nn3 = 0.5\n", nil,
			map[string]float64{"n0": 0.5, "n1": 0.5, "n2": 0.5, "n3": 0.25}},
		{"--set adds to the file's table", scenariotest.VarScenario + "[kernels.host_speed]\nn0 = 0.5\n", []string{"kernels.host_speed.n1=2"},
			map[string]float64{"n0": 0.5, "n1": 2}},
		{"factor 1 is no entry", scenariotest.VarScenario, []string{"kernels.host_speed.n1=1"}, nil},
		{"spread: percent", scenariotest.VarScenario, []string{"kernels.host_spread=5%"},
			map[string]float64{"n0": sp(3, "n0"), "n1": sp(3, "n1"), "n2": sp(3, "n2"), "n3": sp(3, "n3")}},
		{"spread: fraction and own seed", scenariotest.VarScenario, []string{"kernels.host_spread=0.05", "kernels.host_spread_seed=9"},
			map[string]float64{"n0": sp(9, "n0"), "n1": sp(9, "n1"), "n2": sp(9, "n2"), "n3": sp(9, "n3")}},
		{"spread and a slow host", scenariotest.VarScenario, []string{"kernels.host_spread=5%", "kernels.host_speed.n1=0.5"},
			map[string]float64{"n0": sp(3, "n0"), "n1": sp(3, "n1") * 0.5, "n2": sp(3, "n2"), "n3": sp(3, "n3")}},
		{"spread 0", scenariotest.VarScenario, []string{"kernels.host_spread=0"}, nil},
	}
	for _, c := range cases {
		p, err := varPlan(t, c.doc, c.sets...)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		got := p.Kernels.HostSpeed
		if len(got) != len(c.want) {
			t.Errorf("%s: factors %v, want %v", c.name, got, c.want)
			continue
		}
		for h, w := range c.want {
			if got[h] != w {
				t.Errorf("%s: %s at %v, want %v", c.name, h, got[h], w)
			}
		}
	}
}

func TestHostSpeedErrors(t *testing.T) {
	cases := []struct {
		doc  string
		sets []string
		want string
	}{
		{scenariotest.VarScenario, []string{"kernels.host_speed.n9=0.5"}, "--set kernels.host_speed.n9=0.5: kernels.host_speed.n9: matches no host of the platform (n0 … n3)"},
		{scenariotest.VarScenario, []string{`kernels.host_speed."n5..7"=0.5`}, `--set kernels.host_speed."n5..7"=0.5: kernels.host_speed.n5..7: matches no host of the platform (n0 … n3)`},
		{scenariotest.VarScenario, []string{`kernels.host_speed."n1=0.5`}, `--set kernels.host_speed."n1=0.5: "kernels.host_speed.\"n1" is not a dotted key (quote a part that holds a dot`},
		{scenariotest.VarScenario, []string{`kernels.host_speed."n1"x=0.5`}, `--set kernels.host_speed."n1"x=0.5: "kernels.host_speed.\"n1\"x" is not a dotted key`},
		{scenariotest.VarScenario, []string{`kernels.host_speed.=0.5`}, `--set kernels.host_speed.=0.5: "kernels.host_speed." is not a dotted key`},
		{scenariotest.VarScenario, []string{`kernels.host_speed.n1..2=0.5`}, `--set kernels.host_speed.n1..2=0.5: "kernels.host_speed.n1..2" is not a dotted key`},
		{scenariotest.VarScenario, []string{"kernels.host_speed.n1=0"}, "--set kernels.host_speed.n1=0: kernels.host_speed.n1: 0: want a speed factor from 0.001 to 1000"},
		{scenariotest.VarScenario, []string{"kernels.host_speed.n1=fast"}, `--set kernels.host_speed.n1=fast: kernels.host_speed.n1: "fast": want a speed factor from 0.001 to 1000`},
		// A string that reads as a number is shown quoted: "0.5" is not the number 0.5.
		{scenariotest.VarScenario, []string{`kernels.host_speed.n1="0.5"`}, `--set kernels.host_speed.n1="0.5": kernels.host_speed.n1: "0.5": want a speed factor`},
		// Factors far from 1 are typos; at 1e-13 the run's clock grows so large
		// that a microsecond no longer moves it and the emulation never ended.
		{scenariotest.VarScenario, []string{"kernels.host_speed.n1=1e-13"}, "--set kernels.host_speed.n1=1e-13: kernels.host_speed.n1: 1e-13: want a speed factor from 0.001 to 1000"},
		{scenariotest.VarScenario, []string{"kernels.host_speed.n1=2000"}, "--set kernels.host_speed.n1=2000: kernels.host_speed.n1: 2000: want a speed factor from 0.001 to 1000"},
		{scenariotest.VarScenario, []string{"kernels.host_speed.n1=inf"}, "--set kernels.host_speed.n1=inf: kernels.host_speed.n1: +Inf: want a speed factor"},
		// Each entry in range, their product on n1 (0.01 × 0.01) not.
		{scenariotest.VarScenario + "[kernels.host_speed]\n\"n*\" = 0.01\nn1 = 0.01\n", nil, "var.toml:22: kernels.host_speed: host n1's matching entries (and spread) multiply to 0.0001, want from 0.001 to 1000"},
		{scenariotest.VarScenario, []string{"kernels.host_speed=0.9"}, "--set kernels.host_speed=0.9: kernels.host_speed: want a table of host = factor"},
		{scenariotest.VarScenario, []string{"kernels.host_spread=150%"}, "--set kernels.host_spread=150%: kernels.host_spread: 150%: want a relative spread between 0 and 100%"},
		{scenariotest.VarScenario, []string{"kernels.host_spread=-0.1"}, "--set kernels.host_spread=-0.1: kernels.host_spread: -0.1: want a relative spread"},
		{scenariotest.VarScenario, []string{"kernels.host_spread_seed=4"}, "--set kernels.host_spread_seed=4: kernels.host_spread_seed: seeds kernels.host_spread, which is not given"},
		{scenariotest.VarScenario + "[kernels.host_speed]\n\"n5..7\" = 0.9\n", nil, "var.toml:23: kernels.host_speed.n5..7: matches no host of the platform"},
		// A range that runs past the platform (n2..9 for n2..3) is a typo, not the hosts it matches.
		{scenariotest.VarScenario, []string{`kernels.host_speed={"n2..9" = 0.9}`}, `--set kernels.host_speed={"n2..9" = 0.9}: kernels.host_speed.n2..9: names 8 hosts, the platform has 2 of them (n0 … n3)`},
		{scenariotest.VarScenario + "[kernels.host_speed]\n\"n0..4\" = 0.9\n", nil, "var.toml:23: kernels.host_speed.n0..4: names 5 hosts, the platform has 4 of them"},
		{scenariotest.VarScenario + "[kernels.host_speed]\n\"n[\" = 0.9\n", nil, "var.toml:22: kernels.host_speed.n[: not a valid glob"},
	}
	for _, c := range cases {
		_, err := varPlan(t, c.doc, c.sets...)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v:\n got %v\nwant %s...", c.sets, err, c.want)
		}
	}
}
