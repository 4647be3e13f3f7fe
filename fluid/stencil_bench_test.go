package fluid_test

import (
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// BenchmarkStencilHalos is the network's side of a 2D halo-exchange stencil
// on 1,024 hosts (32×32 ranks, one a host, non-periodic: docs/library.md's
// kind of program, docs/evidence/qa45.md's 1,024-rank run): each op is one
// iteration, where every host starts its 2 to 4 halos of 8,016 B at one
// instant (StartAll: one re-solve) and the flows then finish in completion
// order, each end re-solving what it shared. On a flat cluster every flow
// runs at the same level, so an end's re-solve takes in the whole
// component at that level, hundreds of flows and links (flows/resolve);
// on the fat tree 3;16,16,4;1,4,4;1,1,1 of the same hosts the components
// are smaller. Reports halos (flow ends) and re-solves per second of CPU.
func BenchmarkStencilHalos(b *testing.B) {
	const side, bytes = 32, 8016 // hosts a side; halo of 1,000 float64s and a 16 B envelope
	link := fluid.LinkSpec{Bandwidth: 1.25e9, Latency: 1e-6}
	flat, err := fluid.NewFlat(fluid.FlatConfig{Hosts: side * side, Link: link})
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		topo fluid.Topology
	}{{"flat", flat}, {"fattree", parsedTree(b, "3;16,16,4;1,4,4;1,1,1", link)}} {
		b.Run(c.name, func(b *testing.B) {
			var specs []fluid.FlowSpec
			for h := range side * side {
				i, j := h/side, h%side
				for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
					if ii, jj := i+d[0], j+d[1]; ii >= 0 && ii < side && jj >= 0 && jj < side {
						specs = append(specs, fluid.FlowSpec{Links: c.topo.Route(h, ii*side+jj).Links, Bytes: bytes})
					}
				}
			}
			s := fluid.NewSystem(c.topo.Links())
			var ids []fluid.FlowID
			now, halos := 0.0, 0
			stats := s.SolveStats()
			cpu := processCPU()
			for b.Loop() {
				ids = s.StartAll(now, specs, ids[:0])
				for s.Active() > 0 {
					t, id, ok := s.NextCompletion()
					if !ok {
						b.Fatal("no completion")
					}
					now = t
					s.Finish(now, id)
					halos++
				}
			}
			cpu = processCPU() - cpu
			st := s.SolveStats()
			b.ReportMetric(float64(halos)/(float64(cpu)/1e9), "halos/cpu-s")
			b.ReportMetric(float64(st.Resolves-stats.Resolves)/(float64(cpu)/1e9), "resolves/cpu-s")
			b.ReportMetric(float64(st.Flows-stats.Flows)/float64(st.Resolves-stats.Resolves), "flows/resolve")
			b.ReportMetric(float64(cpu)/1e9/float64(b.N), "cpu-s/op")
		})
	}
}
