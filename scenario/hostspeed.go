package scenario

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/units"
)

// Node variability as a what-if ([kernels] host_speed, host_spread,
// host_spread_seed): a speed factor per host divides every kernel duration
// charged on it (kernels.Config.HostSpeed), on top of whatever model —
// platform-wide or the host's own — applies there.
//
//	[kernels.host_speed]        # host (or set of hosts) → speed factor
//	dahu-2 = 0.95               # one host, 5% slower: its calls take 1/0.95 as long
//	"dahu-13..16" = 0.9         # a numbered range: dahu-13, dahu-14, dahu-15, dahu-16
//	"dahu-3*" = 1.1             # a glob (path.Match): dahu-3, dahu-30, dahu-31, ...
//
//	[kernels]
//	host_spread = "5%"          # each host's factor drawn: log-normal, mean 1, SD 5%
//	host_spread_seed = 7        # the draw's seed (default: the scenario's seed)
//
// Every entry that matches a host multiplies its factor, and so does its
// draw from the spread: factors compose, whatever order the file lists them
// in. An entry that matches no host of the platform is an error (a typo
// would otherwise slow nothing).

// variability completes p.Kernels with what this file owns: each host's
// speed factor, and the models file's reference probes (emu run's check of
// the models' age, cmd/emu's modelage.go).
func (s *Scenario) variability(p *Plan) error {
	var err error
	if p.Kernels.HostSpeed, err = s.hostSpeeds(p); err != nil {
		return err
	}
	if s.Kernels.Models == "" {
		return nil
	}
	path := s.path(s.Kernels.Models)
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return s.errorAt("kernels.models", s.cannotRead(s.Kernels.Models, path, err))
	}
	probes, err := models.ParseProbes(data, path)
	if err != nil {
		return err
	}
	if len(probes) > 0 {
		p.Kernels.Models = p.Kernels.Models.WithProbes(probes)
	}
	return nil
}

// variabilityKeys are [kernels]' node-variability settings.
var variabilityKeys = map[string]bool{"host_speed": true, "host_spread": true, "host_spread_seed": true}

// setVariability reads one of variabilityKeys into k. host_speed's entries
// are merged into those already there, so a --set adds a host to a file's
// table (or changes one).
func (k *KernelsTable) setVariability(name string, val any) error {
	key := "kernels." + name
	switch name {
	case "host_speed":
		table, ok := val.(map[string]any)
		if !ok {
			return &keyError{key: key, msg: fmt.Sprintf(`want a table of host = factor, e.g. [kernels.host_speed] dahu-13 = 0.9 (or --set kernels.host_speed.dahu-13=0.9), got %s`, units.Kind(val))}
		}
		if k.HostSpeed == nil {
			k.HostSpeed = map[string]float64{}
		}
		for _, h := range sortedKeys(table) {
			v, ok := number(table[h])
			if !ok || !(v >= minSpeed && v <= maxSpeed) {
				return &keyError{key: key + "." + h, msg: fmt.Sprintf("%s: want a speed factor from %g to %g (0.9: 10%% slower)", shown(table[h]), minSpeed, maxSpeed)}
			}
			k.HostSpeed[h] = v
		}
	case "host_spread":
		v, err := parseFraction(val)
		if err != nil {
			return &keyError{key: key, msg: err.Error()}
		}
		k.HostSpread = &v
	case "host_spread_seed":
		n, ok := val.(int64)
		if !ok || n < 0 {
			return &keyError{key: key, msg: fmt.Sprintf("%v: want an integer ≥ 0", val)}
		}
		seed := uint64(n)
		k.HostSpreadSeed = &seed
	}
	return nil
}

// minSpeed and maxSpeed bound a host's speed factor, each entry's and their
// product on a host: a host a thousand times slower or faster than its model
// is a typo, and factors far beyond (1e-13) make the run's clock so large
// that a microsecond no longer moves it, and the emulation never ends.
const minSpeed, maxSpeed = 1e-3, 1e3

// shown writes a TOML value as the user wrote it: a string quoted, so that
// "0.5" is not mistaken for the number 0.5.
func shown(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

// number reads a TOML float or integer.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int64:
		return float64(x), true
	}
	return 0, false
}

// maxSpread bounds host_spread: a relative SD of 100% already gives hosts
// several times slower or faster than the mean.
const maxSpread = 1.0

// parseFraction reads a relative spread: "5%", 0.05 or "0.05" (and 0).
func parseFraction(val any) (float64, error) {
	v, ok := number(val)
	if s, isString := val.(string); isString {
		t := strings.TrimSpace(s)
		pct := strings.HasSuffix(t, "%")
		f, err := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(t, "%")), 64)
		if err == nil {
			v, ok = f, true
			if pct {
				v /= 100
			}
		}
	}
	if !ok || !(v >= 0) || v > maxSpread {
		return 0, fmt.Errorf("%v: want a relative spread between 0 and 100%%, e.g. \"5%%\" or 0.05", val)
	}
	return v, nil
}

// hostSpeeds resolves [kernels]' variability keys over the plan's platform
// into each host's speed factor (platform.HostSpeeds); nil when every host
// runs at 1 (no key given, or factors of exactly 1).
func (s *Scenario) hostSpeeds(p *Plan) (map[string]float64, error) {
	k := s.Kernels
	spread := 0.0
	if k.HostSpread != nil {
		spread = *k.HostSpread
	}
	if k.HostSpreadSeed != nil && k.HostSpread == nil {
		return nil, s.errorAt("kernels.host_spread_seed", "seeds kernels.host_spread, which is not given")
	}
	seed := p.Seed
	if k.HostSpreadSeed != nil {
		seed = *k.HostSpreadSeed
	}
	speeds, err := p.Platform.HostSpeeds(k.HostSpeed, spread, seed)
	var pe *platform.HostPatternError
	if errors.As(err, &pe) {
		return nil, s.errorAt("kernels.host_speed."+pe.Pattern, pe.Msg)
	}
	for _, h := range sortedKeys(speeds) {
		if v := speeds[h]; !(v >= minSpeed && v <= maxSpeed) {
			return nil, s.errorAt("kernels.host_speed", fmt.Sprintf("host %s's matching entries (and spread) multiply to %g, want from %g to %g", h, v, minSpeed, maxSpeed))
		}
	}
	return speeds, err
}
