package platform

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/units"
)

// ParseXML reads a SimGrid platform file. One whose machine is one <cluster>
// (shared/reference/smpi-model.md §4.3): FLAT (private links, optional backbone),
// FAT_TREE, TORUS or DRAGONFLY, with prefix/radical/suffix host names, speed, core,
// bw, lat, sharing_policy, bb_*, loopback_*, limiter_link, is read as that cluster's
// topology; the cluster may sit inside <zone>/<AS> elements; <prop> and <config> are
// read past. Any other (<host>, <link>, <route>, several clusters...) is a platform
// of zones (parseZones, TopoZones); what that reader does not model is refused,
// naming the line, since emu would otherwise silently simulate another machine.
//
// Deviation from SimGrid: a bandwidth without a unit is an error here (SimGrid takes it
// in bytes/s with a deprecation warning).
func ParseXML(data []byte, file string) (*Platform, error) {
	var (
		p        *Platform
		depth    int
		sawRoot  bool
		zones    bool // not one cluster: read again as a platform of zones
		inIgnore int  // depth inside <prop>/<config> subtrees
		inConfig bool // the subtree is a <config>: its <prop>s are SimGrid settings
		config   []ConfigProp
		// the cluster's element depth, and its <prop>s SMPI reads per host
		clusterDepth int
		clusterLine  int
		hostProps    []HostProp
	)
	start := func(t xml.StartElement, line int) error {
		depth++
		name := t.Name.Local
		switch {
		case inIgnore > 0:
			if inIgnore == 1 && inConfig && name == "prop" {
				c, err := configProp(t, file, line)
				if err != nil {
					return err
				}
				config = append(config, c)
			}
			inIgnore++
		case name == "prop" && p != nil && depth == clusterDepth+1:
			// a <prop> of the cluster: SimGrid sets it on each of its hosts
			inIgnore = 1
			if c, err := configProp(t, file, line); err == nil && HostPropIDs[c.ID] {
				hostProps = append(hostProps, HostProp{ConfigProp: c}) // Hosts nil: every host
			}
		case depth == 1:
			if name != "platform" {
				return fmt.Errorf("%s:%d: root element is <%s>, want <platform>", file, line, name)
			}
			for _, a := range t.Attr {
				if v, err := strconv.ParseFloat(a.Value, 64); a.Name.Local == "version" && err == nil && v < 4 {
					return fmt.Errorf("%s:%d: platform version %s: emu reads SimGrid's version 4 files (bandwidths with units, speed instead of power); convert it with SimGrid's simgrid_update_xml", file, line, a.Value)
				}
			}
			sawRoot = true
		case name == "zone" || name == "AS":
			// a container; its routing does not matter for a single cluster
		case name == "prop" || name == "config":
			inIgnore, inConfig = 1, name == "config"
		case name == "cluster" && p == nil:
			var err error
			if p, err = clusterFromXML(t.Attr); err != nil {
				return fmt.Errorf("%s:%d: %w", file, line, err)
			}
			clusterDepth, clusterLine = depth, line
		default: // clusters among zones, or zones of hosts, links and routes
			zones = true
			return errStopWalk
		}
		return nil
	}
	end := func(int) error {
		depth--
		if inIgnore > 0 {
			if inIgnore--; inIgnore == 0 {
				inConfig = false
			}
		}
		return nil
	}
	if err := walkXML(data, file, start, end); err != nil {
		return nil, err
	}
	switch {
	case zones:
		return parseZones(data, file)
	case !sawRoot:
		return nil, fmt.Errorf("%s:1: no <platform> element", file)
	case p == nil:
		return parseZones(data, file)
	}
	if err := p.uniqueLimiters(); err != nil {
		return nil, fmt.Errorf("%s:%d: <cluster id=%q>: %v", file, clusterLine, p.Name, err)
	}
	p.Config, p.HostProps = config, hostProps
	return p, nil
}

// uniqueLimiters refuses a fat tree whose limiters share a name, as SimGrid
// 3.32 does ("declared several times in the platform"): a host's limiter
// is named by its radical, a switch's by its id (counted down from 2·hosts−1),
// so radicals that reach the switches' ids make the same name twice. Other
// topologies' generated names cannot meet; a <cluster> among zones is
// checked link by link as it is read.
func (p *Platform) uniqueLimiters() error {
	if p.Topology != TopoFatTree || p.LimiterBandwidth <= 0 {
		return nil
	}
	topo, err := p.cluster(0)
	if err != nil {
		return nil // Build reports it
	}
	seen := map[string]bool{}
	for _, l := range topo.Links() {
		if seen[l.Name] {
			return fmt.Errorf("two links named %q (a host's limiter and a switch's): SimGrid 3.32 refuses the platform (\"declared several times\")", l.Name)
		}
		seen[l.Name] = true
	}
	return nil
}

// configProp reads a <prop> of a <config>: one SimGrid setting.
func configProp(t xml.StartElement, file string, line int) (ConfigProp, error) {
	c := ConfigProp{File: file, Line: line}
	for _, a := range t.Attr {
		switch a.Name.Local {
		case "id":
			c.ID = a.Value
		case "value":
			c.Value = a.Value
		}
	}
	if c.ID == "" {
		return c, fmt.Errorf("%s:%d: <prop> in <config> without an id", file, line)
	}
	return c, nil
}

// errStopWalk, returned by a walkXML callback, ends the walk without error.
var errStopWalk = errors.New("stop")

// walkXML reads a platform file's elements in order, calling start at each
// opening tag and end at each closing one with the tag's line, until a
// callback fails (or returns errStopWalk). Malformed XML, an attribute
// named twice included, is an error naming its line; Latin-1 and ASCII
// files are read byte for byte (latin1Reader).
func walkXML(data []byte, file string, start func(t xml.StartElement, line int) error, end func(line int) error) error {
	return walkXMLText(data, file, start, end, nil)
}

// walkXMLText is walkXML calling text, when not nil, with the character
// data between tags (a <trace>'s profile).
func walkXMLText(data []byte, file string, start func(t xml.StartElement, line int) error, end func(line int) error, text func(b []byte)) error {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	dec.CharsetReader = latin1Reader
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return fmt.Errorf("%s:%d: malformed XML: %s", file, se.Line, se.Msg)
			}
			return fmt.Errorf("%s:%d: malformed XML: %v", file, lineAt(dec.InputOffset()), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line := lineAt(off)
			if dup := duplicateAttr(t.Attr); dup != "" {
				return fmt.Errorf("%s:%d: malformed XML: <%s> has attribute %q twice", file, line, t.Name.Local, dup)
			}
			if t.Name.Local == "prop" {
				// SimGrid's DTD requires both ("Required attribute `id' not
				// set for `prop' element"); emu read past the prop.
				for _, want := range []string{"id", "value"} {
					if !slices.ContainsFunc(t.Attr, func(a xml.Attr) bool { return a.Name.Local == want }) {
						return fmt.Errorf("%s:%d: <prop> without %s=: SimGrid requires its id and value", file, line, want)
					}
				}
			}
			err = start(t, line)
		case xml.EndElement:
			err = end(lineAt(off))
		case xml.CharData:
			if text != nil {
				text(t)
			}
		}
		if err == errStopWalk {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// duplicateAttr returns the first attribute named twice, or "". XML forbids
// it (SimGrid's parser refuses the file) and Go's decoder lets it through:
// the last value would win without a word.
func duplicateAttr(attrs []xml.Attr) string {
	for i, a := range attrs {
		for _, b := range attrs[:i] {
			if a.Name == b.Name {
				return a.Name.Local
			}
		}
	}
	return ""
}

// latin1Reader decodes the single-byte encodings a platform file may
// declare (ISO-8859-1 and its aliases, US-ASCII), byte by byte into UTF-8;
// SimGrid's parser takes the bytes whatever the declaration says.
func latin1Reader(charset string, in io.Reader) (io.Reader, error) {
	switch strings.ToLower(strings.ReplaceAll(charset, "_", "-")) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "l1", "us-ascii", "ascii", "windows-1252", "cp1252":
	default:
		return nil, errors.New("emu reads UTF-8, ASCII and ISO-8859-1 platform files")
	}
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, err
	}
	out := make([]rune, len(data))
	for i, b := range data {
		out[i] = rune(b)
	}
	return strings.NewReader(string(out)), nil
}

// clusterAttrs lists the <cluster> attributes we read; any other is an error.
var clusterAttrs = map[string]bool{
	"id": true, "prefix": true, "suffix": true, "radical": true, "speed": true, "core": true,
	"bw": true, "lat": true, "sharing_policy": true, "topology": true, "topo_parameters": true,
	"bb_bw": true, "bb_lat": true, "bb_sharing_policy": true, "limiter_link": true,
	"loopback_bw": true, "loopback_lat": true, "router_id": true,
}

// optionalAttrs are the <cluster> attributes whose empty value means "not
// given" (SimGrid's DTD defaults them to "").
var optionalAttrs = map[string]bool{
	"bb_bw": true, "bb_lat": true, "limiter_link": true, "loopback_bw": true, "loopback_lat": true,
	"topo_parameters": true, "router_id": true,
}

// optionalBandwidth reads the bandwidth of an optional link (backbone,
// loopback, limiter), where SimGrid takes 0 — "0", "0Bps", "0Gbps" — for
// no link; any other value is a bandwidth with its unit.
func optionalBandwidth(s string) (float64, error) {
	v, err := units.ParseBandwidth(s)
	if err == nil {
		return v, nil
	}
	t := strings.TrimSpace(s)
	num := strings.TrimRight(t, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/")
	unit := t[len(num):]
	z, zerr := strconv.ParseFloat(num, 64)
	if zerr != nil || z != 0 {
		return 0, err
	}
	if _, uerr := units.ParseBandwidth("1" + unit); unit != "" && uerr != nil {
		return 0, err
	}
	return 0, nil
}

// clusterFromXML builds a Platform from a <cluster>'s attributes, with SimGrid's
// defaults (core 1, SPLITDUPLEX, FLAT, backbone SHARED).
func clusterFromXML(attrs []xml.Attr) (*Platform, error) {
	a := map[string]string{}
	for _, at := range attrs {
		name := at.Name.Local
		if !clusterAttrs[name] {
			return nil, fmt.Errorf("cluster: unknown attribute %q", name)
		}
		if optionalAttrs[name] && strings.TrimSpace(at.Value) == "" {
			continue // SimGrid's DTD default for these is "": not given
		}
		a[name] = at.Value
	}
	for _, req := range []string{"id", "prefix", "suffix", "radical", "speed", "bw", "lat"} {
		if _, ok := a[req]; !ok {
			return nil, fmt.Errorf("cluster: attribute %q is required", req)
		}
	}
	p := &Platform{Name: a["id"], Prefix: a["prefix"], Suffix: a["suffix"], CoresPerHost: 1, FromFile: true}
	var err error
	wrap := func(attr string, e error) error { return fmt.Errorf("cluster attribute %s: %w", attr, e) }
	if p.Radical, err = ParseRadical(a["radical"]); err != nil {
		return nil, wrap("radical", err)
	}
	// speed may be a list of pstates; the first is the default pstate, and
	// SimGrid checks them all.
	for i, speed := range strings.Split(a["speed"], ",") {
		v, err := units.ParseSpeed(speed)
		if err != nil {
			return nil, wrap("speed", err)
		}
		if i == 0 {
			p.Speed = v
		}
	}
	seen := make(map[int]bool, len(p.Radical))
	for _, r := range p.Radical {
		if seen[r] {
			return nil, wrap("radical", fmt.Errorf("%q names host %s twice", a["radical"], p.Prefix+strconv.Itoa(r)+p.Suffix))
		}
		seen[r] = true
	}
	if c, ok := a["core"]; ok {
		if p.CoresPerHost, err = strconv.Atoi(strings.TrimSpace(c)); err != nil || p.CoresPerHost < 1 {
			return nil, wrap("core", fmt.Errorf("%q is not a positive integer", c))
		}
	}
	if p.LinkBandwidth, err = units.ParseBandwidth(a["bw"]); err != nil {
		return nil, wrap("bw", err)
	}
	if p.LinkLatency, err = units.ParseUnitTime(a["lat"]); err != nil {
		return nil, wrap("lat", err)
	}
	p.Sharing, p.BackboneSharing = SharingSplitDuplex, SharingShared
	if s, ok := a["sharing_policy"]; ok {
		if p.Sharing, err = ParseSharing(s); err != nil {
			return nil, wrap("sharing_policy", err)
		}
		if p.Sharing == SharingFatPipe {
			// SimGrid 3.32 reads FATPIPE but builds the cluster's links
			// without it: one SHARED link per cable (TestRoutesMatchSimGrid).
			p.Sharing = SharingShared
		}
	}
	if s, ok := a["bb_sharing_policy"]; ok {
		if p.BackboneSharing, err = ParseSharing(s); err != nil {
			return nil, wrap("bb_sharing_policy", err)
		}
		if p.BackboneSharing == SharingSplitDuplex { // one link, not two directions (SimGrid's DTD)
			return nil, wrap("bb_sharing_policy", fmt.Errorf("%q: a backbone is SHARED or FATPIPE", s))
		}
	}
	optional := []struct {
		attr  string
		parse func(string) (float64, error)
		dst   *float64
	}{
		{"bb_bw", optionalBandwidth, &p.BackboneBandwidth}, {"bb_lat", units.ParseUnitTime, &p.BackboneLatency},
		{"loopback_bw", optionalBandwidth, &p.LoopbackBandwidth}, {"loopback_lat", units.ParseUnitTime, &p.LoopbackLatency},
		{"limiter_link", optionalBandwidth, &p.LimiterBandwidth},
	}
	for _, o := range optional {
		if s, ok := a[o.attr]; ok {
			if *o.dst, err = o.parse(s); err != nil {
				return nil, wrap(o.attr, err)
			}
		}
	}
	// SimGrid builds a backbone when bb_bw or bb_lat is above 0, and a
	// loopback when loopback_bw or loopback_lat is: a latency alone would
	// be a link of no bandwidth, which no message crosses.
	switch {
	case p.BackboneLatency > 0 && p.BackboneBandwidth == 0:
		return nil, wrap("bb_lat", fmt.Errorf("%q without bb_bw: the backbone would have no bandwidth", a["bb_lat"]))
	case p.LoopbackLatency > 0 && p.LoopbackBandwidth == 0:
		return nil, wrap("loopback_lat", fmt.Errorf("%q without loopback_bw: the loopback would have no bandwidth", a["loopback_lat"]))
	}
	p.NoLoopback = p.LoopbackBandwidth == 0
	if p.Topology, err = ParseTopology(a["topology"]); err != nil {
		return nil, wrap("topology", err)
	}
	params := a["topo_parameters"]
	switch p.Topology {
	case TopoFatTree:
		p.FatTree = params
	case TopoDragonfly:
		p.Dragonfly = params
	case TopoTorus:
		if p.Torus, err = parseIntList(params); err != nil {
			return nil, wrap("topo_parameters", err)
		}
	}
	p.Hosts = len(p.Radical)
	if p.Topology != TopoFlat {
		nodes, err := p.Nodes()
		if err != nil {
			return nil, wrap("topo_parameters", err)
		}
		if nodes > len(p.Radical) {
			return nil, wrap("radical", fmt.Errorf("%d host numbers for a %s of %d nodes", len(p.Radical), p.Topology, nodes))
		}
		p.Hosts = nodes
	}
	return p, nil
}
