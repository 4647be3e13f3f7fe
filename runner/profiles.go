package runner

import (
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// setSpeedProfiles plays the platform's speed profiles on its hosts (a
// SimGrid platform's speed_file or <trace_connect kind="SPEED">): they
// change the speed of executions (a TI trace's computes, timed kernels),
// not HPL's modelled kernels, which are sleeps as in SMPI.
func setSpeedProfiles(w *ranks.World, p *scenario.Plan) error {
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
func setLinkProfiles(w *ranks.World, p *scenario.Plan) error {
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
