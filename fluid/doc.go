// Package fluid is emu's network model: links, routes, topologies and the
// max-min fair sharing of link bandwidth between concurrent flows, in the
// mould of SimGrid's LMM solver (shared/reference/smpi-model.md §1, §4).
//
// # What it owns
//
//   - System: flows over Shared links, with FatPipe links, per-flow bounds
//     (TCP window), weights (SimGrid's penalties: shares ∝ 1/Weight) and
//     reverse cross-traffic, each flow's progress (rate, remaining bytes,
//     completion date) and the heap of completions. Finished flows (with
//     their element arrays) are reused from a free list, found by id in a
//     paged table (flowtable.go): starting and ending a flow allocates
//     nothing in the steady state. The rates come from one of two solvers
//     (solver.go), picked by Options.Solver for the System's life, each
//     owning the per-link and per-flow state of its own arithmetic:
//   - maxmin, emu's own (Solver Incremental, the default; FullResolve
//     re-solves every flow, a baseline): weighted max-min fair rates, re-solved
//     when a flow starts or ends for only the flows it can affect: those of
//     the connected component it touches whose level (rate × weight) is not
//     below the level where the change enters the sweep (solve.go,
//     threshold.go). A flow alone on all its links is rated without building
//     the solver's heap. Light flows (Approximations.LightBytes; light.go), an
//     approximation, off by default: a small flow is rated at its max-min
//     rate when it starts and the flows it shares links with keep theirs,
//     so its start and end re-solve nothing, within a budget of LightBytes
//     bytes of light flows per link.
//     Local re-solves (Approximations.LocalSolve; local.go), an approximation, off
//     by default: a change re-solves the flows on its links with their
//     other links' flows held, and grows that region only where a rate
//     moved next to a flow outside it. Both approximations apply to the
//     Incremental solver only; Options.Check refuses them under another.
//   - lmm, SimGrid 3.32's lazy network model (Options.Solver = SimGrid;
//     simgrid.go), below.
//   - Traffic accounting (RecordTraffic, Traffic; traffic.go): per link,
//     the bytes its flows occupied (rate × time, integrated per flow at the
//     events where the System already brings a flow up to date, so exact)
//     and the time it had a flow. Off by default, when it costs one nil
//     check per rate change, start and end.
//   - Topologies (Flat, FatTree, Torus, Dragonfly) that build hosts, links
//     (with SimGrid's split-duplex, shared or fat-pipe cables, loopbacks and
//     limiters) and compute routes on demand, without N² tables, following
//     SimGrid's cluster zones (reference §4; deviations are documented on
//     each type); and Zones, a platform of SimGrid netzones (Full, Floyd,
//     Dijkstra, star, and clusters of those topologies as zones) routed as
//     SimGrid 3.32 routes them (zones.go, zonecluster.go). Every
//     link has a Class naming its place (fat-tree level,
//     torus dimension, dragonfly terminal/intra/inter, ...), ranked by
//     ClassLevel; RouteClasses counts a route's cables per class (the
//     execution graph's per-class latency terms). What-ifs wrap a
//     topology: WithSwitchLatency (a latency per switch crossed) and
//     WithClassBandwidth (a class's links at another bandwidth, whose
//     current values ClassBandwidths reads).
//
// The subpackage fluidtest holds a naive reference solver and the
// invariants any max-min solver must meet.
//
// # Units
//
// Time in seconds, sizes in bytes, bandwidth in bytes per second, all
// float64. Unit conversion from user input happens in package units.
//
// # Determinism
//
// A System is a synchronous state machine: the caller passes the current
// time in; it never reads a clock, starts no goroutine and does no I/O.
// Flow ids increase and are never reused; ties between completion times are
// broken by the lower id. Maps are never ranged over.
//
// # SimGrid's arithmetic (Options.Solver = SimGrid)
//
// With Options.Solver = SimGrid a System is rated by lmm, a replica of SimGrid
// 3.32's lazy network model float for float (simgrid.go), so that an
// emulation driven by it gives SMPI's figures to the printed microsecond
// even where a run is chaotic: a flow's latency phase is part of it (StartLatent, Activate);
// the rates are those of lmm::MaxMin's solve, with its order of
// operations and its precision cut-offs (maxmin/precision 1e-5), over the
// links marked modified since the last Settle, as SimGrid's selective
// update marks them; at each Settle every flow on a modified link has its
// remaining bytes and completion date re-projected and takes a new stamp
// in SimGrid's order (modified links in marking order, each link's flows
// most recently enabled first), and equal dates complete in stamp order,
// as SimGrid's stable action heap pops them. A completed flow leaves its
// links at the next Settle or flow start (SimGrid frees its variable when
// the completion is posted). A flow whose weight changes in its latency
// phase (SetWeight) loads its links from then on, as SimGrid 3.32's
// enabled variable does, and stalls: at the phase's end nothing projects
// its completion, and its bytes move from the next Settle that re-rates
// it (none may come).
//
// # Error policy
//
// Bad configuration (a topology's Config) is reported by Validate and the
// New* constructors as an error naming the field. Misuse of a System or a
// Topology by a program — an unknown flow or link id, a host out of range,
// time going backwards, a negative or NaN size, a latency phase
// (StartLatent, Activate) without Options.Solver = SimGrid — is a programmer
// error and panics with a message saying what was wrong.
//
// # Imports
//
// fluid imports nothing of emu's but internal/heap, the project's one
// priority queue (ARCHITECTURE.md); emu and ranks import it.
//
// # Deviation from SimGrid
//
// A FatPipe link caps each flow at capacity/coefficient independently of
// the others ("max of a·x ≤ C"). SimGrid's solver, when a fat-pipe
// constraint is the bottleneck, fixes all its flows at the same level, which
// gives flows of unequal weights less than the cap; with equal weights (the
// usual case: loopbacks, zero-latency routes) both agree. The SimGrid
// solver (Options.Solver = SimGrid) does as SimGrid does.
package fluid
