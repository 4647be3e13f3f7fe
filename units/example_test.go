package units_test

import (
	"fmt"

	"github.com/emu-hpc/emu/units"
)

func ExampleParseBandwidth() {
	for _, s := range []string{"10Gbps", "1.25GBps", "1GiBps", "10"} {
		bw, err := units.ParseBandwidth(s)
		fmt.Println(s, bw, err)
	}
	// Output:
	// 10Gbps 1.25e+09 <nil>
	// 1.25GBps 1.25e+09 <nil>
	// 1GiBps 1.073741824e+09 <nil>
	// 10 0 bandwidth "10" has no unit (e.g. "10Gbps" or "1.25GBps")
}
