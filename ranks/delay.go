package ranks

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// DelayDist is how injected message delays are drawn (Config.MessageDelay):
// the congestion knob of Netscope's delay sensitivity (seed 001), which
// measures how an application's runtime grows with its messages' delivery
// time.
type DelayDist uint8

const (
	// DelayConst adds exactly MessageDelay to every delayed message.
	DelayConst DelayDist = iota
	// DelayExp draws each delayed message's delay from an exponential
	// distribution of mean MessageDelay.
	DelayExp
)

var delayDistNames = [...]string{DelayConst: "const", DelayExp: "exp"}

func (d DelayDist) String() string {
	if int(d) < len(delayDistNames) {
		return delayDistNames[d]
	}
	return fmt.Sprintf("DelayDist(%d)", d)
}

// ParseDelayDist reads "const" (or "") or "exp".
func ParseDelayDist(s string) (DelayDist, error) {
	if s == "" {
		return DelayConst, nil
	}
	for d, name := range delayDistNames {
		if s == name {
			return DelayDist(d), nil
		}
	}
	return 0, fmt.Errorf("unknown delay distribution %q (const or exp)", s)
}

// validateDelay checks the delay fields of c.
func (c *Config) validateDelay() error {
	if d := c.MessageDelay; !(d >= 0) || math.IsInf(d, 1) {
		return &ConfigError{"MessageDelay", fmt.Sprintf("= %v, want a finite value ≥ 0", d)}
	}
	if int(c.DelayDist) >= len(delayDistNames) {
		return &ConfigError{"DelayDist", fmt.Sprintf("= %v, want const or exp", c.DelayDist)}
	}
	return nil
}

// delayed reports whether a message on route links gets the injected delay:
// always without a DelayClass, else when one of its links is of that class.
func (w *World) delayed(p *path) bool {
	if w.cfg.DelayClass == "" {
		return true
	}
	for _, l := range p.links {
		if w.links[l].Class == w.cfg.DelayClass {
			return true
		}
	}
	return false
}

// messageDelay draws the injected delay of message s on route p,
// s. The draws come from a stream of their own per sender, seeded with the
// World's seed and the rank, so that the application's own stream (Rand) is
// the same with and without delays and the same seed gives the same delays.
func (w *World) messageDelay(s *Request, p *path) float64 {
	cfg := &w.cfg
	if cfg.MessageDelay == 0 || !p.delay {
		return 0
	}
	if cfg.DelayDist == DelayConst {
		return cfg.MessageDelay
	}
	r := s.owner
	if r.delayRng == nil {
		r.delayRng = rand.New(rand.NewPCG(r.w.seed, uint64(r.id)^delayStream))
	}
	return cfg.MessageDelay * r.delayRng.ExpFloat64()
}

// delayStream separates the delay streams from the ranks' Rand streams.
const delayStream = 0x64656c6179 // "delay"
