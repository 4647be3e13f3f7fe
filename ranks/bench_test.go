package ranks

import (
	"fmt"
	"iter"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/emu-hpc/emu/fluid"
)

// Figures (2026-11-22, 2 shared cores at load 6-13, `go test -c &&
// ./ranks.test -test.bench . -test.cpu 1 -test.benchtime 2x`, three runs
// alternating with a build of commit 99eba48 — the ranks/fluid/emu before
// the coroutine scheduler — as baseline in the same session):
//
//	Ring1024            506–585 ns CPU/msg, i.e. 1.7–2.0 M msgs per
//	                    CPU-second (baseline 1,198–1,260 ns: 2.2× less),
//	                    0.18 allocs/msg (baseline 3.1). Ranks are
//	                    coroutines (one ~30 ns switch each way instead of a
//	                    130+ ns channel hand-off), fluid reuses its flows
//	                    and rates a flow alone on its links directly.
//	RandomFatTree4096   17.6–25 µs CPU/msg (baseline 32–38 in a later
//	                    trio of runs: 1.5–2×): max-min re-solves of the
//	                    contended fat tree are two thirds of it; they now
//	                    stop once every flow is fixed.
//	IdleRankMemory      2.8 KiB/rank (baseline 5.1; target < 16 KiB).
//	BaselineHandoff     130–330 ns CPU per channel hand-off, what the first
//	                    scheduler paid per switch; BaselineCoroSwitch
//	                    31 ns per coroutine switch, what World pays now.

// cpuTime returns the CPU time (user + system) the process has used. The
// machine these benchmarks run on is shared, so wall-clock rates swing with
// the load; CPU time per message is the steadier figure to compare.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchRing: every rank of a 1,024-rank crossbar sends 8 bytes to its right
// neighbour and receives from its left one, rounds times. The messages are
// uncontended (each uses its own up and down link).
func benchRing(b *testing.B, ranks, rounds int) {
	cfg, _ := Preset("cm02")
	cfg.IprobeCost, cfg.TestCost = 0, 0
	topo := newCrossbar(ranks, 1e10, 1e-6)
	b.ReportAllocs()
	msgs, events := 0, uint64(0)
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		w, err := NewWorld(cfg, topo, identity(ranks), 1)
		if err != nil {
			b.Fatal(err)
		}
		err = w.Run(func(r *Rank) {
			c := r.World()
			right, left := (r.ID()+1)%ranks, (r.ID()-1+ranks)%ranks
			for k := 0; k < rounds; k++ {
				c.Send(right, 0, Msg{Bytes: 8}) // detached: returns at once
				c.Recv(left, 0)
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		msgs += ranks * rounds
		events += w.Engine().Fired()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(msgs), "cpu-ns/msg")
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

func BenchmarkRing1024(b *testing.B) { benchRing(b, 1024, 100) }

// BenchmarkRandomFatTree4096: 4,096 ranks on SimGrid's 3-level fat tree
// "3;16,16,16;1,4,4;1,1,1"; in round k rank r sends 1 KiB to
// (a·r + k·b) mod 4096 (a odd: a permutation) and receives from the rank
// that maps onto it, so routes cross all levels and share links.
func BenchmarkRandomFatTree4096(b *testing.B) { benchRandomFatTree(b, 0, false) }

// BenchmarkRandomFatTree4096Light is BenchmarkRandomFatTree4096 with the
// messages light (Config.LightFlow = 64 KiB, fluid.Approximations.LightBytes).
// Figures (2026-11-26, load 2–3, `-benchtime 2x -cpu 1`, two runs each,
// alternated): 4.7–6.7 µs CPU a message against 15.8–16.1 exact (2.4–3.4×).
// By a short pprof sample, fluid's StartAll is a quarter of what is left
// (rating light flows, and exact solves where a link's light budget is
// full: 64 messages of 1 KiB), route computation an eighth (each op
// builds a new World) and ranks' matching a fifth.
func BenchmarkRandomFatTree4096Light(b *testing.B) { benchRandomFatTree(b, 65536, false) }

// BenchmarkRandomFatTree4096Local is BenchmarkRandomFatTree4096 with local
// re-solves (Config.LocalSolve, fluid.Approximations.LocalSolve).
func BenchmarkRandomFatTree4096Local(b *testing.B) { benchRandomFatTree(b, 0, true) }

// BenchmarkRandomFatTree4096LightLocal has both approximations: light
// messages, and local re-solves where a full light budget forces a solve.
func BenchmarkRandomFatTree4096LightLocal(b *testing.B) { benchRandomFatTree(b, 65536, true) }

func benchRandomFatTree(b *testing.B, light float64, local bool) {
	const n, rounds, a, step = 4096, 4, 2053, 977
	topo, err := fluid.NewFatTree(fluid.FatTreeConfig{Levels: 3, Down: []int{16, 16, 16}, Up: []int{1, 4, 4}, Parallel: []int{1, 1, 1},
		Link: fluid.LinkSpec{Bandwidth: 1e10, Latency: 1e-6}})
	if err != nil {
		b.Fatal(err)
	}
	cfg, _ := Preset("cm02")
	cfg.LightFlow, cfg.LocalSolve = light, local
	// inverse of a modulo n, to find whom to receive from.
	inv := 1
	for (a*inv)%n != 1 {
		inv += 2
	}
	b.ReportAllocs()
	msgs, events := 0, uint64(0)
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		w, err := NewWorld(cfg, topo, identity(n), 1)
		if err != nil {
			b.Fatal(err)
		}
		err = w.Run(func(r *Rank) {
			c := r.World()
			for k := 0; k < rounds; k++ {
				dst := (a*r.ID() + k*step) % n
				src := (((r.ID()-k*step)%n + n) % n * inv) % n
				q := c.Isend(dst, 0, Msg{Bytes: 1024})
				c.Recv(src, 0)
				q.Wait()
			}
		})
		if err != nil {
			b.Fatal(err)
		}
		msgs += n * rounds
		events += w.Engine().Fired()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(msgs), "cpu-ns/msg")
	b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// BenchmarkIdleRankMemory measures the memory held per rank blocked in a
// receive: Go heap plus goroutine stacks, read when the last rank blocks.
func BenchmarkIdleRankMemory(b *testing.B) {
	const n = 10000
	cfg, _ := Preset("cm02")
	topo := newCrossbar(1, 1e10, 1e-6)
	place := make([]int, n)
	var perRank float64
	for i := 0; i < b.N; i++ {
		var before, during runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		w, err := NewWorld(cfg, topo, place, 1)
		if err != nil {
			b.Fatal(err)
		}
		err = w.Run(func(r *Rank) {
			if r.ID() == n-1 {
				runtime.GC()
				runtime.ReadMemStats(&during)
			}
			r.World().Recv(AnySource, 0)
		})
		if err == nil {
			b.Fatal("expected the idle ranks to deadlock")
		}
		used := float64(during.HeapInuse+during.StackInuse) - float64(before.HeapInuse+before.StackInuse)
		perRank = used / n
	}
	b.ReportMetric(perRank, "bytes/rank")
}

// BenchmarkBaselineHandoff: one baton pass between two goroutines through
// per-goroutine channels, as the first World did (kept for comparison).
func BenchmarkBaselineHandoff(b *testing.B) {
	a, c := make(chan struct{}, 1), make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		for i := 0; i < b.N; i++ {
			<-c
			a <- struct{}{}
		}
		close(done)
	}()
	b.ResetTimer()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		c <- struct{}{}
		<-a
	}
	<-done
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(2*b.N), "cpu-ns/handoff")
	b.ReportMetric(2*float64(b.N)/b.Elapsed().Seconds(), "handoffs/s")
}

// BenchmarkBaselineCoroSwitch is the floor under every blocking call now:
// World resumes rank coroutines (iter.Pull); one resume-and-yield is two
// switches.
func BenchmarkBaselineCoroSwitch(b *testing.B) {
	next, stop := iter.Pull(func(yield func(struct{}) bool) {
		for yield(struct{}{}) {
		}
	})
	defer stop()
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		next()
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(2*b.N), "cpu-ns/switch")
}

// BenchmarkRollScale weighs what scale costs a message: the same roll
// (Issend, Recv, Wait with alternating ring neighbours, 4 MiB, SMPI's
// model, on examples/stampede.toml's 6,006-host fat tree) and the same
// 288,288 messages, made by 1 row of 78 ranks (3,696 steps each) or by 77
// rows, 6,006 ranks (48 steps), written as the blocking calls ("calls") or
// as a task (Comm.Exchanges, "task"). It reports CPU per message, building
// the World included. Among 6,006 ranks every rank's state is evicted
// before it runs again; a task spares the rank's coroutine and stack.
//
//	go test -run XXX -bench RollScale -benchtime 3x ./ranks
//
// Its last-level cache misses, as a task or not (2026-11-26: 11.3 M data
// misses with the calls, 2.0 M as a task, the whole process):
//
//	go test -c ./ranks && GOGC=off valgrind --tool=cachegrind --cache-sim=yes \
//	    --D1=32768,8,64 --LL=16777216,16,64 ./ranks.test -test.run XXX \
//	    -test.bench 'RollScale/ranks6006/task$' -test.benchtime 1x -test.cpu 1
func BenchmarkRollScale(b *testing.B) {
	const Q, total = 78, 3696
	for _, rows := range []int{1, 77} {
		for _, asTask := range []bool{false, true} {
			name := fmt.Sprintf("ranks%d/calls", rows*Q)
			if asTask {
				name = fmt.Sprintf("ranks%d/task", rows*Q)
			}
			b.Run(name, func(b *testing.B) {
				steps := total / rows
				topo := stampedeFatTree(b)
				cfg, _ := Preset("smpi")
				cpu0 := cpuTime()
				for i := 0; i < b.N; i++ {
					w, err := NewWorld(cfg, topo, identity(rows*Q), 1)
					if err != nil {
						b.Fatal(err)
					}
					err = w.Run(func(r *Rank) {
						row := r.World().Split(r.ID()/Q, r.ID())
						x := &ringRoll{me: row.Rank(), n: Q, pieces: make([]int, Q)}
						for p := range x.pieces {
							x.pieces[p] = 4 << 20
						}
						if asTask {
							row.Exchanges(steps, 7, x)
							return
						}
						for k := range steps {
							dst, m, src := x.Exchange(k) // every piece non-empty: both sides
							s := row.Issend(dst, 7, m)
							in, _ := row.Recv(src, 7)
							x.Received(k, in)
							s.Wait()
							s.Free()
						}
					})
					if err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*rows*Q*steps), "cpu-ns/message")
			})
		}
	}
}

// BenchmarkStampedeRoll is the long broadcast's roll of
// validation.BenchmarkStampedePanels in miniature, to weigh a change to the
// per-message path at Stampede's scale in seconds rather than minutes: 77×78
// ranks on the 6,006-host fat tree of examples/stampede.toml, each row of
// 78 exchanging 4 MiB synchronous sends (Issend, Recv, Wait) with its
// neighbours 12 times, under SMPI's model, one hook listening (as the
// validation benchmark's). Each op builds a new World (routes, coroutines).
//
// At this scale the per-message path is bound by cache misses on cold
// requests, ranks, routes and coroutine stacks, which a shared machine's
// CPU time measures with a noise of several percent. Cachegrind counts them
// exactly (GOGC=off keeps the collector out of the count):
//
//	GOGC=off valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 \
//	    --LL=1048576,8,64 ./ranks.test -test.run XXX \
//	    -test.bench StampedeRoll -test.benchtime 1x -test.cpu 1
//
// (2026-11-26: laying requests, ranks and routes out by cache line took its
// LL data misses from 8.07 M to 7.21 M, -11%; instructions +1%.)
func BenchmarkStampedeRoll(b *testing.B) {
	const Q, steps = 78, 12
	benchStampedeWorld(b, func(r *Rank) {
		row := r.World().Split(r.ID()/Q, r.ID())
		me := row.Rank()
		next, prev := (me+1)%Q, (me+Q-1)%Q
		for k := 0; k < steps; k++ {
			partner := next
			if (me+k)&1 != 0 {
				partner = prev
			}
			q := row.Issend(partner, 7, Msg{Bytes: 4 << 20})
			row.Recv(partner, 7)
			q.Wait()
			q.Free()
		}
	})
}

// BenchmarkStampedePivot is BenchmarkStampedeRoll for the other half of a
// Stampede panel's messages: HPL's binary-exchange pivot search down each
// of the 78 process columns of 77 ranks, 8 KiB detached messages posted as
// HPL's sdrv does (Irecv, Send, Wait), three searches. Contended links make
// the max-min solver most of its cost.
func BenchmarkStampedePivot(b *testing.B) {
	const P, Q, rounds = 77, 78, 3
	benchStampedeWorld(b, func(r *Rank) {
		col := r.World().Split(r.ID()%Q, r.ID())
		me := col.Rank()
		for k := 0; k < rounds; k++ {
			for bit := 1; bit < 64; bit <<= 1 {
				partner := me ^ bit
				if partner >= P {
					continue
				}
				q := col.Irecv(partner, 5)
				col.Send(partner, 5, Msg{Bytes: 8 << 10})
				q.Wait()
				q.Free()
			}
		}
	})
}

// stampedeFatTree is examples/stampede.toml's 6,006-host fat tree.
func stampedeFatTree(b *testing.B) *fluid.FatTree {
	fc, err := fluid.ParseFatTreeParams("2;22,273;1,8;1,1")
	if err != nil {
		b.Fatal(err)
	}
	fc.Link = fluid.LinkSpec{Bandwidth: 7e9, Latency: 1e-6}
	topo, err := fluid.NewFatTree(fc)
	if err != nil {
		b.Fatal(err)
	}
	return topo
}

// benchStampedeWorld runs body on 77×78 ranks of examples/stampede.toml's
// fat tree under SMPI's model, a new World each op, with one hook counting
// sends (as validation.BenchmarkStampedePanels has one), and reports the
// sends per op.
func benchStampedeWorld(b *testing.B, body func(*Rank)) {
	topo := stampedeFatTree(b)
	cfg, _ := Preset("smpi")
	sends := 0
	for i := 0; i < b.N; i++ {
		w, err := NewWorld(cfg, topo, identity(77*78), 1)
		if err != nil {
			b.Fatal(err)
		}
		w.AddHook(func(ev *Event) {
			if ev.Kind == SendPost {
				sends++
			}
		})
		if err := w.Run(body); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(sends)/float64(b.N), "sends")
}
