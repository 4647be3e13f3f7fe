package kernels

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/models"
)

// chargeTol is the relative error allowed on a charged model time (s/s):
// only float rounding separates the hand computation from the model's.
const chargeTol = 1e-12

// testModels gives each kernel a model whose time is easy to compute by hand:
// 1 ns per unit of W plus an intercept of 1 µs, and a per-host override of
// dgemm on host "slow" twice as expensive.
const testModels = `
[kernels.dgemm]
terms = ["w"]
coef = [1e-9]
intercept = 1e-6
[kernels.dgemm.host.slow]
terms = ["m*n*k"]
coef = [2e-9]
intercept = 2e-6
[kernels.dgemm.host."slow/cpu1"]
terms = ["m*n*k"]
coef = [3e-9]
intercept = 3e-6
[kernels.dtrsm]
terms = ["w"]
coef = [1e-9]
intercept = 1e-6
[kernels.dgemv]
terms = ["m*n"]
coef = [1e-9]
intercept = 1e-6
[kernels.dtrsv]
terms = ["w"]
coef = [1e-9]
intercept = 1e-6
[kernels.daxpy]
terms = ["n"]
coef = [1e-9]
intercept = 1e-6
[kernels.idamax]
terms = ["n"]
coef = [1e-9]
intercept = 1e-6
[kernels.dlaswp]
terms = ["w"]
coef = [1e-9]
intercept = 1e-6
[kernels.dlaswp02N]
terms = ["m*n"]
coef = [4e-9]
`

func parseModels(t testing.TB, text string) *models.Set {
	t.Helper()
	set, err := models.ParseSet([]byte(text), "test.toml")
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func near(a, b float64) bool { return math.Abs(a-b) <= chargeTol*math.Max(math.Abs(a), math.Abs(b)) }

// TestModelModeCharges checks each kernel's charge against the hand
// computation 1e-6 + 1e-9·W with W from the package's conventions.
func TestModelModeCharges(t *testing.T) {
	set := parseModels(t, testModels)
	cases := []struct {
		name string
		call func(k *Set)
		host string
		want float64 // s; 0 = nothing charged
		cpu  int
	}{
		{"dgemm", func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 20, 8, 1, nil, 100, nil, 8, 1, nil, 100) }, "", 1e-6 + 1e-9*100*20*8, 0},
		{"dgemm", func(k *Set) { k.Dgemm(blas.NoTrans, blas.Trans, 100, 20, 8, 1, nil, 100, nil, 20, 1, nil, 100) }, "slow", 2e-6 + 2e-9*100*20*8, 0},
		{"dgemm", func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 0, 8, 1, nil, 100, nil, 8, 1, nil, 100) }, "", 0, 0},
		{"dgemm", func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 20, 0, 1, nil, 100, nil, 1, 1, nil, 100) }, "", 0, 0},
		// Left: W = m²·n = 8·8·50; right: W = m·n² = 50·8·8.
		{"dtrsm", func(k *Set) { k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, 8, 50, 1, nil, 8, nil, 8) }, "", 1e-6 + 1e-9*8*8*50, 0},
		{"dtrsm", func(k *Set) { k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, 50, 8, 1, nil, 8, nil, 50) }, "", 1e-6 + 1e-9*50*8*8, 0},
		{"dgemv", func(k *Set) { k.Dgemv(blas.Trans, 30, 7, 1, nil, 30, nil, 1, 0, nil, 1) }, "", 1e-6 + 1e-9*30*7, 0},
		{"dtrsv", func(k *Set) { k.Dtrsv(blas.Upper, blas.NoTrans, blas.NonUnit, 12, nil, 12, nil, 1) }, "", 1e-6 + 1e-9*12*12, 0},
		{"daxpy", func(k *Set) { k.Daxpy(1000, 2, nil, 1, nil, 1) }, "", 1e-6 + 1e-9*1000, 0},
		{"idamax", func(k *Set) { k.Idamax(64, nil, 1) }, "", 1e-6 + 1e-9*64, 0},
		{"dscal (no model)", func(k *Set) { k.Dscal(64, 2, nil, 1) }, "", 0, 0},
		{"dlaswp", func(k *Set) { k.Charge(Laswp, models.Vars{M: 16, N: 300}) }, "", 1e-6 + 1e-9*16*300, 0},
		{"dlaswp empty", func(k *Set) { k.Charge(Laswp, models.Vars{M: 0, N: 300}) }, "", 0, 0},
		{"dlacpy (no model)", func(k *Set) { k.Charge(Lacpy, models.Vars{M: 16, N: 300}) }, "", 0, 0},
		// A models file without duswp (written before U and W moves were a
		// kernel of their own) charges them with dlaswp's model.
		{"duswp (dlaswp's model)", func(k *Set) { k.Charge(Uswp, models.Vars{M: 16, N: 300}) }, "", 1e-6 + 1e-9*16*300, 0},
		// Per-CPU overrides: slow/cpu1 before slow, slow's CPU 0 falls back to slow.
		{"dgemm on CPU 1", func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 20, 8, 1, nil, 100, nil, 8, 1, nil, 100) }, "slow", 3e-6 + 3e-9*100*20*8, 1},
		{"dgemm on CPU 0", func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 20, 8, 1, nil, 100, nil, 8, 1, nil, 100) }, "slow", 2e-6 + 2e-9*100*20*8, 0},
		// A routine with its own model (HPL_dlaswp02N) takes it; one without
		// (01T) takes its kernel's.
		{"dlaswp02N", func(k *Set) { k.ChargeVariant(Laswp, "dlaswp02N", models.Vars{M: 16, N: 300}) }, "", 4e-9 * 16 * 300, 0},
		{"dlaswp01T", func(k *Set) { k.ChargeVariant(Laswp, "dlaswp01T", models.Vars{M: 16, N: 300}) }, "", 1e-6 + 1e-9*16*300, 0},
		// The same charges through a Copy resolved beforehand.
		{"Copy dlaswp02N", func(k *Set) { k.ChargeCopy(k.Copy(Laswp, "dlaswp02N"), models.Vars{M: 16, N: 300}) }, "", 4e-9 * 16 * 300, 0},
		{"Copy dlaswp01T", func(k *Set) { k.ChargeCopy(k.Copy(Laswp, "dlaswp01T"), models.Vars{M: 16, N: 300}) }, "", 1e-6 + 1e-9*16*300, 0},
		{"Copy duswp (dlaswp's model)", func(k *Set) { k.ChargeCopy(k.Copy(Uswp, ""), models.Vars{M: 16, N: 300}) }, "", 1e-6 + 1e-9*16*300, 0},
		{"Copy dlacpy (no model)", func(k *Set) { k.ChargeCopy(k.Copy(Lacpy, ""), models.Vars{M: 16, N: 300}) }, "", 0, 0},
		{"Copy dlaswp empty", func(k *Set) { k.ChargeCopy(k.Copy(Laswp, ""), models.Vars{M: 16, N: 0}) }, "", 0, 0},
	}
	for _, c := range cases {
		rec := &recorder{}
		k := New(Config{Mode: Model, Models: set, Host: c.host, CPU: c.cpu}, rec, nil)
		c.call(k)
		switch {
		case c.want == 0 && len(rec.seconds) != 0:
			t.Errorf("%s: charged %v, want nothing", c.name, rec.seconds)
		case c.want != 0 && (len(rec.seconds) != 1 || !near(rec.seconds[0], c.want)):
			t.Errorf("%s: charged %v, want [%g]", c.name, rec.seconds, c.want)
		}
	}
}

// TestHasModelOwnName checks that HasModel answers for the very name, with
// no family fallback, before and after Charge has resolved the same name
// through one (a models file without duswp charges it dlaswp's model, but
// has no duswp model), and that a routine's charge takes its own model or
// its kernel's in either order of the questions.
func TestHasModelOwnName(t *testing.T) {
	set := parseModels(t, testModels)
	for _, chargeFirst := range []bool{false, true} {
		rec := &recorder{}
		k := New(Config{Mode: Model, Models: set}, rec, nil)
		if chargeFirst {
			k.Charge(Uswp, models.Vars{M: 16, N: 300})
			k.ChargeVariant(Laswp, "dlaswp01T", models.Vars{M: 16, N: 300})
			k.ChargeVariant(Laswp, "dlaswp02N", models.Vars{M: 16, N: 300})
		}
		for _, c := range []struct {
			name string
			want bool
		}{{Uswp, false}, {Laswp, true}, {"dlaswp02N", true}, {"dlaswp01T", false}, {Lacpy, false}} {
			for range 2 {
				if got := k.HasModel(c.name); got != c.want {
					t.Errorf("charge first %v: HasModel(%s) = %v, want %v", chargeFirst, c.name, got, c.want)
				}
			}
		}
		if !chargeFirst {
			k.Charge(Uswp, models.Vars{M: 16, N: 300})
			k.ChargeVariant(Laswp, "dlaswp01T", models.Vars{M: 16, N: 300})
			k.ChargeVariant(Laswp, "dlaswp02N", models.Vars{M: 16, N: 300})
		}
		want := []float64{1e-6 + 1e-9*16*300, 1e-6 + 1e-9*16*300, 4e-9 * 16 * 300}
		if len(rec.seconds) != len(want) {
			t.Fatalf("charge first %v: charged %v, want %v", chargeFirst, rec.seconds, want)
		}
		for i, w := range want {
			if !near(rec.seconds[i], w) {
				t.Errorf("charge first %v: charge %d is %g, want %g", chargeFirst, i, rec.seconds[i], w)
			}
		}
	}
}

// program is a small mixed call sequence with real operands; in Model mode
// the same dimensions are called with nil slices.
func program(k *Set, real bool) {
	const m, n, nb = 40, 24, 8
	var a, b, c, x []float64
	if real {
		rng := rand.New(rand.NewPCG(9, 9))
		a, b, c = randSlice(rng, m*nb), randSlice(rng, nb*n), randSlice(rng, m*n)
		x = randSlice(rng, m)
		tri := triangular(rng, nb, nb)
		k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, nb, n, 1, tri, nb, b, nb)
	} else {
		k.Dtrsm(blas.Left, blas.Lower, blas.NoTrans, blas.Unit, nb, n, 1, nil, nb, nil, nb)
	}
	k.Dgemm(blas.NoTrans, blas.NoTrans, m, n, nb, -1, a, m, b, nb, 1, c, m)
	k.Daxpy(m, 0.5, x, 1, c, 1)
	k.Dgemv(blas.NoTrans, m, nb, 1, a, m, x, 1, 0, c, 1)
	k.Charge(Laswp, models.Vars{M: nb, N: n})
}

// TestRealAndModelChargeAlike is the design's promise: skipping the work does
// not change the timing (same charges, same order, same kernel names).
func TestRealAndModelChargeAlike(t *testing.T) {
	set := parseModels(t, testModels)
	realRec, modelRec := &recorder{}, &recorder{}
	program(New(Config{Mode: Real, Models: set}, realRec, nil), true)
	program(New(Config{Mode: Model, Models: set}, modelRec, nil), false)
	if len(realRec.seconds) != 5 || len(modelRec.seconds) != len(realRec.seconds) {
		t.Fatalf("charges: real %v, model %v; want 5 each", realRec.kernels, modelRec.kernels)
	}
	for i := range realRec.seconds {
		if realRec.seconds[i] != modelRec.seconds[i] || realRec.kernels[i] != modelRec.kernels[i] {
			t.Errorf("charge %d: real %s %g, model %s %g", i, realRec.kernels[i], realRec.seconds[i], modelRec.kernels[i], modelRec.seconds[i])
		}
	}
}

func TestTimedModeMeasures(t *testing.T) {
	rec := &recorder{}
	const ratio = 1e3 // charged seconds per measured second
	k := New(Config{Mode: Timed, SpeedRatio: ratio}, rec, nil)
	program(k, true)
	// Four BLAS calls measured; Charge has no model here, so charges nothing.
	if len(rec.seconds) != 4 {
		t.Fatalf("timed charges %v (%v), want 4", rec.seconds, rec.kernels)
	}
	// A 40-element daxpy can finish within the clock's own cost, which
	// Measure subtracts, so level-1/2 calls may legitimately charge 0; the
	// level-3 calls (thousands of flops) cannot.
	for i, s := range rec.seconds {
		level3 := rec.kernels[i] == "dgemm" || rec.kernels[i] == "dtrsm"
		if s < 0 || s > ratio*10 || (level3 && !(s > 0)) {
			t.Errorf("charge %d (%s) = %g s: not a plausible measured time × %g", i, rec.kernels[i], s, ratio)
		}
	}
}

// TestNoiseSampling: with Noise the rank's rng drives the draws (same seed,
// same charges; different from the mean); without it the mean is charged.
func TestNoiseSampling(t *testing.T) {
	set := parseModels(t, `
[kernels.dgemm]
terms = ["w"]
coef = [1e-9]
intercept = 0
noise = "gaussian"
sigma = 1e-4
`)
	charges := func(noise bool, seed uint64) []float64 {
		rec := &recorder{}
		k := New(Config{Mode: Model, Models: set, Noise: noise}, rec, rand.New(rand.NewPCG(seed, 0)))
		for range 5 {
			k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 100, 100, 1, nil, 100, nil, 100, 0, nil, 100)
		}
		return rec.seconds
	}
	const mean = 1e-9 * 100 * 100 * 100
	a, b, quiet := charges(true, 1), charges(true, 1), charges(false, 1)
	differs := false
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("draw %d: %g vs %g with the same seed", i, a[i], b[i])
		}
		differs = differs || !near(a[i], mean)
		if !near(quiet[i], mean) {
			t.Errorf("noise off: charge %g, want the mean %g", quiet[i], mean)
		}
	}
	if !differs {
		t.Error("noise on: every draw equals the mean")
	}
}

func TestModelIdamaxDeterministic(t *testing.T) {
	draw := func(seed uint64) []int {
		k := New(Config{Mode: Model, Seed: seed}, &recorder{}, nil)
		out := make([]int, 50)
		for i := range out {
			out[i] = k.Idamax(i+1, nil, 1)
			if out[i] < 0 || out[i] > i {
				t.Fatalf("idamax(%d) = %d out of range", i+1, out[i])
			}
		}
		return out
	}
	a, b, c := draw(42), draw(42), draw(43)
	same := true
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, draw %d: %d vs %d", i, a[i], b[i])
		}
		same = same && a[i] == c[i]
	}
	if same {
		t.Error("seeds 42 and 43 gave the same pivots")
	}
}

func TestParseMode(t *testing.T) {
	for _, m := range []Mode{Real, Timed, Model} {
		got, err := ParseMode(m.String())
		if err != nil || got != m {
			t.Errorf("ParseMode(%q) = %v, %v", m.String(), got, err)
		}
	}
	if _, err := ParseMode("fast"); err == nil {
		t.Error("ParseMode accepted \"fast\"")
	}
}

func TestVarsFor(t *testing.T) {
	cases := []struct {
		kernel  string
		m, n, k int
		want    models.Vars
		empty   bool
	}{
		{"dgemm", 3, 4, 5, models.Vars{M: 3, N: 4, K: 5, W: 60}, false},
		{"dtrsm", 3, 4, 3, models.Vars{M: 3, N: 4, K: 3, W: 36}, false}, // side left: m²·n
		{"dgemv", 3, 4, 9, models.Vars{M: 3, N: 4, W: 12}, false},       // k ignored
		{"dtrsv", 9, 4, 9, models.Vars{N: 4, W: 16}, false},
		{"daxpy", 0, 7, 0, models.Vars{N: 7, W: 7}, false},
		{"dlaswp", 2, 0, 0, models.Vars{M: 2, W: 0}, true},
		{"HPL_dlaswp01T", 2, 5, 0, models.Vars{M: 2, N: 5, W: 10}, false},
	}
	for _, c := range cases {
		v, empty, err := VarsFor(c.kernel, c.m, c.n, c.k)
		if err != nil || v != c.want || empty != c.empty {
			t.Errorf("VarsFor(%s, %d, %d, %d) = %+v, %v, %v; want %+v, %v", c.kernel, c.m, c.n, c.k, v, empty, err, c.want, c.empty)
		}
	}
	if _, _, err := VarsFor("zgemm", 1, 1, 1); err == nil {
		t.Error("VarsFor accepted zgemm")
	}
}

func modelsVars(m, n float64) models.Vars { return models.Vars{M: m, N: n} }

// TestChargeEmpty checks Config.ChargeEmpty against hand-solved charges of a
// polynomial dgemm model (the form of seed 003's per-CPU Dahu models): SMPI's
// HPL fork evaluates it for every call, so an empty dgemm(m, 0, k) costs
// intercept + mk·m·k; a size-proportional model (dtrsm) still costs nothing
// on an empty call, a constant one (daxpy) its constant. Without ChargeEmpty
// every empty call is free, as in a real BLAS.
func TestChargeEmpty(t *testing.T) {
	set := parseModels(t, `
[kernels.dgemm]
terms = ["m*n*k", "m*n", "m*k", "n*k"]
coef = [7e-11, -2e-10, 1.5e-9, 3e-9]
intercept = 5e-7
[kernels.dtrsm]
terms = ["m*n*k"]
coef = [5e-11]
[kernels.daxpy]
intercept = 6e-7
[kernels.dlatcpy]
terms = ["m*n"]
coef = [5e-9]
`)
	cases := []struct {
		name string
		call func(k *Set)
		want float64 // s with ChargeEmpty; 0 = nothing charged
	}{
		{"dgemm(1500, 0, 128)", func(k *Set) { k.Dgemm(blas.NoTrans, blas.Trans, 1500, 0, 128, -1, nil, 1500, nil, 1, 1, nil, 1500) }, 5e-7 + 1.5e-9*1500*128},
		{"dgemm(0, 128, 128)", func(k *Set) { k.Dgemm(blas.NoTrans, blas.Trans, 0, 128, 128, -1, nil, 1, nil, 128, 1, nil, 1) }, 5e-7 + 3e-9*128*128},
		{"dgemm(100, 128, 0)", func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 128, 0, -1, nil, 100, nil, 1, 1, nil, 100) }, 0}, // 5e-7 - 2e-10·12800 < 0: nothing
		{"dgemm(10, 20, 0)", func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 10, 20, 0, -1, nil, 10, nil, 1, 1, nil, 10) }, 5e-7 - 2e-10*10*20},
		{"dtrsm(0, 128)", func(k *Set) { k.Dtrsm(blas.Right, blas.Upper, blas.NoTrans, blas.Unit, 0, 128, 1, nil, 128, nil, 1) }, 0},
		{"daxpy(0)", func(k *Set) { k.Daxpy(0, 1, nil, 1, nil, 1) }, 6e-7},
		{"dlatcpy(128, 0)", func(k *Set) { k.Charge(Latcpy, models.Vars{M: 128, N: 0}) }, 0},
	}
	for _, c := range cases {
		for _, on := range []bool{false, true} {
			rec := &recorder{}
			k := New(Config{Mode: Model, Models: set, ChargeEmpty: on}, rec, nil)
			if k.ChargesEmpty() != on {
				t.Errorf("ChargesEmpty() = %v with ChargeEmpty %v", k.ChargesEmpty(), on)
			}
			c.call(k)
			want := c.want
			if !on {
				want = 0
			}
			switch {
			case want == 0 && len(rec.seconds) != 0:
				t.Errorf("%s, ChargeEmpty %v: charged %v, want nothing", c.name, on, rec.seconds)
			case want != 0 && (len(rec.seconds) != 1 || !near(rec.seconds[0], want)):
				t.Errorf("%s, ChargeEmpty %v: charged %v, want [%g]", c.name, on, rec.seconds, want)
			}
		}
	}
	// Timed mode measures calls; an empty one is never run, so never charged.
	if New(Config{Mode: Timed, Models: set, ChargeEmpty: true}, &recorder{}, nil).ChargesEmpty() {
		t.Error("Timed mode charges empty calls")
	}
}
