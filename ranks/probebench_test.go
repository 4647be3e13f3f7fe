package ranks

import "testing"

// benchProbeLoop: every rank of a 1,024-rank crossbar polls for a message
// that never comes, rounds times, a kernel between two polls (HPL's update
// between the probes of its ring broadcast, with merged kernel sleeps): the
// probe path alone (settle, the probe's cost as a sleep, the mailbox look)
// and the engine's timers, with no message. The kernels' lengths differ
// from rank to rank so that the wake-ups spread over many instants.
func benchProbeLoop(b *testing.B, order WakeOrder, ranks, rounds int) {
	cfg, _ := Preset("cm02")
	cfg.IprobeCost = 2e-7
	cfg.WakeOrder = order
	topo := newCrossbar(ranks, 1e10, 1e-6)
	probes, events := 0, uint64(0)
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		w, err := NewWorld(cfg, topo, identity(ranks), 1)
		if err != nil {
			b.Fatal(err)
		}
		w.MergeKernelSleeps()
		err = w.Run(func(r *Rank) {
			c := r.World()
			kernel := 1e-6 * float64(1+r.ID()%13)
			for k := 0; k < rounds; k++ {
				r.Compute(kernel, "dgemm")
				if ok, _ := c.Iprobe(AnySource, 0); ok {
					b.Errorf("rank %d: a probe found a message nobody sent", r.ID())
				}
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		probes += ranks * rounds
		events += w.Engine().Fired()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(probes), "cpu-ns/probe")
	b.ReportMetric(float64(events)/float64(probes), "events/probe")
}

func BenchmarkProbeLoop1024(b *testing.B)        { benchProbeLoop(b, WakeRank, 1024, 200) }
func BenchmarkProbeLoop1024SimGrid(b *testing.B) { benchProbeLoop(b, WakeSimGrid, 1024, 200) }
