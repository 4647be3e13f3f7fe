package ranks

import (
	"fmt"
	"math"

	"github.com/emu-hpc/emu/fluid"
)

// CPU is a host's processor: its speed, flop/s, and its cores.
type CPU struct {
	Speed float64
	Cores int
}

// SetCPUs gives the hosts their processors, cpus[h] host h's, before Run.
// On a host where the World's ranks outnumber the cores, the ranks'
// executions (Rank.Execute) share the processor as SimGrid's CPU model
// (Cas01) shares it: the host is one max-min constraint of capacity
// Speed × Cores, each execution a variable bounded by one core's Speed, so
// n executions running at once each progress at min(Speed, Speed·Cores/n)
// flop/s, and the shares change as executions start and end. On every
// other host an execution is Compute's sleep of flops/Speed seconds, as
// without SetCPUs.
func (w *World) SetCPUs(cpus []CPU) error {
	if w.ran {
		return fmt.Errorf("ranks: SetCPUs after Run")
	}
	return w.sched.setCPUs(cpus, w.topo.Hosts())
}

// SetCPUs is World.SetCPUs for every job of the Machine: a host is shared
// where the jobs' ranks on it, all together, outnumber its cores.
func (m *Machine) SetCPUs(cpus []CPU) error { return m.sc.setCPUs(cpus, m.topo.Hosts()) }

func (sc *sched) setCPUs(cpus []CPU, hosts int) error {
	if len(cpus) != hosts {
		return fmt.Errorf("ranks: %d CPUs for %d hosts", len(cpus), hosts)
	}
	for h, c := range cpus {
		if !(c.Speed > 0) || c.Cores < 1 {
			return fmt.Errorf("ranks: host %d's CPU: speed %g flop/s and %d cores, want > 0 and ≥ 1", h, c.Speed, c.Cores)
		}
	}
	sc.cpus = append([]CPU(nil), cpus...)
	return nil
}

// shareCPUs marks the hosts whose cores the ranks of the running Worlds
// outnumber and gives the engine a CPU system for them (drive calls it
// once every World is known): one link per shared host, of capacity
// Speed × Cores, in SimGrid's lmm under WakeSimGrid. It reports whether
// any host is shared.
func (sc *sched) shareCPUs() bool {
	if sc.cpus == nil {
		return false
	}
	count := make([]int, len(sc.cpus))
	for _, w := range sc.worlds {
		for _, h := range w.place {
			count[h]++
		}
	}
	var links []fluid.Link
	for h, c := range sc.cpus {
		if count[h] <= c.Cores && sc.speedProfile(h) == nil {
			continue
		}
		if sc.cpuLink == nil {
			sc.cpuLink = make([]fluid.LinkID, len(sc.cpus))
			for i := range sc.cpuLink {
				sc.cpuLink[i] = -1
			}
		}
		sc.cpuLink[h] = fluid.LinkID(len(links))
		links = append(links, fluid.Link{Name: fmt.Sprintf("cpu_%d", h), Bandwidth: c.Speed * float64(c.Cores), Sharing: fluid.Shared, Class: "cpu"})
	}
	if links == nil {
		return false
	}
	w := sc.worlds[0]
	o := fluid.Options{}
	if w.simgrid {
		o.Solver = fluid.SimGrid
	}
	cs := fluid.NewSystemOptions(links, o)
	w.eng.SetCPUs(cs)
	for h := range sc.cpus {
		p := sc.speedProfile(h)
		if p == nil {
			continue
		}
		if sc.cpuScale == nil {
			cs.VaryCapacities()
			sc.cpuScale = make([]float64, len(sc.cpus))
			for i := range sc.cpuScale {
				sc.cpuScale[i] = 1
			}
		}
		w.eng.AddProfile(*p, hostSpeed{sc, h})
	}
	return true
}

// ExecuteFor runs seconds of measured work as SMPI's benched execution
// (smpi_execute_benched): an execution of seconds × the host's speed flops
// (SetCPUs), which shares the host's cores where the ranks outnumber
// them; elsewhere, and without SetCPUs, it is Compute(seconds, kernel).
func (r *Rank) ExecuteFor(seconds float64, kernel string) {
	w := r.w
	if w.cpuLink == nil || w.cpuLink[r.host] < 0 || !(seconds > 0) {
		r.Compute(seconds, kernel)
		return
	}
	speed := w.cpus[r.host].Speed
	r.Execute(seconds*speed, speed, kernel)
}

// execDone is the emu.Handler that ends a rank's shared execution.
type execDone struct{ r *Rank }

func (d execDone) Handle() {
	d.r.rang = true
	d.r.w.wakeUp(d.r)
}

// Execute runs flops of work at speed flop/s, as SimGrid's execution of
// flops on the rank's host (SMPI's smpi_execute_flops): where the World's
// ranks outnumber the host's cores (SetCPUs), it shares the host's
// processor with the other executions running there; elsewhere it is
// Compute(flops/speed, kernel). speed must be the host's (SetCPUs). The
// compute events carry flops/speed as their Seconds, the time the work
// takes alone on a core. Work of no end (+Inf flops) stops the run with an
// *EndlessError naming the rank and the kernel, as Compute(+Inf) does.
func (r *Rank) Execute(flops, speed float64, kernel string) {
	w := r.w
	link := fluid.LinkID(-1)
	if w.cpuLink != nil {
		link = w.cpuLink[r.host]
	}
	if link < 0 || !(flops > 0) {
		if flops > 0 {
			r.Compute(flops/speed, kernel)
		} else {
			r.Compute(0, kernel)
		}
		return
	}
	cpu := w.cpus[r.host]
	if speed != cpu.Speed {
		panic(fmt.Sprintf("ranks: Execute at %g flop/s on host %d, whose speed is %g flop/s", speed, r.host, cpu.Speed))
	}
	seconds := flops / speed
	if math.IsInf(seconds, 1) { // a flow of endless work would only end in a deadlock
		panic(&EndlessError{Rank: r.id, Call: "Execute", Kernel: kernel})
	}
	r.settle()
	if w.hears(ComputeStart) {
		ev := w.event(ComputeStart, r.id, noPeer)
		ev.Kernel, ev.Seconds = kernel, seconds
		w.emit()
	}
	// SMPI's execution: set_flops_amount and set_host are simcalls before
	// start, as in Compute.
	r.simcalls(2)
	r.payOwed()
	r.rang = false
	w.eng.StartExec(fluid.FlowSpec{Links: []fluid.LinkID{link}, Bytes: flops, Bound: w.execBound(int(r.host))}, execDone{r})
	for !r.rang {
		r.block("Compute", noPeer, 0)
	}
	if w.hears(ComputeEnd) {
		ev := w.event(ComputeEnd, r.id, noPeer)
		ev.Kernel, ev.Seconds = kernel, seconds
		w.emit()
	}
}
