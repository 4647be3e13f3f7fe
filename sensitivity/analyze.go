package sensitivity

import (
	"fmt"
	"math"
	"strconv"
)

// Params says what Analyze computes. Latencies are in seconds.
type Params struct {
	// Latencies is ℓ per class at the baseline; classes beyond its length
	// are 0. The swept class's entry is replaced by L0.
	Latencies []float64
	Class     int     // the latency class swept (0 = end-to-end L)
	L0        float64 // baseline latency of the swept class, s
	// Lmin..Lmax is the range searched for critical latencies and sampled
	// for the curve (default L0..L0: both 0 and RangeSet false).
	Lmin, Lmax float64
	// RangeSet says Lmin..Lmax is given even when both are 0: ℓ = 0 alone
	// is a range a user may ask for, not the zero value's "no range".
	RangeSet   bool
	Points     int       // curve points, evenly spaced over [Lmin, Lmax] (default 11)
	Tolerances []float64 // x in percent: largest L with T(L) ≤ (1+x/100)·T(L0)
	G          float64   // s/byte the graph's rest terms were built with; only for ρ_G
	Pairwise   bool      // compute the λ_L(i,j) matrix of critical messages by rank pair
	MPITime    bool      // compute the per-rank split of MPI time
	noClasses  bool      // skip Report.Classes (AnalyzeClasses computes them once)
}

// Breakpoint is a critical latency: T changes slope there.
type Breakpoint struct {
	L           float64 `json:"L_s"`
	T           float64 `json:"runtime_s"`
	LambdaLeft  int64   `json:"lambda_L_left"`
	LambdaRight int64   `json:"lambda_L"`
}

// CurvePoint is one sample of T(L).
type CurvePoint struct {
	L       float64 `json:"L_s"`
	T       float64 `json:"runtime_s"`
	LambdaL int64   `json:"lambda_L"`
	RhoL    float64 `json:"rho_L"`
}

// ClassSensitivity is the sensitivity to one latency class, the others held.
type ClassSensitivity struct {
	Class       int     `json:"class"`
	Name        string  `json:"name,omitempty"` // what the class is, when the recorder named it (a link class)
	L           float64 `json:"L_s"`
	LambdaLeft  int64   `json:"lambda_left"`
	LambdaRight int64   `json:"lambda"`
	Rho         float64 `json:"rho"`
	// Swept classes (AnalyzeClasses) also have the critical latencies of the
	// class's own range and its x% latency tolerances, the others held.
	CriticalLatencies []float64           `json:"critical_latencies_s,omitempty"`
	Tolerance         map[string]*float64 `json:"tolerance_s,omitempty"`
	// Curve samples T over the class's own range (its latency L moving).
	Curve []CurvePoint `json:"curve,omitempty"`
}

// PairSensitivity is λ_L(i,j): latency terms of messages from rank Src to
// rank Dst on the critical path (LLAMP Appendix I); they sum to λ_L.
type PairSensitivity struct {
	Src    int   `json:"src"`
	Dst    int   `json:"dst"`
	Lambda int64 `json:"lambda_L"`
	// LambdaG is the bytes of the pair's messages on the critical path,
	// the pair's share of λ_G: dT/dG for a gap G per byte between them.
	LambdaG float64 `json:"lambda_G"`
}

// Report is the result of Analyze. Times in s; tolerance values nil when T
// never degrades by that much (no latency term on any path).
type Report struct {
	Vertices          int                 `json:"vertices"`
	Edges             int                 `json:"edges"`
	Ranks             int                 `json:"ranks"`
	Class             int                 `json:"class"`
	L                 float64             `json:"L_s"`
	Runtime           float64             `json:"runtime_s"`
	LambdaL           int64               `json:"lambda_L"`
	LambdaLLeft       int64               `json:"lambda_L_left"`
	LambdaG           float64             `json:"lambda_G"`
	RhoL              float64             `json:"rho_L"`
	RhoG              float64             `json:"rho_G"`
	Lmin              float64             `json:"Lmin_s"`
	Lmax              float64             `json:"Lmax_s"`
	CriticalLatencies []float64           `json:"critical_latencies_s"`
	Breakpoints       []Breakpoint        `json:"breakpoints"`
	Tolerance         map[string]*float64 `json:"tolerance_s"`
	Curve             []CurvePoint        `json:"curve"`
	Classes           []ClassSensitivity  `json:"classes"`
	Pairs             []PairSensitivity   `json:"pairwise,omitempty"`
	MPITime           []RankTime          `json:"mpi_time,omitempty"`
	// MPIByProtocol and MPIByCall split the MPI time of an emulated run per
	// protocol and per MPI call (observe.MPISplit; emu sensitivity --mpi-time).
	MPIByProtocol []MPIPart `json:"mpi_by_protocol,omitempty"`
	MPIByCall     []MPIPart `json:"mpi_by_call,omitempty"`
	Evaluations   int       `json:"evaluations"` // longest-path passes used
}

// maxEvaluations bounds the passes of one analysis; the exact search needs
// about two per breakpoint, so this is only a guard against rounding loops.
const maxEvaluations = 100000

func (p *Params) check() error {
	bad := func(name string, x float64) error {
		return fmt.Errorf("sensitivity: %s = %v s, want finite and ≥ 0", name, x)
	}
	for i, l := range p.Latencies {
		if !(l >= 0) || math.IsInf(l, 1) {
			return bad(fmt.Sprintf("Latencies[%d]", i), l)
		}
	}
	for name, x := range map[string]float64{"L0": p.L0, "Lmin": p.Lmin, "Lmax": p.Lmax} {
		if !(x >= 0) || math.IsInf(x, 1) {
			return bad(name, x)
		}
	}
	switch {
	case p.Class < 0 || p.Class > MaxClass:
		return fmt.Errorf("sensitivity: class %d outside 0..%d", p.Class, MaxClass)
	case p.Lmin > p.Lmax:
		return fmt.Errorf("sensitivity: range %v..%v s is empty", p.Lmin, p.Lmax)
	case p.Points < 0 || p.Points == 1 && p.Lmin != p.Lmax:
		return fmt.Errorf("sensitivity: %d curve points, want 0 (default 11) or ≥ 2", p.Points)
	}
	for _, x := range p.Tolerances {
		if !(x >= 0) || math.IsInf(x, 1) {
			return fmt.Errorf("sensitivity: tolerance %v%%, want finite and ≥ 0", x)
		}
	}
	return nil
}

// Analyze computes T, λ_L, λ_G and ρ at L0, the exact critical latencies in
// [Lmin, Lmax], the curve, the tolerances and the per-class sensitivities.
func Analyze(g *Graph, p Params) (*Report, error) {
	if !p.RangeSet && p.Lmin == 0 && p.Lmax == 0 {
		p.Lmin, p.Lmax = p.L0, p.L0
	}
	if p.Points == 0 {
		p.Points = 11
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	ev := newEvaluator(g, p.Latencies, uint8(p.Class))
	if p.Pairwise {
		ev.withPath()
	}
	s := &search{ev: ev}
	base := s.eval(p.L0)
	r := &Report{Vertices: g.NumVertices(), Edges: g.NumEdges(), Ranks: g.Ranks(), Class: p.Class,
		L: p.L0, Runtime: base.T, LambdaL: base.Right, LambdaLLeft: base.Left, LambdaG: base.Bytes,
		Lmin: p.Lmin, Lmax: p.Lmax, Tolerance: map[string]*float64{},
		CriticalLatencies: []float64{}, Breakpoints: []Breakpoint{}} // [] in --json where there are none, not null
	if base.T > 0 {
		r.RhoL = float64(base.Right) * p.L0 / base.T
		r.RhoG = base.Bytes * p.G / base.T
	}
	if p.Pairwise {
		r.Pairs = criticalPairs(ev, base)
	}
	if p.MPITime {
		r.MPITime = mpiTime(g, g.FinishTimes(ev.lat), ev.lat)
	}
	var err error
	pieces, ok := ev.parametric(p.Lmin, p.Lmax)
	if !ok {
		if pieces, err = s.hull(p.Lmin, p.Lmax); err != nil {
			return nil, err
		}
	} else {
		s.evals++
	}
	for _, b := range pieces[1:] {
		r.CriticalLatencies = append(r.CriticalLatencies, b.L)
		r.Breakpoints = append(r.Breakpoints, b)
	}
	r.Curve = curve(pieces, p.Lmin, p.Lmax, p.Points)
	beyond, beyondHi, err := s.piecesBeyond(p, base, pieces)
	if err != nil {
		return nil, err
	}
	for _, x := range p.Tolerances {
		lt, ok := tolFromPieces(pieces, base, x, p.Lmax, false)
		if !ok && beyond != nil {
			lt, ok = tolFromPieces(beyond, base, x, beyondHi, true)
		}
		if !ok {
			if lt, err = s.tolerance(base, x); err != nil {
				return nil, err
			}
		}
		r.Tolerance[strconv.FormatFloat(x, 'g', -1, 64)] = lt
	}
	// Each class's slopes, the others held; the swept class is base. The
	// evaluator is reused so that no second set of per-vertex arrays exists.
	ev.lat[p.Class] = p.L0
	for c := 0; c < max(g.Classes(), p.Class+1) && !p.noClasses; c++ {
		pt := base
		if c != p.Class {
			ev.class = uint8(c)
			pt = s.eval(ev.lat[c])
		}
		cs := ClassSensitivity{Class: c, L: ev.lat[c], LambdaLeft: pt.Left, LambdaRight: pt.Right}
		if pt.T > 0 {
			cs.Rho = float64(pt.Right) * ev.lat[c] / pt.T
		}
		r.Classes = append(r.Classes, cs)
	}
	r.Evaluations = s.evals
	return r, nil
}

// tolFromPieces reads the x% tolerance off the pieces of T when the answer
// lies inside them: the largest L ≥ base.L with T(L) ≤ (1+pct/100)·T(base.L).
// ok is false when base.L is outside the pieces or T stays below the
// threshold up to hi (then the answer lies beyond and needs passes).
//
// The pieces may also start after base.L if T(pieces[0].L) ≤ the threshold.
// bounded says that T exceeds the threshold right after hi, so that hi is
// the answer if T reaches the threshold only there.
func tolFromPieces(pieces []Breakpoint, base point, pct, hi float64, bounded bool) (*float64, bool) {
	c := (1 + pct/100) * base.T
	if len(pieces) == 0 || base.L > hi || base.L < pieces[0].L && !onLine(pieces[0].T, c) {
		return nil, false
	}
	for k, b := range pieces {
		end := hi
		if k+1 < len(pieces) {
			end = pieces[k+1].L
		}
		if end < base.L {
			continue
		}
		tEnd := b.T + float64(b.LambdaRight)*(end-b.L)
		if onLine(tEnd, c) {
			continue // still within the tolerance at the piece's end
		}
		// T crosses c inside this piece (T(base.L) ≤ c and slopes ≥ 0).
		x := b.L + (c-b.T)/float64(b.LambdaRight)
		x = math.Max(x, base.L)
		return &x, true
	}
	if bounded {
		return &hi, true
	}
	return nil, false
}

// piecesBeyond runs a second parametric pass past Lmax when some tolerance
// lies beyond it: up to where the asymptote line alone exceeds the largest
// threshold, so that every tolerance can be read off exact pieces. It
// returns nil when not needed or not possible (then Newton passes remain),
// else the pieces on [Lmax, hi] and hi.
func (s *search) piecesBeyond(p Params, base point, pieces []Breakpoint) ([]Breakpoint, float64, error) {
	last := pieces[len(pieces)-1]
	tHi := last.T + float64(last.LambdaRight)*(p.Lmax-last.L)
	worst := 0.0
	for _, x := range p.Tolerances {
		worst = math.Max(worst, x)
	}
	c := (1 + worst/100) * base.T
	if len(p.Tolerances) == 0 || base.L < p.Lmin || base.L > p.Lmax || tHi > c {
		return nil, 0, nil
	}
	a, b := s.ev.asymptote()
	s.evals++
	if a == 0 {
		return nil, 0, nil // T never grows: every tolerance is unbounded
	}
	hi := (c - b) / float64(a) // T(hi) ≥ a·hi + b = c
	if !(hi > p.Lmax) || math.IsInf(hi, 0) {
		return nil, 0, nil
	}
	beyond, ok := s.ev.parametric(p.Lmax, hi)
	s.evals++
	if !ok {
		return nil, 0, nil
	}
	return beyond, hi, nil
}

// curve samples T on n evenly spaced latencies from the pieces of the hull:
// between breakpoints T is linear, so this is exact without new passes.
func curve(pieces []Breakpoint, lo, hi float64, n int) []CurvePoint {
	if lo == hi {
		n = 1
	}
	out := make([]CurvePoint, 0, n)
	k := 0
	for i := 0; i < n; i++ {
		x := lo
		if n > 1 {
			x = lo + (hi-lo)*float64(i)/float64(n-1)
		}
		if i == n-1 {
			x = hi
		}
		for k+1 < len(pieces) && pieces[k+1].L <= x {
			k++
		}
		b := pieces[k]
		t := b.T + float64(b.LambdaRight)*(x-b.L)
		cp := CurvePoint{L: x, T: t, LambdaL: b.LambdaRight}
		if t > 0 {
			cp.RhoL = float64(b.LambdaRight) * x / t
		}
		out = append(out, cp)
	}
	return out
}
