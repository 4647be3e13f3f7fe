package calibration

import (
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/kernels"
)

// measurer runs planned calls on real data with one backend. It keeps its
// buffers between calls; each worker has its own.
type measurer struct {
	be       kernels.Backend
	clock    kernels.Clock
	rng      *rand.Rand
	pristine []float64 // pristineLen random values in [-1, 1) that operands are tiled from
	a, b, c  []float64
	piv      []int
	evict    int            // bytes of scratch written over before a dlaswp run
	sweep    []float64      // that scratch
	repeats  int            // timed runs per call; the sample is their median
	onStep   func(lockStep) // if set, told each step of a lockstep round (tests)
}

// newMeasurer returns a measurer timing each call repeats times (at least
// once) on one core of be (kernels.OneCore, as Timed mode runs calls).
func newMeasurer(be kernels.Backend, clock kernels.Clock, repeats int, seed uint64) *measurer {
	return &measurer{be: kernels.OneCore(be), clock: clock, repeats: max(1, repeats), rng: rand.New(rand.NewPCG(seed, 0x5eed)),
		evict: 2 * lastLevelCache()}
}

// reserve allocates, once, operand buffers as large as the largest call of
// the plan still to measure (have[i] false) needs. Growing them call by call allocated a new buffer each time a
// larger call came, and every allocation of gigabytes is hundreds of thousands
// of page faults: issue 10's calibration spent 30 of its 35 s in the kernel.
func (w *measurer) reserve(p Plan, have []bool) {
	var na, nb, nc int
	for i, done := range have {
		if done {
			continue
		}
		a, b, c := operandSizes(p.Call(i))
		na, nb, nc = max(na, a), max(nb, b), max(nc, c)
	}
	w.a, w.b, w.c = w.fill(w.a, na), w.fill(w.b, nb), w.fill(w.c, nc)
}

// operandSizes gives the elements prepare puts in w.a, w.b and w.c for c.
func operandSizes(c Call) (a, b, cc int) {
	m, n, k := c.M, c.N, c.K
	switch c.Kernel {
	case "dgemm":
		return m * k, k * n, m * n
	case "dtrsm":
		return k * k, m * n, 0
	case "dgemv":
		return m * n, n, m
	case "dger":
		return m * n, m, n
	case "dtrsv":
		return n * n, n, 0
	case "dscal", "idamax":
		return 0, n, 0
	case "daxpy", "dcopy", "dswap":
		return 0, n, n
	case kernels.Lacpy, kernels.Latcpy:
		return m * n, m * n, 0
	case kernels.Gather, kernels.Scatter:
		return max(2*m, k) * n, m * n, 0
	}
	return max(2*m, k) * n, 0, 0 // dlaswp, duswp, dlocswp
}

// fill returns buf resized to n elements holding pristine values.
func (w *measurer) fill(buf []float64, n int) []float64 {
	if w.pristine == nil {
		w.pristine = make([]float64, pristineLen)
		for i := range w.pristine {
			w.pristine[i] = 2*w.rng.Float64() - 1
		}
	}
	if cap(buf) < n {
		buf = make([]float64, n)
	}
	buf = buf[:n]
	for i := 0; i < n; i += pristineLen {
		copy(buf[i:], w.pristine)
	}
	return buf
}

// pristineLen is how many random values operands are tiled from: far more
// than any cache holds, so the repetition cannot help a kernel, and a fixed
// 8 MiB instead of a copy as large as the largest operand (gigabytes, each
// page of which costs a fault of about 10 µs of system time on a virtual
// machine).
const pristineLen = 1 << 20

// triangle makes an order×order well-conditioned triangular operand in w.a
// (unit diagonal and small off-diagonal terms, so repeated solves neither
// blow up nor sink into subnormals).
func (w *measurer) triangle(order int) {
	w.a = w.fill(w.a, order*order)
	for i := range w.a {
		w.a[i] /= float64(order)
	}
	for i := 0; i < order; i++ {
		w.a[i+i*order] = 1
	}
}

// longCall is the duration above which a call is timed fewer times: its
// first run is already a timing (a long call streams its operands from
// memory, as the application's does, so a warm-up changes nothing), and a
// preemption of a few milliseconds is a small part of it.
const longCall = 0.05 // seconds

// measure times call c and returns the median of its timed runs and how
// many there were. A short call runs once untimed first (pages touched,
// caches and branch predictors as a running application has them) and is
// then timed repeats times, its output operand reset before each run; the
// median, not the mean, so one run hit by an interrupt or a neighbour's
// burst does not move the sample (issue 10 saw a call timed at 300× its
// neighbours). A long call (≥ longCall) counts its first run and is timed
// until two runs agree within longSpread, at most repeats runs.
func (w *measurer) measure(c Call) (float64, int) {
	t := w.trial(c)
	for t.wants() {
		t.record(kernels.Measure(w.clock, t.prepare()))
	}
	return t.result()
}

// A trial is one call being measured, run by run: measure drives it alone;
// workers measuring in lockstep drive theirs a run at a time, so that every
// worker resets its operands while no one is timing.
type trial struct {
	w     *measurer
	call  Call
	run   func() // the call on the operands of the last prepare
	first float64
	runs  int
	times []float64 // the timed runs that count
}

func (w *measurer) trial(c Call) *trial { return &trial{w: w, call: c} }

// wants reports whether the trial needs another timed run.
func (t *trial) wants() bool {
	switch {
	case t.runs == 0:
		return true
	case t.first >= longCall:
		n := len(t.times)
		return n < max(2, t.w.repeats) && !(n >= 2 && agree(t.times))
	default:
		return len(t.times) < t.w.repeats
	}
}

// prepare resets the operands for the next run and returns the call.
func (t *trial) prepare() func() {
	t.run = t.w.prepare(t.call)
	return t.run
}

// record takes the time of the run prepare returned.
func (t *trial) record(sec float64) {
	t.runs++
	if t.runs == 1 {
		t.first = sec
		if sec < longCall {
			return // the warm-up of a short call
		}
	}
	t.times = append(t.times, sec)
}

// result is the median of the counted runs and their number.
func (t *trial) result() (float64, int) { return median(t.times), len(t.times) }

// longSpread is how close two timings of a long call must be to stop.
const longSpread = 0.05 // relative

// agree reports whether the two smallest timings are within longSpread.
func agree(times []float64) bool {
	s := slices.Clone(times)
	slices.Sort(s)
	return s[1] <= (1+longSpread)*s[0]
}

// median of a non-empty slice (the mean of the middle two for an even count).
func median(x []float64) float64 {
	s := slices.Clone(x)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// prepare sets up the operands of c and returns the call itself.
func (w *measurer) prepare(c Call) func() {
	be, m, n, k := w.be, c.M, c.N, c.K
	switch c.Kernel {
	case "dgemm": // the trailing update: C = C − A·op(B), A m×k, op(B) k×n
		w.a, w.b, w.c = w.fill(w.a, m*k), w.fill(w.b, k*n), w.fill(w.c, m*n)
		ldb := k
		if c.TransB == blas.Trans {
			ldb = n // B is stored n×k
		}
		return func() { be.Dgemm(blas.NoTrans, c.TransB, m, n, k, -1, w.a, m, w.b, ldb, 1, w.c, m) }
	case "dtrsm": // unit triangle in one of HPL's forms: L-Lo-N, L-Up-T, R-Up-N, R-Lo-T
		w.triangle(k)
		w.b = w.fill(w.b, m*n)
		uplo := blas.Lower
		if (c.Side == blas.Left) == (c.TransA == blas.Trans) {
			uplo = blas.Upper
		}
		return func() { be.Dtrsm(c.Side, uplo, c.TransA, blas.Unit, m, n, 1, w.a, k, w.b, m) }
	case "dgemv":
		w.a, w.b, w.c = w.fill(w.a, m*n), w.fill(w.b, n), w.fill(w.c, m)
		return func() { be.Dgemv(blas.NoTrans, m, n, -1, w.a, m, w.b, 1, 1, w.c, 1) }
	case "dger":
		w.a, w.b, w.c = w.fill(w.a, m*n), w.fill(w.b, m), w.fill(w.c, n)
		return func() { be.Dger(m, n, -1, w.b, 1, w.c, 1, w.a, m) }
	case "dtrsv": // back substitution: upper, non-unit diagonal
		w.triangle(n)
		for i := 0; i < n; i++ {
			w.a[i+i*n] = 2
		}
		w.b = w.fill(w.b, n)
		return func() { be.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, n, w.a, n, w.b, 1) }
	case "dscal":
		w.b = w.fill(w.b, n)
		return func() { be.Dscal(n, 0.5, w.b, 1) }
	case "daxpy":
		w.b, w.c = w.fill(w.b, n), w.fill(w.c, n)
		return func() { be.Daxpy(n, -0.5, w.b, 1, w.c, 1) }
	case "dcopy":
		w.b, w.c = w.fill(w.b, n), w.fill(w.c, n)
		return func() { be.Dcopy(n, w.b, 1, w.c, 1) }
	case "dswap":
		w.b, w.c = w.fill(w.b, n), w.fill(w.c, n)
		return func() { be.Dswap(n, w.b, 1, w.c, 1) }
	case "idamax":
		w.b = w.fill(w.b, n)
		return func() { be.Idamax(n, w.b, 1) }
	case kernels.Lacpy:
		w.a, w.b = w.fill(w.a, m*n), w.fill(w.b, m*n)
		return func() { lacpy(m, n, w.a, m, w.b, m) }
	case kernels.Latcpy:
		w.a, w.b = w.fill(w.a, m*n), w.fill(w.b, m*n)
		return func() { latcpy(m, n, w.a, m, w.b, n) }
	case kernels.Laswp:
		// HPL's interchanges on A: row i of the top M rows with a row
		// anywhere below it among the K local rows, every line cold: the
		// previous update swept the matrix out of cache. Interchanges
		// only permute values, so the operand is never refilled (a refill
		// would bring it into cache), each run takes its top rows and
		// pivots elsewhere, and before each run a scratch buffer twice
		// the last-level cache is written over, as the update's dgemm
		// writes the trailing matrix. Timed on rows within 2M that it had
		// just written, the interchanges of an N = 4,000 run measured a
		// tenth of their real cost (0.9 against 8.4 ns per element on the
		// project's VM); on fresh rows but with nothing swept between
		// runs, 1.9-6.9 ns per element as the K×N operand fitted the
		// caches or not, against 7.6-9.3 ns swept (BenchmarkLaswpSweep),
		// and HPL's real laswp phase of an N = 4,000, NB = 64, 1×2 run
		// took about 7.4 ns per element: unswept, the model charged two
		// thirds of it (TestLaswpMeasuredAsHPLMakesIt).
		w.evictCaches()
		rows := max(2*m, k)
		top := w.rng.IntN(rows - m + 1)
		w.piv = w.piv[:0]
		for i := 0; i < m; i++ {
			w.piv = append(w.piv, w.rng.IntN(rows))
		}
		if cap(w.a) < rows*n {
			w.a = w.fill(w.a, rows*n)
		}
		a := w.a[:rows*n]
		return func() { laswp(n, a, rows, top, w.piv) }
	case kernels.Gather, kernels.Scatter:
		// HPL's row copies between A and a compact buffer (U, W or the
		// panel's top block): m rows anywhere among K local rows of A,
		// read out (dgather) or written (dscatter), every line of A cold
		// as for dlaswp; the buffer holds the rows in U's transposed form,
		// each row's n values adjacent.
		w.evictCaches()
		rows := max(2*m, k)
		w.piv = w.piv[:0]
		for i := 0; i < m; i++ {
			w.piv = append(w.piv, w.rng.IntN(rows))
		}
		if cap(w.a) < rows*n {
			w.a = w.fill(w.a, rows*n)
		}
		if cap(w.b) < m*n {
			w.b = w.fill(w.b, m*n)
		}
		a, buf := w.a[:rows*n], w.b[:m*n]
		if c.Kernel == kernels.Gather {
			return func() { gather(n, a, rows, w.piv, buf) }
		}
		return func() { scatter(n, a, rows, w.piv, buf) }
	default: // duswp, dlocswp: m row interchanges across n columns of a compact 2m-row buffer, in cache
		rows := 2 * m
		w.a = w.fill(w.a, rows*n)
		w.piv = w.piv[:0]
		for i := 0; i < m; i++ {
			w.piv = append(w.piv, i+w.rng.IntN(rows-i))
		}
		return func() { laswpCompact(n, w.a, rows, w.piv) }
	}
}

// evictCaches writes one word of every cache line of a scratch buffer of
// w.evict bytes (twice the last-level cache, so that none of a dlaswp
// operand's lines survive in it), leaving the caches full of other, dirty
// lines, as HPL's update leaves them before its next interchanges.
func (w *measurer) evictCaches() {
	n := w.evict / 8
	if cap(w.sweep) < n {
		w.sweep = make([]float64, n)
	}
	s := w.sweep[:n]
	for i := 0; i < len(s); i += 8 { // 8 float64s = one 64-byte line
		s[i]++
	}
}

// The routines below stand in for HPL's own dlacpy, dlatcpy, dlaswp and
// its row copies (whose code lives in apps/hpl): the same memory traffic, in
// the order HPL makes it. The copies run plainly, column by column; the row
// moves on A take hplDepth columns at a time and each row across them, as
// HPL_dlaswp00N, 01T and 06T do (their HPL_LASWP*_DEPTH): its consecutive
// elements lie one leading dimension apart, a stride the hardware prefetches.
// Column by column, one row after another, the interchanges of an N = 6,000
// run measured 12% dearer per element on the project's VM (7.9 against 6.9
// ns, CPU time of one core on the loaded VM) and were charged 1.3× what
// HPL's own took in real runs (validation/testdata/realhpl/vm-2026-11-28).

// hplDepth is the columns HPL's row-move routines take at a time.
const hplDepth = 32

func lacpy(m, n int, a []float64, lda int, b []float64, ldb int) {
	for j := 0; j < n; j++ {
		copy(b[j*ldb:j*ldb+m], a[j*lda:j*lda+m])
	}
}

func latcpy(m, n int, a []float64, lda int, b []float64, ldb int) {
	for j := 0; j < n; j++ {
		for i := 0; i < m; i++ {
			b[j+i*ldb] = a[i+j*lda]
		}
	}
}

// gather copies, in each of n columns, row piv[i] of a into element i·n+j of
// buf (row i of a compact n×m buffer, as HPL's transposed U).
func gather(n int, a []float64, lda int, piv []int, buf []float64) {
	for j0 := 0; j0 < n; j0 += hplDepth {
		j1 := min(j0+hplDepth, n)
		for i, p := range piv {
			row := buf[i*n : i*n+n]
			for j := j0; j < j1; j++ {
				row[j] = a[j*lda+p]
			}
		}
	}
}

// scatter is gather's converse: row i of buf into row piv[i] of a.
func scatter(n int, a []float64, lda int, piv []int, buf []float64) {
	for j0 := 0; j0 < n; j0 += hplDepth {
		j1 := min(j0+hplDepth, n)
		for i, p := range piv {
			row := buf[i*n : i*n+n]
			for j := j0; j < j1; j++ {
				a[j*lda+p] = row[j]
			}
		}
	}
}

// laswpCompact interchanges, column by column, row i with row piv[i] of a
// compact buffer in cache (duswp, dlocswp), where taking rows across
// hplDepth columns would stride over lines that a column's pass reads
// whole (2.3 against 1.1 ns per element on the project's VM).
func laswpCompact(n int, a []float64, lda int, piv []int) {
	for j := 0; j < n; j++ {
		col := a[j*lda : j*lda+lda]
		for i, p := range piv {
			col[i], col[p] = col[p], col[i]
		}
	}
}

// laswp interchanges, in each of n columns, row top+i with row piv[i], one
// after the other.
func laswp(n int, a []float64, lda, top int, piv []int) {
	for j0 := 0; j0 < n; j0 += hplDepth {
		j1 := min(j0+hplDepth, n)
		for i, p := range piv {
			t := top + i
			for j := j0; j < j1; j++ {
				c := j * lda
				a[c+t], a[c+p] = a[c+p], a[c+t]
			}
		}
	}
}
