package plantest

import (
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

// Load is the scenario file with the sets applied, validated.
func Load(tb testing.TB, file string, sets ...string) *scenario.Plan {
	tb.Helper()
	s, err := scenario.Load(file)
	if err != nil {
		tb.Fatal(err)
	}
	return Validated(tb, s, sets...)
}

// Validated is s with the sets applied, validated.
func Validated(tb testing.TB, s *scenario.Scenario, sets ...string) *scenario.Plan {
	tb.Helper()
	for _, kv := range sets {
		if err := s.Set(kv); err != nil {
			tb.Fatal(err)
		}
	}
	p, err := s.Validate()
	if err != nil {
		tb.Fatal(err)
	}
	return p
}
