package calibration

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"strings"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/kernels"
)

// DefaultKernels are the kernels a campaign measures unless told otherwise:
// those that dominate HPL's time, then the panel's level-1/2 kernels and
// HPL's own copies.
var DefaultKernels = []string{"dgemm", "dtrsm", "dgemv", "dger", "dtrsv", "dscal", "daxpy", "dcopy", "idamax", kernels.Laswp, kernels.Gather, kernels.Scatter, kernels.Uswp, kernels.Lacpy, kernels.Latcpy}

// Plan says what a campaign measures. Call(i) is a pure function of the
// plan and i, so a resumed campaign measures exactly the calls it missed.
type Plan struct {
	Kernels []string // measured round-robin: index i measures Kernels[i % len]
	Samples int      // samples per kernel
	MaxDim  int      // largest m, n (elements); NB values are capped by it
	// NBs are the panel widths drawn (HPL's NB: the update's K, the
	// triangles' order); nil means DefaultNBs. Give the NB of the runs to
	// predict: kernels' speed per flop depends on it.
	NBs  []int
	Seed uint64
	// Calls, when not empty, is the plan itself: the calls an application
	// made (FromApp), measured in this order; Kernels, Samples, MaxDim and
	// NBs are then only what describes them.
	Calls []Call
}

// DefaultNBs are the panel widths HPL is commonly run with.
var DefaultNBs = []int{32, 64, 96, 128, 192, 256}

// nbs returns the panel widths the plan draws.
func (p Plan) nbs() []int {
	if len(p.NBs) == 0 {
		return DefaultNBs
	}
	return p.NBs
}

// MaxSamples bounds a synthetic plan's samples per kernel: a campaign of a
// million calls a kernel takes days, and a count near the largest int made
// the plan's size overflow.
const MaxSamples = 1_000_000

// MaxDim bounds a synthetic plan's largest dimension, so that its operand
// sizes (products of two dimensions) stay far within an int; what memory
// the largest calls need is WorkerBytes.
const MaxDim = 1 << 20

// WorkerBytes is the memory one worker's operand buffers take for the
// plan's largest calls (as the measurer reserves them), bytes.
func (p Plan) WorkerBytes() float64 {
	var na, nb, nc int
	for i := range p.Total() {
		a, b, c := operandSizes(p.Call(i))
		na, nb, nc = max(na, a), max(nb, b), max(nc, c)
	}
	return 8 * (float64(na) + float64(nb) + float64(nc))
}

// FieldError is a synthetic plan's field out of range: Field is the Plan
// field (Kernels, Samples, MaxDim, NBs), Value its offending value ("" when
// the message says it), Msg what is wrong. Its text names the field in the
// plan's words; a caller that took the field from a flag can name the flag.
type FieldError struct {
	Field, Name, Value, Msg string
}

func (e *FieldError) Error() string {
	if e.Value == "" {
		return e.Msg
	}
	return e.Name + " " + e.Value + ": " + e.Msg
}

// Validate reports a plan that cannot run.
func (p Plan) Validate() error {
	if len(p.Calls) > 0 {
		return p.validateCalls()
	}
	var errs []error
	if len(p.Kernels) == 0 {
		errs = append(errs, &FieldError{Field: "Kernels", Msg: "no kernels to measure"})
	}
	seen := map[string]bool{}
	for _, k := range p.Kernels {
		if !kernels.Known(k) || kernels.Family(k) != k {
			errs = append(errs, &FieldError{Field: "Kernels", Msg: fmt.Sprintf("unknown kernel %q (known: %s)", k, strings.Join(kernels.Names(), ", "))})
		} else if seen[k] {
			// dgemm,dgemm measured dgemm's samples twice over, silently.
			errs = append(errs, &FieldError{Field: "Kernels", Msg: fmt.Sprintf("%s given twice: give each kernel once (--samples sets how many calls each gets)", k)})
		}
		seen[k] = true
	}
	if p.Samples <= 0 {
		errs = append(errs, &FieldError{"Samples", "samples", fmt.Sprint(p.Samples), "want at least 1 per kernel"})
	} else if p.Samples > MaxSamples {
		errs = append(errs, &FieldError{"Samples", "samples", fmt.Sprint(p.Samples), fmt.Sprintf("want at most %d per kernel", MaxSamples)})
	}
	if p.MaxDim < 2 {
		errs = append(errs, &FieldError{"MaxDim", "max dimension", fmt.Sprint(p.MaxDim), "want at least 2"})
	} else if p.MaxDim > MaxDim {
		errs = append(errs, &FieldError{"MaxDim", "max dimension", fmt.Sprint(p.MaxDim), fmt.Sprintf("want at most %d", MaxDim)})
	}
	for _, nb := range p.NBs {
		if nb < 1 {
			errs = append(errs, &FieldError{"NBs", "panel width", fmt.Sprint(nb), "want at least 1"})
		}
	}
	return errors.Join(errs...)
}

// Total is the number of calls the plan measures.
func (p Plan) Total() int {
	if len(p.Calls) > 0 {
		return len(p.Calls)
	}
	return p.Samples * len(p.Kernels)
}

// Fingerprint identifies the plan in every row, so a rerun with another
// seed, size or kernel list is refused instead of mixing two plans' indices.
func (p Plan) Fingerprint() string {
	h := fnv.New64a()
	if len(p.Calls) > 0 {
		fmt.Fprintf(h, "app2")
		for _, c := range p.Calls {
			fmt.Fprintf(h, "|%s,%d,%d,%d,%d,%d,%d", c.Kernel, c.M, c.N, c.K, c.Side, c.TransA, c.TransB)
		}
		return fmt.Sprintf("%016x", h.Sum64())
	}
	fmt.Fprintf(h, "v5|%s|%d|%d|%d|%v", strings.Join(p.Kernels, ";"), p.Samples, p.MaxDim, p.Seed, p.nbs())
	return fmt.Sprintf("%016x", h.Sum64())
}

// Call is one planned kernel call. For dtrsm, Side tells which side the
// triangle is on, K is its order (kernels.VarsFor), and TransA says which of
// HPL's two forms per side it is: NoTrans for lower-left and upper-right (L1
// and U not transposed; the recursive panel), Trans for upper-left and
// lower-right (L1 or U transposed; HPL's default L1 form). For dgemm, TransB
// is the form of B: NoTrans as HPL's U form N calls it, Trans for U form T
// (HPL.dat's usual "0 = transposed"). Models do not tell forms apart (gonum
// solves them at speeds up to 2x apart), so the plan draws all of them.
type Call struct {
	Index   int
	Kernel  string
	M, N, K int
	Side    blas.Side
	TransA  blas.Transpose
	TransB  blas.Transpose
}

// Call returns the i-th call of the plan, drawn from a stream seeded by
// (Seed, i) only.
func (p Plan) Call(i int) Call {
	if len(p.Calls) > 0 {
		c := p.Calls[i]
		c.Index = i
		return c
	}
	rng := rand.New(rand.NewPCG(p.Seed, uint64(i)))
	c := Call{Index: i, Kernel: p.Kernels[i%len(p.Kernels)], Side: blas.Left, TransA: blas.NoTrans, TransB: blas.NoTrans}
	nbs := p.nbs()
	nb := nbs[rng.IntN(len(nbs))]
	nb = min(nb, p.MaxDim)
	long := func() int { return dim(rng, p.MaxDim) } // up to N/P or N/Q
	short := func() int { return dim(rng, nb) }      // up to NB
	switch c.Kernel {
	case "dgemm":
		if rng.IntN(2) == 0 {
			c.TransB = blas.Trans
		}
		switch rng.IntN(4) {
		case 0: // trailing update over the whole width: (mp, n, jb)
			c.M, c.N, c.K = long(), long(), nb
		case 1: // NB-wide chunks while a panel is in flight
			c.M, c.N, c.K = long(), short(), nb
		case 2: // recursive panel: small K, narrow N
			c.M, c.N, c.K = long(), short(), dim(rng, max(1, nb/2))
		default: // anything else within range, square-ish included
			c.M, c.N, c.K = long(), long(), short()
		}
	case "dtrsm":
		// The update's jb×jb triangle against up to N/Q columns, or a smaller
		// one inside the recursive panel; both sides and both forms of each,
		// as the L1/U storage forms call them.
		order, other := nb, long()
		if rng.IntN(4) == 0 {
			order, other = short(), short()
		}
		if rng.IntN(2) == 0 {
			c.TransA = blas.Trans
		}
		if rng.IntN(2) == 0 {
			c.M, c.N, c.K = order, other, order
		} else {
			c.M, c.N, c.K, c.Side = other, order, order, blas.Right
		}
	case "dgemv", "dger": // panel columns: long × narrow
		c.M, c.N = long(), short()
	case "dtrsv":
		c.N = short()
	case kernels.Laswp, kernels.Gather, kernels.Scatter, kernels.Uswp, kernels.Lacpy, kernels.Latcpy, kernels.Locswp:
		c.M, c.N = dim(rng, min(2*nb, p.MaxDim)), long() // ≤ 2·jb rows × up to N/Q columns
		if c.Kernel == kernels.Laswp || c.Kernel == kernels.Gather || c.Kernel == kernels.Scatter {
			c.K = long() // rows scattered over a local matrix of up to N rows (at least 2M when measured)
		}
	default: // level 1: a column of the panel
		c.N = long()
	}
	return c
}

// dim draws a dimension in [1, hi]: half the draws log-uniform (small calls
// matter for intercepts), half uniform (large ones for slopes).
func dim(rng *rand.Rand, hi int) int {
	if hi <= 1 {
		return 1
	}
	if rng.IntN(2) == 0 {
		return 1 + rng.IntN(hi)
	}
	return min(hi, int(math.Exp(rng.Float64()*math.Log(float64(hi)+1))))
}
