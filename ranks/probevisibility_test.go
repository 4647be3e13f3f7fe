package ranks

import (
	"fmt"
	"testing"
)

// TestProbeAfterProgress solves by hand when a rank that polls between
// computations first sees a message. Rank 0 sends at t = 1 s; rank 1 probes
// at t = 0.5, 1.5, 2.5, ... (Iprobe free, 1 s of compute between probes).
// SMPI's probe sees what is posted: found at 1.5. Open MPI's ob1 looks for a
// match before it progresses: the probe at 1.5 finds the message that came in
// after the call at 0.5 had ended, and only makes it visible; found at 2.5,
// a whole compute step later. Any other MPI call of rank 1 in between is a
// progress too ("other call": an Iprobe for another tag at 1.2 makes the
// probe at 1.5 find it).
// A blocking Probe is its own progress loop and returns as the message is in
// under both semantics.
func TestProbeAfterProgress(t *testing.T) {
	for _, tc := range []struct {
		name      string
		progress  bool
		otherCall bool
		probe     bool // MPI_Probe at 0.5 instead of Iprobe polls
		cost      float64
		want      float64 // when rank 1 knows of the message
	}{
		{"posted", false, false, false, 0, 1.5},
		{"progressed", true, false, false, 0, 2.5},
		{"progressed, other call between", true, true, false, 0, 1.5},
		{"posted, blocking probe", false, false, true, 0, 1},
		{"progressed, blocking probe", true, false, true, 0, 1},
		{"progressed, blocking probe of Iprobes", true, false, true, 1e-3, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := preset(t, "cm02")
			cfg.IprobeCost, cfg.TestCost, cfg.NoGrowth = tc.cost, 0, true
			cfg.ProbeAfterProgress = tc.progress
			var found float64
			run(t, cfg, newCrossbar(2, 1e9, 1e-6), 2, func(r *Rank) {
				c := r.World()
				if r.ID() == 0 {
					r.Compute(1, "w")
					c.Send(1, 3, Msg{Bytes: 8})
					return
				}
				r.Compute(0.5, "w")
				if tc.probe {
					if st := c.Probe(0, 3); st.Bytes != 8 {
						t.Errorf("status %+v", st)
					}
					found = r.Now()
					c.Recv(0, 3)
					return
				}
				for {
					if ok, _ := c.Iprobe(0, 3); ok {
						found = r.Now()
						break
					}
					if tc.otherCall && r.Now() < 1 {
						r.Compute(0.7, "w")
						c.Iprobe(0, 99) // a probe for another tag: progress only
						r.Compute(0.3, "w")
						continue
					}
					r.Compute(1, "w")
				}
				c.Recv(0, 3)
			})
			// A blocking probe of Iprobes ends at the first multiple of the
			// cost at or after 1 s, counted from 0.5.
			if want := tc.want; !near(found, want) && !(tc.cost > 0 && found >= want && found < want+tc.cost) {
				t.Errorf("message seen at %s s, want %g", fmt.Sprint(found), want)
			}
		})
	}
}
