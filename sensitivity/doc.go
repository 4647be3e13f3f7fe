// Package sensitivity owns the execution graph of an MPI run, the linear
// program LLAMP builds on it (Shen et al., "LLAMP", Algorithm 1 with the
// rendezvous edges of its Appendix B), and the latency and bandwidth
// sensitivity metrics read from that program: T(ℓ), λ_L (left and right),
// the critical latencies of a range, x% latency tolerance, ρ_L, λ_G, per
// latency class and per rank pair, and the per-rank MPI-time split; and the
// searches over re-emulations where one graph cannot answer (verified T(ℓ),
// bandwidth tolerance).
//
// The graph. Vertices are Calc, Send or Recv operations of one rank with a
// constant cost; an edge u→v says v starts no earlier than u's finish plus
// the edge's cost Σ count·ℓ_class + rest. Class 0 is the latency that is
// swept by default: the latency of one link when a recorder counts a
// message's hops+1 wire terms (emu's default, LLAMP Appendix H), or the
// end-to-end L when it counts one term per message (GOAL schedules, emu's
// end-to-end mode). Other classes are what a recorder chooses: emu's wire-mode
// recorder keeps one class per link class of the topology (fat-tree host and
// levelN cables, dragonfly terminal/intra/inter, torusN, backbone), a message
// carrying its route's cables of each class (observe TestWireLatencyPerLinkClass),
// and SMPI's latency factors' excess at (f−1)·L0; Merge folds the link classes
// into the one class 0 of ℓ bit for bit (TestMergeIsTheMergedRecording). The
// graph keeps each class's recorded latency (Baseline), and an analysis that
// sweeps one class holds the others there; AnalyzeClasses gives each class's
// λ, critical latencies and tolerances (TestAnalyzeClassesByHand), and on the
// dragonfly and fat-tree examples the per-class λ predict a re-emulation with
// every link slower within 1% (examples TestPerClassLatencyPredictsReemulation).
// With a switch latency (fluid.WithSwitchLatency, platform.switch_latency) the
// recorder adds a class "switch" counting each message's switches, LLAMP
// Appendix H's h·ℓ_switch (observe TestWireLatencySwitchClass). rest is
// everything else the run gave the edge (bandwidth time under contention,
// overheads, gaps); a message edge also carries its bytes so that λ_G can be
// reported.
//
// How a recorder expresses LLAMP's constructs:
//   - program order: an edge between consecutive operations of a rank, rest 0;
//   - eager message: Send→Recv edge with one class-0 term (or hops+1 wire
//     terms, split per link class, LLAMP Appendix H), rest o+s·G;
//   - rendezvous (Appendix B): the send cannot complete before the receiver
//     has posted. Add a virtual edge from the vertex preceding the recv on
//     the receiver's rank (the posting point) to the send's completion vertex
//     with one latency term (the RTS/CTS handshake; two terms if the RTS
//     is not already counted), and the data edge Send→Recv as for eager.
//
// The LP and its solution. Algorithm 1 minimises the end time subject to one
// constraint per edge; for fixed ℓ its optimum is the longest path, so it is
// solved exactly in O(V+E) (evaluator). T(ℓ) is the maximum of linear
// functions of ℓ, hence convex piecewise linear; λ_L is the number of
// latency terms on the critical path (fewest and most over tied critical
// paths: the left and right derivatives). All breakpoints of T in a range
// come from one parametric pass that carries every vertex's finish time as a
// convex piecewise-linear function of ℓ (envelope.go); the Eisner–Severance
// line-intersection search (search.go, two passes per breakpoint) is its
// fallback when the live functions outgrow a memory budget, and its check.
// WriteLP exports the same program in CPLEX LP format (also with one
// latency variable per rank pair, LLAMP Appendix I); tests check both with
// glpk's glpsol.
//
// Beyond one graph (verify.go, bandwidth.go). Where the application adapts to
// timing the graph's T(ℓ) departs from re-emulation; Verify takes an emulator
// callback, re-emulates at K latencies and keeps a new graph wherever the
// recorded ones depart (TestVerifyFollowsAnAdaptiveApplication). The graph
// holds contended bandwidth time as constants, so a link class's bandwidth
// tolerance is searched over re-emulations (SearchBandwidthTolerances,
// TestBandwidthToleranceOfATransfer); RestScaled and BandwidthPieces give
// the graph's answer beside it, its critical bandwidths exactly
// (TestBandwidthPiecesByHand).
//
// The graph file (format.go) is a checksummed varint stream; it also keeps
// the latencies the graph was recorded at (Builder.SetBaseline), not class
// names (the recorder has them: emu run --graph saves the one-ℓ graph).
//
// Units: seconds for times and latencies, bytes for sizes, s/byte for G.
//
// Errors: bad data (bad graph files, bad builder input, cycles, bad
// parameters) gives an error prefixed "sensitivity:"; Builder.Graph panics
// only for recorders that build cyclic graphs (a programming error).
//
// Imports: nothing of ours (ARCHITECTURE.md), and no gonum/plot: the
// figures of a Report (runtime.svg, lambda_L.svg, rho_L.svg) are package
// plots'; sensitivity/goal, which records the graph of a loggops replay,
// imports this package, loggops and traceformat.
package sensitivity
