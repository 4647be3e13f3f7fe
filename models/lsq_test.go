package models

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/sajari/regression"
)

// fitTol is the tolerance on least-squares results that are exact in real
// arithmetic (relative, dimensionless).
const fitTol = 1e-9

func TestLSQHandSolved(t *testing.T) {
	// y = a·x + b through (0,1), (1,2), (2,2): x̄ = 1, ȳ = 5/3,
	// a = Σ(x−x̄)(y−ȳ)/Σ(x−x̄)² = ((−1)(−2/3) + 0 + (1)(1/3))/2 = 1/2,
	// b = ȳ − a·x̄ = 7/6.
	data := []Sample{{Vars: Vars{N: 0}, Seconds: 1}, {Vars: Vars{N: 1}, Seconds: 2}, {Vars: Vars{N: 2}, Seconds: 2}}
	p, err := fitPoly(data, []term{{0, 1, 0, 0}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.coef[0]-0.5) > fitTol || math.Abs(p.intercept-7.0/6) > fitTol {
		t.Errorf("a = %g, b = %g; want 1/2, 7/6", p.coef[0], p.intercept)
	}
	// Weights (1, 1, 4): the normal equations
	//   [Σw Σwx; Σwx Σwx²]·[b a]ᵀ = [Σwy Σwxy]ᵀ → [6 9; 9 17]·[b a]ᵀ = [11 18]ᵀ
	// give det = 102 − 81 = 21, a = (6·18 − 9·11)/21 = 9/21 = 3/7,
	// b = (17·11 − 9·18)/21 = 25/21.
	p, err = fitPoly(data, []term{{0, 1, 0, 0}}, []float64{1, 1, 4})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p.coef[0]-3.0/7) > fitTol || math.Abs(p.intercept-25.0/21) > fitTol {
		t.Errorf("weighted: a = %g, b = %g; want 3/7, 25/21", p.coef[0], p.intercept)
	}
}

// TestLSQCollinear: every dtrsm call on the left side has k = m, so m*n*k and
// m*m*n... are one column, as are m*n and n*k; the fit must drop the
// duplicates and still reproduce the data exactly.
func TestLSQCollinear(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	var data []Sample
	for range 200 {
		m, n := float64(1+rng.IntN(500)), float64(1+rng.IntN(500))
		v := Vars{M: m, N: n, K: m, W: m * m * n}
		data = append(data, Sample{Vars: v, Seconds: 1e-11*m*m*n + 1e-9*m*n + 1e-6})
	}
	fc, err := newFitContext("dtrsm", data, FitOptions{}.withDefaults())
	if err != nil {
		t.Fatal(err)
	}
	_, m, err := fc.fitMean(M2, data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range data {
		// collinearRel is relative: dropping duplicate columns leaves a
		// system whose terms span three orders of magnitude (1 µs to 1.25 ms),
		// which costs digits.
		const collinearRel = 1e-6
		if got := m.Mean(s.Vars); math.Abs(got-s.Seconds) > collinearRel*s.Seconds {
			t.Fatalf("at %+v: %g, want %g", s.Vars, got, s.Seconds)
		}
	}
}

// TestSegmentationMatchesBruteForce checks the dynamic programme and cut
// refinement against trying every pair of cuts (the reference solution) on
// small noisy three-piece data.
func TestSegmentationMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	for trial := range 5 {
		n := 100 + rng.IntN(40)
		var data []Sample
		b1, b2 := 20+rng.Float64()*20, 50+rng.Float64()*30
		for i := range n {
			x := float64(i + 1)
			y := 1e-6 + 1e-8*x
			if x >= b1 {
				y = 3e-6 + 2e-8*x
			}
			if x >= b2 {
				y = 1e-5 + 1e-8*x
			}
			data = append(data, Sample{Vars: Vars{N: x, W: x}, Seconds: y * (1 + 0.01*rng.NormFloat64())})
		}
		fc := &fitContext{opts: FitOptions{MaxPieces: 3}.withDefaults(), product: term{0, 1, 0, 0}}
		sg, err := fc.segment(data, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(sg.cuts) != 2 {
			t.Fatalf("trial %d: %d cuts, want 2", trial, len(sg.cuts))
		}
		// Reference: exhaustive search over all cut pairs with segments of at
		// least segMinSamples, using the same error function.
		t2, y2, w2 := make([]float64, n), make([]float64, n), make([]float64, n)
		for p, i := range sg.order {
			t2[p], y2[p] = data[i].Vars.N, data[i].Seconds
			w2[p] = 1 / (y2[p] * y2[p])
		}
		sums := newSegSums(t2, y2, w2)
		best, bi, bj := math.Inf(1), 0, 0
		for i := segMinSamples; i <= n-2*segMinSamples; i++ {
			for j := i + segMinSamples; j <= n-segMinSamples; j++ {
				if e := sums.sse(0, i) + sums.sse(i, j) + sums.sse(j, n); e < best {
					best, bi, bj = e, i, j
				}
			}
		}
		got := sums.sse(0, sg.cuts[0]) + sums.sse(sg.cuts[0], sg.cuts[1]) + sums.sse(sg.cuts[1], n)
		if got > best*(1+fitTol) {
			t.Errorf("trial %d: cuts %v give error %g; brute force %d,%d gives %g", trial, sg.cuts, got, bi, bj, best)
		}
	}
}

// TestLSQMatchesSajari compares our least squares with another library's,
// github.com/sajari/regression, on a well-conditioned M2 problem in dgemv's
// terms. It is a second implementation, not an independent method: sajari
// solves with gonum's QR too, so it guards our design matrix, weights and
// column handling, not the solver; TestNNLSMatchesEnumeration and the
// hand-solved cases check the solutions themselves.
func TestLSQMatchesSajari(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 12))
	terms := []term{{1, 1, 0, 0}, {1, 0, 0, 0}, {0, 1, 0, 0}} // m*n, m, n
	var data []Sample
	ref := new(regression.Regression)
	ref.SetObserved("seconds")
	for i, name := range []string{"m*n", "m", "n"} {
		ref.SetVar(i, name)
	}
	for range 300 {
		m, n := 1+rng.Float64()*9, 1+rng.Float64()*9
		y := 3 + 0.5*m*n + 2*m - n + 0.1*rng.NormFloat64()
		data = append(data, Sample{Vars: Vars{M: m, N: n}, Seconds: y})
		ref.Train(regression.DataPoint(y, []float64{m * n, m, n}))
	}
	if err := ref.Run(); err != nil {
		t.Fatal(err)
	}
	p, err := fitPoly(data, terms, nil)
	if err != nil {
		t.Fatal(err)
	}
	// sajari's Coeff(0) is the intercept, Coeff(i+1) the i-th variable's.
	const agreeTol = 1e-8 // relative; both solve the same normal equations
	if e := math.Abs(p.intercept-ref.Coeff(0)) / math.Abs(ref.Coeff(0)); e > agreeTol {
		t.Errorf("intercept %g, sajari %g", p.intercept, ref.Coeff(0))
	}
	for i := range terms {
		if e := math.Abs(p.coef[i]-ref.Coeff(i+1)) / math.Abs(ref.Coeff(i+1)); e > agreeTol {
			t.Errorf("%s: %g, sajari %g", terms[i], p.coef[i], ref.Coeff(i+1))
		}
	}
}
