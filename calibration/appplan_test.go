package calibration

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/blas"
)

func TestSystematicProportionalToWeight(t *testing.T) {
	// Weights 1, 3, 6 (total 10): 10 points at stride 1 hit index 0 once,
	// index 1 three times and index 2 six times, whatever the offset.
	for _, u := range []float64{0, 0.25, 0.999} {
		got := systematic([]float64{1, 3, 6}, 10, u)
		count := [3]int{}
		for _, i := range got {
			count[i]++
		}
		if count != [3]int{1, 3, 6} {
			t.Errorf("u=%g: counts %v, want [1 3 6]", u, count)
		}
	}
	if got := systematic([]float64{0, 0}, 3, 0.5); got != nil {
		t.Errorf("zero weights: %v, want nothing", got)
	}
}

func TestFromAppTakesEveryCallWhenFew(t *testing.T) {
	calls := []AppCall{
		{Call: Call{Kernel: "dgemm", M: 100, N: 64, K: 64, TransB: blas.Trans}, Count: 3},
		{Call: Call{Kernel: "dgemm", M: 50, N: 64, K: 64}, Count: 1},
		{Call: Call{Kernel: "idamax", N: 100}, Count: 7},
		{Call: Call{Kernel: "dscal", N: 10}, Count: 0}, // never made: not measured
	}
	p, err := FromApp(calls, 5, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Validate(); err != nil {
		t.Fatal(err)
	}
	if p.Total() != 3 {
		t.Fatalf("plan of %d calls, want 3: %+v", p.Total(), p.Calls)
	}
	// Kernel after kernel, each kernel's calls by increasing work.
	want := []Call{{Index: 0, Kernel: "dgemm", M: 50, N: 64, K: 64}, {Index: 1, Kernel: "dgemm", M: 100, N: 64, K: 64, TransB: blas.Trans}, {Index: 2, Kernel: "idamax", N: 100}}
	for i, w := range want {
		if got := p.Call(i); got != w {
			t.Errorf("call %d = %+v, want %+v", i, got, w)
		}
	}
	q, _ := FromApp(calls, 5, 1)
	if p.Fingerprint() != q.Fingerprint() {
		t.Error("the same calls gave two fingerprints")
	}
	calls[0].Call.TransB = blas.NoTrans
	if r, _ := FromApp(calls, 5, 1); r.Fingerprint() == p.Fingerprint() {
		t.Error("another form kept the fingerprint")
	}
}

func TestFromAppSamplesTimeAndCount(t *testing.T) {
	// 100 dgemm shapes: one huge call holds almost all the time, the small
	// ones almost all the calls. Half the samples follow time, half count:
	// the huge call is measured, and so are small ones.
	var calls []AppCall
	for i := 1; i <= 99; i++ {
		calls = append(calls, AppCall{Call: Call{Kernel: "dgemm", M: i, N: 8, K: 8}, Count: 1000})
	}
	calls = append(calls, AppCall{Call: Call{Kernel: "dgemm", M: 8000, N: 8000, K: 128}, Count: 10})
	p, err := FromApp(calls, 10, 7)
	if err != nil {
		t.Fatal(err)
	}
	if p.Total() != 10 {
		t.Fatalf("%d calls, want 10", p.Total())
	}
	seen := map[Call]bool{}
	huge, small := 0, 0
	for i := range p.Total() {
		c := p.Call(i)
		c.Index = 0
		if seen[c] {
			t.Errorf("call %+v drawn twice", c)
		}
		seen[c] = true
		if c.M == 8000 {
			huge++
		} else {
			small++
		}
	}
	if huge != 1 || small != 9 {
		t.Errorf("huge %d, small %d: want the huge call once and 9 small ones", huge, small)
	}
}

func TestFromAppWeighsRunsAlike(t *testing.T) {
	// Two runs of one HPL.dat: a large one whose dgemm calls (m ≥ 1000) hold
	// 4,000 times the time of a small one's (m < 100). Drawn as one run, the
	// small run's calls would get the count half of the samples only; each
	// run weighing the same, they get about half of the time-drawn ones too.
	var calls []AppCall
	for i := 1; i <= 50; i++ {
		calls = append(calls,
			AppCall{Call: Call{Kernel: "dgemm", M: 2 * i, N: 64, K: 64}, Count: 10, Run: 0},
			AppCall{Call: Call{Kernel: "dgemm", M: 1000 + 20*i, N: 2000, K: 64}, Count: 10, Run: 1})
	}
	count := func(calls []AppCall) (small int) {
		p, err := FromApp(calls, 20, 3)
		if err != nil {
			t.Fatal(err)
		}
		for i := range p.Total() {
			if p.Call(i).M < 1000 {
				small++
			}
		}
		return small
	}
	if small := count(calls); small < 8 || small > 12 {
		t.Errorf("%d of 20 samples from the small run, want about 10", small)
	}
	for i := range calls {
		calls[i].Run = 0
	}
	if small := count(calls); small > 6 {
		t.Errorf("as one run: %d of 20 samples from the small calls, want few (the count half only)", small)
	}
}

func TestFromAppRefusesBadCalls(t *testing.T) {
	for _, calls := range [][]AppCall{
		nil,
		{{Call: Call{Kernel: "dfoo", N: 1}, Count: 1}},
		{{Call: Call{Kernel: "dgemm", M: -1, N: 1, K: 1}, Count: 1}},
	} {
		if _, err := FromApp(calls, 4, 1); err == nil {
			t.Errorf("FromApp(%+v) gave no error", calls)
		}
	}
	if _, err := FromApp([]AppCall{{Call: Call{Kernel: "dscal", N: 3}, Count: 1}}, 0, 1); err == nil {
		t.Error("0 samples per kernel accepted")
	}
}

func TestMedianAndAgree(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		want float64
	}{{[]float64{3}, 3}, {[]float64{5, 1, 300}, 5}, {[]float64{4, 1, 2, 3}, 2.5}} {
		if got := median(c.x); got != c.want {
			t.Errorf("median(%v) = %g, want %g", c.x, got, c.want)
		}
	}
	if !agree([]float64{1.0, 1.04}) || agree([]float64{1.0, 1.06}) || !agree([]float64{2, 1.0, 1.01}) {
		t.Error("agree does not use the two smallest within 5%")
	}
}

func TestSuspectsFindsTheOutlier(t *testing.T) {
	// dgemm at exactly 1e-10 s per unit of work with ±1% scatter, and one
	// call 300× slower (issue 10's dtrsm): only it is suspect.
	var s []Sample
	for i := 0; i < 40; i++ {
		c := Call{Kernel: "dgemm", M: 50 + 37*i, N: 64, K: 64}
		sec := 1e-10 * work(c) * (1 + 0.01*math.Sin(float64(i)))
		if i == 17 {
			sec *= 300
		}
		s = append(s, Sample{Kernel: "dgemm", Host: "a", M: c.M, N: c.N, K: c.K, Seconds: sec})
	}
	got := Suspects(s)
	if len(got) != 1 || got[0] != 17 {
		t.Errorf("suspects %v, want [17]", got)
	}
	// Too few samples of a kernel are not screened.
	if got := Suspects(s[:screenMinSamples-1]); len(got) != 0 {
		t.Errorf("suspects among %d samples: %v", screenMinSamples-1, got)
	}
}
