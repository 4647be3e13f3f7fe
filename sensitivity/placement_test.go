package sensitivity

import "testing"

// TestPlacerByHand: the ping-pong with each message's latency made of two
// link classes (1 µs host cable twice, 2 µs level cable once: 4 µs) and one
// factor excess (class 2, 1 µs, scaling with the route). On the recorded
// routes the placer gives the graph's T; with the ranks on hosts 10 µs apart
// each message costs 10 µs of links and 10/4 of its factor excess, by hand.
func TestPlacerByHand(t *testing.T) {
	const c, o, r = 2e-6, 1e-6, 0.5e-6
	terms := []LatTerm{{Class: 0, Count: 2}, {Class: 1, Count: 1}, {Class: 2, Count: 1}}
	b := pingPongWith(c, o, r, 0, terms...)
	g, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	lat := []float64{1e-6, 2e-6, 1e-6}
	link := []bool{true, true, false}
	p := NewPlacer(g, lat, link)
	if got, want := p.Runtime(func(int, int) float64 { return 4e-6 }), g.Runtime(lat); !near(got, want) {
		t.Errorf("on the recorded routes T = %v, the graph's %v", got, want)
	}
	var asked [][2]int
	got := p.Runtime(func(s, d int) float64 { asked = append(asked, [2]int{s, d}); return 10e-6 })
	msg := 10e-6 + 1e-6*10/4.0
	if want := c + 4*o + 2*(msg+r); !near(got, want) {
		t.Errorf("10 µs routes: T = %v, want %v", got, want)
	}
	if len(asked) != 2 || asked[0] != [2]int{0, 1} || asked[1] != [2]int{1, 0} {
		t.Errorf("routes asked for %v, want the messages' (0,1) and (1,0)", asked)
	}
}
