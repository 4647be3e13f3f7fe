// Package fluidtest is a test kit for max-min solvers: a naive
// progressive-filling reference solver, the invariants any weighted
// max-min allocation must meet (feasibility and the bottleneck
// certificate), a generator of random problems, a table of hand-solved
// Cases, and Differential, which runs any Solver against all of them and
// prints a failing random problem as a Go literal to add to Cases. fluid's
// own tests use it against fluid.System; any other solver can be checked
// the same way.
//
// Units are fluid's: bytes/s for rates and capacities. The kit does no I/O;
// randomness comes from the *rand.Rand passed in. Failures are returned as
// errors describing the violated invariant; nothing panics on bad rates.
//
// Imports: fluid only among emu's packages (layers_test.go also allows
// internal/heap); only tests import it.
package fluidtest
