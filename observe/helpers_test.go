package observe_test

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/internal/scenariotest"
	"github.com/emu-hpc/emu/scenario"
)

func replayPlan(t *testing.T, trace string, sets ...string) *scenario.Plan {
	t.Helper()
	return plantest.Load(t, scenariotest.WriteReplay(t, trace), sets...)
}

// relTol is the relative tolerance of unit conversions (dimensionless).
const relTol = 1e-12

func close(a, b float64) bool { return math.Abs(a-b) <= relTol*math.Max(math.Abs(a), math.Abs(b)) }
