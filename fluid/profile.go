package fluid

// A Profile is SimGrid's availability profile of a resource: values it
// takes at dates, once or in a loop. SimGrid's profile file (DATE VALUE
// lines, LOOPAFTER or PERIODICITY) is read by the platform package; the
// engine (emu.Engine.AddProfile) applies the values at their dates. What a
// value means is the resource's: a link's bandwidth (bytes/s) or latency
// (s), or a host's speed as a fraction of its peak.
type Profile struct {
	// Steps are the events of one pass, each Delta seconds after the one
	// before it (the first after time 0): SimGrid keeps a profile's dates
	// as such differences, and dates the next event by adding the next
	// difference to the date of the event just applied, so the floats are
	// its own.
	Steps []ProfileStep
	// Repeat, when ≥ 0, loops the profile: the first event of a pass
	// comes Repeat + Steps[0].Delta seconds after the last of the pass
	// before (LOOPAFTER Repeat, or PERIODICITY P with Repeat = P − the
	// last date). Negative: one pass.
	Repeat float64
}

// A ProfileStep is one event of a Profile: Delta seconds after the one
// before, the resource takes Value (a negative Value is skipped, as
// SimGrid skips it).
type ProfileStep struct {
	Delta, Value float64
}

// Scaled returns the profile with every value it applies (those ≥ 0)
// multiplied by f, its dates as they are.
func (p Profile) Scaled(f float64) Profile {
	steps := make([]ProfileStep, len(p.Steps))
	for i, st := range p.Steps {
		if st.Value >= 0 {
			st.Value *= f
		}
		steps[i] = st
	}
	return Profile{Steps: steps, Repeat: p.Repeat}
}

// Loops reports whether the profile repeats.
func (p *Profile) Loops() bool { return p.Repeat >= 0 && len(p.Steps) > 0 }
