package kernels

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/models"
)

// TestHostSpeedDividesCharges: a host's speed factor divides every duration
// charged there, on top of whatever model applies to the host (testModels'
// per-host override of dgemm on "slow" included), in Model and Real modes
// alike; hosts not in the map run at 1.
func TestHostSpeedDividesCharges(t *testing.T) {
	set := parseModels(t, testModels)
	speeds := map[string]float64{"slow": 0.8, "fast": 1.25}
	dgemm := func(k *Set) { k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 20, 8, 1, nil, 100, nil, 8, 1, nil, 100) }
	laswp := func(k *Set) { k.Charge(Laswp, models.Vars{M: 16, N: 300}) }
	cases := []struct {
		name string
		host string
		call func(*Set)
		want float64 // s, by hand from testModels
	}{
		// "slow" has its own dgemm model, 2e-6 + 2e-9·mnk, and runs at 0.8.
		{"per-host model ÷ 0.8", "slow", dgemm, (2e-6 + 2e-9*100*20*8) / 0.8},
		// "fast" has the platform model, 1e-6 + 1e-9·W, and runs at 1.25.
		{"platform model ÷ 1.25", "fast", dgemm, (1e-6 + 1e-9*100*20*8) / 1.25},
		{"Charge's kernels too", "fast", laswp, (1e-6 + 1e-9*16*300) / 1.25},
		{"host not listed", "other", dgemm, 1e-6 + 1e-9*100*20*8},
	}
	for _, c := range cases {
		rec := &recorder{}
		k := New(Config{Mode: Model, Models: set, Host: c.host, HostSpeed: speeds}, rec, nil)
		c.call(k)
		if len(rec.seconds) != 1 || !near(rec.seconds[0], c.want) {
			t.Errorf("%s: charged %v, want [%g]", c.name, rec.seconds, c.want)
		}
	}
}

// TestHostSpeedRealMatchesModel: the design's promise holds on a slowed
// host: real and model modes charge the same durations.
func TestHostSpeedRealMatchesModel(t *testing.T) {
	set := parseModels(t, testModels)
	speeds := map[string]float64{"h": 0.9}
	realRec, modelRec := &recorder{}, &recorder{}
	program(New(Config{Mode: Real, Models: set, Host: "h", HostSpeed: speeds}, realRec, nil), true)
	program(New(Config{Mode: Model, Models: set, Host: "h", HostSpeed: speeds}, modelRec, nil), false)
	base := &recorder{}
	program(New(Config{Mode: Model, Models: set, Host: "h"}, base, nil), false)
	if len(realRec.seconds) != len(base.seconds) || len(modelRec.seconds) != len(base.seconds) {
		t.Fatalf("charges: real %d, model %d, unslowed %d", len(realRec.seconds), len(modelRec.seconds), len(base.seconds))
	}
	for i := range base.seconds {
		if realRec.seconds[i] != modelRec.seconds[i] {
			t.Errorf("charge %d: real %g, model %g", i, realRec.seconds[i], modelRec.seconds[i])
		}
		if want := base.seconds[i] / 0.9; !near(modelRec.seconds[i], want) {
			t.Errorf("charge %d (%s): %g, want %g / 0.9 = %g", i, base.kernels[i], modelRec.seconds[i], base.seconds[i], want)
		}
	}
}

// TestHostSpeedScalesNoise: with noise on, the same draws come out divided
// by the speed (the rank's stream is the same; only the host is slower).
func TestHostSpeedScalesNoise(t *testing.T) {
	set := parseModels(t, `
[kernels.dgemm]
terms = ["w"]
coef = [1e-9]
intercept = 0
noise = "gaussian"
sigma = 1e-4
`)
	draw := func(speeds map[string]float64) []float64 {
		rec := &recorder{}
		k := New(Config{Mode: Model, Models: set, Noise: true, Host: "h", HostSpeed: speeds}, rec, rand.New(rand.NewPCG(3, 0)))
		for range 4 {
			k.Dgemm(blas.NoTrans, blas.NoTrans, 100, 100, 100, 1, nil, 100, nil, 100, 0, nil, 100)
		}
		return rec.seconds
	}
	base, slow := draw(nil), draw(map[string]float64{"h": 0.5})
	for i := range base {
		if !near(slow[i], base[i]/0.5) {
			t.Errorf("draw %d: %g on a host at 0.5, want %g / 0.5", i, slow[i], base[i])
		}
	}
}

// TestHostSpeedTimed: in Timed mode the measured time is divided too. At a
// speed of 1e-9 the 40×24×8 dgemm of program (7,680 multiply-adds, which no
// core does in under a nanosecond) charges more than a second; at speed 1 it
// would charge microseconds.
func TestHostSpeedTimed(t *testing.T) {
	rec := &recorder{}
	program(New(Config{Mode: Timed, Host: "h", HostSpeed: map[string]float64{"h": 1e-9}}, rec, nil), true)
	found := false
	for i, s := range rec.seconds {
		if rec.kernels[i] == "dgemm" {
			found = true
			if !(s > 1) {
				t.Errorf("dgemm on a host at speed 1e-9 charged %g s, want its measured time × 1e9 (> 1 s)", s)
			}
		}
	}
	if !found {
		t.Fatalf("no dgemm charged: %v", rec.kernels)
	}
}

func TestHostSpeedValidate(t *testing.T) {
	for _, v := range []float64{0, -1, math.Inf(1), math.NaN()} {
		err := Config{HostSpeed: map[string]float64{"b": v, "a": 1}}.Validate()
		if err == nil || !strings.Contains(err.Error(), "host_speed of b") {
			t.Errorf("speed %g: Validate = %v, want an error naming host b", v, err)
		}
	}
	if err := (Config{HostSpeed: map[string]float64{"a": 0.5}}).Validate(); err != nil {
		t.Errorf("speed 0.5: %v", err)
	}
}
