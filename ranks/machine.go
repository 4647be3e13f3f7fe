package ranks

import (
	"fmt"
	"sync"

	"github.com/emu-hpc/emu/emu"
	"github.com/emu-hpc/emu/fluid"
)

// A Machine runs several jobs at once on one platform: each job is a World
// of its own (its own ranks numbered from 0, its own communicators, hooks
// and seed) but all share one engine, one fluid system — so their messages
// share the links max-min fairly — and one scheduler, so their ranks take
// turns as one job's do (ready ranks in the order of their Worlds, then of
// their ranks). It is how seed 001's congestion experiments run: a job
// beside a congestor.
type Machine struct {
	cfg  Config
	topo fluid.Topology
	eng  *emu.Engine
	sc   *sched
	all  []*World

	mu      sync.Mutex
	pending int           // Worlds of the Run not yet given a main nor given up
	done    chan struct{} // closed when the shared run is over
}

// NewMachine returns a Machine over topo whose jobs all follow cfg's MPI
// and network model.
func NewMachine(cfg Config, topo fluid.Topology) (*Machine, error) {
	eng, sc, err := newEngine(cfg, topo)
	if err != nil {
		return nil, err
	}
	return &Machine{cfg: cfg, topo: topo, eng: eng, sc: sc}, nil
}

// Engine is the engine every job runs on.
func (m *Machine) Engine() *emu.Engine { return m.eng }

// NewWorld adds a job of len(placement) ranks, rank i on host placement[i],
// whose ranks' mains begin at start (s, ≥ 0). Add every job before Run.
func (m *Machine) NewWorld(placement []int, seed uint64, start float64) (*World, error) {
	if !(start >= 0) {
		return nil, fmt.Errorf("ranks: job start %v s, want ≥ 0", start)
	}
	w, err := newWorld(m.cfg, m.topo, placement, seed, m.eng, m.sc)
	if err != nil {
		return nil, err
	}
	w.machine, w.start = m, start
	m.all = append(m.all, w)
	return w, nil
}

// Run runs the jobs together: jobs[i] is job i's application, which is
// given World i and calls its Run (as apps/hpl, apps/pingpong and
// apps/replay do), each in a goroutine of its own. The ranks start once
// every job has called World.Run or returned without (an application that
// refuses its input); then all run on the shared engine. Run returns each
// job's error: its application's own, or its World's — a deadlock names
// the job's blocked ranks; a job stopped because another one failed says
// so.
func (m *Machine) Run(jobs []func(w *World) error) []error {
	if len(jobs) != len(m.all) {
		panic(fmt.Sprintf("ranks: Machine.Run with %d jobs for %d Worlds", len(jobs), len(m.all)))
	}
	m.pending, m.done = len(jobs), make(chan struct{})
	errs := make([]error, len(jobs))
	var wg sync.WaitGroup
	for i, job := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = job(m.all[i])
			if !m.all[i].ran {
				m.arrive() // gave up before Run: the others need not wait for it
			}
		}()
	}
	wg.Wait()
	return errs
}

// join is World.Run for a World of the Machine: it waits until the shared
// run is over and returns the World's error.
func (m *Machine) join(w *World) error {
	m.arrive()
	<-m.done
	return w.err
}

// arrive counts one job as ready (or given up); the last one starts the
// shared driver over the Worlds whose Run was called, in the order they
// were added, and has the Worlds' errors set when it ends.
func (m *Machine) arrive() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending--; m.pending > 0 {
		return
	}
	for _, w := range m.all {
		if w.ran {
			m.sc.worlds = append(m.sc.worlds, w)
		}
	}
	if len(m.sc.worlds) == 0 {
		close(m.done)
		return
	}
	go func() {
		finished := make(chan struct{})
		go m.sc.drive(finished)
		<-finished
		m.settle()
		close(m.done)
	}()
}

// settle gives every World that did not complete an error: its deadlock,
// or that another job's failure stopped it.
func (m *Machine) settle() {
	var failed *World
	for _, w := range m.sc.worlds {
		if w.err != nil {
			failed = w
			break
		}
	}
	for _, w := range m.sc.worlds {
		if w.err != nil || w.left == 0 {
			continue
		}
		if d := w.deadlock(); len(d.Blocked) > 0 && failed == nil {
			w.err = d
		} else {
			w.err = fmt.Errorf("ranks: job stopped at %g s: another job failed", m.eng.Now())
		}
	}
}
