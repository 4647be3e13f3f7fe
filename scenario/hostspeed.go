package scenario

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/models"
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
	data, err := os.ReadFile(path)
	if err != nil {
		return s.errorAt("kernels.models", fmt.Sprintf("cannot read %s", path))
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
			return &keyError{key: key, msg: fmt.Sprintf(`want a table of host = factor, e.g. [kernels.host_speed] dahu-13 = 0.9 (or --set kernels.host_speed.dahu-13=0.9), got %v`, val)}
		}
		if k.HostSpeed == nil {
			k.HostSpeed = map[string]float64{}
		}
		for _, h := range sortedKeys(table) {
			v, ok := number(table[h])
			if !ok || !(v > 0) || math.IsInf(v, 0) {
				return &keyError{key: key + "." + h, msg: fmt.Sprintf("%v: want a speed factor > 0 (0.9: 10%% slower)", table[h])}
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

// hostRange is "PREFIX<a>..<b>SUFFIX", e.g. dahu-13..16.
var hostRange = regexp.MustCompile(`^(.*?)(\d+)\.\.(\d+)(.*)$`)

// hostMatcher returns whether a host name matches pattern: the name itself,
// a numbered range (dahu-13..16: the prefix, a number from 13 to 16, the
// suffix), or a glob of path.Match (*, ?, [...]).
func hostMatcher(pattern string) (func(string) bool, error) {
	if m := hostRange.FindStringSubmatch(pattern); m != nil {
		prefix, suffix := m[1], m[4]
		lo, err1 := strconv.Atoi(m[2])
		hi, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil || lo > hi {
			return nil, fmt.Errorf("range %s..%s is empty or too large", m[2], m[3])
		}
		return func(h string) bool {
			mid, ok := strings.CutPrefix(h, prefix)
			if mid, ok = strings.CutSuffix(mid, suffix); !ok || mid == "" {
				return false
			}
			for _, c := range mid {
				if c < '0' || c > '9' {
					return false
				}
			}
			n, err := strconv.Atoi(mid)
			return err == nil && n >= lo && n <= hi
		}, nil
	}
	if strings.ContainsAny(pattern, "*?[") {
		if _, err := path.Match(pattern, ""); err != nil {
			return nil, fmt.Errorf("not a valid glob: %v", err)
		}
		return func(h string) bool {
			ok, _ := path.Match(pattern, h)
			return ok
		}, nil
	}
	return func(h string) bool { return h == pattern }, nil
}

// spreadSalt separates the host-spread streams from every other stream a
// seed feeds (ranks' noise, placement).
const spreadSalt = 0x686f73745f737064 // "host_spd"

// SpreadFactor is host's speed factor drawn from a spread of relative
// standard deviation sd: log-normal with mean 1 and standard deviation sd
// (σ² = ln(1 + sd²), μ = −σ²/2), so it is always positive and its mean over
// many hosts is 1. The draw depends only on (seed, host): not on how many
// hosts or ranks there are, nor on their order.
func SpreadFactor(seed uint64, host string, sd float64) float64 {
	if sd == 0 {
		return 1
	}
	h := fnv.New64a()
	h.Write([]byte(host))
	rng := rand.New(rand.NewPCG(seed^spreadSalt, h.Sum64()))
	s2 := math.Log1p(sd * sd)
	return math.Exp(math.Sqrt(s2)*rng.NormFloat64() - s2/2)
}

// hostSpeeds resolves [kernels]' variability keys over the plan's platform
// into each host's speed factor; nil when every host runs at 1 (no key
// given, or factors of exactly 1).
func (s *Scenario) hostSpeeds(p *Plan) (map[string]float64, error) {
	k := s.Kernels
	spread := 0.0
	if k.HostSpread != nil {
		spread = *k.HostSpread
	}
	if k.HostSpreadSeed != nil && k.HostSpread == nil {
		return nil, s.errorAt("kernels.host_spread_seed", "seeds kernels.host_spread, which is not given")
	}
	if len(k.HostSpeed) == 0 && spread == 0 {
		return nil, nil
	}
	seed := p.Seed
	if k.HostSpreadSeed != nil {
		seed = *k.HostSpreadSeed
	}
	pl := &p.Platform
	speeds := make(map[string]float64, pl.Hosts)
	for h := range pl.Hosts {
		name := pl.HostName(h)
		speeds[name] = SpreadFactor(seed, name, spread)
	}
	patterns := make([]string, 0, len(k.HostSpeed))
	for pat := range k.HostSpeed {
		patterns = append(patterns, pat)
	}
	sort.Strings(patterns)
	for _, pat := range patterns {
		key := "kernels.host_speed." + pat
		match, err := hostMatcher(pat)
		if err != nil {
			return nil, s.errorAt(key, err.Error())
		}
		n := 0
		for h := range pl.Hosts {
			if name := pl.HostName(h); match(name) {
				speeds[name] *= k.HostSpeed[pat]
				n++
			}
		}
		if n == 0 {
			return nil, s.errorAt(key, fmt.Sprintf("matches no host of the platform (%s … %s)", pl.HostName(0), pl.HostName(pl.Hosts-1)))
		}
	}
	for name, v := range speeds {
		if v == 1 {
			delete(speeds, name)
		}
	}
	if len(speeds) == 0 {
		return nil, nil
	}
	return speeds, nil
}
