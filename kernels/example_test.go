package kernels_test

import (
	"fmt"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

type printCharger struct{}

func (printCharger) Compute(seconds float64, kernel string) {
	fmt.Printf("%s: %.3g s\n", kernel, seconds)
}

// In Model mode nothing is allocated or computed: a 1000×128×128 dgemm is
// charged 1e-6 + 1e-11·(1000·128·128) = 1.648e-4 s.
func ExampleSet_Dgemm() {
	set, err := models.ParseSet([]byte(`
[kernels.dgemm]
terms = ["m*n*k"]
coef = [1e-11]
intercept = 1e-6
`), "models.toml")
	if err != nil {
		fmt.Println(err)
		return
	}
	k := kernels.New(kernels.Config{Mode: kernels.Model, Models: set}, printCharger{}, nil)
	k.Dgemm(blas.NoTrans, blas.NoTrans, 1000, 128, 128, -1, nil, 1000, nil, 128, 1, nil, 1000)
	k.Dgemm(blas.NoTrans, blas.NoTrans, 1000, 0, 128, -1, nil, 1000, nil, 128, 1, nil, 1000)  // empty: free
	k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 128, 1000, 1, nil, 128, nil, 128) // no model: free
	// Output:
	// dgemm: 0.000165 s
}
