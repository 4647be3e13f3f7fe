package main

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/emu-hpc/emu/scenario"
	"github.com/emu-hpc/emu/tune"
)

// maxSamePlans bounds the plans sameConfigs builds (a Dahu plan of 1,024
// hosts takes about 0.07 s here): past it, the axes left are not compared,
// and every value of theirs runs, as before. A sweep of 3 axes of 4 values
// builds 192.
const maxSamePlans = 256

// sameConfigs drops from each axis the values that resolve to the same
// configuration as an earlier value of that axis (hpl.bcast=long,4: 4 is
// HPL.dat's code for long; pfact=crout,1; l1=transposed,0;
// latency=1us,1000ns), so that one configuration is not run twice under two
// labels and ranked against itself. Two values are the same when the plans
// they give are deeply equal at every combination of the other axes' values
// (a spread's seed changes nothing where the spread is 0, but does where it
// is not); a value whose plan fails, or a plan holding anything DeepEqual
// cannot compare (a func), is taken as different, and both run, as before.
// The first spelling is kept; notes say, one line each, which value was
// dropped for which. sweeps names each key's --sweep.
func sameConfigs(r *scenarioRunner, axes []tune.Axis, sweeps map[string]string) ([]tune.Axis, []string) {
	var notes []string
	built := 0
	for a := range axes {
		n := len(axes[a].Values)
		if n < 2 {
			continue
		}
		others := append(append([]tune.Axis(nil), axes[:a]...), axes[a+1:]...)
		combos := tune.Size(others)
		if built += combos * n; built > maxSamePlans {
			break
		}
		// same[i][j], i < j: values i and j have given equal plans so far.
		same := make([][]bool, n)
		left := 0
		for i := range same {
			same[i] = make([]bool, n)
			for j := i + 1; j < n; j++ {
				same[i][j] = true
				left++
			}
		}
		for c := 0; c < combos && left > 0; c++ {
			base := tune.PointAt(others, c).Overrides
			plans := make([]*scenario.Plan, n)
			for i, v := range axes[a].Values {
				o := append(append(append([]tune.Override(nil), base[:a]...), tune.Override{Key: axes[a].Key, Value: v}), base[a:]...)
				if plan, err := r.plan(tune.Point{Overrides: o}); err == nil {
					plans[i] = plan
				}
			}
			for i := range n {
				for j := i + 1; j < n; j++ {
					if same[i][j] && (plans[i] == nil || plans[j] == nil || !reflect.DeepEqual(plans[i], plans[j])) {
						same[i][j] = false
						left--
					}
				}
			}
		}
		from := sweeps[axes[a].Key]
		if from == "" {
			from = axes[a].Key
		}
		var kept []string
		var keptAt []int
	values:
		for j, v := range axes[a].Values {
			for k, i := range keptAt {
				if same[i][j] {
					first := strings.Trim(kept[k], `"`)
					notes = append(notes, fmt.Sprintf("--sweep %q: %s and %s are one configuration (the same %s): run once, as %s",
						from, first, strings.Trim(v, `"`), axes[a].Key, first))
					continue values
				}
			}
			kept, keptAt = append(kept, v), append(keptAt, j)
		}
		axes[a].Values = kept
	}
	return axes, notes
}
