package fluid

import (
	"math"
	"strings"
	"testing"
)

// TestOptionsCheck: each approximation is honoured by the Incremental
// solver only; under FullResolve (exact by definition) or SimGrid (SimGrid's
// arithmetic) it is an error, and NewSystemOptions refuses it.
func TestOptionsCheck(t *testing.T) {
	light := Approximations{LightBytes: 65536}
	local := Approximations{LocalSolve: true}
	both := Approximations{LightBytes: 65536, LocalSolve: true}
	for _, tc := range []struct {
		opts Options
		want string // "" for valid
	}{
		{Options{}, ""},
		{Options{Solver: FullResolve}, ""},
		{Options{Solver: SimGrid}, ""},
		{Options{Approx: light}, ""},
		{Options{Approx: local}, ""},
		{Options{Approx: both}, ""},
		{Options{Solver: FullResolve, Approx: light}, "the full-resolve solver takes no approximation"},
		{Options{Solver: FullResolve, Approx: local}, "the full-resolve solver takes no approximation"},
		{Options{Solver: SimGrid, Approx: light}, "the simgrid solver takes no approximation"},
		{Options{Solver: SimGrid, Approx: both}, "the simgrid solver takes no approximation"},
		{Options{Approx: Approximations{LightBytes: -1}}, "LightBytes = -1"},
		{Options{Approx: Approximations{LightBytes: math.NaN()}}, "LightBytes = NaN"},
		{Options{Approx: Approximations{LightBytes: math.Inf(1)}}, "LightBytes = +Inf"},
		{Options{Solver: 7}, "unknown solver Solver(7)"},
	} {
		err := tc.opts.Check()
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%+v: %v", tc.opts, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%+v: err = %v, want %q", tc.opts, err, tc.want)
		}
		if tc.want == "" {
			continue
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: NewSystemOptions did not refuse it", tc.opts)
				}
			}()
			NewSystemOptions([]Link{{Bandwidth: 1}}, tc.opts)
		}()
	}
}
