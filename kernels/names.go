package kernels

import (
	"fmt"
	"slices"
	"strings"

	"github.com/emu-hpc/emu/models"
)

// kernelID indexes the BLAS kernels so the hot path resolves models by array.
type kernelID uint8

const (
	idDgemm kernelID = iota
	idDtrsm
	idDgemv
	idDger
	idDtrsv
	idDscal
	idDaxpy
	idDcopy
	idDswap
	idIdamax
	numKernels
)

// kernelNames are the names under which models are looked up and compute
// time is reported.
var kernelNames = [numKernels]string{
	idDgemm:  "dgemm",
	idDtrsm:  "dtrsm",
	idDgemv:  "dgemv",
	idDger:   "dger",
	idDtrsv:  "dtrsv",
	idDscal:  "dscal",
	idDaxpy:  "daxpy",
	idDcopy:  "dcopy",
	idDswap:  "dswap",
	idIdamax: "idamax",
}

// Names of HPL's own kernels, charged with Set.Charge or Set.Run (rows M,
// columns N). Calibration measures them with equivalent Go loops.
//
// HPL's row interchanges come in two memory regimes, so they are two
// kernels: Laswp moves rows of the local matrix A, scattered over its K
// local rows (the call's K; one cache line per element, taken cold after
// the previous update swept A out of cache: about 9 ns per element on the
// project's VM), and Uswp moves rows within the U and W buffers, which are
// compact and in cache (about 1 ns).
const (
	Laswp   = "dlaswp"   // row interchanges touching A: M rows of N columns, scattered over K rows
	Gather  = "dgather"  // rows of A copied into a compact buffer: M rows of N columns, scattered over K rows
	Scatter = "dscatter" // compact rows copied into rows of A: M rows of N columns, scattered over K rows
	Uswp    = "duswp"    // row moves within HPL's U and W buffers: M rows of N columns
	Lacpy   = "dlacpy"   // M×N copy
	Latcpy  = "dlatcpy"  // M×N transposing copy
	Locswp  = "dlocswp"  // local row swap of the panel: M rows of N columns
)

// Gather and Scatter are HPL's row copies between A and a compact buffer (U,
// W or the panel's top block): a copy reads or writes one scattered row
// where an interchange reads and writes one. apps/hpl's laswp.go says how
// each of HPL's routines is billed (most rows of HPL_dlaswp01T cost an
// interchange each, its top rows bound for U a move within U). A models file
// without them charges both with dlaswp's model.

// hplOwn lists HPL's own kernels, the families of Family.
var hplOwn = []string{Laswp, Gather, Scatter, Uswp, Lacpy, Latcpy, Locswp}

// scattered reports whether a kernel's rows lie among K rows of A (its K is a
// model variable).
func scattered(kernel string) bool {
	switch Family(kernel) {
	case Laswp, Gather, Scatter:
		return true
	}
	return false
}

// Names returns every kernel this package knows: the BLAS set first, then
// HPL's own copy family.
func Names() []string {
	out := append([]string(nil), kernelNames[:]...)
	return append(out, hplOwn...)
}

// Family maps a kernel name to the name whose conventions it follows: HPL's
// variants of its own routines ("HPL_dlaswp01T", "dlaswp00N") belong to their
// family ("dlaswp"); any other name maps to itself.
func Family(name string) string {
	base := strings.TrimPrefix(name, "HPL_")
	for _, fam := range hplOwn {
		if strings.HasPrefix(base, fam) {
			return fam
		}
	}
	return name
}

// known is Names, built once for Known (which readers call per row).
var known = Names()

// Known reports whether name is one of Names or a variant of HPL's copy
// family (see Family).
func Known(name string) bool {
	return slices.Contains(known, Family(name))
}

// dims says which of (m, n, k) a kernel uses, for VarsFor.
func dims(kernel string) (useM, useN, useK bool) {
	switch kernel {
	case "dgemm", "dtrsm":
		return true, true, true
	case Laswp, Gather, Scatter: // K: the local rows its rows are scattered over (0: unknown)
		return true, true, true
	case "dgemv", "dger", Uswp, Lacpy, Latcpy, Locswp:
		return true, true, false
	default: // dtrsv and level 1: one length, in n
		return false, true, false
	}
}

// VarsFor returns the model variables of one call of kernel with dimensions
// (m, n, k) as recorded in a sample file, using the conventions of the
// package documentation (for dtrsm, k is the triangle order: m for side left,
// n for side right). Dimensions a kernel does not use are ignored. empty is
// true when a used dimension is zero: such a call costs nothing.
func VarsFor(kernel string, m, n, k int) (v models.Vars, empty bool, err error) {
	if !Known(kernel) {
		return v, false, fmt.Errorf("unknown kernel %q", kernel)
	}
	if m < 0 || n < 0 || k < 0 {
		return v, false, fmt.Errorf("negative dimension (m=%d n=%d k=%d)", m, n, k)
	}
	useM, _, useK := dims(Family(kernel))
	if !useM {
		m = 0
	}
	if !useK {
		k = 0
	}
	fm, fn, fk := float64(m), float64(n), float64(k)
	v = models.Vars{M: fm, N: fn, K: fk}
	switch {
	case scattered(kernel):
		v.W = fm * fn
		empty = m == 0 || n == 0
	case useK:
		v.W = fm * fn * fk
		empty = m == 0 || n == 0 || k == 0
	case useM:
		v.W = fm * fn
		empty = m == 0 || n == 0
	case kernel == "dtrsv":
		v.W = fn * fn
		empty = n == 0
	default:
		v.W = fn
		empty = n == 0
	}
	return v, empty, nil
}
