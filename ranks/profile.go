package ranks

import (
	"fmt"
	"slices"

	"github.com/emu-hpc/emu/fluid"
)

// Availability profiles (SimGrid's speed_file, bandwidth_file,
// latency_file): a link's bandwidth or latency, a host's speed, changing
// at dates as the engine plays the profile (emu.Engine.AddProfile).
//
//   - Bandwidth: the link's capacity in the fluid system changes, and the
//     flows crossing it are re-rated from that date (their bytes moved at
//     the old rate until then). Messages whose transfer starts later take
//     the new bandwidth into their route's facts (SimGrid's user bound,
//     the least bandwidth of the route, and weight-S penalty); one already
//     started keeps the facts of its start, as SimGrid's action does.
//   - Latency: messages whose transfer starts later have the new route
//     latency (their latency phase and TCP window). A transfer already
//     started keeps the length of its latency phase; its window and
//     penalty move, as SimGrid's action's do (linkLatency.Apply).
//   - Speed: the value is a fraction of the host's speed. Executions
//     (Rank.Execute: a TI trace's computes, timed kernels) on the host run
//     in the engine's CPU system, whose capacity (cores × speed × value)
//     and per-execution bound (speed × value) change, so an execution
//     integrates its flops over the speed in time. Compute's sleeps (HPL's
//     modelled kernels, SMPI's usleep) are durations and do not change.

// LinkProfile is a profile of link Link's bandwidth (values in bytes/s) or
// latency (s).
type LinkProfile struct {
	Link    fluid.LinkID
	Profile fluid.Profile
}

// SetLinkProfiles plays the profiles on the World's links, before Run:
// bandwidth profiles change the links' capacities, latency profiles their
// latencies (values in s). A World of a Machine takes the Machine's
// (Machine.SetLinkProfiles): its links are every job's.
func (w *World) SetLinkProfiles(bandwidth, latency []LinkProfile) error {
	if w.ran {
		return fmt.Errorf("ranks: SetLinkProfiles after Run")
	}
	if w.machine != nil {
		return fmt.Errorf("ranks: SetLinkProfiles on a World of a Machine: its links are every job's (Machine.SetLinkProfiles)")
	}
	return w.sched.setLinkProfiles(w.topo, bandwidth, latency)
}

// SetLinkProfiles is World.SetLinkProfiles for every job of the Machine,
// before Run: each profile plays once, on the links the jobs share, and
// every job's messages see the change (as SimGrid's actors of several
// applications on one platform do).
func (m *Machine) SetLinkProfiles(bandwidth, latency []LinkProfile) error {
	if m.done != nil {
		return fmt.Errorf("ranks: SetLinkProfiles after Run")
	}
	return m.sc.setLinkProfiles(m.topo, bandwidth, latency)
}

// linkProfiles are the profiles SetLinkProfiles was given, played when
// the run starts (playLinkProfiles), once every World that runs is known.
type linkProfiles struct {
	topo               fluid.Topology
	bandwidth, latency []LinkProfile
}

func (sc *sched) setLinkProfiles(topo fluid.Topology, bandwidth, latency []LinkProfile) error {
	if len(bandwidth)+len(latency) == 0 {
		sc.linkProf = nil
		return nil
	}
	links := topo.Links()
	for _, p := range append(append([]LinkProfile(nil), bandwidth...), latency...) {
		if p.Link < 0 || int(p.Link) >= len(links) {
			return fmt.Errorf("ranks: profile of link %d: the topology has %d links", p.Link, len(links))
		}
	}
	sc.linkProf = &linkProfiles{topo: topo, bandwidth: slices.Clone(bandwidth), latency: slices.Clone(latency)}
	return nil
}

// playLinkProfiles gives every World that runs its own copy of the links,
// which the profiles change, and has the engine play each profile once
// (drive calls it before the ranks start, the engine at time 0).
func (sc *sched) playLinkProfiles() {
	lp := sc.linkProf
	if lp == nil {
		return
	}
	var latProfiled []bool // read-only, shared by the Worlds
	if len(lp.latency) > 0 {
		latProfiled = make([]bool, len(sc.worlds[0].links))
		for _, p := range lp.latency {
			latProfiled[p.Link] = true
		}
	}
	for _, w := range sc.worlds {
		w.links = append([]fluid.Link(nil), w.links...) // the World's own: the topology's stay as built
		w.varying = true
		w.inflight = map[fluid.FlowID]*flowLatency{}
		w.userBounds = map[*path]float64{}
		w.latProfiled = latProfiled
	}
	eng := sc.worlds[0].eng
	eng.System().VaryCapacities()
	// A perturbed topology (emu run --perturb) moved each link's values:
	// its profiles' values move with them.
	scaled, _ := lp.topo.(fluid.LinkScaled)
	for _, p := range lp.bandwidth {
		prof := p.Profile
		if scaled != nil {
			_, f := scaled.LinkScale(p.Link)
			prof = prof.Scaled(f)
		}
		eng.AddProfile(prof, linkBandwidth{sc, p.Link})
	}
	for _, p := range lp.latency {
		prof := p.Profile
		if scaled != nil {
			f, _ := scaled.LinkScale(p.Link)
			prof = prof.Scaled(f)
		}
		eng.AddProfile(prof, linkLatency{sc, p.Link})
	}
}

// linkBandwidth is a link's bandwidth as a profile's target.
type linkBandwidth struct {
	sc *sched // the Worlds on the engine: each has its copy of the links
	l  fluid.LinkID
}

// Apply is SimGrid's set_bandwidth: the link's capacity is v from now on,
// and under weight-S each flow crossing it, in SimGrid's order, has its
// sharing penalty moved by S/v − S/(the old bandwidth). A flow still in
// its latency phase gets that penalty too, which under SimGrid's solver
// enables it at once and stalls it past its phase, as in SimGrid 3.32
// (fluid's lmm.reweight); emu's own solver has no latency phase in the
// fluid system.
func (t linkBandwidth) Apply(v float64) {
	w := t.sc.worlds[0] // the Worlds share the engine and the model (cfg)
	old := w.links[t.l].Bandwidth
	for _, o := range t.sc.worlds {
		o.links[t.l].Bandwidth = v
		o.forgetRoutes()
	}
	sys := w.eng.System()
	now := w.eng.Now()
	sys.SetCapacity(now, t.l, v)
	if !(w.cfg.WeightS > 0) {
		return
	}
	delta := w.cfg.WeightS/v - w.cfg.WeightS/old
	w.flowIDs = sys.FlowsOn(t.l, w.flowIDs[:0])
	for _, id := range w.flowIDs {
		if st := w.flowState(id); st != nil {
			st.penalty += delta
			if st.penalty > 0 {
				sys.SetWeight(now, id, st.penalty)
			}
		}
	}
	t.sc.forgetFlows()
}

func (t linkBandwidth) Used() bool { return t.sc.worlds[0].eng.System().Used(t.l) }

// linkLatency is a link's latency as a profile's target.
type linkLatency struct {
	sc *sched // the Worlds on the engine: each has its copy of the links
	l  fluid.LinkID
}

// Apply is SimGrid's set_latency: the link's latency is v from now on,
// and each flow crossing it, in SimGrid's order, has its current latency
// and sharing penalty moved by the change and its bound made
// min(the route's least bandwidth at its start, γ/(2·latency)) (SimGrid's
// update_variable_bound, then update_variable_penalty). A flow still in
// its latency phase keeps that phase's length, and under SimGrid's solver
// the penalty enables it at once and stalls it, as linkBandwidth's does.
func (t linkLatency) Apply(v float64) {
	w := t.sc.worlds[0] // the Worlds share the engine and the model (cfg)
	delta := v - w.links[t.l].Latency
	for _, o := range t.sc.worlds {
		o.links[t.l].Latency = v
		o.forgetRoutes()
	}
	sys := w.eng.System()
	now := w.eng.Now()
	w.flowIDs = sys.FlowsOn(t.l, w.flowIDs[:0])
	for _, id := range w.flowIDs {
		st := w.flowState(id)
		if st == nil {
			continue
		}
		st.latency += delta
		st.penalty += delta
		bound := st.user
		if w.cfg.TCPGamma > 0 && st.latency > 0 {
			if b := w.cfg.TCPGamma / (2 * st.latency); bound == 0 || b < bound {
				bound = b
			}
		}
		sys.SetBound(now, id, bound)
		if st.penalty > 0 {
			sys.SetWeight(now, id, st.penalty)
		}
	}
	t.sc.forgetFlows()
}

// flowState is what a link's change moves of message flow id (nil for a
// flow that is not a message's): its state from its route's facts at its
// start, the first time, kept by the message's own World (on a Machine,
// the flows on a link are any job's).
func (w *World) flowState(id fluid.FlowID) *flowLatency {
	x, ok := w.eng.FlowHandler(id).(*xfer)
	if !ok {
		return nil
	}
	s := (*Request)(x)
	o := s.w
	st := o.inflight[id]
	if st == nil {
		st = &flowLatency{latency: s.path.latency, penalty: s.path.penalty, user: o.userBound(s.path)}
		o.inflight[id] = st
	}
	return st
}

// forgetFlows drops the Worlds' state of the flows that are gone.
func (sc *sched) forgetFlows() {
	for _, w := range sc.worlds {
		for id := range w.inflight {
			if w.eng.FlowHandler(id) == nil {
				delete(w.inflight, id)
			}
		}
	}
}

// flowLatency is what a latency change moves of a flow under way:
// SimGrid's lat_current_ and sharing_penalty_, and its user bound.
type flowLatency struct {
	latency, penalty float64 // s
	user             float64 // bytes/s, 0: none
}

// userBound is SimGrid's user bound of a flow on route p, its least
// bandwidth when the route was looked up (under SimGrid's arithmetic; 0
// otherwise: emu's max-min needs none).
func (w *World) userBound(p *path) float64 {
	if !w.simgrid {
		return 0
	}
	return w.userBounds[p]
}

func (t linkLatency) Used() bool { return t.sc.worlds[0].eng.System().Used(t.l) }

// reroute looks send s's route up again when its transfer starts: SimGrid
// takes a message's route facts (latency, user bound, penalty) when its
// network action starts, and a profile may have changed them since the
// send was posted.
func (w *World) reroute(s *Request) {
	w.route(s, s.owner)
}

// forgetRoutes drops the cached route facts, which a link's new bandwidth
// or latency changes: the next message of each pair looks its route up
// again.
func (w *World) forgetRoutes() {
	clear(w.routes)
	clear(w.pairs)
	for _, r := range w.ranks {
		r.paths = nil
	}
}

// routeLatency is the route's latency: the topology's, or, where a link of
// it has a latency profile, the sum of its links' latencies now, in route
// order (as SimGrid sums them).
func (w *World) routeLatency(rt fluid.Route) float64 {
	if w.latProfiled == nil {
		return rt.Latency
	}
	profiled := false
	for _, l := range rt.Links {
		profiled = profiled || w.latProfiled[l]
	}
	if !profiled {
		return rt.Latency
	}
	lat := 0.0
	for _, l := range rt.Links {
		lat += w.links[l].Latency
	}
	return lat
}

// hostSpeed is a host's speed as a profile's target: the value scales
// the host's CPU in the engine's CPU system and every execution's bound.
type hostSpeed struct {
	sc *sched
	h  int
}

func (t hostSpeed) Apply(v float64) {
	sc, h := t.sc, t.h
	sc.cpuScale[h] = v
	cpu, l := sc.cpus[h], sc.cpuLink[h]
	sys := sc.worlds[0].eng
	now := sys.Now()
	cs := sys.CPUs()
	cs.SetCapacity(now, l, float64(cpu.Cores)*v*cpu.Speed)
	sc.execIDs = cs.FlowsOn(l, sc.execIDs[:0])
	for _, id := range sc.execIDs {
		cs.SetBound(now, id, v*cpu.Speed)
	}
}

func (t hostSpeed) Used() bool {
	return t.sc.worlds[0].eng.CPUs().Used(t.sc.cpuLink[t.h])
}

// execBound is an execution's bound on host h: one core's speed now.
func (sc *sched) execBound(h int) float64 {
	if sc.cpuScale == nil {
		return sc.cpus[h].Speed
	}
	return sc.cpuScale[h] * sc.cpus[h].Speed
}

// HostProfile is a profile of host Host's speed: values are fractions of
// its speed (CPU.Speed).
type HostProfile struct {
	Host    int
	Profile fluid.Profile
}

// SetSpeedProfiles plays the profiles on the hosts' speeds, with SetCPUs
// and before Run: the executions of a host with a profile run in the
// engine's CPU system, shared or not.
func (w *World) SetSpeedProfiles(profiles []HostProfile) error {
	if w.ran {
		return fmt.Errorf("ranks: SetSpeedProfiles after Run")
	}
	return w.sched.setSpeedProfiles(profiles)
}

// SetSpeedProfiles is World.SetSpeedProfiles for every job of the Machine,
// with Machine.SetCPUs and before Run: a host's profile plays once, on the
// processor its jobs' executions share.
func (m *Machine) SetSpeedProfiles(profiles []HostProfile) error {
	if m.done != nil {
		return fmt.Errorf("ranks: SetSpeedProfiles after Run")
	}
	return m.sc.setSpeedProfiles(profiles)
}

func (sc *sched) setSpeedProfiles(profiles []HostProfile) error {
	if sc.cpus == nil && len(profiles) > 0 {
		return fmt.Errorf("ranks: SetSpeedProfiles without SetCPUs")
	}
	for _, p := range profiles {
		if p.Host < 0 || p.Host >= len(sc.cpus) {
			return fmt.Errorf("ranks: speed profile of host %d: there are %d hosts", p.Host, len(sc.cpus))
		}
		if sc.speeds == nil {
			sc.speeds = make([]*fluid.Profile, len(sc.cpus))
		}
		sc.speeds[p.Host] = &p.Profile
	}
	return nil
}

// speedProfile is host h's speed profile, nil if none.
func (sc *sched) speedProfile(h int) *fluid.Profile {
	if sc.speeds == nil {
		return nil
	}
	return sc.speeds[h]
}
