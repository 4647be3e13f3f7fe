package observe

import (
	"cmp"
	"slices"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/ranks"
)

// Traffic is what a run's network carried (runner.Options.Links, emu run
// --links): per link, per link class, and the messages by the highest
// class their route crosses (how far up the topology they went).
type Traffic struct {
	Time    float64     `json:"time_s"` // the run's simulated time, the span utilisations are over, s
	Links   []LinkUse   `json:"links"`  // every link of the topology, in its order
	Classes []ClassUse  `json:"classes"`
	Highest []ClassPart `json:"highest"` // messages and bytes by the highest class they cross
}

// LinkUse is one link's traffic. Bytes is the capacity the flows occupied
// (fluid.LinkTraffic: a message's bytes plus the model's header, over SMPI's
// bandwidth factor), so Utilisation ≤ 1 on a shared link.
type LinkUse struct {
	Name      string  `json:"name"`
	Class     string  `json:"class"`
	Level     int     `json:"level"` // fluid.ClassLevel
	Bandwidth float64 `json:"bandwidth_Bps"`
	Bytes     float64 `json:"bytes"`
	Busy      float64 `json:"busy_s"`      // time with at least one flow on it
	Util      float64 `json:"utilisation"` // Bytes / (Bandwidth · Time)
	BusyUtil  float64 `json:"busy_utilisation"`
}

// ClassUse sums the links of one class: Bytes and Busy (link-seconds) are
// sums, Util is Σ bytes / (Σ bandwidth · Time) and BusyUtil Σ bytes /
// Σ (bandwidth · busy), the class's mean utilisation while its links were busy.
type ClassUse struct {
	Class     string  `json:"class"`
	Level     int     `json:"level"` // fluid.ClassLevel
	Links     int     `json:"links"`
	Bandwidth float64 `json:"bandwidth_Bps"`
	Bytes     float64 `json:"bytes"`
	Busy      float64 `json:"busy_s"`
	Util      float64 `json:"utilisation"`
	BusyUtil  float64 `json:"busy_utilisation"`
}

// ClassPart counts the messages whose route's highest class is Class, and
// their payload bytes (as the application sent them), with their shares of
// all messages and bytes.
type ClassPart struct {
	Class      string  `json:"class"`
	Level      int     `json:"level"`
	Messages   int     `json:"messages"`
	Bytes      int64   `json:"bytes"`
	MsgShare   float64 `json:"message_share"`
	BytesShare float64 `json:"byte_share"`
}

// ReachCounter is the hook counting messages (at their SendPost) by the
// highest class of their route, one route look-up per host pair.
type ReachCounter struct {
	topo   fluid.Topology
	links  []fluid.Link
	top    map[[2]int]string // (src host, dst host) → highest class
	counts map[string]*ClassPart
}

func NewReachCounter(topo fluid.Topology) *ReachCounter {
	return &ReachCounter{topo: topo, links: topo.Links(), top: map[[2]int]string{}, counts: map[string]*ClassPart{}}
}

// HookFor is the hook of a World whose rank r runs on host place[r].
func (c *ReachCounter) HookFor(place []int) ranks.Hook {
	return func(ev *ranks.Event) {
		if ev.Kind == ranks.SendPost {
			c.count(place[ev.Rank], place[ev.Peer], ev.Bytes)
		}
	}
}

func (c *ReachCounter) count(src, dst, bytes int) {
	pair := [2]int{src, dst}
	class, ok := c.top[pair]
	if !ok {
		class = highestClass(c.links, c.topo.Route(pair[0], pair[1]).Links)
		c.top[pair] = class
	}
	p := c.counts[class]
	if p == nil {
		p = &ClassPart{Class: class, Level: fluid.ClassLevel(class)}
		c.counts[class] = p
	}
	p.Messages++
	p.Bytes += int64(bytes)
}

// highestClass is the class of path's highest link (the first of that
// level); a path of no link (a host's messages to itself without a
// loopback link) is "loopback".
func highestClass(links []fluid.Link, path []fluid.LinkID) string {
	class, level := "loopback", -1
	for _, l := range path {
		if lv := fluid.ClassLevel(links[l].Class); lv > level {
			class, level = links[l].Class, lv
		}
	}
	return class
}

// TrafficOf builds the report from the fluid system's per-link traffic at
// the end of a run of the given time and the messages counted.
func TrafficOf(links []fluid.Link, use []fluid.LinkTraffic, time float64, reach *ReachCounter) *Traffic {
	t := &Traffic{Time: time, Links: make([]LinkUse, len(links))}
	byClass := map[string]*ClassUse{}
	capBusy := map[string]float64{} // Σ bandwidth · busy per class
	for i, l := range links {
		u := LinkUse{Name: l.Name, Class: l.Class, Level: fluid.ClassLevel(l.Class), Bandwidth: l.Bandwidth, Bytes: use[i].Bytes, Busy: use[i].Busy}
		u.Util = utilisation(u.Bytes, l.Bandwidth*time)
		u.BusyUtil = utilisation(u.Bytes, l.Bandwidth*u.Busy)
		t.Links[i] = u
		c := byClass[l.Class]
		if c == nil {
			c = &ClassUse{Class: l.Class, Level: fluid.ClassLevel(l.Class)}
			byClass[l.Class] = c
		}
		c.Links++
		c.Bandwidth += l.Bandwidth
		c.Bytes += u.Bytes
		c.Busy += u.Busy
		capBusy[l.Class] += l.Bandwidth * u.Busy
	}
	for _, c := range byClass {
		c.Util = utilisation(c.Bytes, c.Bandwidth*time)
		c.BusyUtil = utilisation(c.Bytes, capBusy[c.Class])
		t.Classes = append(t.Classes, *c)
	}
	slices.SortFunc(t.Classes, func(a, b ClassUse) int { return cmp.Or(cmp.Compare(a.Level, b.Level), cmp.Compare(a.Class, b.Class)) })
	var msgs, bytes float64
	for _, p := range reach.counts {
		msgs += float64(p.Messages)
		bytes += float64(p.Bytes)
	}
	for _, p := range reach.counts {
		q := *p
		q.MsgShare, q.BytesShare = ratio(float64(q.Messages), msgs), ratio(float64(q.Bytes), bytes)
		t.Highest = append(t.Highest, q)
	}
	slices.SortFunc(t.Highest, func(a, b ClassPart) int { return cmp.Or(cmp.Compare(a.Level, b.Level), cmp.Compare(a.Class, b.Class)) })
	return t
}

// ratio is a/b, or 0 when b is 0 (an idle span or a link of no bandwidth).
func ratio(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}

// roundingPast1 is how far past 1 a utilisation is float rounding (the
// bytes and busy time of a link busy at its capacity summed stretch by
// stretch), not a FatPipe link's flows running beside one another.
const roundingPast1 = 1e-9

// utilisation is bytes / capacity (ratio), 1 where that rounds just past 1
// (3·10⁶ B over 2.4 ms at 1.25 GB/s: 1.0000000000000002).
func utilisation(bytes, capacity float64) float64 {
	u := ratio(bytes, capacity)
	if u > 1 && u <= 1+roundingPast1 {
		return 1
	}
	return u
}

// Hottest returns the n links of highest mean utilisation, highest first
// (ties in link order).
func (t *Traffic) Hottest(n int) []LinkUse {
	hot := slices.Clone(t.Links)
	slices.SortStableFunc(hot, func(a, b LinkUse) int { return cmp.Compare(b.Util, a.Util) })
	return hot[:min(n, len(hot))]
}
