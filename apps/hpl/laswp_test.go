package hpl

import (
	"fmt"
	"testing"
)

// chargeLog is a kern that records the charges of HPL's own kernels; the
// BLAS (the embedded nil kern) must not be called.
type chargeLog struct {
	kern
	rows  map[string]int // rows charged per kernel
	calls []string       // "kernel m n span" of each charge, in order
}

func (l *chargeLog) owns(string) bool { return false }

func (l *chargeLog) copier(kernel, _ string) copier { return logCopier{l, kernel} }

// logCopier records one kernel's charges in its log.
type logCopier struct {
	l      *chargeLog
	kernel string
}

func (c logCopier) charge(m, n, span int) {
	if m <= 0 || n <= 0 {
		return // an empty call costs nothing (kernels.Set.Charge)
	}
	c.l.rows[c.kernel] += m
	c.l.calls = append(c.l.calls, fmt.Sprintf("%s %d %d %d", c.kernel, m, n, span))
}

// rowPanel is a model-mode panel of width jb with mp local rows, seen by
// process row myrow of a P-row grid whose diagonal process row is 0.
func rowPanel(myrow, jb, mp int) (swapCtx, *chargeLog) {
	log := &chargeLog{rows: map[string]int{}}
	s := &solver{k: log, g: &grid{p: 2, q: 1, myrow: myrow}}
	pn := &panel{s: s, jb: jb, mp: mp, prow: 0}
	return swapCtx{pn: pn, n: 50}, log
}

// HPL's row moves are billed by the memory they touch (laswp.go, moves): a
// row of A below the top block both read and written is an interchange, one
// only read a gather, one only written a scatter, and a copy that touches no
// such row (U, W and the diagonal process row's top jb rows) a move within
// U. Each case is solved by hand from the copies listed.
func TestRowMovesBilledByTheMemoryTheyTouch(t *testing.T) {
	const jb, mp = 4, 300
	// One call of HPL_dlaswp01T on the diagonal process row: row 10 (a local
	// pivot) into U slot 0, then top row 0 into row 10, as HPL makes them;
	// top row 1 into U; row 12 into A row 20 (neither in the top block);
	// top row 2 into U. lindxAU ≥ 0 is a U slot, < 0 the A row −lindxAU.
	lindxA := []int{10, 0, 1, 12, 2}
	lindxAU := []int{0, -10, 1, -20, 2}
	cases := []struct {
		name  string
		myrow int
		call  func(w swapCtx)
		want  map[string]int
	}{
		{"laswp01 diagonal", 0, func(w swapCtx) { w.laswp01(5, lindxA, lindxAU) },
			// read {10, 12}, written {10, 20}: 10 both; 12 read; 20 written; rows 1 and 2 compact
			map[string]int{kLaswp: 1, kGather: 1, kScatter: 1, kUswp: 2}},
		{"laswp01 other row", 1, func(w swapCtx) { w.laswp01(5, lindxA, lindxAU) },
			// no top block off the diagonal: read {10, 0, 1, 12, 2}, written {10, 20}
			map[string]int{kLaswp: 1, kGather: 4, kScatter: 1}},
		{"laswp02 diagonal", 0, func(w swapCtx) { w.laswp02(3, nil, []int{0, 5, 7}, nil) },
			// row 0 is in the top block: into W compact; 5 and 7 read
			map[string]int{kGather: 2, kUswp: 1}},
		{"laswp04 diagonal", 0, func(w swapCtx) { w.laswp04(2, 3, nil, []int{1, 9}, nil) },
			// 3 U slots from W, top row 1 from U, row 9 written from U
			map[string]int{kScatter: 1, kUswp: 4}},
		{"laswp05 other row", 1, func(w swapCtx) { w.laswp05(2, []int{3, 8}, nil) },
			map[string]int{kScatter: 2}},
		{"laswp06 other row", 1, func(w swapCtx) { w.laswp06(3, 0, []int{4, 6, 8}) },
			map[string]int{kLaswp: 3}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w, log := rowPanel(c.myrow, jb, mp)
			c.call(w)
			if fmt.Sprint(log.rows) != fmt.Sprint(c.want) {
				t.Errorf("rows charged %v, want %v (charges: %q)", log.rows, c.want, log.calls)
			}
			for _, call := range log.calls {
				var k string
				var m, n, span int
				fmt.Sscan(call, &k, &m, &n, &span)
				wantSpan := mp // rows of A: scattered over the local rows
				if k == kUswp {
					wantSpan = 0
				}
				if n != w.n || span != wantSpan {
					t.Errorf("%q: want %d columns over %d rows", call, w.n, wantSpan)
				}
			}
		})
	}
}

// The tally reuses the solver's scratch: billing a call allocates nothing
// once warm (model-mode HPL bills every panel of every rank).
func TestRowMovesAllocateNothingOnceWarm(t *testing.T) {
	w, _ := rowPanel(0, 4, 300)
	rows := &rowCount{}
	w.pn.s.k = rows
	lindxA := []int{10, 0, 1, 12, 2}
	lindxAU := []int{0, -10, 1, -20, 2}
	w.laswp01(5, lindxA, lindxAU)
	if a := testing.AllocsPerRun(20, func() { w.laswp01(5, lindxA, lindxAU) }); a > 0 {
		t.Errorf("%v allocations per call", a)
	}
	if rows.n == 0 {
		t.Error("nothing charged")
	}
}

// rowCount is a kern that only counts the rows charged.
type rowCount struct {
	kern
	n int
}

func (r *rowCount) owns(string) bool { return false }

func (r *rowCount) copier(string, string) copier { return r }

func (r *rowCount) charge(m, _, _ int) { r.n += m }

// nameLog is a kern that records the names each copier and owns question
// was resolved for.
type nameLog struct {
	kern
	resolved []string // "kernel variant" of each copier resolved
	asked    []string // each variant owns was asked about
}

func (l *nameLog) copier(kernel, variant string) copier {
	l.resolved = append(l.resolved, kernel+" "+variant)
	return &rowCount{}
}

func (l *nameLog) owns(variant string) bool {
	l.asked = append(l.asked, variant)
	return false
}

// A row-swap routine is billed under HPL's name for the run's U form
// (HPL_dlaswp01T on a transposed U, 01N on a plain one; laswpU's
// interchanges are HPL_dlaswp00N and 10N), and each name is resolved once
// however many calls bill it.
func TestRoutineResolvedOnceByUForm(t *testing.T) {
	cases := []struct {
		r          routine
		transposed bool
		want       string
	}{
		{dlaswp01, false, "dlaswp01N"},
		{dlaswp01, true, "dlaswp01T"},
		{dlaswp02, true, "dlaswp02N"},
		{dlaswpU, false, "dlaswp00N"},
		{dlaswpU, true, "dlaswp10N"},
	}
	for _, c := range cases {
		log := &nameLog{}
		s := &solver{k: log, p: Params{UTransposed: c.transposed}}
		w := swapCtx{pn: &panel{s: s, jb: 4, mp: 100}, n: 50}
		for range 3 {
			w.own(c.r)
			w.charge(c.r, 2)
			w.chargeA(c.r, 2)
		}
		want := fmt.Sprint([]string{kUswp + " " + c.want, kLaswp + " " + c.want}, []string{c.want})
		if got := fmt.Sprint(log.resolved, log.asked); got != want {
			t.Errorf("routine %d, transposed %v: resolved %s, want %s", c.r, c.transposed, got, want)
		}
	}
}
