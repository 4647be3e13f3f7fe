package platform

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/units"
)

// ParseXML reads a SimGrid platform file whose machine is one <cluster>
// (shared/reference/smpi-model.md §4.3): FLAT (private links, optional backbone),
// FAT_TREE, TORUS or DRAGONFLY, with prefix/radical/suffix host names, speed, core,
// bw, lat, sharing_policy, bb_*, loopback_*, limiter_link. The cluster may sit inside
// <zone>/<AS> elements; <prop> and <config> are read past. Anything else that shapes
// the network (<host>, <link>, <route>, a second <cluster>...) is refused, naming the
// line, since emu would otherwise silently simulate another machine.
//
// Deviation from SimGrid: a bandwidth without a unit is an error here (SimGrid takes it
// in bytes/s with a deprecation warning).
func ParseXML(data []byte, file string) (*Platform, error) {
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = true
	lineAt := func(off int64) int { return 1 + bytes.Count(data[:min(int(off), len(data))], []byte("\n")) }
	var (
		p        *Platform
		depth    int
		sawRoot  bool
		inIgnore int // depth inside <prop>/<config> subtrees
	)
	for {
		off := dec.InputOffset()
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *xml.SyntaxError
			if errors.As(err, &se) {
				return nil, fmt.Errorf("%s:%d: malformed XML: %s", file, se.Line, se.Msg)
			}
			return nil, fmt.Errorf("%s:%d: malformed XML: %v", file, lineAt(dec.InputOffset()), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			line := lineAt(off)
			depth++
			name := t.Name.Local
			switch {
			case inIgnore > 0:
				inIgnore++
			case depth == 1:
				if name != "platform" {
					return nil, fmt.Errorf("%s:%d: root element is <%s>, want <platform>", file, line, name)
				}
				for _, a := range t.Attr {
					if v, err := strconv.ParseFloat(a.Value, 64); a.Name.Local == "version" && err == nil && v < 4 {
						return nil, fmt.Errorf("%s:%d: platform version %s: emu reads SimGrid's version 4 files (bandwidths with units, speed instead of power); convert it with SimGrid's simgrid_update_xml", file, line, a.Value)
					}
				}
				sawRoot = true
			case name == "zone" || name == "AS":
				// a container; its routing does not matter for a single cluster
			case name == "prop" || name == "config":
				inIgnore = 1
			case name == "cluster":
				if p != nil {
					return nil, fmt.Errorf("%s:%d: a second <cluster>: emu reads platforms of one cluster", file, line)
				}
				if p, err = clusterFromXML(t.Attr); err != nil {
					return nil, fmt.Errorf("%s:%d: %w", file, line, err)
				}
			default:
				return nil, fmt.Errorf("%s:%d: <%s> is not supported: emu reads the <cluster> subset of SimGrid platforms", file, line, name)
			}
		case xml.EndElement:
			depth--
			if inIgnore > 0 {
				inIgnore--
			}
		}
	}
	switch {
	case !sawRoot:
		return nil, fmt.Errorf("%s:1: no <platform> element", file)
	case p == nil:
		return nil, fmt.Errorf("%s:1: no <cluster> element: emu reads platforms of one cluster", file)
	}
	return p, nil
}

// clusterAttrs lists the <cluster> attributes we read; any other is an error.
var clusterAttrs = map[string]bool{
	"id": true, "prefix": true, "suffix": true, "radical": true, "speed": true, "core": true,
	"bw": true, "lat": true, "sharing_policy": true, "topology": true, "topo_parameters": true,
	"bb_bw": true, "bb_lat": true, "bb_sharing_policy": true, "limiter_link": true,
	"loopback_bw": true, "loopback_lat": true, "router_id": true,
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
		a[name] = at.Value
	}
	for _, req := range []string{"id", "prefix", "suffix", "radical", "speed", "bw", "lat"} {
		if _, ok := a[req]; !ok {
			return nil, fmt.Errorf("cluster: attribute %q is required", req)
		}
	}
	p := &Platform{Name: a["id"], Prefix: a["prefix"], Suffix: a["suffix"], CoresPerHost: 1}
	var err error
	wrap := func(attr string, e error) error { return fmt.Errorf("cluster attribute %s: %w", attr, e) }
	if p.Radical, err = ParseRadical(a["radical"]); err != nil {
		return nil, wrap("radical", err)
	}
	// speed may be a list of pstates; the first is the default pstate.
	speed, _, _ := strings.Cut(a["speed"], ",")
	if p.Speed, err = units.ParseSpeed(speed); err != nil {
		return nil, wrap("speed", err)
	}
	if c, ok := a["core"]; ok {
		if p.CoresPerHost, err = strconv.Atoi(strings.TrimSpace(c)); err != nil || p.CoresPerHost < 1 {
			return nil, wrap("core", fmt.Errorf("%q is not a positive integer", c))
		}
	}
	if p.LinkBandwidth, err = units.ParseBandwidth(a["bw"]); err != nil {
		return nil, wrap("bw", err)
	}
	if p.LinkLatency, err = units.ParseTime(a["lat"]); err != nil {
		return nil, wrap("lat", err)
	}
	p.Sharing, p.BackboneSharing = SharingSplitDuplex, SharingShared
	if s, ok := a["sharing_policy"]; ok {
		if p.Sharing, err = ParseSharing(s); err != nil {
			return nil, wrap("sharing_policy", err)
		}
	}
	if s, ok := a["bb_sharing_policy"]; ok {
		if p.BackboneSharing, err = ParseSharing(s); err != nil {
			return nil, wrap("bb_sharing_policy", err)
		}
	}
	optional := []struct {
		attr  string
		parse func(string) (float64, error)
		dst   *float64
	}{
		{"bb_bw", units.ParseBandwidth, &p.BackboneBandwidth}, {"bb_lat", units.ParseTime, &p.BackboneLatency},
		{"loopback_bw", units.ParseBandwidth, &p.LoopbackBandwidth}, {"loopback_lat", units.ParseTime, &p.LoopbackLatency},
		{"limiter_link", units.ParseBandwidth, &p.LimiterBandwidth},
	}
	for _, o := range optional {
		if s, ok := a[o.attr]; ok {
			if *o.dst, err = o.parse(s); err != nil {
				return nil, wrap(o.attr, err)
			}
		}
	}
	_, hasBW := a["loopback_bw"]
	_, hasLat := a["loopback_lat"]
	p.NoLoopback = !hasBW && !hasLat
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
