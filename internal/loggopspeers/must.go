package loggopspeers

import (
	"testing"

	"github.com/emu-hpc/emu/traceformat"
)

// The Must forms are the readers as the tests call them: the figures are
// vendored, so an error is the test's failure, not a case to handle.

// MustResults is Results, failing tb on an error.
func MustResults(tb testing.TB, dir string) map[string][]Row {
	tb.Helper()
	v, err := Results(dir)
	check(tb, err)
	return v
}

// MustSchedules is Schedules, failing tb on an error.
func MustSchedules(tb testing.TB, dir string) []string {
	tb.Helper()
	v, err := Schedules(dir)
	check(tb, err)
	return v
}

// MustSchedule is Schedule, failing tb on an error.
func MustSchedule(tb testing.TB, dir, name string) *traceformat.Schedule {
	tb.Helper()
	v, err := Schedule(dir, name)
	check(tb, err)
	return v
}

// MustWideCurves is WideCurves, failing tb on an error.
func MustWideCurves(tb testing.TB, dir string) map[string][][2]float64 {
	tb.Helper()
	v, err := WideCurves(dir)
	check(tb, err)
	return v
}

func check(tb testing.TB, err error) {
	tb.Helper()
	if err != nil {
		tb.Fatalf("LogGOPSim's figures (vendored): %v", err)
	}
}
