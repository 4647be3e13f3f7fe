package platform

import (
	"encoding/xml"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/units"
)

// Profiles are a platform's availability profiles (SimGrid's speed_file,
// bandwidth_file, latency_file and <trace>/<trace_connect>): what each
// resource's value becomes, and when. Failures (state_file, HOST_AVAIL,
// LINK_AVAIL) are refused when reading.
type Profiles struct {
	Speed     []HostProfile // values: a fraction of the host's speed
	Bandwidth []LinkProfile // values: bytes/s
	Latency   []LinkProfile // values: s
	// Where is the first profile's place in the platform file (file:line:
	// element and attribute), for errors about the profiles as a whole.
	Where string
}

// A HostProfile is host Host's speed profile.
type HostProfile struct {
	Host    int
	Profile fluid.Profile
}

// A LinkProfile is link Link's bandwidth or latency profile.
type LinkProfile struct {
	Link    fluid.LinkID
	Profile fluid.Profile
	Where   string // its place in the platform file, for errors
}

// Empty reports whether there is no profile.
func (p *Profiles) Empty() bool {
	return p == nil || len(p.Speed)+len(p.Bandwidth)+len(p.Latency) == 0
}

// profileKind is what a profile changes: SimGrid's trace_connect kinds.
type profileKind string

const (
	kindSpeed     profileKind = "SPEED"
	kindBandwidth profileKind = "BANDWIDTH"
	kindLatency   profileKind = "LATENCY"
)

// profileUse is a profile named for an element, resolved once the whole
// file is read (a <trace_connect> may come before or after its element).
type profileUse struct {
	kind    profileKind
	element string
	trace   string // a <trace>'s id; "" for a file's profile in prof
	prof    fluid.Profile
	where   string // file:line of the attribute or <trace_connect>
}

// openTrace is a <trace> being read: its text comes between its tags.
type openTrace struct {
	id, file    string
	periodicity float64
	line        int
	text        strings.Builder
}

// maxProfileBytes is the largest profile file read: a name that points at
// a device or a huge file must not hang the reading.
const maxProfileBytes = 1 << 26

// readProfileFile reads a profile file named by a platform attribute,
// relative to the platform file's folder (SimGrid's search path).
func (z *zoneParser) readProfileFile(elem, id, attr, name string) (fluid.Profile, error) {
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(filepath.Dir(z.file), name)
	}
	if st, err := os.Stat(path); err == nil && (!st.Mode().IsRegular() || st.Size() > maxProfileBytes) {
		return fluid.Profile{}, z.errorf("<%s id=%q> %s: %s is not a profile file (a regular file of at most %d bytes)", elem, id, attr, path, maxProfileBytes)
	}
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return fluid.Profile{}, z.errorf("<%s id=%q> %s: %v", elem, id, attr, err)
	}
	p, err := ParseProfile(string(data), -1, path, 1)
	if err != nil {
		return p, z.errorf("<%s id=%q> %s: %v", elem, id, attr, err)
	}
	return p, nil
}

// useFile records the profile of an attribute (speed_file, ...) of
// element id.
func (z *zoneParser) useFile(elem, id, attr, name string, kind profileKind) error {
	p, err := z.readProfileFile(elem, id, attr, name)
	if err != nil {
		return err
	}
	z.uses = append(z.uses, profileUse{kind: kind, element: id, prof: p, where: fmt.Sprintf("%s:%d: <%s id=%q> %s", z.file, z.line, elem, id, attr)})
	return nil
}

// trace opens a <trace id file periodicity>.
func (z *zoneParser) trace(t xml.StartElement) error {
	a, err := z.attrs(t, "id", "file", "periodicity")
	if err != nil {
		return err
	}
	// SimGrid's DTD requires periodicity (≤ 0: the profile does not loop) and
	// its parser refuses a <trace> without it.
	if err := z.require("trace", a, "id", "periodicity"); err != nil {
		return err
	}
	if _, dup := z.traces[a["id"]]; dup {
		return z.errorf("<trace id=%q>: a trace of that id already exists", a["id"])
	}
	tr := &openTrace{id: a["id"], file: a["file"], periodicity: -1, line: z.line}
	if s, ok := a["periodicity"]; ok {
		if tr.periodicity, err = strconv.ParseFloat(strings.TrimSpace(s), 64); err != nil {
			return z.errorf("<trace id=%q> periodicity %q: not a number", a["id"], s)
		}
	}
	z.openTrace = tr
	return nil
}

// endTrace closes the open <trace>: its profile is its file's or its text's.
func (z *zoneParser) endTrace() error {
	tr := z.openTrace
	z.openTrace = nil
	var (
		p   fluid.Profile
		err error
	)
	if tr.file != "" {
		p, err = z.readProfileFile("trace", tr.id, "file", tr.file) // SimGrid ignores the periodicity of a file's
	} else {
		p, err = ParseProfile(tr.text.String(), tr.periodicity, z.file, tr.line)
	}
	if err != nil {
		return err
	}
	z.traces[tr.id] = p
	return nil
}

// traceConnect reads a <trace_connect kind trace element>.
func (z *zoneParser) traceConnect(t xml.StartElement) error {
	a, err := z.attrs(t, "kind", "trace", "element")
	if err != nil {
		return err
	}
	if err := z.require("trace_connect", a, "trace", "element"); err != nil {
		return err
	}
	kind := profileKind(a["kind"])
	switch kind {
	case "":
		kind = "HOST_AVAIL" // the DTD's default
	case kindSpeed, kindBandwidth, kindLatency:
	case "HOST_AVAIL", "LINK_AVAIL":
	default:
		return z.errorf("<trace_connect> kind=%q: SPEED, BANDWIDTH or LATENCY", a["kind"])
	}
	if kind == "HOST_AVAIL" || kind == "LINK_AVAIL" {
		return z.errorf("<trace_connect kind=%q element=%q>: failures are not supported (emu's hosts and links do not fail)", kind, a["element"])
	}
	z.uses = append(z.uses, profileUse{kind: kind, element: a["element"], trace: a["trace"], where: fmt.Sprintf("%s:%d: <trace_connect kind=%q element=%q>", z.file, z.line, kind, a["element"])})
	return nil
}

// profiles resolves the profiles named: each to its host or links (both
// halves of a SPLITDUPLEX <link> for its own attribute; a <trace_connect>
// names one), one profile of a kind a resource.
func (z *zoneParser) profiles() (*Profiles, error) {
	if len(z.uses) == 0 {
		return nil, nil
	}
	out := &Profiles{Where: z.uses[0].where}
	seen := map[string]string{}
	hostOf := map[string]int{}
	for h, n := range z.names {
		hostOf[n] = h
	}
	for _, u := range z.uses {
		p := u.prof
		if u.trace != "" {
			var ok bool
			if p, ok = z.traces[u.trace]; !ok {
				return nil, fmt.Errorf("%s: no <trace id=%q>", u.where, u.trace)
			}
		}
		key := string(u.kind) + " " + u.element
		if prev, dup := seen[key]; dup {
			return nil, fmt.Errorf("%s: %s already has a %s profile (%s)", u.where, u.element, strings.ToLower(string(u.kind)), prev)
		}
		seen[key] = u.where
		if u.kind == kindSpeed {
			h, ok := hostOf[u.element]
			if !ok {
				return nil, fmt.Errorf("%s: no host %q", u.where, u.element)
			}
			if d, v, ok := firstStep(p, func(v float64) bool { return math.IsInf(v*z.speeds[h], 0) }); ok {
				return nil, fmt.Errorf("%s: speed %g at %g s: %g times the host's %g flop/s is beyond a float", u.where, v, d, v, z.speeds[h])
			}
			out.Speed = append(out.Speed, HostProfile{Host: h, Profile: p})
			continue
		}
		var links []fluid.LinkID
		if s, ok := z.split[u.element]; ok && u.trace == "" {
			links = s[:] // a SPLITDUPLEX <link>'s profile attribute: both halves, as SimGrid sets it
		} else if l, ok := z.links[u.element]; ok {
			links = []fluid.LinkID{l}
		} else if z.isSplit(u.element) {
			// SimGrid's <trace_connect> looks its element up among the
			// links by name, which a split-duplex link's halves have and
			// the link itself has not ("Link NAME undefined").
			return nil, fmt.Errorf("%s: %q is a SPLITDUPLEX link: connect the trace to its directions, %q and %q (SimGrid has no link %q either)", u.where, u.element, u.element+"_UP", u.element+"_DOWN", u.element)
		} else {
			return nil, fmt.Errorf("%s: no link %q", u.where, u.element)
		}
		for _, l := range links {
			if u.kind == kindBandwidth {
				if d, _, ok := firstStep(p, func(v float64) bool { return v == 0 }); ok {
					return nil, fmt.Errorf("%s: bandwidth 0 at %g s: a link's bandwidth must stay positive (emu's links do not fail)", u.where, d)
				}
				if d, v, ok := firstStep(p, func(v float64) bool { return bandwidthError(v) != nil }); ok {
					return nil, fmt.Errorf("%s: at %g s: %v", u.where, d, bandwidthError(v))
				}
				out.Bandwidth = append(out.Bandwidth, LinkProfile{Link: l, Profile: p, Where: u.where})
			} else {
				if d, v, ok := firstStep(p, func(v float64) bool { return latencyError(v) != nil }); ok {
					return nil, fmt.Errorf("%s: latency at %g s: %v", u.where, d, latencyError(v))
				}
				out.Latency = append(out.Latency, LinkProfile{Link: l, Profile: p, Where: u.where})
			}
		}
	}
	return out, nil
}

// isSplit reports whether name is a split-duplex link's: a <link
// sharing_policy="SPLITDUPLEX"> or a cluster's, whose halves are NAME_UP
// and NAME_DOWN.
func (z *zoneParser) isSplit(name string) bool {
	if _, ok := z.split[name]; ok {
		return true
	}
	_, up := z.links[name+"_UP"]
	_, down := z.links[name+"_DOWN"]
	return up && down
}

// firstStep is the date and value of p's first event whose value is bad,
// if one: a bandwidth of 0 (a link that holds its flows forever, with an
// infinite sharing penalty, weight-S over the bandwidth, as a failure
// would) or near it, a latency past what the clock resolves, a speed whose
// flop/s overflow.
func firstStep(p fluid.Profile, bad func(v float64) bool) (date, value float64, ok bool) {
	for _, s := range p.Steps {
		date += s.Delta
		if bad(s.Value) {
			return date, s.Value, true
		}
	}
	return 0, 0, false
}

// latencyError is what a link's latency attribute of v seconds would get:
// past units' bound (ParseTime's) the clock loses the microseconds.
func latencyError(v float64) error {
	_, err := units.ParseTime(strconv.FormatFloat(v, 'g', -1, 64))
	return err
}

// bandwidthError is what a link's bandwidth attribute of v bytes/s would
// get (units.ParseBandwidth's bounds).
func bandwidthError(v float64) error {
	_, err := units.ParseBandwidth(strconv.FormatFloat(v, 'g', -1, 64) + "Bps")
	return err
}
