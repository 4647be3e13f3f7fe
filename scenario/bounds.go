package scenario

import (
	"fmt"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/ranks"
)

// The two bounds of seed 002's decomposition (Wilke et al.), each the same
// run on another network: contention-free, every link caps each flow at its
// capacity instead of sharing it (SimGrid's FATPIPE; the flow-level model
// without congestion, MACRELS), so the time lost to sharing is gone and
// latencies, transfer times and software overheads stay; compute-only,
// communication is free (no latency, no transfer time, no MPI overheads or
// probe costs), so what remains of the MPI time is the application's own
// synchronisation.
const (
	BoundContentionFree = "contention-free"
	BoundComputeOnly    = "compute-only"
)

// freeBandwidth stands for an infinitely fast link (platform.FreeBandwidth).
const freeBandwidth = platform.FreeBandwidth // B/s

// ApplyBound turns the plan into one of its bounds (BoundContentionFree,
// BoundComputeOnly). A limiter link, being every flow of its host at once,
// stays shared in the contention-free bound.
//
// A platform of SimGrid zones (a platform file with zones, or a <cluster>
// beside other elements: profiles, traces) keeps its own links, which the
// [platform] keys do not reach: the bound is taken on each of them
// (platform.SetLinkBound), and a route keeps its links (contention-free:
// its latency; compute-only: none).
func (p *Plan) ApplyBound(bound string) error {
	pl, net := &p.Platform, &p.Network
	switch bound {
	case BoundContentionFree:
		pl.Sharing, pl.BackboneSharing = platform.SharingFatPipe, platform.SharingFatPipe
		if pl.Topology == platform.TopoZones {
			if err := pl.SetLinkBound(platform.LinksContentionFree); err != nil {
				return err
			}
		}
	case BoundComputeOnly:
		if pl.Topology == platform.TopoZones {
			if err := pl.SetLinkBound(platform.LinksFree); err != nil {
				return err
			}
		}
		pl.LinkLatency, pl.LoopbackLatency, pl.BackboneLatency, pl.SwitchLatency = 0, 0, 0, 0
		pl.LinkBandwidth, pl.LoopbackBandwidth = freeBandwidth, freeBandwidth
		if pl.BackboneBandwidth > 0 {
			pl.BackboneBandwidth = freeBandwidth
		}
		if pl.LimiterBandwidth > 0 {
			pl.LimiterBandwidth = freeBandwidth
		}
		net.SendOverhead, net.IsendOverhead, net.RecvOverhead = ranks.Table{}, ranks.Table{}, ranks.Table{}
		net.LatFactor, net.BwFactor = ranks.Table{}, ranks.Table{}
		net.IprobeCost, net.TestCost = 0, 0
		net.TCPGamma, net.CrossTraffic = 0, 0
		net.FreeTransfers = true // the links' bandwidth is finite: no leftover of bytes/bandwidth
	default:
		return fmt.Errorf("unknown bound %q (%s or %s)", bound, BoundContentionFree, BoundComputeOnly)
	}
	// A schedule under LogGOPSim's semantics reads its network from the LogGOPS
	// parameters, not from the links above: communication free is L, o, g, G
	// and O at 0 (the bound was the whole run). LogGOPS shares no link, so
	// the run is its own contention-free bound.
	if p.Semantics == replay.SemanticsLogGOPS && bound == BoundComputeOnly {
		lp := &p.LogGOPS
		lp.L, lp.O, lp.Gap, lp.G, lp.OPerByte = 0, 0, 0, 0, 0
	}
	for _, j := range p.Jobs {
		if err := j.Plan.ApplyBound(bound); err != nil {
			return err
		}
	}
	return nil
}
