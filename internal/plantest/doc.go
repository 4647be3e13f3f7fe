// Package plantest builds validated scenario plans for tests: a scenario
// file, or a scenario already loaded or parsed, with --set overrides applied
// in order, failing the test at the first error. Before it, the tests of
// observe, runner, examples and validation each kept a copy of that
// preamble (loadPlan, loadPlanOf, validated).
//
// It is for tests only. Imports: scenario (and what scenario needs), nothing
// that runs a plan (runner, observe, sensitivity). Scenario's own tests,
// inside package scenario, cannot import it; they use internal/scenariotest,
// which imports nothing of ours.
package plantest
