package fluid

import "math"

// LinkTraffic is what one link carried from the start of the recording to
// the time of the query.
type LinkTraffic struct {
	// Bytes is the link's load integrated over time: Σ over the flows on it
	// of coefficient × rate × time, bytes. It is the capacity the flows
	// occupied, so Bytes / (Bandwidth × run time) is the link's mean
	// utilisation (≤ 1 on a Shared link; a FatPipe link caps each flow, not
	// their sum). A flow's bytes are its FlowSpec.Bytes as the caller sized
	// them (message plus header, over SMPI's bandwidth factor), or, under
	// Options.Solver = SimGrid, its Bytes over its RateFactor; reverse
	// cross-traffic adds ReverseShare × the rate on the reverse links.
	Bytes float64
	// Busy is the time during which at least one flow was on the link
	// (in its transfer phase, stalled or not), s.
	Busy float64
}

// traffic is a System's per-link accounting (RecordTraffic). A flow that
// completes (Finish) books its whole size on its links, coef × its bytes:
// summing its stretches instead, rate × dt each, left a 1,000-byte message
// as 1000.0000000000005 bytes. A flow's stretches, closed where the System
// already brings its remaining bytes up to date (a rate change), are summed
// per flow for what a running flow (Traffic) or a cancelled one has moved.
// Recording costs O(links of the flow) at its start and end, O(1) at a
// rate change, and nothing on a System that does not record.
//
// What it keeps per flow sits here, by the flow's slot, not in the flow
// struct: a System that does not record keeps its flows as small as before
// (a larger flow struct alone cost 5% on ranks' BenchmarkRing1024).
type traffic struct {
	bytes []float64 // per link: bytes of closed stretches
	busy  []float64 // per link: busy time of closed busy periods, s
	flows []int32   // per link: flows on it now
	since []float64 // per link: start of the current busy period, s
	fat   [][]elem  // per flow slot: the FatPipe links it crosses, which its elems leave out
	on    []bool    // per flow slot: counted on its links' busy periods
	whole []float64 // per flow slot: the capacity its whole transfer occupies (its bytes, over its RateFactor under SimGrid)
	moved []float64 // per flow slot: the capacity its closed stretches occupied
	done  []bool    // per flow slot: completed (Finish), so its whole size is booked
}

// RecordTraffic makes the System account, per link, the bytes its flows
// carry and the time it is busy (Traffic). It must be called before the
// first flow starts; a later call is a programmer error and panics.
func (s *System) RecordTraffic() {
	if s.nextID != 0 {
		panic("fluid: RecordTraffic after flows started")
	}
	n := len(s.links)
	s.traffic = &traffic{bytes: make([]float64, n), busy: make([]float64, n), flows: make([]int32, n), since: make([]float64, n)}
}

// Traffic returns, per link (indexed by LinkID), what it carried from time
// 0 to now (≥ the time of the last call), counting the running flows'
// stretches up to now; nil if the System does not record (RecordTraffic).
func (s *System) Traffic(now float64) []LinkTraffic {
	t := s.traffic
	if t == nil {
		return nil
	}
	out := make([]LinkTraffic, len(s.links))
	for l := range out {
		out[l] = LinkTraffic{Bytes: t.bytes[l], Busy: t.busy[l]}
		if t.flows[l] > 0 {
			out[l].Busy += now - t.since[l]
		}
	}
	for slot, on := range t.on { // slot order: deterministic
		if !on {
			continue
		}
		f := s.bySlot[slot]
		b := t.moved[slot] + stretch(f, now)
		for _, e := range f.elems {
			out[e.link].Bytes += e.coef * b
		}
		for _, e := range t.fat[slot] {
			out[e.link].Bytes += e.coef * b
		}
	}
	return out
}

// stretch is the bytes f moved since f.last at its current rate, 0 before
// it has a finite positive rate.
func stretch(f *flow, now float64) float64 {
	if f.rate > 0 && !math.IsInf(f.rate, 1) {
		return f.rate * (now - f.last)
	}
	return 0
}

// carry adds f's stretch up to now to what it has moved. The caller then
// moves f.last to now (or forgets the flow).
func (t *traffic) carry(f *flow, now float64) {
	t.moved[f.slot] += stretch(f, now)
}

// book puts what f carried on its links: its whole size if it completed,
// else (cancelled) its stretches up to now.
func (t *traffic) book(f *flow, now float64) {
	b := t.whole[f.slot]
	if !t.done[f.slot] {
		t.carry(f, now)
		b = t.moved[f.slot]
	}
	if b <= 0 {
		return
	}
	for _, e := range f.elems {
		t.bytes[e.link] += e.coef * b
	}
	for _, e := range t.fat[f.slot] {
		t.bytes[e.link] += e.coef * b
	}
}

// enter puts f on its links' busy counts at now.
func (t *traffic) enter(f *flow, now float64) {
	t.on[f.slot] = true
	t.count(f.elems, 1, now)
	t.count(t.fat[f.slot], 1, now)
}

// leave books what f carried and takes it off its links' busy counts.
func (t *traffic) leave(f *flow, now float64) {
	if !t.on[f.slot] {
		return
	}
	t.book(f, now)
	t.on[f.slot] = false
	t.count(f.elems, -1, now)
	t.count(t.fat[f.slot], -1, now)
}

// count adds d (±1) to the flow counts of links es at now, opening a busy
// period where a count leaves 0 and closing one where it returns to 0.
func (t *traffic) count(es []elem, d int32, now float64) {
	for _, e := range es {
		switch t.flows[e.link] += d; {
		case d > 0 && t.flows[e.link] == 1:
			t.since[e.link] = now
		case d < 0 && t.flows[e.link] == 0:
			t.busy[e.link] += now - t.since[e.link]
		}
	}
}

// reset readies slot for a new flow of the given whole size: no FatPipe
// link, not on its links, nothing moved.
func (t *traffic) reset(slot int32, whole float64) {
	for int(slot) >= len(t.on) {
		t.on, t.fat = append(t.on, false), append(t.fat, nil)
		t.whole, t.moved, t.done = append(t.whole, 0), append(t.moved, 0), append(t.done, false)
	}
	t.on[slot], t.fat[slot] = false, t.fat[slot][:0]
	t.whole[slot], t.moved[slot], t.done[slot] = whole, 0, false
}

// addFat records that the flow of slot loads FatPipe link l at coef (the
// larger one when l repeats, as addElem merges them).
func (t *traffic) addFat(slot int32, l LinkID, coef float64) {
	fat := t.fat[slot]
	for i := range fat {
		if fat[i].link == l {
			fat[i].coef = math.Max(fat[i].coef, coef)
			return
		}
	}
	t.fat[slot] = append(fat, elem{link: l, coef: coef})
}
