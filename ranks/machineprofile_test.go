package ranks

import (
	"math"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestMachineLinkProfile: two jobs share a link whose bandwidth halves at a
// known date; the profile plays once, for both. On a crossbar of links of
// B = 1 GB/s and lat = 1 µs, job A sends s = 1 MB from host 0 and job B
// from host 1, both to host 2 (Config{}: no overheads, no envelope, no
// factors, the receives posted first), so both flows cross host 2's down
// link from L = 2·lat on. That link's bandwidth halves at t1 = 0.3 ms:
//
//	alone:    rate B until t1, then B/2:   end = t1 + 2·(s − (t1−L)·B)/B
//	together: B/2 each until t1, then B/4: end = t1 + 4·(s − (t1−L)·B/2)/B
//	B at t2:  B starts at t2 = 0.5 ms, when A (alone, halved at t1) has
//	          moved m = (t1−L)·B + (t2−t1)·B/2 bytes; B's flow starts at
//	          t2+L, and they share B/2 until A ends (aLate below).
//
// A World of its own with the same profile gives the alone figure too.
// Latency: the same down link's latency becomes lat2 = 100 µs at 0.1 ms,
// while A's message (which took the old one at its start) moves; B starts
// at t3 = 2 ms, after A's end, and its message takes the new latency:
// it ends at t3 + lat + lat2 + s/B (a job whose copy of the links missed
// the change would end at t3 + 2·lat + s/B).
func TestMachineLinkProfile(t *testing.T) {
	const (
		s   = 1e6     // bytes
		bw  = 1e9     // B/s
		lat = 1e-6    // s
		L   = 2 * lat // route latency, s
		t1  = 3e-4    // the halving, s
		t2  = 5e-4    // job B's late start, s
	)
	half := fluid.Profile{Steps: []fluid.ProfileStep{{Delta: t1, Value: bw / 2}}, Repeat: -1}
	down2 := []LinkProfile{{Link: 5, Profile: half}} // host 2's down link (newCrossbar)
	alone := t1 + 2*(s-(t1-L)*bw)/bw
	together := t1 + 4*(s-(t1-L)*bw/2)/bw
	// B late: A alone moves m by t2; from t2, B is in its latency phase
	// until t2+L (A at B/2), then both share B/2: B/4 each. A's rest
	// after t2+L: s − m − L·B/2; it ends first, at a; B then has moved
	// (a − t2 − L)·B/4 and finishes the rest at B/2.
	const lat2, t3 = 1e-4, 2e-3 // s
	slower := []LinkProfile{{Link: 5, Profile: fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 1e-4, Value: lat2}}, Repeat: -1}}}
	m := (t1-L)*bw + (t2-t1)*bw/2
	aLate := t2 + L + 4*(s-m-L*bw/2)/bw
	bLate := aLate + 2*(s-(aLate-t2-L)*bw/4)/bw
	for _, order := range []WakeOrder{WakeRank, WakeSimGrid} {
		cfg := Config{WakeOrder: order}
		topo := newCrossbar(3, bw, lat)
		w, err := NewWorld(cfg, topo, []int{0, 2}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetLinkProfiles(down2, nil); err != nil {
			t.Fatal(err)
		}
		if err := sendTo(s)(w); err != nil {
			t.Fatal(err)
		}
		checkEnd(t, order.String()+" World alone", w.End(), alone)
		for _, tc := range []struct {
			name         string
			bw, lat      []LinkProfile
			jobs         int
			startB       float64
			wantA, wantB float64
		}{
			{"A alone on a Machine", down2, nil, 1, 0, alone, 0},
			{"together", down2, nil, 2, 0, together, together},
			{"B after the halving", down2, nil, 2, t2, aLate, bLate},
			{"B after a latency change", nil, slower, 2, t3, L + s/bw, t3 + lat + lat2 + s/bw},
		} {
			m, err := NewMachine(cfg, topo)
			if err != nil {
				t.Fatal(err)
			}
			a, err := m.NewWorld([]int{0, 2}, 1, 0)
			if err != nil {
				t.Fatal(err)
			}
			jobs := []func(*World) error{sendTo(s)}
			var b *World
			if tc.jobs == 2 {
				if b, err = m.NewWorld([]int{1, 2}, 2, tc.startB); err != nil {
					t.Fatal(err)
				}
				jobs = append(jobs, sendTo(s))
			}
			if err := m.SetLinkProfiles(tc.bw, tc.lat); err != nil {
				t.Fatal(err)
			}
			for i, err := range m.Run(jobs) {
				if err != nil {
					t.Fatalf("%v %s: job %d: %v", order, tc.name, i, err)
				}
			}
			checkEnd(t, order.String()+" "+tc.name+": A", a.End(), tc.wantA)
			if b != nil {
				checkEnd(t, order.String()+" "+tc.name+": B", b.End(), tc.wantB)
			}
		}
	}
}

// checkEnd fails unless a job's end got is want to machineTol.
func checkEnd(t *testing.T, what string, got, want float64) {
	t.Helper()
	if math.Abs(got-want) > machineTol*want {
		t.Errorf("%s ends at %.15g s, want %.15g s", what, got, want)
	}
}

// TestMachineProfilesRefused: a World of a Machine takes the Machine's
// link profiles, not its own (they would play once per job); profiles
// after the Machine ran, and speed profiles without CPUs, are refused.
func TestMachineProfilesRefused(t *testing.T) {
	p := fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 1, Value: 1e8}}, Repeat: -1}
	m, err := NewMachine(Config{}, newCrossbar(2, 1e9, 1e-6))
	if err != nil {
		t.Fatal(err)
	}
	w, err := m.NewWorld([]int{0, 1}, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.SetLinkProfiles([]LinkProfile{{Link: 0, Profile: p}}, nil); err == nil || !strings.Contains(err.Error(), "Machine.SetLinkProfiles") {
		t.Errorf("a World of a Machine's own link profiles: %v", err)
	}
	if err := m.SetLinkProfiles([]LinkProfile{{Link: 99, Profile: p}}, nil); err == nil {
		t.Error("a Machine's profile of link 99: no error")
	}
	if err := m.SetSpeedProfiles([]HostProfile{{Host: 0, Profile: p}}); err == nil {
		t.Error("a Machine's speed profile without CPUs: no error")
	}
	m.Run([]func(*World) error{sendTo(10)})
	if err := m.SetLinkProfiles([]LinkProfile{{Link: 0, Profile: p}}, nil); err == nil {
		t.Error("link profiles after Run: no error")
	}
}

// TestMachineSpeedProfile: a host's speed profile plays once for the jobs
// whose executions share its processor. Host 0 (1e9 flop/s, 1 core) halves
// its speed at 0.5 s; job A's rank and job B's rank on it each execute
// 1e9 flops from 0: they share the core, 5e8 flop/s each until 0.5 s
// (2.5e8 flops done), then 2.5e8 each: the 7.5e8 left take 3 s, both end
// at 3.5 s. Alone, one ends at 1.5 s (5e8 flops by 0.5 s, the rest at
// 5e8 flop/s).
func TestMachineSpeedProfile(t *testing.T) {
	half := fluid.Profile{Steps: []fluid.ProfileStep{{Delta: 0.5, Value: 0.5}}, Repeat: -1}
	exec := func(w *World) error {
		return w.Run(func(r *Rank) { r.Execute(1e9, 1e9, "x") })
	}
	for _, order := range []WakeOrder{WakeRank, WakeSimGrid} {
		for _, tc := range []struct {
			jobs int
			want float64
		}{{1, 1.5}, {2, 3.5}} {
			m, err := NewMachine(Config{WakeOrder: order}, newCrossbar(2, 1e9, 1e-6))
			if err != nil {
				t.Fatal(err)
			}
			var ws []*World
			var jobs []func(*World) error
			for j := 0; j < tc.jobs; j++ {
				w, err := m.NewWorld([]int{0}, uint64(j), 0)
				if err != nil {
					t.Fatal(err)
				}
				ws, jobs = append(ws, w), append(jobs, exec)
			}
			if err := m.SetCPUs([]CPU{{Speed: 1e9, Cores: 1}, {Speed: 1e9, Cores: 1}}); err != nil {
				t.Fatal(err)
			}
			if err := m.SetSpeedProfiles([]HostProfile{{Host: 0, Profile: half}}); err != nil {
				t.Fatal(err)
			}
			for i, err := range m.Run(jobs) {
				if err != nil {
					t.Fatalf("job %d: %v", i, err)
				}
			}
			for i, w := range ws {
				checkEnd(t, order.String()+" job "+string(rune('A'+i)), w.End(), tc.want)
			}
		}
	}
}
