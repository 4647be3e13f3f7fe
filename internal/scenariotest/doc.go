// Package scenariotest holds the scenario snippets and file helpers that the
// tests of scenario, runner, observe, apps/replay and cmd/emu share: small platforms
// (a fat tree for replays, one for jobs, LogGOPSim's parameters as a flat
// cluster), a 4-host HPL whose compute totals do not depend on timing, the
// [[jobs]] entries, writing a scenario's files into a test's folder, and
// reading a CSV file (peers' results, recorded runs) whole or as rows by
// column name, which the tests of traceformat, sensitivity, validation and
// the README's figures read too.
// Before it, each package's tests kept a copy of each, and the copies drifted.
//
// It is for tests only. It imports nothing of ours (standard library only),
// so that scenario's own tests, inside package scenario, may import it; the
// helpers that need a scenario.Plan stay in the packages that build one.
package scenariotest
