package hpl

import (
	"fmt"

	"github.com/emu-hpc/emu/ranks"
)

// solver is one rank's state for one test.
type solver struct {
	p      Params
	g      *grid
	k      kern
	real   bool
	n, nb  int
	a      []float64 // local [A | b]: mp × (nq+1), column-major; nil in model mode
	lda    int
	mp, nq int
	x      []float64 // local part of the solution (nq); nil in model mode
	info   int

	pivots    pivotSource
	rec       *Pivots
	maxPanels int
	clk       clock
	marks     []panelMark // end of each emulated panel (MaxIterations only)
	estimate  float64     // extrapolated factorization time, s (MaxIterations only)
	spread    float64     // the estimate's error bar, s (extrapolate.go)
	swap      swapScratch // reused by the swap index computations
	shared    *Shared     // what the run's ranks compute once for all (Options.Shared), or nil
	roll      RollModel   // Options.Roll
	// pivotExchange is Options.PivotExchange; pivotSteps the scratch of
	// its uncontended exchanges.
	pivotExchange PivotExchange
	copyL         bool // Options.CopyL
	pivotSteps    []ranks.Step
	// pivotX is mxswp's hypercube exchange, reused: one is made a panel
	// column on every rank (540,000 at N = 20,000 on Dahu), and
	// Comm.SendRecvs keeps no reference to it once it returns.
	pivotX   pivotExchange
	rollX    swapRoll  // the spread-roll swap's roll, reused likewise (swapCtx.roll)
	sdrvX    sdrvStep  // sdrv's one step, reused likewise
	cubeX    cubeSwap  // the binary-exchange swap's hypercube steps, reused likewise
	chunkX   updChunks // the update's chunks, reused likewise
	factWork []float64 // panel factorization workspace (panel.factor, without a Shared)
	spare    []*panel  // released panels, whose arrays newPanel reuses
	phases   Phases    // this rank's detailed timings
	copies   copies    // the copy kernels' copiers, resolved on first use
}

// panelMark is the simulated time at which this rank finished a panel's iteration.
type panelMark struct {
	j, jb int
	t     float64
}

// mark records the end of a panel's iteration when extrapolating.
func (s *solver) mark(j, jb int) {
	if s.maxPanels > 0 {
		s.marks = append(s.marks, panelMark{j, jb, s.clk.now()})
	}
}

// Options are the emulation choices that are not HPL parameters.
type Options struct {
	// Pivot is the model-mode pivot rule (default splitmix, the SMPI peer's MR).
	Pivot PivotRule
	// Seed seeds the "random" pivot rule.
	Seed uint64
	// Replay holds the pivots the "replay" rule reads.
	Replay *Pivots
	// Record, if set, receives the pivot row of every column (real mode).
	Record *Pivots
	// MaxIterations = K > 0 (fewer than ⌈N/NB⌉) emulates K panels, sampled in
	// segments across the factorization, and extrapolates the total time
	// (extrapolate.go; Result.Extrapolated). Meant for model mode: with real
	// data the sampled panels start on unfactored columns and no residual is
	// checked.
	MaxIterations int
	// MemoryLimit, if positive, is the most bytes the matrices of one real-mode
	// test may take, all ranks together (they share this process): a test that
	// needs more is skipped as HPL skips one whose malloc fails (Result.Skipped),
	// where allocating would abort the whole process. Model mode allocates none.
	MemoryLimit int64
	// Shared, if set, is given to every rank of the run: what all ranks
	// compute alike is then computed once (see Shared). The results are the
	// same with or without it.
	Shared *Shared
	// Roll is how long broadcasts' rolls are emulated: RollSteps (HPL's
	// messages) or RollMerged (an approximation: fewer messages, needs a
	// Shared).
	Roll RollModel
	// PivotExchange is how the pivot search's exchanges are emulated:
	// PivotMessages (every message through the network model) or
	// PivotUncontended (an approximation: each exchange timed as a whole,
	// its messages alone on the network).
	PivotExchange PivotExchange
	// CopyL charges the root process column HPL_copyL's dlacpy of L2 into the
	// broadcast buffer at each panel's HPL_binit, as HPL built with
	// -DHPL_NO_MPI_DATATYPE does (SMPI's HPL fork among them); a build with MPI
	// datatypes (HPL's default) sends L2 in place and copies nothing.
	CopyL bool
}

// Result is one test's outcome, identical on every rank of the grid.
type Result struct {
	Params       Params  `json:"-"`
	Variant      string  `json:"variant"`
	N            int     `json:"n"`
	NB           int     `json:"nb"`
	P            int     `json:"p"`
	Q            int     `json:"q"`
	Start        float64 `json:"-"`        // simulated time the solve started, s
	Time         float64 `json:"time_s"`   // HPL's Time: max over ranks of the solve, s
	Gflops       float64 `json:"gflops"`   // HPL's rate
	Residual     float64 `json:"residual"` // scaled residual (0 when not checked)
	Passed       bool    `json:"passed"`   // residual < threshold
	Checked      bool    `json:"checked"`  // a residual was computed (real or timed mode, threshold > 0, info 0)
	Info         int     `json:"info"`     // 1 + first column with an exact zero pivot, or 0
	Panels       int     `json:"panels"`   // panels emulated
	Extrapolated bool    `json:"extrapolated"`
	EmulatedTime float64 `json:"emulated_time_s,omitempty"` // time of the emulated panels when extrapolated
	// ExpectedError is the extrapolated Time's error bar, s: the true Time is
	// expected within Time ± ExpectedError (extrapolate.go says how it is made).
	ExpectedError float64 `json:"expected_error_s,omitempty"`
	Skipped       bool    `json:"skipped,omitempty"` // not run: its matrices exceed Options.MemoryLimit
	// Roll is "merged" when the test's long broadcast rolled merged
	// (Options.Roll), an approximation; empty for HPL's steps.
	Roll string `json:"roll,omitempty"`
	// PivotExchange is "uncontended" when the pivot search's exchanges were
	// timed as wholes (Options.PivotExchange), else empty.
	PivotExchange string `json:"pivot_exchange,omitempty"`
	// Phases are HPL's detailed timings: this rank's in RunTests' results,
	// the largest over the grid's ranks once combined (MaxPhases).
	Phases Phases `json:"phases"`

	norms            checkResult
	skipRow, skipCol int // the largest grid coordinates, which HPL's skip warning prints
}

// gflops is HPL's rate formula, in its grouping (hpl.md §10.3).
func gflops(n int, t float64) float64 {
	if t <= 0 {
		return 0
	}
	N := float64(n)
	return (N / 1e9) * (N / t) * ((2.0/3.0)*N + 3.0/2.0)
}

// matrixBytes is what the real-mode matrices of test p take on all its ranks
// together: each rank's [A | b] (lda·(nq+1)) and x (nq), 8 bytes a double. A
// float64, so that no N overflows it.
func matrixBytes(p Params) float64 {
	var rows, cols, xs float64 // Σ lda over process rows, Σ (nq+1) and Σ nq over columns
	for r := range p.P {
		rows += float64(localLDA(numroc(p.N, p.NB, r, p.P), p.Alignment))
	}
	for c := range p.Q {
		nq := float64(numroc(p.N, p.NB, c, p.Q))
		cols += nq + 1
		xs += nq
	}
	return 8 * (rows*cols + float64(p.P)*xs)
}

// localLDA is HPL's leading dimension: the smallest multiple of align ≥ max(1, mp)
// that is not a power of two (hpl.md §2.3).
func localLDA(mp, align int) int {
	lda := (max(1, mp) + align - 1) / align * align
	for lda&(lda-1) == 0 {
		lda += align
	}
	return lda
}

// clock is what the run needs from the rank besides messages.
type clock interface{ now() float64 }

// runTest is HPL_pdtest on one rank (hpl.md §3). It returns nil on ranks outside
// the grid.
func runTest(world commPort, clk clock, p Params, k kern, real bool, opt Options) (*Result, error) {
	if err := checkTest(world, p); err != nil {
		return nil, err
	}
	switch {
	case opt.Roll > RollMerged:
		return nil, fmt.Errorf("hpl: unknown roll model %d", opt.Roll)
	case opt.PivotExchange > PivotUncontended:
		return nil, fmt.Errorf("hpl: unknown pivot exchange %d", opt.PivotExchange)
	case opt.Roll == RollMerged && opt.Shared == nil:
		return nil, fmt.Errorf("hpl: merged rolls take the pieces' data from Options.Shared: set one")
	}
	return runOnGrid(newGrid(world, p.P, p.Q, p.PMap), clk, p, k, real, opt), nil
}

// checkTest reports parameters HPL would reject for this world.
func checkTest(world commPort, p Params) error {
	if err := p.Validate(); err != nil {
		return err
	}
	if p.P*p.Q > world.size() {
		return fmt.Errorf("hpl: grid %d×%d needs %d ranks, have %d", p.P, p.Q, p.P*p.Q, world.size())
	}
	return nil
}

// runOnGrid runs one test on an existing grid (nil: this rank is outside it).
func runOnGrid(g *grid, clk clock, p Params, k kern, real bool, opt Options) *Result {
	if g == nil {
		return nil
	}
	s := &solver{p: p, g: g, k: k, real: real, n: p.N, nb: p.NB,
		pivots: pivotSource{rule: opt.Pivot, seed: opt.Seed, replay: opt.Replay},
		rec:    opt.Record, maxPanels: opt.MaxIterations, clk: clk, shared: opt.Shared, roll: opt.Roll,
		pivotExchange: opt.PivotExchange, copyL: opt.CopyL}
	if real {
		s.rec = opt.Record
	} else {
		s.rec = nil
	}
	s.mp = numroc(p.N, p.NB, g.myrow, g.p)
	s.nq = numroc(p.N, p.NB, g.mycol, g.q)
	s.lda = localLDA(s.mp, p.Alignment)
	// HPL_pdtest's allocation check: every rank reports failure and its
	// coordinates, and all skip the test if any failed. Here all ranks decide
	// alike, from the grid's total.
	skip := real && opt.MemoryLimit > 0 && matrixBytes(p) > float64(opt.MemoryLimit)
	var flags []float64
	if real {
		if !skip {
			s.a = make([]float64, s.lda*(s.nq+1))
			s.x = make([]float64, s.nq)
		}
		flags = []float64{0, float64(g.myrow), float64(g.mycol)}
		if skip {
			flags[0] = 1
		}
	}
	flags = treeAllreduce(g.all, flags, 3, bytesPerInt, opMax)
	if skip {
		return &Result{Params: p, Variant: p.Variant(), N: p.N, NB: p.NB, P: p.P, Q: p.Q, Skipped: true,
			skipRow: int(flags[1]), skipCol: int(flags[2])}
	}
	if real {
		matgen(s.a, s.lda, p.N, p.NB, g, s.mp, s.nq)
	}
	treeBarrier(g.all)
	t0 := clk.now()
	panels := s.pdgesv()
	wall := clk.now() - t0
	// the time is a control value: it travels even in model mode; a truncated
	// run sends its extrapolation along (2 doubles instead of HPL's 1)
	times := []float64{wall}
	if s.truncated() {
		times = append(times, s.estimate)
	}
	tm := treeAllreduce(g.all, times, len(times), bytesPerDouble, opMax)
	var spread float64
	if s.truncated() {
		// a second reduction, so that the first one's messages stay HPL's size:
		// they may cross other ranks' back substitution, which its extra bytes
		// would slow down, where this one starts after every rank's estimate
		spread = treeAllreduce(g.all, []float64{s.spread}, 1, bytesPerDouble, opMax)[0]
	}
	res := &Result{Params: p, Variant: p.Variant(), N: p.N, NB: p.NB, P: p.P, Q: p.Q,
		Start: t0, Time: tm[0], Info: s.info, Panels: panels, Phases: s.phases}
	if len(tm) > 1 {
		res.Extrapolated = true
		res.EmulatedTime = tm[0]
		res.Time = tm[1]
		res.ExpectedError = spread
	}
	if s.roll == RollMerged && (p.BCast == Long || p.BCast == LongM) {
		res.Roll = RollMerged.String()
	}
	if s.pivotExchange == PivotUncontended {
		res.PivotExchange = PivotUncontended.String()
	}
	res.Gflops = gflops(p.N, res.Time)
	if p.Threshold > 0 && s.info == 0 && !res.Extrapolated {
		r := s.check()
		if real {
			res.Checked = true
			res.Residual = r.resid
			res.Passed = r.resid < p.Threshold
			res.norms = r
		}
	}
	return res
}
