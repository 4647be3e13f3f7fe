package runner

import (
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// profiled is what plays the platform's profiles: a World of its own, or
// the Machine of a scenario's [[jobs]], where each profile plays once on
// what the jobs share.
type profiled interface {
	SetSpeedProfiles([]ranks.HostProfile) error
	SetLinkProfiles(bandwidth, latency []ranks.LinkProfile) error
}

// setSpeedProfiles plays the platform's speed profiles on its hosts (a
// SimGrid platform's speed_file or <trace_connect kind="SPEED">): they
// change the speed of executions (a TI trace's computes, timed kernels),
// not HPL's modelled kernels, which are sleeps as in SMPI.
func setSpeedProfiles(w profiled, p *scenario.Plan) error {
	pr := p.Platform.Profiles
	if pr.Empty() || len(pr.Speed) == 0 {
		return nil
	}
	hp := make([]ranks.HostProfile, len(pr.Speed))
	for i, s := range pr.Speed {
		hp[i] = ranks.HostProfile{Host: s.Host, Profile: s.Profile}
	}
	return w.SetSpeedProfiles(hp)
}

// setLinkProfiles plays the platform's bandwidth and latency profiles on
// its links.
func setLinkProfiles(w profiled, p *scenario.Plan) error {
	pr := p.Platform.Profiles
	if pr.Empty() {
		return nil
	}
	conv := func(in []platform.LinkProfile) []ranks.LinkProfile {
		out := make([]ranks.LinkProfile, len(in))
		for i, l := range in {
			out[i] = ranks.LinkProfile{Link: l.Link, Profile: l.Profile}
		}
		return out
	}
	return w.SetLinkProfiles(conv(pr.Bandwidth), conv(pr.Latency))
}

// executes reports whether the plan's application runs SimGrid's
// executions (ranks.Rank.Execute, ExecuteFor), which share a host's cores
// and follow its speed profile: a TI replay's computes, timed kernels.
// HPL's modelled kernels are sleeps.
func executes(p *scenario.Plan) bool {
	return p.App == scenario.AppReplay || p.App == scenario.AppHPL && p.Kernels.Mode == kernels.Timed
}
