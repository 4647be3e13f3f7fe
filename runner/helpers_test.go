package runner

import (
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/scenario"
)

// relTol is the relative tolerance of unit conversions (dimensionless): products of
// a decimal literal and a power of ten may differ from the literal in the last bit.
const relTol = 1e-12

func varPlan(t *testing.T, doc string, sets ...string) (*scenario.Plan, error) {
	t.Helper()
	s, err := scenario.Parse([]byte(doc), "var.toml")
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

// approxBase is a 2×2 HPL scenario whose [hpl] table ends the file, so that
// a key appended to it lands on line 9.
const approxBase = "app = \"hpl\"\n[platform]\nhosts = 4\nlink_bandwidth = \"1GBps\"\nlink_latency = \"1us\"\n[hpl]\nn = 1000\ngrids = [[2, 2]]\n"

// approxPlan validates src (with hplDat replacing its table if given, then
// the sets) and returns the plan; when wantErr is set it checks that the
// error starts with it instead and returns nil.
func approxPlan(t *testing.T, src, hplDat, wantErr string, sets ...string) *scenario.Plan {
	t.Helper()
	s, err := scenario.Parse([]byte(src), "s.toml")
	if err == nil && hplDat != "" {
		err = s.UseHPLDat(hplDat)
	}
	for _, kv := range sets {
		if err == nil {
			err = s.Set(kv)
		}
	}
	var p *scenario.Plan
	if err == nil {
		p, err = s.Validate()
	}
	if wantErr != "" {
		if err == nil || !strings.HasPrefix(err.Error(), wantErr) {
			t.Fatalf("got %v, want %q...", err, wantErr)
		}
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// mustPlan is a loaded or parsed scenario, validated; err is the load's.
func mustPlan(t *testing.T, s *scenario.Scenario, err error) *scenario.Plan {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return plantest.Validated(t, s)
}

func validate(doc string) (*scenario.Plan, error) {
	s, err := scenario.Parse([]byte(doc), "s.toml")
	if err != nil {
		return nil, err
	}
	return s.Validate()
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
