package scenario

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/emu-hpc/emu/ranks"
)

// bytesError says what is wrong with a size of b bytes that must be a whole
// number of bytes up to most (limit in words), or "" if nothing is: a size too
// large ("1TiB") was "1.099511627776e+12 bytes is not a whole number of bytes
// below 2GiB", which it is.
func bytesError(b, most float64, limit string) string {
	switch {
	case b != math.Trunc(b):
		return fmt.Sprintf("%g bytes is not a whole number of bytes", b)
	case b > most && b < 1e15:
		return fmt.Sprintf("%.0f bytes: more than %s", b, limit)
	case b > most: // 1e300 wrote 301 digits
		return fmt.Sprintf("%.6g bytes: more than %s", b, limit)
	}
	return ""
}

// network resolves [network] into the MPI layer's configuration: the preset named
// by model ("smpi" by default, as smpirun; "cm02" is plain max-min), then every key
// the scenario gives over it.
func (s *Scenario) network() (ranks.Config, error) {
	n := s.Network
	model := n.Model
	if model == "" {
		model = "smpi"
	}
	c, err := ranks.Preset(model)
	if err != nil {
		return c, s.errorAt("network.model", fmt.Sprintf("unknown model %q (cm02 or smpi)", n.Model))
	}
	bytesOf := func(key string, v Size, dst *int) error {
		if !v.Set {
			return nil
		}
		if msg := bytesError(v.Bytes, math.MaxInt32, "2GiB − 1 (2147483647)"); msg != "" {
			return s.errorAt(key, msg)
		}
		*dst = int(v.Bytes)
		return nil
	}
	for _, b := range []struct {
		key string
		v   Size
		dst *int
	}{
		{"network.eager_threshold", n.EagerThreshold, &c.EagerThreshold},
		{"network.async_threshold", n.AsyncThreshold, &c.AsyncThreshold},
		{"network.envelope", n.Envelope, &c.Envelope},
	} {
		if err := bytesOf(b.key, b.v, b.dst); err != nil {
			return c, err
		}
	}
	if n.SendOverhead.Set {
		c.SendOverhead = n.SendOverhead.Value()
	}
	if n.IsendOverhead.Set {
		c.IsendOverhead = n.IsendOverhead.Value()
	}
	if n.RecvOverhead.Set {
		c.RecvOverhead = n.RecvOverhead.Value()
	}
	for _, f := range []struct {
		key, value, smpi string
		dst              *ranks.Table
	}{
		{"network.lat_factor", n.LatFactor, ranks.SMPILatFactor, &c.LatFactor},
		{"network.bw_factor", n.BwFactor, ranks.SMPIBwFactor, &c.BwFactor},
	} {
		switch f.value {
		case "":
		case "none":
			*f.dst = ranks.Table{}
		case "default":
			*f.dst = ranks.MustParseTable(f.smpi)
		default:
			t, err := ranks.ParseTable(f.value)
			if err != nil {
				return c, s.errorAt(f.key, fmt.Sprintf("%v (want \"default\", \"none\" or \"size:factor;...\")", err))
			}
			*f.dst = t
		}
	}
	if n.WeightS.Set {
		c.WeightS = n.WeightS.Bytes
	}
	if n.TCPGamma.Set {
		c.TCPGamma = n.TCPGamma.Bytes
	}
	if n.CrossTraffic != nil {
		if x := *n.CrossTraffic; !(x >= 0 && x <= 1) {
			return c, s.errorAt("network.cross_traffic", fmt.Sprintf("%g must be in [0, 1]", x))
		}
		c.CrossTraffic = *n.CrossTraffic
	}
	if n.IprobeCost.Set {
		c.IprobeCost = n.IprobeCost.Seconds
	}
	if n.TestCost.Set {
		c.TestCost = n.TestCost.Seconds
	}
	if n.IprobeGrowth != nil {
		c.NoGrowth = !*n.IprobeGrowth
	}
	c.PerRankCounters = n.PerRankCounters
	switch n.ProbeVisibility {
	case "", "posted":
	case "progressed":
		c.ProbeAfterProgress = true
	default:
		return c, s.errorAt("network.probe_visibility", fmt.Sprintf("%q: want \"posted\" (SMPI) or \"progressed\" (Open MPI's ob1)", n.ProbeVisibility))
	}
	if n.MessageDelay.Set {
		if d := n.MessageDelay.Seconds; !(d >= 0) || math.IsInf(d, 1) {
			return c, s.errorAt("network.message_delay", fmt.Sprintf("%g s must be finite and ≥ 0", d))
		}
		c.MessageDelay = n.MessageDelay.Seconds
	}
	var order ranks.WakeOrder
	dist, err := ranks.ParseDelayDist(n.MessageDelayDist)
	if err != nil {
		return c, s.errorAt("network.message_delay_dist", err.Error())
	}
	c.DelayDist, c.DelayClass = dist, n.MessageDelayClass
	if n.LightFlow.Set {
		c.LightFlow = n.LightFlow.Bytes
	}
	c.LocalSolve = n.LocalSolve
	order, err = ranks.ParseWakeOrder(n.WakeOrder)
	if err != nil {
		return c, s.errorAt("network.wake_order", err.Error())
	}
	c.WakeOrder = order
	algos := []struct {
		key, value string
		set        func(*ranks.Config, string)
	}{
		{"network.bcast", n.Bcast, func(c *ranks.Config, v string) { c.BcastAlgo = v }},
		{"network.reduce", n.Reduce, func(c *ranks.Config, v string) { c.ReduceAlgo = v }},
		{"network.gather", n.Gather, func(c *ranks.Config, v string) { c.GatherAlgo = v }},
		{"network.scatter", n.Scatter, func(c *ranks.Config, v string) { c.ScatterAlgo = v }},
		{"network.allreduce", n.Allreduce, func(c *ranks.Config, v string) { c.AllreduceAlgo = v }},
		{"network.allgather", n.Allgather, func(c *ranks.Config, v string) { c.AllgatherAlgo = v }},
		{"network.alltoall", n.Alltoall, func(c *ranks.Config, v string) { c.AlltoallAlgo = v }},
		{"network.barrier", n.Barrier, func(c *ranks.Config, v string) { c.BarrierAlgo = v }},
	}
	for _, a := range algos {
		if a.value == "" {
			continue
		}
		// Validate each algorithm alone, so the error names its key.
		var probe ranks.Config
		a.set(&probe, a.value)
		if probe.Validate() != nil {
			return c, s.errorAt(a.key, fmt.Sprintf("unknown algorithm %q", a.value))
		}
		a.set(&c, a.value)
	}
	if err := c.SetCollectives(n.Collectives); err != nil {
		return c, s.errorAt("network.collectives", fmt.Sprintf("%q: want \"emu\", \"smpi\" (SMPI 3.32's default selector) or \"ompi\" (its ompi selector)", n.Collectives))
	}
	if c.AsyncThreshold > c.EagerThreshold {
		return c, s.errorAt("network.async_threshold", "exceeds network.eager_threshold")
	}
	if err := c.Validate(); err != nil {
		var ce *ranks.ConfigError
		if errors.As(err, &ce) {
			if key, ok := configKeys[ce.Field]; ok {
				return c, s.errorAt(key, strings.TrimPrefix(ce.Msg, "= "))
			}
		}
		return c, s.errorAt("network", err.Error())
	}
	return c, nil
}

// configKeys are the [network] keys of ranks.Config's fields, so that a value
// its Validate refuses is reported against the key that gave it.
var configKeys = map[string]string{
	"EagerThreshold": "network.eager_threshold", "AsyncThreshold": "network.async_threshold",
	"Envelope": "network.envelope", "WeightS": "network.weight_s", "TCPGamma": "network.tcp_gamma",
	"CrossTraffic": "network.cross_traffic", "IprobeCost": "network.iprobe_cost", "TestCost": "network.test_cost",
	"LightFlow": "network.light_flow", "LocalSolve": "network.local_solve", "MessageDelay": "network.message_delay", "DelayDist": "network.message_delay_dist",
	"LatFactor": "network.lat_factor", "BwFactor": "network.bw_factor",
	"BcastAlgo": "network.bcast", "ReduceAlgo": "network.reduce", "GatherAlgo": "network.gather",
	"ScatterAlgo": "network.scatter", "AllreduceAlgo": "network.allreduce", "AllgatherAlgo": "network.allgather",
	"AlltoallAlgo": "network.alltoall", "BarrierAlgo": "network.barrier",
}
