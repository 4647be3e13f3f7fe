package scenario

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/platform"
)

// simgridSetting says how one SimGrid configuration item, as a platform file's
// <config> sets it, becomes a [network] key: the key, and the value written as
// the key reads it (ok false: a value the item does not take, want saying
// what it takes).
type simgridSetting struct {
	key, want string
	value     func(v string) (toml string, ok bool)
}

// simgridSettings are the configuration items of SMPI's network model that a
// platform file may set (<config><prop id="smpi/os" value="..."/></config>):
// each is the [network] key that models the same thing, in SimGrid's own
// syntax (times in seconds, sizes in bytes, SimGrid's piecewise tables).
var simgridSettings = map[string]simgridSetting{
	"network/model":                {"network.model", "SMPI or CM02", cfgNetworkModel},
	"smpi/os":                      {"network.send_overhead", "", cfgQuoted},
	"smpi/ois":                     {"network.isend_overhead", "", cfgQuoted},
	"smpi/or":                      {"network.recv_overhead", "", cfgQuoted},
	"smpi/bw-factor":               {"network.bw_factor", "", cfgQuoted},
	"smpi/lat-factor":              {"network.lat_factor", "", cfgQuoted},
	"smpi/send-is-detached-thresh": {"network.eager_threshold", "a number of bytes", cfgNumber},
	"smpi/async-small-thresh":      {"network.async_threshold", "a number of bytes", cfgNumber},
	"smpi/iprobe":                  {"network.iprobe_cost", "a number of seconds", cfgNumber},
	"smpi/test":                    {"network.test_cost", "a number of seconds", cfgNumber},
	"smpi/grow-injected-times":     {"network.iprobe_growth", "yes or no", cfgBoolean},
	"network/TCP-gamma":            {"network.tcp_gamma", "a number of bytes", cfgNumber},
	"network/weight-S":             {"network.weight_s", "a number of bytes", cfgNumber},
	// SimGrid's cross-traffic is on or off; on, the reverse route carries
	// SMPI's share of each flow (ranks.SMPICrossTraffic).
	"network/crosstraffic": {"network.cross_traffic", "yes or no", cfgCrossTraffic},
	// SMPI's own selector and its ompi one are those emu models; mpich,
	// mvapich2 and impi pick algorithms emu does not run, so they are
	// refused.
	"smpi/coll-selector": {"network.collectives", `"default" (SMPI's own selector) or "ompi"`, cfgCollSelector},
}

func cfgCollSelector(v string) (string, bool) {
	switch strings.TrimSpace(v) {
	case "default":
		return `"smpi"`, true
	case "ompi":
		return `"ompi"`, true
	}
	return "", false
}

func cfgQuoted(v string) (string, bool) { return strconv.Quote(strings.TrimSpace(v)), true }

func cfgNumber(v string) (string, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	return strconv.FormatFloat(f, 'g', -1, 64), err == nil
}

func cfgBoolean(v string) (string, bool) {
	on, ok := yesNo(v)
	return strconv.FormatBool(on), ok
}

func cfgCrossTraffic(v string) (string, bool) {
	on, ok := yesNo(v)
	if on {
		return "0.05", ok
	}
	return "0.0", ok
}

// yesNo reads a SimGrid boolean setting.
func yesNo(v string) (on, ok bool) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "yes", "on", "true", "1":
		return true, true
	case "no", "off", "false", "0":
		return false, true
	}
	return false, false
}

// cfgNetworkModel maps SimGrid's network/model to the two emu has.
func cfgNetworkModel(v string) (string, bool) {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "SMPI":
		return `"smpi"`, true
	case "CM02":
		return `"cm02"`, true
	}
	return "", false
}

// applyPlatformConfig applies the settings of the platform file's <config>
// as the [network] keys they stand for, over the scenario file's, as if each
// were a --set given before the user's: a --set of the same key wins. An item
// emu does not model, or a network model it does not have, becomes a note; a
// value the item does not take is an error naming the file's line.
func (s *Scenario) applyPlatformConfig(p *Plan) error {
	// The settings only SMPI's model reads go last, when the model is known.
	var props, factors []platform.ConfigProp
	for _, c := range p.Platform.Config {
		if smpiModelOnly[c.ID] {
			factors = append(factors, c)
		} else {
			props = append(props, c)
		}
	}
	for _, c := range append(props, factors...) {
		label := fmt.Sprintf("%s:%d: <prop id=%q>", c.File, c.Line, c.ID)
		m, ok := simgridSettings[c.ID]
		if !ok {
			p.Notes = append(p.Notes, label+": a SimGrid setting emu does not model, ignored")
			continue
		}
		if by, set := s.setKeys[m.key]; set && !strings.HasPrefix(by, c.File+":") {
			continue // the user's --set decides (the file's own props apply again at each Validate)
		}
		if smpiModelOnly[c.ID] && strings.EqualFold(s.Network.Model, "cm02") {
			p.Notes = append(p.Notes, label+": SimGrid reads it only in its SMPI network model; under CM02 (network.model) it has no effect, ignored")
			continue
		}
		v, ok := m.value(c.Value)
		switch {
		case !ok && c.ID == "network/model":
			p.Notes = append(p.Notes, fmt.Sprintf("%s: network model %q: emu has SMPI's and CM02's (network.model), ignored", label, c.Value))
			continue
		case !ok:
			return fmt.Errorf("%s: value %q: want %s", label, c.Value, m.want)
		}
		if err := s.SetAs(m.key+"="+v, label); err != nil {
			return err
		}
	}
	return s.applyHostProps(p)
}

// smpiModelOnly are the settings only SimGrid's SMPI network model reads
// (NetworkSmpiModel's factors): under CM02 a platform's <config> giving them
// changes nothing in SimGrid, so emu ignores them there too.
var smpiModelOnly = map[string]bool{"smpi/bw-factor": true, "smpi/lat-factor": true}

// applyHostProps applies the platform's per-host SMPI overheads (<prop
// id="smpi/os"> in a <host> or a <cluster>), which SimGrid reads for the
// ranks on that host over the global setting. emu has one setting for every
// host: the same value on every host is that setting, over the <config>'s
// (a --set of the key still wins); hosts that differ, or some without it,
// are refused naming the prop's line, where they were read past and the run
// took the global overheads without a word.
func (s *Scenario) applyHostProps(p *Plan) error {
	hosts := len(p.Platform.Names)
	for _, id := range []string{"smpi/os", "smpi/ois", "smpi/or"} {
		m := simgridSettings[id]
		var first *platform.HostProp
		value := map[int]string{} // host → its value, when the props name hosts
		all := false              // a prop of every host (a platform of one <cluster>)
		for i := range p.Platform.HostProps {
			hp := &p.Platform.HostProps[i]
			if hp.ID != id {
				continue
			}
			label := fmt.Sprintf("%s:%d: <prop id=%q>", hp.File, hp.Line, hp.ID)
			v := strings.TrimSpace(hp.Value)
			if first == nil {
				first = hp
			} else if w := strings.TrimSpace(first.Value); v != w {
				return fmt.Errorf("%s: value %q, where line %d gives %q: emu models one %s for every host (%s)", label, hp.Value, first.Line, first.Value, id, m.key)
			}
			if hp.Hosts == nil {
				all = true
			}
			for _, h := range hp.Hosts {
				value[h] = v
			}
		}
		if first == nil {
			continue
		}
		if !all && len(value) < hosts {
			for h := range hosts {
				if _, ok := value[h]; !ok {
					return fmt.Errorf("%s:%d: <prop id=%q> is set on some hosts, not on %s: emu models one %s for every host (%s); give every host the same or none",
						first.File, first.Line, id, p.Platform.HostName(h), id, m.key)
				}
			}
		}
		label := fmt.Sprintf("%s:%d: <prop id=%q>", first.File, first.Line, id)
		if by, set := s.setKeys[m.key]; set && !strings.HasPrefix(by, first.File+":") {
			continue // the user's --set decides
		}
		v, _ := m.value(first.Value)
		if err := s.SetAs(m.key+"="+v, label); err != nil {
			return err
		}
	}
	return nil
}
