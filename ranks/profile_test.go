package ranks

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestSpeedProfile: a rank on a host of 1e9 flop/s whose speed halves at
// 0.5 s executes 1e9 flops in 0.5 s at 1e9 (5e8 flops) and 1 s at 5e8: it
// ends at 1.5 s; the host is not shared, yet its executions follow the
// profile. A Compute (a modelled kernel's sleep) of 1 s on the other host,
// whose speed also halves, still lasts 1 s. Both orders.
func TestSpeedProfile(t *testing.T) {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	half := fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 0.5, Value: 0.5}}, Repeat: -1}
	for _, order := range []WakeOrder{WakeRank, WakeSimGrid} {
		w, err := NewWorld(Config{WakeOrder: order}, topo, []int{0, 1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetCPUs([]CPU{{Speed: 1e9, Cores: 1}, {Speed: 1e9, Cores: 1}}); err != nil {
			t.Fatal(err)
		}
		if err := w.SetSpeedProfiles([]HostProfile{{Host: 0, Profile: half}, {Host: 1, Profile: half}}); err != nil {
			t.Fatal(err)
		}
		var ends [2]float64
		if err := w.Run(func(r *Rank) {
			if r.ID() == 0 {
				r.Execute(1e9, 1e9, "x")
			} else {
				r.Compute(1, "x")
			}
			ends[r.ID()] = r.Now()
		}); err != nil {
			t.Fatal(err)
		}
		if math.Abs(ends[0]-1.5) > 1e-12 || ends[1] != 1 {
			t.Errorf("%v: the execution ends at %v s, the sleep at %v s; want 1.5 and 1", order, ends[0], ends[1])
		}
	}
}

// TestProfilesRefused: profiles of links or hosts that do not exist,
// speed profiles without CPUs, bandwidth profiles of fat pipes.
func TestProfilesRefused(t *testing.T) {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	p := fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 1, Value: 1e8}}, Repeat: -1}
	w, err := NewWorld(Config{}, topo, []int{0, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SetSpeedProfiles([]HostProfile{{Host: 0, Profile: p}}); err == nil {
		t.Error("a speed profile without CPUs: no error")
	}
	if err := w.SetLinkProfiles([]LinkProfile{{Link: 99, Profile: p}}, nil); err == nil {
		t.Error("a profile of link 99: no error")
	}
	if err := w.SetCPUs([]CPU{{Speed: 1e9, Cores: 1}, {Speed: 1e9, Cores: 1}}); err != nil {
		t.Fatal(err)
	}
	if err := w.SetSpeedProfiles([]HostProfile{{Host: 2, Profile: p}}); err == nil {
		t.Error("a profile of host 2: no error")
	}
}

// TestPerturbedTopologyScalesLinkProfiles: under emu run --perturb a link's
// bandwidth and latency move by their factors, and so must the values its
// profiles give it, or a perturbed run would drop the perturbation at the
// profile's first event. A 1 MB message over a route whose first link's
// bandwidth profile sets 1 MB/s at time 0 takes the route's latency plus
// 1/f s, f that link's bandwidth factor (0.1 relative here, to be seen).
func TestPerturbedTopologyScalesLinkProfiles(t *testing.T) {
	flat, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range []float64{0, 0.1} {
		topo, err := fluid.Perturbed(flat, rel, rand.New(rand.NewPCG(7, 8)))
		if err != nil {
			t.Fatal(err)
		}
		rt := topo.Route(0, 1)
		f := 1.0
		if s, ok := topo.(fluid.LinkScaled); ok {
			_, f = s.LinkScale(rt.Links[0])
		} else if rel > 0 {
			t.Fatal("a perturbed topology does not say its links' factors")
		}
		w, err := NewWorld(Config{}, topo, []int{0, 1}, 1)
		if err != nil {
			t.Fatal(err)
		}
		slow := fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 0, Value: 1e6}}, Repeat: -1}
		if err := w.SetLinkProfiles([]LinkProfile{{Link: rt.Links[0], Profile: slow}}, nil); err != nil {
			t.Fatal(err)
		}
		var end float64
		if err := w.Run(func(r *Rank) {
			if r.ID() == 0 {
				r.World().Send(1, 0, Msg{Bytes: 1e6})
			} else {
				r.World().Recv(0, 0)
				end = r.Now()
			}
		}); err != nil {
			t.Fatal(err)
		}
		if want := rt.Latency + 1/f; math.Abs(end-want) > 1e-12 {
			t.Errorf("rel %g: the message ends at %.15g s, want %.15g (latency %g + 1 MB at 1 MB/s × %.9f)", rel, end, want, rt.Latency, f)
		}
		if rel > 0 && math.Abs(f-1) < 1e-6 {
			t.Errorf("rel %g: the link's bandwidth factor %v is too close to 1 to tell", rel, f)
		}
	}
}
