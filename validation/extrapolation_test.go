package validation

import (
	"fmt"
	"math"
	"os"
	"sort"
	"testing"

	"github.com/emu-hpc/emu/internal/plantest"
	"github.com/emu-hpc/emu/runner"
	"github.com/emu-hpc/emu/scenario"
)

// extrapolationCase is one HPL configuration whose extrapolations are checked
// against its whole run.
type extrapolationCase struct {
	name string
	load func(testing.TB) (*scenario.Scenario, error)
	sets []string
	long bool // only with EMU_LONG=1: minutes (32×32) or hours (Fig. 6) whole
}

func defaultScenario(testing.TB) (*scenario.Scenario, error) { return scenario.Default(), nil }

func fileWith(path string) func(testing.TB) (*scenario.Scenario, error) {
	return func(testing.TB) (*scenario.Scenario, error) { return scenario.Load(path) }
}

// peerRow loads a row of the SMPI peers' results as BenchmarkScale runs it.
func peerRow(name string) func(testing.TB) (*scenario.Scenario, error) {
	return func(t testing.TB) (*scenario.Scenario, error) {
		for _, r := range loadPeerRows(t) {
			if r.Name == name {
				return r.Scenario("testdata", defaultOrder)
			}
		}
		return nil, fmt.Errorf("no peer row %s", name)
	}
}

// extrapolationCases spans grid shapes, broadcasts, depths and sizes: the
// embedded default platform (flat, 10 Gb/s), the SMPI peers' 256-host flat
// cluster (their 8×8 and 16×16 runs, N = 80,000), the Dahu example at 32×32, and seed 003's
// Fig. 6 points on the Stampede-like fat tree (whole runs of hours: long).
func extrapolationCases() []extrapolationCase {
	var cs []extrapolationCase
	for _, g := range []struct{ grid, bcast, depth string }{
		{"[[4, 4]]", "1ringM", "1"}, {"[[4, 4]]", "long", "0"}, {"[[2, 8]]", "2ringM", "1"},
		{"[[1, 16]]", "1ring", "0"}, {"[[1, 16]]", "longM", "1"},
	} {
		cs = append(cs, extrapolationCase{
			name: fmt.Sprintf("flat10G_%s_%s_d%s_N20000", map[string]string{"[[4, 4]]": "4x4", "[[2, 8]]": "2x8", "[[1, 16]]": "1x16"}[g.grid], g.bcast, g.depth),
			load: defaultScenario, sets: []string{"platform.hosts=16", "hpl.n=20000", "hpl.grids=" + g.grid, `hpl.bcast="` + g.bcast + `"`, "hpl.depth=" + g.depth},
		})
	}
	cs = append(cs,
		extrapolationCase{name: "flat10G_8x8_2ringM_d1_N40000", load: defaultScenario,
			sets: []string{"platform.hosts=64", "hpl.n=40000", "hpl.nb=128", "hpl.grids=[[8, 8]]", `hpl.bcast="2ringM"`}},
		extrapolationCase{name: "peer_flat_8x8_N80000", load: peerRow("mr_ip6_flat_8x8_80000")},
		extrapolationCase{name: "peer_flat_16x16_N80000", load: peerRow("ip6_diag_flat_16x16_80000")},
		extrapolationCase{name: "dahu_32x32_N50000", load: fileWith("../examples/dahu/dahu.toml"), sets: []string{"kernels.noise=false"}, long: true},
	)
	for _, c := range fig6Cases() {
		c.long = true
		cs = append(cs, c)
	}
	return append(cs, stampedeCase())
}

// stampedeCase is examples/stampede.toml as it stands: 77×78 ranks on 6,006
// nodes, N = 3,875,000, 3,785 panels (hours whole: long).
func stampedeCase() extrapolationCase {
	return extrapolationCase{name: "stampede_77x78_N3875000", load: fileWith("../examples/stampede.toml"), long: true}
}

// stampedeMergedCase is stampedeCase with merged long-broadcast rolls.
func stampedeMergedCase() extrapolationCase {
	c := stampedeCase()
	c.name += "_merged"
	c.sets = append(c.sets, "hpl.roll=merged")
	return c
}

// stampedeMergedLocalCase is stampedeMergedCase with local re-solves too
// (network.local_solve, which gives Stampede's output to the bit).
func stampedeMergedLocalCase() extrapolationCase {
	c := stampedeMergedCase()
	c.name += "_local"
	c.sets = append(c.sets, "network.local_solve=true")
	return c
}

// stampedeUncontendedCase is stampedeMergedLocalCase with the pivot
// search's exchanges timed as wholes (hpl.pivot_exchange = "uncontended").
func stampedeUncontendedCase() extrapolationCase {
	c := stampedeMergedLocalCase()
	c.name += "_uncontended"
	c.sets = append(c.sets, "hpl.pivot_exchange=uncontended")
	return c
}

// fig6Cases are seed 003's Fig. 6 points: 512 to 4,096 ranks (16×32, 32×32,
// 32×64, 64×64) × N = 0.5, 1, 2 and 4 million, with examples/stampede.toml's
// network and HPL settings on a Stampede-like 4,096-node two-level fat tree
// (16 nodes a leaf switch, 256 leaves, 8 top switches: the paper gives the
// node count, not the tree; Stampede's own has 22 nodes a leaf). Run whole.
func fig6Cases() []extrapolationCase {
	var cs []extrapolationCase
	for _, pt := range []struct{ p, q int }{{16, 32}, {32, 32}, {32, 64}, {64, 64}} {
		for _, n := range []int{500000, 1000000, 2000000, 4000000} {
			cs = append(cs, extrapolationCase{
				name: fmt.Sprintf("fig6_%dx%d_N%d", pt.p, pt.q, n), load: fileWith("../examples/stampede.toml"),
				sets: []string{`platform.fat_tree="2;16,256;1,8;1,1"`, fmt.Sprintf("hpl.grids=[[%d, %d]]", pt.p, pt.q), fmt.Sprintf("hpl.n=%d", n)},
			})
		}
	}
	return cs
}

// BenchmarkExtrapolationError runs each case whole and extrapolated from K = 8,
// 16, 32 and 64 panels, and reports how often the whole run's Time lies within
// the stated error bar (coverage), the median and largest relative errors, and
// the median stated bar, in percent. Each case's rows are logged. A Fig. 6 point
// whose whole run is recorded in testdata/fig6_whole.csv (BenchmarkFig6 -update)
// is checked against that Time and runs without EMU_LONG: only its extrapolations;
// so is Stampede's (testdata/stampede_whole.csv, BenchmarkStampedeWhole -update).
//
//	nice -n 19 go test -run XXX -bench 'ExtrapolationError/fig6' -benchtime 1x -timeout 2h ./validation
//
//	nice -n 19 go test -run XXX -bench ExtrapolationError -benchtime 1x ./validation
//	EMU_LONG=1 nice -n 19 go test -run XXX -bench 'ExtrapolationError/dahu' -benchtime 1x -timeout 2h ./validation
//	EMU_LONG=1 nice -n 19 go test -run XXX -bench 'ExtrapolationError/fig6_16x32_N500000' -benchtime 1x -timeout 24h ./validation
func BenchmarkExtrapolationError(b *testing.B) {
	long := os.Getenv("EMU_LONG") == "1"
	ks := []int{8, 16, 32, 64}
	recorded := readFig6Whole(b)
	for name, w := range readWholeRuns(b, stampedeWholePath) {
		recorded[name] = w
	}
	for _, c := range extrapolationCases() {
		b.Run(c.name, func(b *testing.B) {
			rec, isRecorded := recorded[c.name]
			if c.long && !long && !isRecorded {
				b.Skip("whole run takes minutes to hours: EMU_LONG=1")
			}
			var errs, bars []float64
			covered := 0
			for b.Loop() {
				errs, bars, covered = errs[:0], bars[:0], 0
				var whole float64
				if isRecorded {
					whole = rec.time // BenchmarkFig6's whole run, testdata/fig6_whole.csv
					b.Logf("%s: whole Time %.6g s recorded on %s", c.name, whole, rec.date)
				} else {
					whole = extrapolatedTime(b, c, 0)
				}
				for _, k := range ks {
					t, bar := extrapolatedTime2(b, c, k)
					e := (t - whole) / whole
					errs, bars = append(errs, math.Abs(e)), append(bars, bar/t)
					if math.Abs(t-whole) <= bar {
						covered++
					}
					b.Logf("%s K=%d: %.6g s vs whole %.6g s (%+.2f%%), stated ±%.2f%%", c.name, k, t, whole, 100*e, 100*bar/t)
				}
			}
			b.ReportMetric(float64(covered)/float64(len(ks)), "coverage")
			b.ReportMetric(100*median(errs), "median-err-%")
			b.ReportMetric(100*maxOf(errs), "max-err-%")
			b.ReportMetric(100*median(bars), "median-bar-%")
		})
	}
}

// extrapolatedTime is the case's HPL Time with max_iterations k (0: whole).
func extrapolatedTime(b *testing.B, c extrapolationCase, k int) float64 {
	t, _ := extrapolatedTime2(b, c, k)
	return t
}

// plan loads the case's scenario with its settings and then hpl.max_iterations
// = k (0: whole), and validates it.
func (c extrapolationCase) plan(tb testing.TB, k int) *scenario.Plan {
	tb.Helper()
	s, err := c.load(tb)
	if err != nil {
		tb.Fatal(err)
	}
	return plantest.Validated(tb, s, append(append([]string(nil), c.sets...), fmt.Sprintf("hpl.max_iterations=%d", k))...)
}

// extrapolatedTime2 is the case's HPL Time and stated error bar, s.
func extrapolatedTime2(b *testing.B, c extrapolationCase, k int) (float64, float64) {
	b.Helper()
	res, err := runner.Run(c.plan(b, k), runner.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if len(res.HPL) != 1 {
		b.Fatalf("%s: %d HPL tests, want 1", c.name, len(res.HPL))
	}
	return res.HPL[0].Time, res.HPL[0].ExpectedError
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func maxOf(xs []float64) float64 {
	m := 0.0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// tuningSpace is issue 13's 288-point tuning space (the embedded default's
// 16 hosts, N = 20,000: 8 NBs × the broadcasts × 2 depths × 3 grids), or
// the part of it with the given broadcasts.
func tuningSpace(bcasts ...string) []extrapolationCase {
	var cases []extrapolationCase
	for _, nb := range []string{"32", "48", "64", "96", "128", "160", "192", "256"} {
		for _, bc := range bcasts {
			for _, d := range []string{"0", "1"} {
				for _, g := range []string{"[[1, 16]]", "[[2, 8]]", "[[4, 4]]"} {
					cases = append(cases, extrapolationCase{name: nb + bc + d + g, load: defaultScenario,
						sets: []string{"platform.hosts=16", "hpl.n=20000", "hpl.nb=" + nb, `hpl.bcast="` + bc + `"`, "hpl.depth=" + d, "hpl.grids=" + g}})
				}
			}
		}
	}
	return cases
}

// BenchmarkExtrapolationError288 runs the 288 points of issue 13's tuning space
// (the embedded default platform with 16 hosts, N = 20,000: 8 NBs × 6 broadcasts
// × 2 depths × 3 grids of 16 ranks) whole and from K = 8, 16, 32 and 64 panels,
// and reports per K the fraction of points whose whole Time lies within the
// stated bar, the median relative error and the median stated bar, in percent.
//
//	nice -n 19 go test -run XXX -bench ExtrapolationError288 -benchtime 1x -timeout 1h ./validation
func BenchmarkExtrapolationError288(b *testing.B) {
	ks := []int{8, 16, 32, 64}
	cases := tuningSpace("1ring", "1ringM", "2ring", "2ringM", "long", "longM")
	errs := make([][]float64, len(ks))
	bars := make([][]float64, len(ks))
	covered := make([]int, len(ks))
	for b.Loop() {
		for i := range ks {
			errs[i], bars[i], covered[i] = nil, nil, 0
		}
		for _, c := range cases {
			whole := extrapolatedTime(b, c, 0)
			for i, k := range ks {
				t, bar := extrapolatedTime2(b, c, k)
				errs[i] = append(errs[i], math.Abs(t-whole)/whole)
				bars[i] = append(bars[i], bar/t)
				if math.Abs(t-whole) <= bar {
					covered[i]++
				}
			}
		}
	}
	for i, k := range ks {
		b.ReportMetric(float64(covered[i])/float64(len(cases)), fmt.Sprintf("coverage-K%d", k))
		b.ReportMetric(100*median(errs[i]), fmt.Sprintf("median-err-%%-K%d", k))
		b.ReportMetric(100*median(bars[i]), fmt.Sprintf("median-bar-%%-K%d", k))
		b.ReportMetric(100*maxOf(errs[i]), fmt.Sprintf("max-err-%%-K%d", k))
	}
}
