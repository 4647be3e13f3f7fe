package fluid

import "testing"

// TestLocalTakesUnratedFlows: a light candidate of a StartAll has no rate
// while the batch's exact flows are solved. When it sits only on a
// boundary link of the local region (link 2 here: reached through flow g,
// not a link of the batch's exact flow), the region takes it in and rates
// it exactly, as the whole-component solve does, instead of reading its
// rate of −1 as a load.
func TestLocalTakesUnratedFlows(t *testing.T) {
	links := shared(10, 20, 10)
	for _, opts := range []Options{{Approx: Approximations{LightBytes: 100}}, {Approx: Approximations{LightBytes: 100, LocalSolve: true}}} {
		s := NewSystemOptions(links, opts)
		g := s.Start(0, FlowSpec{Links: []LinkID{1, 2}, Bytes: 1e6})
		ids := s.StartAll(0, []FlowSpec{
			{Links: []LinkID{0, 1}, Bytes: 1e6}, // exact: its links are the seeds
			{Links: []LinkID{2}, Bytes: 10},     // light candidate, on g's other link only
		}, nil)
		// Max-min: link 2 saturates first, at 5 each for g and the light
		// flow; the exact flow then fills link 0.
		for i, want := range map[FlowID]float64{g: 5, ids[0]: 10, ids[1]: 5} {
			if r := s.Rate(i); r != want {
				t.Errorf("%+v: flow %d rate %v, want %v", opts, i, r, want)
			}
		}
	}
}
