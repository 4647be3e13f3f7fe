package fluid

// solver is how a System rates its flows. There are two, each owning the
// per-link and per-flow state of its own arithmetic (STYLE habit 16: one
// solver, one state), and NewSystemOptions picks one for the System's life:
//
//   - maxmin (solve.go, threshold.go, light.go), emu's own: weighted
//     max-min by progressive filling, re-solved incrementally when a flow
//     starts or ends (the flows above the change's level in its connected
//     component), with the light-flow approximation of Approximations.LightBytes.
//     Its state: each link's member list, each flow's dense solver entry
//     (flowHot), the filling's scratch and the light flows' budgets.
//   - lmm (simgrid.go), Options.Solver = SimGrid: SimGrid 3.32's lazy network
//     model float for float, solved once per instant (settle) over the
//     links modified since, with SimGrid's heap stamps as tie order. Its
//     state: each link's lmm::Constraint (enabled and active element
//     lists), each flow's lmm::Variable, the modified set and the flows
//     to free.
//
// The System owns the rest (system.go): flow ids, routes and bounds, each
// flow's progress (rate, remaining bytes, completion date and tie) and the
// completion heap, which the solvers update as they rate flows.
//
// The System checks time and flow ids and brings its clock to now before
// calling a solver. The latency phase and the settle at an instant's end
// are lmm's alone: the System calls them on lmm itself (System.sg).
type solver interface {
	// start adds a flow (System.Start).
	start(now float64, spec FlowSpec) FlowID
	// startAll adds flows as Start would one by one (System.StartAll).
	startAll(now float64, specs []FlowSpec, ids []FlowID) []FlowID
	// end removes f, completed or cancelled (System.Finish, Cancel).
	end(now float64, f *flow)
	// setCapacity re-rates link l's flows after its capacity changed
	// (System.SetCapacity, capacity.go).
	setCapacity(now float64, l LinkID)
	// rebound re-rates f after its bound changed (System.SetBound).
	rebound(now float64, f *flow)
	// used reports whether a flow loads link l (System.Used).
	used(l LinkID) bool
	// reweight re-rates f after its weight changed (System.SetWeight).
	reweight(now float64, f *flow)
}
