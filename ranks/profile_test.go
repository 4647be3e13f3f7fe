package ranks

import (
	"math"
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
	fat, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e9, Policy: fluid.FatPipeDuplex}})
	if err != nil {
		t.Fatal(err)
	}
	wf, err := NewWorld(Config{}, fat, []int{0, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := wf.SetLinkProfiles([]LinkProfile{{Link: 0, Profile: p}}, nil); err == nil {
		t.Error("a bandwidth profile of a fat pipe: no error")
	}
}
