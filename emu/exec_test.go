package emu

import (
	"fmt"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestExecutionsShareACPU: executions on a CPU system (SetCPUs) share its
// processor as flows share a link, and one due with a timer and a flow
// ends after the timer and before the flow (SimGrid's CPU model before
// its network model), under both engines.
func TestExecutionsShareACPU(t *testing.T) {
	for _, sg := range []bool{false, true} {
		t.Run(fmt.Sprint("simgrid=", sg), func(t *testing.T) {
			o := fluid.Options{}
			if sg {
				o.Solver = fluid.SimGrid
			}
			net := fluid.NewSystemOptions([]fluid.Link{{Name: "l", Bandwidth: 1e9, Sharing: fluid.Shared}}, o)
			e := NewEngineOptions(net, Options{SimGrid: sg, Precision: 1e-9})
			// one core of 1e9 flop/s
			e.SetCPUs(fluid.NewSystemOptions([]fluid.Link{{Name: "cpu", Bandwidth: 1e9, Sharing: fluid.Shared}}, o))
			var got []string
			note := func(name string) Handler {
				return handlerFunc(func() { got = append(got, fmt.Sprintf("%s@%g", name, e.Now())) })
			}
			cpu := []fluid.LinkID{0}
			// a and b share the core until b ends at 1 s; a's last 5e8
			// flops then run alone, up to 1.5 s
			e.StartExec(fluid.FlowSpec{Links: cpu, Bytes: 1e9, Bound: 1e9}, note("a"))
			e.StartExec(fluid.FlowSpec{Links: cpu, Bytes: 5e8, Bound: 1e9}, note("b"))
			// due with a: a flow of 1.5e9 bytes, a timer at 1.5 s
			e.StartFlowHandler(fluid.FlowSpec{Links: []fluid.LinkID{0}, Bytes: 1.5e9}, note("flow"))
			e.AfterHandler(1.5, note("timer"))
			if n := e.Pending(); n != 4 {
				t.Errorf("Pending = %d, want 4", n)
			}
			// as a driver steps: under SimGrid, Next settles the systems
			for _, ok := e.Next(); ok; _, ok = e.Next() {
				e.Step()
			}
			want := "[b@1 timer@1.5 a@1.5 flow@1.5]"
			if fmt.Sprint(got) != want {
				t.Errorf("order %v, want %v", got, want)
			}
			if e.Pending() != 0 {
				t.Errorf("Pending = %d after the run", e.Pending())
			}
		})
	}
}

// TestStartExecNeedsCPUs: StartExec without SetCPUs is a programming error.
func TestStartExecNeedsCPUs(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("StartExec without SetCPUs did not panic")
		}
	}()
	NewEngine(nil).StartExec(fluid.FlowSpec{Bytes: 1}, handlerFunc(func() {}))
}
