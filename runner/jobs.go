package runner

import (
	"fmt"
	"math"
	"time"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/scenario"
)

// JobResult is one [[jobs]] entry's outcome: its time among the others,
// alone on the same hosts (Options.NoAlone leaves it out), the slowdown
// the others cause, and its application's results as a run of it alone
// would give them.
type JobResult struct {
	Name     string  `json:"name"`
	App      string  `json:"app"`
	Ranks    int     `json:"ranks"`
	Start    float64 `json:"start_s"`
	Time     float64 `json:"time_s"`             // from its start to its last rank's end, with the others, s
	Alone    float64 `json:"alone_s,omitempty"`  // the same, alone on the platform, s
	Slowdown float64 `json:"slowdown,omitempty"` // Time / Alone; 0 (left out) when Alone is 0
	Hosts    []int   `json:"hosts"`              // rank → host
	Results  any     `json:"results"`            // as a run's results (HPL's, the replay's, ...)

	Result *Result `json:"-"` // the job's results with the others, in a Result of its own
}

// runJobs runs the plan's [[jobs]] together on one ranks.Machine, then,
// unless opt.NoAlone, each job alone on the same hosts from the same start,
// and reports each job's time and slowdown. With opt.Links, the traffic is
// that of the jobs together. Recording a graph, a trace, a breakdown or
// pivots applies to one application's run, not to jobs.
func runJobs(p *scenario.Plan, topo fluid.Topology, opt Options) (*Result, error) {
	if opt.Graph || opt.Breakdown || opt.MPISplit || opt.RecordPivots {
		return nil, fmt.Errorf("a scenario with [[jobs]] records no execution graph, breakdown or pivots")
	}
	start := time.Now() // wall time of the emulation: runner is outside the deterministic core
	res := &Result{App: scenario.AppJobs, Ranks: p.Ranks, Seed: p.Seed, Plan: p, Results: []any{}, Bound: opt.Bound}
	together, m, err := runMachine(p, topo, p.Jobs, opt)
	if err != nil {
		return nil, err
	}
	res.SimulatedTime = m.Engine().Now()
	if opt.Links {
		res.Traffic = together.traffic
	}
	for i, j := range p.Jobs {
		jr := together.jobs[i]
		jr.Hosts = j.Place
		if !opt.NoAlone {
			alone, _, err := runMachine(p, topo, []*scenario.Job{j}, Options{})
			if err != nil {
				return nil, err
			}
			jr.Alone = alone.jobs[0].Time
			// A job that takes no time alone (free communication under
			// --bound compute-only, a ring of empty messages) has no
			// slowdown: Time/0 is NaN or +Inf, which JSON cannot carry.
			if jr.Alone > 0 {
				jr.Slowdown = jr.Time / jr.Alone
			}
		}
		res.Jobs = append(res.Jobs, jr)
	}
	res.WallTime = time.Since(start).Seconds()
	return res, nil
}

// machineRun is what runMachine reports: each job's result and, with
// Options.Links, the traffic.
type machineRun struct {
	jobs    []*JobResult
	traffic *observe.Traffic
}

// runMachine runs jobs at once on one ranks.Machine over topo; a job's
// error is returned naming it.
func runMachine(p *scenario.Plan, topo fluid.Topology, jobs []*scenario.Job, opt Options) (*machineRun, *ranks.Machine, error) {
	m, err := ranks.NewMachine(p.Network, topo)
	if err != nil {
		return nil, nil, err
	}
	var reach *observe.ReachCounter
	if opt.Links {
		m.Engine().System().RecordTraffic()
		reach = observe.NewReachCounter(topo)
	}
	var tw *observe.TraceWriter
	if opt.Trace != nil {
		if len(jobs) > 256 {
			return nil, nil, fmt.Errorf("a trace of %d jobs: at most 256", len(jobs))
		}
		to := opt.TraceTo
		if to == 0 {
			to = math.Inf(1)
		}
		tw = observe.NewTraceWriter(opt.Trace, p.Ranks, opt.TraceFrom, to)
	}
	if err := setMachineProfiles(m, p, jobs); err != nil {
		return nil, nil, err
	}
	run := &machineRun{}
	fns := make([]func(*ranks.World) error, len(jobs))
	first := 0
	for i, j := range jobs {
		w, err := m.NewWorld(j.Place, j.Seed, j.Start)
		if err != nil {
			return nil, nil, fmt.Errorf("job %s: %w", j.Name, err)
		}
		if reach != nil {
			w.AddListener(ranks.Listener{Kinds: ranks.KindsOf(ranks.SendPost), Hook: reach.HookFor(j.Place)})
		}
		if tw != nil {
			w.AddListener(tw.JobListener(i, j.Name, first, j.Plan.Ranks))
			first += j.Plan.Ranks
		}
		jr := &JobResult{Name: j.Name, App: j.Plan.App, Ranks: j.Plan.Ranks, Start: j.Start,
			Result: &Result{App: j.Plan.App, Ranks: j.Plan.Ranks, Seed: j.Plan.Seed, Plan: j.Plan, HostSpeed: j.Plan.Kernels.HostSpeed}}
		run.jobs = append(run.jobs, jr)
		fns[i] = func(w *ranks.World) error {
			err := runApp(j.Plan, w, jr.Result, Options{}, j.Place)
			jr.Time = w.End() - j.Start
			jr.Result.SimulatedTime = w.End()
			jr.Results = jr.Result.Results
			return err
		}
	}
	for i, err := range m.Run(fns) {
		if err != nil {
			return nil, nil, fmt.Errorf("job %s: %w", jobs[i].Name, err)
		}
	}
	if tw != nil {
		if err := tw.Close(); err != nil {
			return nil, nil, fmt.Errorf("writing the trace: %w", err)
		}
	}
	if reach != nil {
		now := m.Engine().Now()
		run.traffic = observe.TrafficOf(topo.Links(), m.Engine().System().Traffic(now), now, reach)
	}
	return run, m, nil
}

// setMachineProfiles gives the Machine what runner.Run gives a job's World
// alone: where a job runs executions (a TI replay, timed kernels), the
// hosts' processors, which ranks that outnumber a host's cores share
// (those of all the jobs on it), and their speed profiles; and the links'
// profiles. Each profile plays once, for every job, as SimGrid plays a
// platform's profiles for all the actors on it.
func setMachineProfiles(m *ranks.Machine, p *scenario.Plan, jobs []*scenario.Job) error {
	if err := setLinkProfiles(m, p); err != nil {
		return err
	}
	for _, j := range jobs {
		if executes(j.Plan) {
			if err := m.SetCPUs(cpusOf(p)); err != nil {
				return err
			}
			return setSpeedProfiles(m, p)
		}
	}
	return nil
}
