package observe_test

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/scenario"
)

func replayPlan(t *testing.T, trace string, sets ...string) *scenario.Plan {
	t.Helper()
	return loadPlan(t, scenariotest.WriteReplay(t, trace), sets...)
}

// loadPlan loads the scenario file, applies the sets and validates it.
func loadPlan(t *testing.T, file string, sets ...string) *scenario.Plan {
	t.Helper()
	s, err := scenario.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	return validated(t, s, sets)
}

// validated is s with the sets applied, validated.
func validated(t *testing.T, s *scenario.Scenario, sets []string) *scenario.Plan {
	t.Helper()
	for _, kv := range sets {
		if err := s.Set(kv); err != nil {
			t.Fatal(err)
		}
	}
	p, err := s.Validate()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// relTol is the relative tolerance of unit conversions (dimensionless).
const relTol = 1e-12

func close(a, b float64) bool { return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b)) }
