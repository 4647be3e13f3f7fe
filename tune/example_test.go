package tune_test

import (
	"context"
	"fmt"
	"strconv"

	"github.com/emu-hpc/emu/tune"
)

// toy is a Runner whose time is a closed form of the block size:
// t(nb) = (4096/nb + nb) ms, smallest at nb = √4096 = 64, where it is
// 128 ms. cmd/emu's Runner runs a scenario instead.
type toy struct{}

func (toy) Check(p tune.Point) error {
	for _, o := range p.Overrides {
		if o.Key != "hpl.nb" {
			return fmt.Errorf("%s: unknown key", o.Key)
		}
	}
	return nil
}

func (toy) Run(_ context.Context, p tune.Point) (tune.Result, error) {
	nb, err := strconv.Atoi(p.Overrides[0].Value)
	if err != nil {
		return tune.Result{}, err
	}
	t := (4096/float64(nb) + float64(nb)) * 1e-3
	return tune.Result{TimeS: t, SimulatedS: t}, nil
}

// A sweep of NB from 16 to 96 by 16 (six points), run on two workers and
// ranked best first: a result without Gflops is ranked by its time, so
// nb = 64 (128 ms) leads, then 80 (131.2 ms) and 48 (133.33 ms).
func ExampleSweep() {
	axis, err := tune.ParseSweep("hpl.nb=16..96..16")
	if err != nil {
		fmt.Println(err)
		return
	}
	axes := []tune.Axis{axis}
	fmt.Println(axis.Values, tune.Size(axes), "points")
	results, err := tune.Sweep(context.Background(), toy{}, tune.Points(axes, 0, 1), tune.Options{Jobs: 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range tune.Rank(results)[:3] {
		fmt.Printf("%s: %.2f ms\n", r.Label, r.TimeS*1e3)
	}
	// Output:
	// [16 32 48 64 80 96] 6 points
	// nb=64: 128.00 ms
	// nb=80: 131.20 ms
	// nb=48: 133.33 ms
}

// A point that the Runner's Check refuses (a typo in a key) fails the
// whole sweep, naming the point.
func ExampleSweep_check() {
	axis, _ := tune.ParseSweep("hpl.bn=64")
	_, err := tune.Sweep(context.Background(), toy{}, tune.Points([]tune.Axis{axis}, 0, 1), tune.Options{})
	fmt.Println(err)
	// Output:
	// point hpl.bn=64: hpl.bn: unknown key
}
