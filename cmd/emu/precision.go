package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// precisionStart is the first number of panels --precision tries: the smallest
// sample the extrapolation spreads over several segments (apps/hpl/extrapolate.go).
const precisionStart = 8

// parsePrecision reads --precision: a relative error as a fraction (0.02) or a
// percentage (2%).
func parsePrecision(s string) (float64, error) {
	v, pct := strings.CutSuffix(strings.TrimSpace(s), "%")
	p, err := strconv.ParseFloat(v, 64)
	if pct {
		p /= 100
	}
	if err != nil || !(p > 0 && p < 1) {
		return 0, fmt.Errorf("--precision %q: want a relative error between 0 and 1, e.g. 0.02 or 2%%", s)
	}
	return p, nil
}

// panelsFor finds the number of HPL panels to emulate for --precision: K = 8, 16,
// 32, ... until every test's stated error bar (hpl.Result.ExpectedError) is
// within precision × its Time; 0 (whole) once the next K would cover every test. Each try is a run
// of the scenario, so the search costs about twice the chosen run, and the run
// itself follows.
func panelsFor(cmd *cobra.Command, sf *scenarioFlags, file, precision string, maxIterations int) (int, error) {
	p, err := parsePrecision(precision)
	if err != nil {
		return 0, err
	}
	if maxIterations != 0 {
		return 0, fmt.Errorf("--precision picks --max-iterations itself: give one of them")
	}
	// The app first: the tries below set an [hpl] key, which another app refuses.
	if plan, err := sf.plan(file); err != nil {
		return 0, err
	} else if plan.App != scenario.AppHPL {
		return 0, fmt.Errorf("--precision: the scenario's app is %s, not hpl", plan.App)
	}
	try := *sf
	for k := precisionStart; ; k *= 2 {
		try.sets = append(append([]string(nil), sf.sets...), fmt.Sprintf("hpl.max_iterations=%d", k))
		plan, err := try.plan(file)
		if err != nil {
			return 0, err
		}
		res, err := runner.Run(plan, runner.Options{})
		if err != nil {
			return 0, asFailure(err)
		}
		worst, whole, panels := 0.0, true, 0
		for _, r := range res.HPL {
			if r != nil && r.Extrapolated {
				whole = false
				worst = max(worst, r.ExpectedError/r.Time)
				panels = max(panels, (r.N+r.NB-1)/r.NB)
			}
		}
		say := func(format string, args ...any) {
			if !isQuiet(cmd) {
				fmt.Fprintf(cmd.ErrOrStderr(), "emu: --precision %g%%: "+format+"\n", append([]any{100 * p}, args...)...)
			}
		}
		// A run that ends whole says so: its last line was the sample's error
		// bar (±42%), which the exact run that follows does not have.
		if whole {
			say("%d panels cover every test: the run is whole, without an error bar", k)
			return 0, nil
		}
		say("%d panels: expected error ±%s%%", k, twoDigits(100*worst))
		if worst <= p {
			return k, nil
		}
		if 2*k >= panels {
			say("the next try would cover every test's panels: the run is whole, without an error bar")
			return 0, nil
		}
	}
}
