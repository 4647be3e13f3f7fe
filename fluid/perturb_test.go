package fluid

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestPerturbedMovesEveryLinkWithinItsBound: on a flat cluster every link's
// latency and bandwidth moves, by at most rel of its value; each route's latency
// is the sum of its perturbed links' (as routeOf sums them); the same source
// gives the same topology; rel = 0 is t itself.
func TestPerturbedMovesEveryLinkWithinItsBound(t *testing.T) {
	const rel = 1e-9
	base, err := NewFlat(FlatConfig{Hosts: 4, Link: LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}, Loopback: Loopback{Bandwidth: 5e9, Latency: 1e-7}})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Perturbed(base, rel, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range p.Links() {
		b := base.Links()[i]
		if l.Latency == b.Latency || l.Bandwidth == b.Bandwidth {
			t.Errorf("link %s unmoved: %v, %v", l.Name, l, b)
		}
		if math.Abs(l.Latency/b.Latency-1) > rel || math.Abs(l.Bandwidth/b.Bandwidth-1) > rel {
			t.Errorf("link %s moved beyond %g: latency ×%.12f, bandwidth ×%.12f", l.Name, rel, l.Latency/b.Latency, l.Bandwidth/b.Bandwidth)
		}
	}
	for src := range 4 {
		for dst := range 4 {
			rt := p.Route(src, dst)
			sum := 0.0
			for _, l := range rt.Links {
				sum += p.Links()[l].Latency
			}
			if math.Abs(rt.Latency-sum) > 1e-12*sum {
				t.Errorf("route %d→%d: latency %.17g, its links sum to %.17g", src, dst, rt.Latency, sum)
			}
		}
	}
	q, _ := Perturbed(base, rel, rand.New(rand.NewPCG(1, 2)))
	for i := range p.Links() {
		if p.Links()[i] != q.Links()[i] {
			t.Fatalf("same source, link %d differs: %v, %v", i, p.Links()[i], q.Links()[i])
		}
	}
	if same, _ := Perturbed(base, 0, nil); same != Topology(base) {
		t.Error("rel 0 did not return the topology itself")
	}
	for _, bad := range []float64{-1e-9, 1, math.NaN()} {
		if _, err := Perturbed(base, bad, nil); err == nil {
			t.Errorf("rel %v accepted", bad)
		}
	}
}
