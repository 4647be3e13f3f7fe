package main

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// An ensemble is one scenario run several times so that its figures come with
// error bars (issue 32.3): under K seeds (--seeds, for a stochastic scenario:
// kernel noise, random placement, exponential delays), or K copies whose
// links are moved by parts in 10⁹ (--perturb, for a deterministic run whose
// order of events flips on ties: SimGrid's growing probe cost). With both,
// every seed runs every copy: K·M runs.
//
// Member i of seeds×copies is seed offset i / copies and copy i % copies.
// Member 0 is the scenario as written (its own seed, no perturbation): its
// report is printed and its files written, exactly as `emu run` alone does.

// perturbRel is how far --perturb moves each link's latency and bandwidth,
// relative: ε is uniform in [−perturbRel, perturbRel]. Far below any
// measurement of a network, and far above float64's rounding (1e-16).
const perturbRel = 1e-9

// perturbStream is the PCG stream of the perturbations: copy j draws its
// links' ε from PCG(j, perturbStream), whatever the seed.
const perturbStream = 0x7065727475726221

// probeWindow is how long member 0 runs alone, at most, so that one run's
// memory is known before the others start beside it (wall time).
const probeWindow = time.Second

// memoryShare is the fraction of the memory available at the start that the
// runs at once may take together.
const memoryShare = 0.8

// ensembleFlags are --seeds, --perturb and --jobs.
type ensembleFlags struct {
	seeds, perturb, jobs int
	withJobs             bool // --jobs is the ensemble's (run), not the command's own (tune)
}

func (f *ensembleFlags) add(cmd *cobra.Command, withJobs bool) {
	fl := cmd.Flags()
	fl.IntVar(&f.seeds, "seeds", 0, "run `K` seeds of the scenario (its seed, seed+1, ..., seed+K−1) and report each figure's mean, min–max and 90% band (p05–p95) over them")
	fl.IntVar(&f.perturb, "perturb", 0, "run `K` copies of the scenario, copy 0 as written and copies 1..K−1 with every link's latency and bandwidth ×(1+ε), ε uniform in ±1e-9 per link: the spread of a deterministic but chaotic run")
	f.withJobs = withJobs
	if withJobs {
		fl.IntVar(&f.jobs, "jobs", 0, "with --seeds or --perturb: runs at once (default GOMAXPROCS; fewer when memory is short)")
	}
}

// on reports whether an ensemble was asked for.
func (f *ensembleFlags) on() bool { return f.seeds != 0 || f.perturb != 0 }

// check refuses values that make no ensemble.
func (f *ensembleFlags) check(cmd *cobra.Command) error {
	for _, c := range []struct {
		name string
		v    int
	}{{"seeds", f.seeds}, {"perturb", f.perturb}, {"jobs", f.jobs}} {
		if c.name == "jobs" && !f.withJobs {
			continue
		}
		if cmd.Flags().Changed(c.name) && c.v < 1 {
			return fmt.Errorf("--%s %d: want a number of runs ≥ 1", c.name, c.v)
		}
	}
	if s, c := max(1, f.seeds), max(1, f.perturb); s > maxRuns/c {
		var asked string
		switch {
		case f.seeds > 0 && f.perturb > 0:
			asked = fmt.Sprintf("--seeds %d --perturb %d: %s runs", f.seeds, f.perturb, runsText(s, c))
		case f.seeds > 0:
			asked = fmt.Sprintf("--seeds %d", f.seeds)
		default:
			asked = fmt.Sprintf("--perturb %d", f.perturb)
		}
		return fmt.Errorf("%s: want at most %d runs in all (each run's result is kept for the table)", asked, maxRuns)
	}
	if f.withJobs && cmd.Flags().Changed("jobs") && !f.on() {
		return errors.New("--jobs: only meaningful with --seeds or --perturb")
	}
	return nil
}

// maxRuns bounds an ensemble: every run's result is kept until the table is
// made, so a mistyped --seeds 100000000000 would otherwise end in the
// runtime's out-of-memory crash instead of a line naming the flag.
const maxRuns = 1_000_000

// runsText is seeds × copies in words, without overflowing an int.
func runsText(seeds, copies int) string {
	if hi, lo := bits.Mul64(uint64(seeds), uint64(copies)); hi == 0 && lo <= math.MaxInt64 {
		return strconv.FormatUint(lo, 10)
	}
	return "more than " + strconv.FormatInt(math.MaxInt64, 10)
}

// spec is the ensemble the flags ask for (nil without one).
func (f *ensembleFlags) spec() *ensembleSpec {
	if !f.on() {
		return nil
	}
	return &ensembleSpec{seeds: max(1, f.seeds), copies: max(1, f.perturb), perturb: f.perturb > 0, jobs: f.jobs}
}

// ensembleSpec says which runs make an ensemble.
type ensembleSpec struct {
	seeds, copies int  // ≥ 1 each
	perturb       bool // --perturb given (copies may still be 1)
	jobs          int  // runs at once; 0: GOMAXPROCS
}

func (s *ensembleSpec) runs() int { return s.seeds * s.copies }

// member says what run i is: the offset of its seed from the scenario's and
// its copy (0: not perturbed).
func (s *ensembleSpec) member(i int) (seedOffset, cp int) { return i / s.copies, i % s.copies }

// ensemble runs the members of a spec and keeps their results.
type ensemble struct {
	spec ensembleSpec
	// replan makes the scenario again with extra --set (the same flags as
	// member 0's plan, which must be made the same way).
	replan func(extra ...string) (*scenario.Plan, error)
	bound  string // --bound, applied to every member's plan
	seed   uint64 // member 0's seed
	report string // where member 0's report went: "above" (standard output), "on standard error", "in FILE"

	results []*runner.Result // per member, after run
	jobs    int              // runs that went at once
	wall    time.Duration    // the ensemble's wall time
}

// reportWhere says where printTo puts plan's report, as seen from standard
// output, where the ensemble's table goes.
func reportWhere(plan *scenario.Plan) string {
	switch {
	case plan.App != scenario.AppHPL || plan.HPLDat.Device == 6:
		return "above"
	case plan.HPLDat.Device == 7:
		return "on standard error"
	}
	return "in " + plan.HPLDat.OutFile
}

// newEnsemble checks that the spec's seeds exist (a TOML integer is signed)
// and returns the ensemble around member 0's plan.
func newEnsemble(spec *ensembleSpec, base *scenario.Plan, bound string, replan func(extra ...string) (*scenario.Plan, error)) (*ensemble, error) {
	if spec == nil {
		return nil, nil
	}
	if last := base.Seed + uint64(spec.seeds-1); last > math.MaxInt64 || last < base.Seed {
		return nil, fmt.Errorf("--seeds %d: seeds %d to %d pass the largest seed, %d", spec.seeds, base.Seed, last, int64(math.MaxInt64))
	}
	return &ensemble{spec: *spec, replan: replan, bound: bound, seed: base.Seed, report: reportWhere(base)}, nil
}

// plan is member i's plan and the options its run adds to opt.
func (e *ensemble) plan(i int, base *scenario.Plan, opt runner.Options) (*scenario.Plan, runner.Options, error) {
	off, cp := e.spec.member(i)
	plan := base
	if i > 0 {
		var extra []string
		if off > 0 {
			extra = append(extra, "seed="+strconv.FormatUint(e.seed+uint64(off), 10))
		}
		var err error
		if plan, err = e.replan(extra...); err != nil {
			return nil, opt, err
		}
		if e.bound != "" {
			if err := plan.ApplyBound(e.bound); err != nil {
				return nil, opt, err
			}
		}
	}
	if cp > 0 {
		opt.Topology = func(t fluid.Topology) (fluid.Topology, error) {
			return fluid.Perturbed(t, perturbRel, rand.New(rand.NewPCG(uint64(cp), perturbStream)))
		}
		// The loggops semantics has no topology: its L and G move instead
		// (by the next stream's draws).
		rng := rand.New(rand.NewPCG(uint64(cp), perturbStream+1))
		plan.LogGOPS.L *= 1 + perturbRel*(2*rng.Float64()-1)
		plan.LogGOPS.G *= 1 + perturbRel*(2*rng.Float64()-1)
	}
	return plan, opt, nil
}

// run runs every member: member 0 is base run with opt (its outputs, its
// recorders), the others with only what changes their figures (the bound, the
// per-class bandwidths, --no-alone: no job run alone, no slowdown). Member 0 starts alone and the others join it once it
// has finished or run probeWindow, as many at once as jobs allow and as one
// run's memory (member 0's peak so far) fits in the memory available; timed
// kernels go one at a time (they measure this machine's cores). progress, if
// not nil, hears each finished run. The results are kept in member order.
func (e *ensemble) run(base *scenario.Plan, opt runner.Options, progress func(done int)) (*runner.Result, error) {
	start := time.Now() // wall time of the ensemble, for its note on stderr
	defer func() { e.wall = time.Since(start) }()
	n := e.spec.runs()
	jobs := e.spec.jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	if base.Kernels.Mode == kernels.Timed {
		jobs = 1
	}
	jobs = min(jobs, n)
	rest := runner.Options{Bound: opt.Bound, ClassBandwidth: opt.ClassBandwidth, NoAlone: opt.NoAlone}
	e.results = make([]*runner.Result, n)
	errs := make([]error, n)
	var (
		finished atomic.Int64
		failed   atomic.Bool
	)
	one := func(i int) {
		o := rest
		if i == 0 {
			o = opt
		}
		plan, o, err := e.plan(i, base, o)
		if err == nil {
			e.results[i], err = runner.Run(plan, o)
		}
		if err != nil {
			off, cp := e.spec.member(i)
			errs[i] = fmt.Errorf("run %d of the ensemble (seed %d, copy %d): %w", i, e.seed+uint64(off), cp, err)
			failed.Store(true)
		}
		if progress != nil {
			progress(int(finished.Add(1)))
		}
	}

	var mem *memoryWatch
	if n > 1 && jobs > 1 {
		mem = newMemoryWatch()
	}
	done0 := make(chan struct{})
	go func() { defer close(done0); one(0) }()
	if mem != nil {
		select {
		case <-done0:
		case <-time.After(probeWindow):
		}
		jobs = min(jobs, mem.fit())
		mem.stop()
	}
	e.jobs = jobs

	slots := make(chan struct{}, jobs)
	slots <- struct{}{} // member 0's
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); <-done0; <-slots }()
	for i := 1; i < n && !failed.Load(); i++ {
		slots <- struct{}{}
		if failed.Load() {
			<-slots
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { <-slots }()
			one(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return e.results[0], nil
}

// memoryWatch follows the Go heap and stacks while member 0 runs alone: its
// peak above the start is one run's memory.
type memoryWatch struct {
	start, avail uint64 // bytes in use at the start; bytes the system had free then (0: unknown)
	peak         atomic.Uint64
	quit, done   chan struct{}
}

// memorySample is how often the watch reads the runtime's memory figures.
const memorySample = 20 * time.Millisecond

func newMemoryWatch() *memoryWatch {
	m := &memoryWatch{start: inUse(), avail: memAvailable(), quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(m.done)
		tick := time.NewTicker(memorySample)
		defer tick.Stop()
		for {
			m.sample()
			select {
			case <-m.quit:
				return
			case <-tick.C:
			}
		}
	}()
	return m
}

func (m *memoryWatch) sample() {
	if now := inUse(); now > m.start && now-m.start > m.peak.Load() {
		m.peak.Store(now - m.start)
	}
}

func (m *memoryWatch) stop() {
	select {
	case <-m.quit:
	default:
		close(m.quit)
		<-m.done
	}
}

// fit is how many runs of member 0's peak fit in memoryShare of the memory
// available at the start (at least 1; no bound when either is unknown).
func (m *memoryWatch) fit() int {
	m.sample()
	peak := m.peak.Load()
	if m.avail == 0 || peak == 0 {
		return math.MaxInt
	}
	return max(1, int(memoryShare*float64(m.avail)/float64(peak)))
}

// memoryMetrics are the runtime's figures for memory a run holds: heap objects
// (live and not yet swept) and goroutine stacks, bytes.
var memoryMetrics = []string{"/memory/classes/heap/objects:bytes", "/memory/classes/heap/stacks:bytes"}

// inUse is the bytes of heap objects and stacks the process holds now.
func inUse() uint64 {
	s := make([]metrics.Sample, len(memoryMetrics))
	for i, name := range memoryMetrics {
		s[i].Name = name
	}
	metrics.Read(s)
	var sum uint64
	for _, x := range s {
		if x.Value.Kind() == metrics.KindUint64 {
			sum += x.Value.Uint64()
		}
	}
	return sum
}
