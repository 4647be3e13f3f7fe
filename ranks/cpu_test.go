package ranks

import (
	"math"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// cpuStep is one thing a rank does in TestCPUSharingByHand: an execution
// of flops (Execute), or else a Sleep or a Compute of seconds.
type cpuStep struct {
	flops   float64
	seconds float64
	compute bool // Compute(seconds), which never shares
}

// TestCPUSharingByHand runs ranks on hosts of few cores and checks each
// rank's end against the max-min shares solved by hand: n executions on a
// host of c cores of speed s each progress at min(s, s·c/n) flop/s; sleeps
// and Compute take no share; a host with no more ranks than cores is not
// shared at all. Under both the rank order (emu's max-min) and SimGrid's
// order (SimGrid's lmm).
func TestCPUSharingByHand(t *testing.T) {
	const s = 1e9
	cases := []struct {
		name  string
		cores []int // per host
		place []int
		steps [][]cpuStep
		ends  []float64 // per rank, s
	}{
		{"two on one core", []int{1, 1}, []int{0, 0},
			[][]cpuStep{{{flops: 1e9}}, {{flops: 5e8}}},
			// both at 5e8 flop/s until rank 1 is done at 1 s; rank 0's
			// last 5e8 flops then run alone
			[]float64{1.5, 1}},
		{"a staggered start", []int{1, 1}, []int{0, 0},
			[][]cpuStep{{{flops: 1e9}}, {{seconds: 0.5}, {flops: 5e8}}},
			// rank 0 alone for 0.5 s (5e8 flops), then 5e8 flops each at 5e8 flop/s
			[]float64{1.5, 1.5}},
		{"three on two cores", []int{2}, []int{0, 0, 0},
			[][]cpuStep{{{flops: 2e9}}, {{flops: 1e9}}, {{flops: 1e9}}},
			// 2e9/3 flop/s each: 1e9 flops take 1.5 s; rank 0's last 1e9 alone
			[]float64{2.5, 1.5, 1.5}},
		{"two on two cores: no sharing", []int{2, 1}, []int{0, 0, 1},
			[][]cpuStep{{{flops: 1e9}}, {{flops: 1e9}}, {{flops: 3e9}}},
			[]float64{1, 1, 3}},
		{"sleeps take no share", []int{1}, []int{0, 0, 0},
			[][]cpuStep{{{flops: 1e9}}, {{seconds: 1}}, {{flops: 1e9}}},
			[]float64{2, 1, 2}},
		{"Compute takes no share", []int{1}, []int{0, 0},
			[][]cpuStep{{{seconds: 1, compute: true}}, {{flops: 1e9}}},
			[]float64{1, 1}},
		{"four on one core, ends one by one", []int{1}, []int{0, 0, 0, 0},
			[][]cpuStep{{{flops: 1e8}}, {{flops: 2e8}}, {{flops: 3e8}}, {{flops: 4e8}}},
			// 4 at 2.5e8: 0.4 s; 3 at 1/3e9: +0.3 s; 2 at 5e8: +0.2 s; 1 alone: +0.1 s
			[]float64{0.4, 0.7, 0.9, 1.0}},
	}
	for _, order := range []WakeOrder{WakeRank, WakeSimGrid} {
		for _, c := range cases {
			t.Run(order.String()+"/"+c.name, func(t *testing.T) {
				topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: len(c.cores), Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
				if err != nil {
					t.Fatal(err)
				}
				w, err := NewWorld(Config{WakeOrder: order}, topo, c.place, 1)
				if err != nil {
					t.Fatal(err)
				}
				cpus := make([]CPU, len(c.cores))
				for h, n := range c.cores {
					cpus[h] = CPU{Speed: s, Cores: n}
				}
				if err := w.SetCPUs(cpus); err != nil {
					t.Fatal(err)
				}
				ends := make([]float64, len(c.place))
				if err := w.Run(func(r *Rank) {
					for _, st := range c.steps[r.ID()] {
						switch {
						case st.flops > 0:
							r.Execute(st.flops, s, "x")
						case st.compute:
							r.Compute(st.seconds, "x")
						default:
							r.Sleep(st.seconds)
						}
					}
					ends[r.ID()] = r.Now()
				}); err != nil {
					t.Fatal(err)
				}
				for i, want := range c.ends {
					if math.Abs(ends[i]-want) > 1e-12 {
						t.Errorf("rank %d ends at %.15g s, want %g", i, ends[i], want)
					}
				}
			})
		}
	}
}

// TestSetCPUsRefuses checks SetCPUs' errors.
func TestSetCPUsRefuses(t *testing.T) {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	w, err := NewWorld(Config{}, topo, []int{0, 0}, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, cpus := range [][]CPU{{{1e9, 1}}, {{1e9, 1}, {0, 1}}, {{1e9, 0}, {1e9, 1}}, {{math.NaN(), 1}, {1e9, 1}}} {
		if err := w.SetCPUs(cpus); err == nil {
			t.Errorf("SetCPUs(%v): no error", cpus)
		}
	}
}

// TestMachineSharesCPUs: two jobs of one rank each on a 1-core host share
// it, as two ranks of one job would: 1e9 and 5e8 flops end at 1.5 and 1 s.
func TestMachineSharesCPUs(t *testing.T) {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 1, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	for _, order := range []WakeOrder{WakeRank, WakeSimGrid} {
		m, err := NewMachine(Config{WakeOrder: order}, topo)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.SetCPUs([]CPU{{Speed: 1e9, Cores: 1}}); err != nil {
			t.Fatal(err)
		}
		var jobs []func(w *World) error
		for _, flops := range []float64{1e9, 5e8} {
			if _, err := m.NewWorld([]int{0}, 1, 0); err != nil {
				t.Fatal(err)
			}
			jobs = append(jobs, func(w *World) error { return w.Run(func(r *Rank) { r.Execute(flops, 1e9, "x") }) })
		}
		for i, err := range m.Run(jobs) {
			if err != nil {
				t.Fatalf("%v: job %d: %v", order, i, err)
			}
		}
		if a, b := m.all[0].End(), m.all[1].End(); a != 1.5 || b != 1 {
			t.Errorf("%v: the jobs end at %g and %g s, want 1.5 and 1", order, a, b)
		}
	}
}

// TestCPUBenchedExecution: ExecuteFor(d) on a shared host is an
// execution of d × the host's speed flops (SMPI's smpi_execute_benched),
// elsewhere Compute(d): two ranks on a 1-core host of 2e9 flop/s, 1 s and
// 0.5 s of work, end at 1.5 and 1 s; on a host each, at 1 and 0.5 s.
func TestCPUBenchedExecution(t *testing.T) {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 2, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 1e-6}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		place []int
		ends  [2]float64
	}{{[]int{0, 0}, [2]float64{1.5, 1}}, {[]int{0, 1}, [2]float64{1, 0.5}}} {
		w, err := NewWorld(Config{WakeOrder: WakeSimGrid}, topo, c.place, 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.SetCPUs([]CPU{{2e9, 1}, {2e9, 1}}); err != nil {
			t.Fatal(err)
		}
		var ends [2]float64
		if err := w.Run(func(r *Rank) {
			r.ExecuteFor(1/float64(1+r.ID()), "x")
			ends[r.ID()] = r.Now()
		}); err != nil {
			t.Fatal(err)
		}
		if ends != c.ends {
			t.Errorf("placement %v: the ranks end at %v s, want %v", c.place, ends, c.ends)
		}
	}
}

// pairSwap is a one-step exchange between ranks 0 and 1 whose work runs a
// benched execution of 0.1 s on the rank's host (cpuWorkTask).
type pairSwap struct{ r *Rank }

func (p pairSwap) Exchange(int) (int, Msg, int) {
	peer := 1 - p.r.ID()
	return peer, Msg{Bytes: 8}, peer
}
func (p pairSwap) Received(int, Msg) {}
func (p pairSwap) Work(int)          { p.r.ExecuteFor(0.1, "work") }

// TestSharedCPUsMergeNothing: an execution on a shared host blocks its rank
// until the host's processor has done it, so where any host is shared the
// World merges no kernel sleeps and runs no rank's kernels in a task: the
// work of SendRecvsIprobe's steps (HPL's row copies) runs on the rank, and
// two ranks on one core each take 0.2 s for their 0.1 s executions,
// whether the World was asked to merge or not.
func TestSharedCPUsMergeNothing(t *testing.T) {
	topo, err := fluid.NewFlat(fluid.FlatConfig{Hosts: 1, Link: fluid.LinkSpec{Bandwidth: 1e9, Latency: 0}})
	if err != nil {
		t.Fatal(err)
	}
	for _, merge := range []bool{false, true} {
		w, err := NewWorld(Config{IprobeCost: 1e-9, TestCost: 1e-9}, topo, []int{0, 0}, 1)
		if err != nil {
			t.Fatal(err)
		}
		if merge {
			w.MergeKernelSleeps()
		}
		if err := w.SetCPUs([]CPU{{1e9, 1}}); err != nil {
			t.Fatal(err)
		}
		var ends [2]float64
		if err := w.Run(func(r *Rank) {
			p := pairSwap{r}
			c := r.World()
			c.SendRecvsIprobe(0, 1, 5, p, p, c, AnySource, 77) // tag 77: nothing to see
			ends[r.ID()] = r.Now()
		}); err != nil {
			t.Fatal(err)
		}
		if w.lazy {
			t.Errorf("merge asked %v: the World merges sleeps with a shared host", merge)
		}
		for id, end := range ends {
			if math.Abs(end-0.2) > 1e-6 {
				t.Errorf("merge asked %v: rank %d ends at %.9f s, want about 0.2 (two 0.1 s executions sharing one core)", merge, id, end)
			}
		}
	}
}
