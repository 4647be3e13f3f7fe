package calibration

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"time"

	"github.com/emu-hpc/emu/internal/atomicfile"
	"github.com/emu-hpc/emu/kernels"
)

// Campaign measures a Plan on this node into a sample file.
type Campaign struct {
	Plan Plan
	Out  string // sample file; an existing one is resumed
	// Host is recorded in every row; "" means os.Hostname().
	Host string
	// Parallel is the number of workers measuring at once, one per core as
	// HPL loads a node, in lockstep (see runWorkers); 0 means 1.
	Parallel int
	Backend  string // kernels backend; "" is gonum
	// Repeats is how many times each call is timed after its warm-up run;
	// the sample is their mean. 0 means 1.
	Repeats int
	// Clock times each call; use the clock the predicted runs will use
	// (kernels.Config.Clock). A resumed file must have been made with it.
	Clock kernels.Clock
	// Beside, if set, names the kernel (in HPL, "dgemm") whose calls load
	// the node while every other kernel is timed: its own calls are timed
	// in lockstep as usual, then each other call is timed by one worker
	// while the other Parallel-1 run the plan's largest call of Beside
	// without a pause. In a run with look-ahead most of a rank's row moves
	// and copies happen while its neighbours update, and a node full of
	// ranks measured HPL's row interchanges at up to 30 times what
	// lockstep times (every core interchanging rows) gave
	// (docs/evidence/node16.md). The rows carry it in their plan column,
	// so a file is never resumed under the other setting.
	Beside string
	// Probe, if set, measures the node's reference probe (MeasureProbe)
	// before the first call and writes it into the sample file, unless the
	// file already has one (a resumed campaign keeps its first). Its Host,
	// Backend and Clock are the campaign's.
	Probe *ProbeOptions
	// Progress, if set, is called after each row with the rows done so far
	// (including those found on resume) and the total.
	Progress func(done, total int)
	// now is the clock of the timestamps (tests may pin it).
	now func() time.Time
	// midRow is handed to the Writer (tests only).
	midRow func()
	// onStep is told each step of each worker in lockstep (tests only).
	onStep func(core int, s lockStep)
	// onLoadRun is told each run of a worker loading the node for Beside
	// (tests only).
	onLoadRun func(core int)
}

// Result tells what a Run did.
type Result struct {
	Resumed     int  // rows already in the file
	Measured    int  // rows added by this run
	Total       int  // rows the plan has
	Interrupted bool // the context was cancelled before the plan was done
	// Remeasured counts the samples that looked like outliers (Suspects)
	// and were measured again; Outliers those still off after that, kept in
	// the file with status "outlier" and left out of fits.
	Remeasured, Outliers int
}

// Run measures every planned call the sample file does not hold yet. When
// ctx is cancelled it stops handing out calls, writes the ones in flight and
// returns with Interrupted set; rerunning continues from there.
func (c *Campaign) Run(ctx context.Context) (Result, error) {
	res := Result{Total: c.Plan.Total()}
	if err := c.Plan.Validate(); err != nil {
		return res, err
	}
	be, err := kernels.LookupBackend(c.Backend)
	if err != nil {
		return res, err
	}
	host := c.Host
	if host == "" {
		if host, err = os.Hostname(); err != nil {
			return res, err
		}
	}
	if err := checkName("host", host); err != nil {
		return res, err
	}
	parallel := max(1, c.Parallel)
	if parallel > 1 && c.Clock == kernels.CPUClock {
		return res, fmt.Errorf("the cpu clock counts every worker's time: measure with 1 worker, or with the wall clock")
	}
	if c.Beside != "" {
		if parallel < 2 {
			return res, fmt.Errorf("timing beside %s needs 2 workers or more (one times, the others load the node)", c.Beside)
		}
		if _, ok := c.loadCall(); !ok {
			return res, fmt.Errorf("timing beside %s: the plan has no %s call to load the node with", c.Beside, c.Beside)
		}
	}
	now := c.now
	if now == nil {
		now = time.Now
	}
	w, done, err := OpenSampleFile(c.Out)
	if err != nil {
		return res, err
	}
	w.midRow = c.midRow
	have, err := c.checkResumed(done)
	if err != nil {
		w.Close()
		return res, err
	}
	res.Resumed = len(done)
	if err := c.writeProbe(w, host, be.Name()); err != nil {
		w.Close()
		return res, fmt.Errorf("probing this node for %s: %w", c.Out, err)
	}
	if c.Progress != nil {
		c.Progress(res.Resumed, res.Total)
	}

	fp := c.fingerprint()
	sample := func(core, i int, sec float64, runs int) Sample {
		call := c.Plan.Call(i)
		return Sample{Index: i, Plan: fp, Host: host, Core: core, Kernel: call.Kernel,
			M: call.M, N: call.N, K: call.K, Seconds: sec, Time: now(), Backend: be.Name(), Clock: c.Clock.String(), Runs: runs}
	}
	write := func(s Sample) error {
		if err := w.Write(s); err != nil {
			return err
		}
		res.Measured++
		if c.Progress != nil {
			c.Progress(res.Resumed+res.Measured, res.Total)
		}
		return nil
	}
	switch {
	case parallel == 1:
		m := newMeasurer(be, c.Clock, c.Repeats, c.Plan.Seed^1)
		m.reserve(c.Plan, have)
		err = c.runAlone(ctx, have, m, c.Plan.Seed, sample, write)
	case c.Beside != "":
		err = c.runBeside(ctx, have, parallel, be, c.Plan.Seed, sample, write)
	default:
		err = c.runWorkers(ctx, have, parallel, be, c.Plan.Seed, sample, write)
	}
	if err := errors.Join(err, w.Close()); err != nil {
		return res, fmt.Errorf("writing %s: %w", c.Out, err)
	}
	res.Interrupted = res.Resumed+res.Measured < res.Total
	if res.Interrupted || res.Measured == 0 {
		return res, nil // screened once, when the campaign completes
	}
	if err := c.screen(ctx, &res, be); err != nil {
		return res, fmt.Errorf("screening %s: %w", c.Out, err)
	}
	return res, nil
}

// screenPasses is how many times a suspect sample is measured again before
// it is called an outlier.
const screenPasses = 2

// screen measures the suspect samples of the finished campaign again (with
// as many workers as the campaign, so the node is loaded as it was) and
// rewrites the file with their new times and status: "remeasured" when the
// new time fits its neighbours, "outlier" when it still does not after
// screenPasses tries. The file is replaced atomically (written beside it,
// then renamed), so an interruption leaves the measured file as it was.
func (c *Campaign) screen(ctx context.Context, res *Result, be kernels.Backend) error {
	rows, err := ReadSampleFile(c.Out)
	if err != nil {
		return err
	}
	pos := map[int]int{} // plan index → row
	for r, s := range rows {
		pos[s.Index] = r
	}
	fp := c.fingerprint()
	parallel := max(1, c.Parallel)
	for pass := 0; pass < screenPasses; pass++ {
		suspects := Suspects(rows)
		if pass > 0 { // only samples measured again may become outliers
			suspects = slices.DeleteFunc(suspects, func(r int) bool { return rows[r].Status != StatusRemeasured })
		}
		if len(suspects) == 0 {
			break
		}
		have := make([]bool, c.Plan.Total())
		for i := range have {
			have[i] = true
		}
		for _, r := range suspects {
			have[rows[r].Index] = false
		}
		sample := func(core, i int, sec float64, runs int) Sample {
			s := rows[pos[i]]
			s.Seconds, s.Runs, s.Core, s.Time = sec, runs, core, time.Now()
			return s
		}
		var fresh []Sample
		collect := func(s Sample) error { fresh = append(fresh, s); return nil }
		switch {
		case parallel == 1:
			m := newMeasurer(be, c.Clock, c.Repeats, c.Plan.Seed^0x5c4ee9+uint64(pass))
			m.reserve(c.Plan, have)
			err = c.runAlone(ctx, have, m, c.Plan.Seed^0x5c4ee9+uint64(pass), sample, collect)
		case c.Beside != "":
			err = c.runBeside(ctx, have, parallel, be, c.Plan.Seed^0x5c4ee9+uint64(pass), sample, collect)
		default:
			err = c.runWorkers(ctx, have, parallel, be, c.Plan.Seed^0x5c4ee9+uint64(pass), sample, collect)
		}
		if err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil // interrupted: the file stays as measured
		}
		for _, s := range fresh {
			if s.Plan == fp {
				s.Status = StatusRemeasured
				rows[pos[s.Index]] = s
			}
		}
	}
	for _, r := range Suspects(rows) {
		if rows[r].Status == StatusRemeasured {
			rows[r].Status = StatusOutlier
		}
	}
	for _, s := range rows {
		switch s.Status {
		case StatusRemeasured:
			res.Remeasured++
		case StatusOutlier:
			res.Remeasured++
			res.Outliers++
		}
	}
	return replaceSamples(c.Out, rows)
}

// writeProbe measures and writes the node's probe (Campaign.Probe) into a
// file that has none.
func (c *Campaign) writeProbe(w *Writer, host, backend string) error {
	if c.Probe == nil {
		return nil
	}
	if have, err := ReadProbeFile(c.Out); err != nil || len(have) > 0 {
		return err
	}
	o := *c.Probe
	o.Host, o.Backend, o.Clock = host, backend, c.Clock
	if o.Now == nil {
		o.Now = c.now
	}
	p, err := MeasureProbe(o)
	if err != nil {
		return err
	}
	return w.WriteProbe(p)
}

// replaceSamples rewrites a sample file with rows, atomically, keeping its
// probes.
func replaceSamples(path string, rows []Sample) error {
	probes, err := ReadProbeFile(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteSampleFile(&buf, rows, probes); err != nil {
		return err
	}
	return atomicfile.WriteFile(path, buf.Bytes(), 0o644)
}

// runAlone measures the missing calls one after the other (in
// measureOrder) in the calling goroutine, writing each row before the next
// call starts: while a call is timed nothing else of emu runs (no row being
// formatted or written, no goroutine handing out work), which the process
// CPU clock would count.
func (c *Campaign) runAlone(ctx context.Context, have []bool, m *measurer, seed uint64, sample func(core, i int, sec float64, runs int) Sample, write func(Sample) error) error {
	for _, i := range measureOrder(len(have), 1, seed) {
		if have[i] {
			continue
		}
		if ctx.Err() != nil {
			return nil
		}
		sec, runs := m.measure(c.Plan.Call(i))
		if err := write(sample(0, i, sec, runs)); err != nil {
			return err
		}
	}
	return nil
}

// measureOrder is the order in which a campaign measures the plan's total
// calls with parallel workers: the plan's calls in blocks of parallel
// consecutive indices, which the workers of one lockstep round take
// together (the plan puts calls of like work side by side, see FromApp),
// and the blocks in an order shuffled by seed. A shared machine slows down
// for seconds at a time; measured in the plan's order, such a stretch slowed
// a run of neighbouring sizes of one kernel alike — on this project's VM 14
// dgemm calls in a row at 22 GF/s instead of 40 — which the screen could not
// see (a sample is judged against its neighbours in size, slowed with it)
// and the fit took for the kernel's shape: that calibration predicted the
// NB = 64 runs 33% long and the NB = 128 ones 15%. Shuffled, the stretch
// slows calls of all sizes and kernels here and there, each judged against
// neighbours measured at other moments.
func measureOrder(total, parallel int, seed uint64) []int {
	parallel = max(1, parallel)
	blocks := (total + parallel - 1) / parallel
	perm := rand.New(rand.NewPCG(seed, 0x0dde7)).Perm(blocks)
	order := make([]int, 0, total)
	for _, b := range perm {
		for i := b * parallel; i < min(total, (b+1)*parallel); i++ {
			order = append(order, i)
		}
	}
	return order
}

// checkResumed verifies that rows found in the file belong to this plan and
// returns the set of indices they cover.
func (c *Campaign) checkResumed(done []Sample) ([]bool, error) {
	fp := c.fingerprint()
	have := make([]bool, c.Plan.Total())
	for row, s := range done {
		line := row + 2 // header is line 1
		switch {
		case s.Plan != fp:
			return nil, fmt.Errorf("%s:%d: row of plan %q, this campaign's plan is %q (other --seed, --samples, --max-dim, --kernels or --beside); choose another --out", c.Out, line, s.Plan, fp)
		case s.Index < 0 || s.Index >= len(have):
			return nil, fmt.Errorf("%s:%d: index %d outside the plan's 0..%d", c.Out, line, s.Index, len(have)-1)
		case s.Clock != c.Clock.String():
			return nil, fmt.Errorf("%s:%d: row timed with the %s clock, this campaign uses %s; choose another --out or --clock", c.Out, line, s.Clock, c.Clock)
		case have[s.Index]:
			return nil, fmt.Errorf("%s:%d: index %d appears twice", c.Out, line, s.Index)
		}
		have[s.Index] = true
	}
	return have, nil
}
