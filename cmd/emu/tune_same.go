package main

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/emu-hpc/emu/tune"
)

// sameConfigs drops from each axis the values that resolve to the same
// configuration as an earlier value of that axis (hpl.bcast=long,4: 4 is
// HPL.dat's code for long; pfact=crout,1; l1=transposed,0;
// latency=1us,1000ns), so that one configuration is not run twice under two
// labels and ranked against itself. Two values are the same when the plans
// they give, the other axes at their first values, are deeply equal: a plan
// holding anything DeepEqual cannot compare (a func) is taken as different,
// and both run, as before. The first spelling is kept; notes say, one line
// each, which value was dropped for which. sweeps names each key's --sweep.
func sameConfigs(r *scenarioRunner, axes []tune.Axis, sweeps map[string]string) ([]tune.Axis, []string) {
	var notes []string
	for a := range axes {
		if len(axes[a].Values) < 2 {
			continue
		}
		base := make([]tune.Override, len(axes))
		for i, ax := range axes {
			base[i] = tune.Override{Key: ax.Key, Value: ax.Values[0]}
		}
		var kept []string
		var plans []any
		for _, v := range axes[a].Values {
			p := tune.Point{Overrides: append([]tune.Override(nil), base...)}
			p.Overrides[a].Value = v
			plan, err := r.plan(p)
			if err != nil {
				// The check of every point names the error; keep the value.
				kept, plans = append(kept, v), append(plans, nil)
				continue
			}
			same := -1
			for j, q := range plans {
				if q != nil && reflect.DeepEqual(q, any(plan)) {
					same = j
					break
				}
			}
			if same < 0 {
				kept, plans = append(kept, v), append(plans, any(plan))
				continue
			}
			from := sweeps[axes[a].Key]
			if from == "" {
				from = axes[a].Key
			}
			notes = append(notes, fmt.Sprintf("--sweep %q: %s and %s are one configuration (the same %s): run once, as %s",
				from, strings.Trim(kept[same], `"`), strings.Trim(v, `"`), axes[a].Key, strings.Trim(kept[same], `"`)))
		}
		axes[a].Values = kept
	}
	return axes, notes
}
