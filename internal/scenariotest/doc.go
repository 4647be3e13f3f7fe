// Package scenariotest holds the scenario snippets and file helpers that the
// tests of scenario, runner, observe, apps/replay and cmd/emu share: small platforms
// (a fat tree for replays, one for jobs, LogGOPSim's parameters as a flat
// cluster), a 4-host HPL whose compute totals do not depend on timing, the
// [[jobs]] entries, and writing a scenario's files into a test's folder.
// Before it, each package's tests kept a copy of each, and the copies drifted.
//
// It is for tests only. It imports nothing of ours (standard library only),
// so that scenario's own tests, inside package scenario, may import it; the
// helpers that need a scenario.Plan stay in the packages that build one.
package scenariotest
