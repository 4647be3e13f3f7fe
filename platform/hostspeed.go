package platform

import (
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A host's speed factor divides every kernel duration charged on it
// (kernels.Config.HostSpeed): scenario's [kernels] host_speed, host_spread
// and host_spread_seed, resolved here over the platform's host names.

// hostRange is "PREFIX<a>..<b>SUFFIX", e.g. dahu-13..16.
var hostRange = regexp.MustCompile(`^(.*?)(\d+)\.\.(\d+)(.*)$`)

// hostMatcher returns whether a host name matches pattern: the name itself,
// a numbered range (dahu-13..16: the prefix, a number from 13 to 16, the
// suffix), or a glob of path.Match (*, ?, [...]). names is how many host
// numbers a range names (16 for dahu-1..16; 0 for a name, a glob or a range
// of 2³¹ or more).
func hostMatcher(pattern string) (match func(string) bool, names int, err error) {
	if m := hostRange.FindStringSubmatch(pattern); m != nil {
		prefix, suffix := m[1], m[4]
		lo, err1 := strconv.Atoi(m[2])
		hi, err2 := strconv.Atoi(m[3])
		if err1 != nil || err2 != nil || lo > hi {
			return nil, 0, fmt.Errorf("range %s..%s is empty or too large", m[2], m[3])
		}
		if hi-lo < math.MaxInt32 {
			names = hi - lo + 1
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
		}, names, nil
	}
	if strings.ContainsAny(pattern, "*?[") {
		if _, err := path.Match(pattern, ""); err != nil {
			return nil, 0, fmt.Errorf("not a valid glob: %v", err)
		}
		return func(h string) bool {
			ok, _ := path.Match(pattern, h)
			return ok
		}, 0, nil
	}
	return func(h string) bool { return h == pattern }, 0, nil
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

// HostPatternError is HostSpeeds' refusal of one pattern of factors: not
// a valid pattern, or one that matches no host of the platform.
type HostPatternError struct{ Pattern, Msg string }

func (e *HostPatternError) Error() string { return e.Pattern + ": " + e.Msg }

// HostSpeeds is each host's speed factor: its draw from a log-normal spread
// of relative SD spread (SpreadFactor, with seed), times the factor of
// every pattern of factors that matches its name (a name, a numbered range
// dahu-13..16, or a glob), whatever order the patterns come in. Hosts at
// exactly 1 are left out; nil when all are. A pattern that is not valid or
// matches no host is a *HostPatternError (a typo would otherwise slow
// nothing).
func (p *Platform) HostSpeeds(factors map[string]float64, spread float64, seed uint64) (map[string]float64, error) {
	if len(factors) == 0 && spread == 0 {
		return nil, nil
	}
	speeds := make(map[string]float64, p.Hosts)
	for h := range p.Hosts {
		name := p.HostName(h)
		speeds[name] = SpreadFactor(seed, name, spread)
	}
	patterns := make([]string, 0, len(factors))
	for pat := range factors {
		patterns = append(patterns, pat)
	}
	sort.Strings(patterns)
	for _, pat := range patterns {
		match, names, err := hostMatcher(pat)
		if err != nil {
			return nil, &HostPatternError{pat, err.Error()}
		}
		n := 0
		for h := range p.Hosts {
			if name := p.HostName(h); match(name) {
				speeds[name] *= factors[pat]
				n++
			}
		}
		if n == 0 {
			return nil, &HostPatternError{pat, fmt.Sprintf("matches no host of the platform (%s … %s)", p.HostName(0), p.HostName(p.Hosts-1))}
		}
		// A range names each of its hosts: one past the platform's end is a typo
		// (dahu-13..61 for 13..16) that would otherwise slow the hosts it does match.
		if n < names {
			return nil, &HostPatternError{pat, fmt.Sprintf("names %d hosts, the platform has %d of them (%s … %s)", names, n, p.HostName(0), p.HostName(p.Hosts-1))}
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
