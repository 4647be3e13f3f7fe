package calibration_test

import (
	"fmt"

	"github.com/emu-hpc/emu/calibration"
)

// Samples from any tool are read as long as the columns kernel, host, m, n,
// k and seconds are there, in any order; unused dimensions may be empty.
func ExampleReadSamples() {
	file := []byte("seconds,kernel,host,m,n,k\n" +
		"0.0015,dgemm,node1,1000,64,128\n" +
		"2e-07,daxpy,node1,,100,\n")
	samples, err := calibration.ReadSamples(file, "mine.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range samples {
		fmt.Printf("%s on %s: m=%d n=%d k=%d took %g s\n", s.Kernel, s.Host, s.M, s.N, s.K, s.Seconds)
	}
	_, err = calibration.ReadSamples([]byte("kernel,host,m,n,k,seconds\ndgemm,node1,10,10,10,-1\n"), "bad.csv")
	fmt.Println(err)
	// Output:
	// dgemm on node1: m=1000 n=64 k=128 took 0.0015 s
	// daxpy on node1: m=0 n=100 k=0 took 2e-07 s
	// bad.csv:2: column seconds: negative duration -1
}

// A plan is a pure function of its seed and the index, which is what makes a
// campaign resumable: call 5 is the same call in every run.
func ExamplePlan_Call() {
	p := calibration.Plan{Kernels: []string{"dgemm", "dtrsm"}, Samples: 100, MaxDim: 1000, Seed: 42}
	a, b := p.Call(5), p.Call(5)
	fmt.Println(a == b, a.Kernel, p.Total())
	// Output: true dtrsm 200
}
