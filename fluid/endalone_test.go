package fluid

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestEndAloneMatchesResolve runs random starts, completions and
// cancellations twice, once with endAlone and once with every end that
// leaves a flow on its links re-solved (endAloneOn off), and wants the
// same rates and completion dates after every event, to the bit, and the
// same SolveStats at the end. Before each end it sorts the end, from the
// routes, weights and rates it knows, into the cases endAlone must tell
// apart, and wants each case met: the flows left on the ended flow's
// links all frozen below its level; one flow left above it, alone on its
// links (bounded or not, on links of capacity 0 too), or alone on links
// of infinite capacity, where its bound rates it (the re-solve's
// fillTree, not fillFew); and the refusals: a second flow above the
// level, the one flow sharing another of its links.
func TestEndAloneMatchesResolve(t *testing.T) {
	type outcome struct {
		rates []uint64
		stats SolveStats
		cases [nEndCases]int
	}
	run := func(seed uint64, on bool) outcome {
		old := endAloneOn
		endAloneOn = on
		defer func() { endAloneOn = old }()
		rng := rand.New(rand.NewPCG(seed, 48))
		nl := 2 + rng.IntN(10)
		bws := make([]float64, nl)
		for i := range bws {
			bws[i] = []float64{10, 20, 7, 7, 0, math.Inf(1)}[rng.IntN(6)]
		}
		s := NewSystem(shared(bws...))
		var out outcome
		var ids []FlowID
		specs := map[FlowID]FlowSpec{}
		now := 0.0
		start := func(spec FlowSpec) {
			id := s.Start(now, spec)
			ids, specs[id] = append(ids, id), spec
		}
		for step := range 400 {
			switch r := rng.IntN(10); {
			case r < 5 || len(ids) == 0:
				route := []LinkID{LinkID(rng.IntN(nl))}
				if rng.IntN(3) > 0 {
					route = append(route, LinkID(rng.IntN(nl)))
				}
				spec := FlowSpec{Links: route, Bytes: float64(1 + rng.IntN(50)), Weight: []float64{1, 1, 2, 0.5}[rng.IntN(4)]}
				if rng.IntN(4) == 0 {
					spec.Bound = []float64{2, 5, 10}[rng.IntN(3)]
				}
				if spec.Bound == 0 && allInf(bws, route) {
					spec.Bound = 3
				}
				start(spec)
			default:
				// The flow to end, chosen as endOne chooses it.
				var id FlowID
				finish := r < 8
				if finish {
					tc, next, ok := s.NextCompletion()
					if !ok {
						break
					}
					now, id = max(now, tc), next
				} else {
					id = ids[rng.IntN(len(ids))]
				}
				out.cases[endCase(s, bws, id, ids, specs)]++
				if finish {
					s.Finish(now, id)
				} else {
					s.Cancel(now, id)
				}
				ids = slices.DeleteFunc(ids, func(x FlowID) bool { return x == id })
			}
			if step%7 == 0 {
				now += 0.25
			}
			for _, id := range ids {
				f := s.mustFlow(id)
				out.rates = append(out.rates, math.Float64bits(f.rate), math.Float64bits(f.finish))
			}
		}
		out.stats = s.SolveStats()
		return out
	}
	var total [nEndCases]int
	for seed := uint64(1); seed <= 300; seed++ {
		fast, slow := run(seed, true), run(seed, false)
		if len(fast.rates) != len(slow.rates) {
			t.Fatalf("seed %d: %d rates with endAlone, %d re-solving", seed, len(fast.rates), len(slow.rates))
		}
		for i := range fast.rates {
			if fast.rates[i] != slow.rates[i] {
				t.Fatalf("seed %d: value %d is %v with endAlone, %v re-solving", seed, i,
					math.Float64frombits(fast.rates[i]), math.Float64frombits(slow.rates[i]))
			}
		}
		if fast.stats != slow.stats {
			t.Fatalf("seed %d: SolveStats %+v with endAlone, %+v re-solving", seed, fast.stats, slow.stats)
		}
		for c, n := range fast.cases {
			total[c] += n
		}
	}
	for c, n := range total {
		if n < 20 {
			t.Errorf("%s: %d ends, want at least 20 (the cases above: %v)", endCaseNames[c], n, total)
		}
	}
	t.Logf("ends by case: %v", total)
}

// The ends TestEndAloneMatchesResolve sorts, by what is left on the
// ended flow's links.
const (
	endEmpty    = iota // nothing: no re-solve at all
	endFrozen          // only flows below the ended flow's level
	endAloneOne        // one flow at or above it, alone on its links, one of finite capacity
	endTwo             // two flows or more at or above it
	endShared          // one flow at or above it, sharing one of its other links
	endInfinite        // one flow at or above it, alone on links of infinite capacity (bounded)
	nEndCases
)

var endCaseNames = [nEndCases]string{"empty", "frozen", "alone", "two above", "one sharing", "alone on +Inf"}

// endCase sorts the end of flow id from the routes (specs), weights and
// current rates of the running flows ids, with threshold.go's rule: the
// re-solve of an end takes in the flows on its links whose level (rate ×
// weight) is not below the ended flow's level, less levelSlack.
func endCase(s *System, bws []float64, id FlowID, ids []FlowID, specs map[FlowID]FlowSpec) int {
	weight := func(id FlowID) float64 {
		if w := specs[id].Weight; w > 0 {
			return w
		}
		return 1
	}
	on := func(id FlowID, l LinkID) bool { return slices.Contains(specs[id].Links, l) }
	floor := 0.0
	if r := s.Rate(id); r > 0 && !math.IsInf(r, 1) {
		floor = r * weight(id) * (1 - levelSlack)
	}
	var others, above []FlowID
	for _, o := range ids {
		if o == id || !slices.ContainsFunc(specs[id].Links, func(l LinkID) bool { return on(o, l) }) {
			continue
		}
		others = append(others, o)
		if s.Rate(o)*weight(o) >= floor {
			above = append(above, o)
		}
	}
	switch {
	case len(others) == 0:
		return endEmpty
	case len(above) == 0:
		return endFrozen
	case len(above) > 1:
		return endTwo
	}
	g := above[0]
	for _, l := range specs[g].Links {
		for _, o := range ids {
			if o != id && o != g && on(o, l) {
				return endShared
			}
		}
	}
	if allInf(bws, specs[g].Links) {
		return endInfinite
	}
	return endAloneOne
}

// allInf reports whether every link of route has infinite capacity. An
// unbounded flow there has no level at which progressive filling stops it
// (the re-solve fails on it, endAlone included, which leaves it to the
// re-solve), a case no topology makes: the test bounds such flows.
func allInf(bws []float64, route []LinkID) bool {
	for _, l := range route {
		if !math.IsInf(bws[l], 1) {
			return false
		}
	}
	return true
}
