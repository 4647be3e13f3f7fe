package ranks

import (
	"slices"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// Every rank's cached route to every other (the World's table of host
// pairs on a few hosts, the ranks' own caches past pairHosts) is the
// topology's route between their hosts, with its latency, before and after
// the caches are dropped (forgetRoutes). Ranks are placed two a host,
// scattered (rank i on host 7i + ⌊i/hosts⌋ mod hosts), so that a cache
// keyed by the wrong rank or host shows.
func TestRouteCacheIsTheTopologys(t *testing.T) {
	for _, hosts := range []int{5, pairHosts + 3} {
		topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: hosts, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
		if err != nil {
			t.Fatal(err)
		}
		place := make([]int, 2*hosts)
		for i := range place {
			place[i] = (7*i + i/hosts) % hosts
		}
		cfg, _ := Preset("cm02")
		w, err := NewWorld(cfg, topo, place, 1)
		if err != nil {
			t.Fatal(err)
		}
		if dense := w.pairs != nil; dense != (hosts <= pairHosts) {
			t.Errorf("%d hosts: table of pairs %v, want %v", hosts, dense, !dense)
		}
		for round := range 2 {
			for src, r := range w.ranks {
				for dst := range w.ranks {
					want := topo.Route(place[src], place[dst])
					got := r.pathTo(dst)
					if !slices.Equal(got.p.links, want.Links) || got.latency != want.Latency {
						t.Fatalf("%d hosts, round %d: rank %d to %d: links %v latency %g, want %v %g",
							hosts, round, src, dst, got.p.links, got.latency, want.Links, want.Latency)
					}
				}
			}
			w.forgetRoutes()
		}
	}
}
