package sensitivity_test

import (
	"fmt"

	"github.com/emu-hpc/emu/sensitivity"
)

// A late sender: rank 1 computes 10 µs before sending to rank 0, which
// posts its receive at once. T(L) = 10 + o + L + o, λ_L = 1 everywhere, and
// the 1% tolerance is the L at which T has grown by 1%.
func ExampleAnalyze() {
	const o = 1e-6
	b := sensitivity.NewBuilder(2)
	c := b.Vertex(1, sensitivity.Calc, 10e-6)
	s := b.Vertex(1, sensitivity.Send, o)
	r := b.Vertex(0, sensitivity.Recv, o)
	b.Edge(c, s, 0)
	b.EdgeBytes(s, r, 0, 8, sensitivity.LatTerm{Class: 0, Count: 1}) // L + 8 bytes
	g, err := b.Build()
	if err != nil {
		panic(err)
	}
	rep, err := sensitivity.Analyze(g, sensitivity.Params{L0: 3e-6, Tolerances: []float64{1}})
	if err != nil {
		panic(err)
	}
	fmt.Println("T =", sensitivity.FormatSeconds(rep.Runtime), "λ_L =", rep.LambdaL, "λ_G =", rep.LambdaG)
	fmt.Println("1% tolerance:", sensitivity.FormatSeconds(*rep.Tolerance["1"]))
	// Output:
	// T = 15.000000 µs λ_L = 1 λ_G = 8
	// 1% tolerance: 3.150000 µs
}
