// Package loggopspeers reads what LogGOPSim measured on the sample GOAL
// schedules (shared/peers/loggopsim, vendored under loggops/testdata): its
// runs of results.csv, its T(L) curves of tl_wide.csv and the schedules
// themselves. The tests of the LogGOPS engine (loggops), of the execution
// graph built from it (sensitivity/goal) and of the T(L) curves read off that
// graph (sensitivity) check against the same figures.
//
// Errors name the file and what is wrong; nothing panics on bad data. The
// Must forms, which the tests call, fail the test instead of returning one.
//
// It imports traceformat only, so that package loggops's own tests may use it.
package loggopspeers
