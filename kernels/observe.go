package kernels

import (
	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/models"
)

// Form records which BLAS form a call used, where a kernel has several whose
// speeds differ (gonum solves dtrsm's forms up to 2x apart): the flags of
// dgemm's op(B) and of dtrsm's side, triangle and op(A). It lets a
// calibration measure a call exactly as the application made it.
type Form uint8

const (
	FormTransA Form = 1 << iota // op(A) = Aᵀ (dtrsm, dgemv)
	FormTransB                  // op(B) = Bᵀ (dgemm)
	FormRight                   // triangle on the right (dtrsm)
	FormUpper                   // upper triangle (dtrsm, dtrsv)
)

// GemmForm is the Form of a dgemm call with op(B) = tB (HPL never transposes A).
func GemmForm(tB blas.Transpose) Form {
	if tB == blas.NoTrans {
		return 0
	}
	return FormTransB
}

// TrsmForm is the Form of a dtrsm call.
func TrsmForm(side blas.Side, uplo blas.Uplo, tA blas.Transpose) Form {
	var f Form
	if side == blas.Right {
		f |= FormRight
	}
	if uplo == blas.Upper {
		f |= FormUpper
	}
	if tA != blas.NoTrans {
		f |= FormTransA
	}
	return f
}

// Side, Uplo and TransA/TransB give back the BLAS flags of a Form.
func (f Form) Side() blas.Side {
	if f&FormRight != 0 {
		return blas.Right
	}
	return blas.Left
}

func (f Form) Uplo() blas.Uplo {
	if f&FormUpper != 0 {
		return blas.Upper
	}
	return blas.Lower
}

func (f Form) TransA() blas.Transpose {
	if f&FormTransA != 0 {
		return blas.Trans
	}
	return blas.NoTrans
}

func (f Form) TransB() blas.Transpose {
	if f&FormTransB != 0 {
		return blas.Trans
	}
	return blas.NoTrans
}

// Observed is one kernel call as an Observer sees it: what was called, with
// which model variables (VarsFor's conventions) and form, and the seconds
// charged for it (measured × speed ratio in Timed mode, the model's draw
// otherwise; 0 for a kernel without a model).
type Observed struct {
	Kernel  string
	Vars    models.Vars
	Form    Form
	Seconds float64
}

// observe reports a call to the set's observer, if any.
func (k *Set) observe(kernel string, v models.Vars, f Form, seconds float64) {
	if k.observer != nil {
		k.observer(Observed{Kernel: kernel, Vars: v, Form: f, Seconds: seconds})
	}
}

// FormOf is the Form of a call whose only flag is op(A) (dgemv).
func FormOf(tA blas.Transpose) Form {
	if tA != blas.NoTrans {
		return FormTransA
	}
	return 0
}

// TrsvForm is the Form of a dtrsv call.
func TrsvForm(uplo blas.Uplo, tA blas.Transpose) Form {
	f := FormOf(tA)
	if uplo == blas.Upper {
		f |= FormUpper
	}
	return f
}
