package runner_test

import (
	"fmt"

	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

func ExampleRun() {
	// The embedded default: a 2×2 HPL, N = 2000, in model mode.
	p, err := scenario.Default().Validate()
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := runner.Run(p, runner.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.App, res.Ranks, res.HPL[0].Variant, res.HPL[0].N, res.HPL[0].NB)
	// Output:
	// hpl 4 WR11C2R4 2000 64
}
