package modelstest_test

import (
	"math/rand/v2"
	"testing"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/models/modelstest"
)

func TestLogUniformIntBounds(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	seen := map[float64]bool{}
	for range 20000 {
		x := modelstest.LogUniformInt(rng, 1, 8)
		if x < 1 || x > 8 || x != float64(int(x)) {
			t.Fatalf("drew %g outside the integers of [1, 8]", x)
		}
		seen[x] = true
	}
	if len(seen) != 8 {
		t.Errorf("drew %d distinct values of 8", len(seen))
	}
}

func TestDrawUsesModelAndDims(t *testing.T) {
	m := modelstest.MustBuild(t, models.Spec{Terms: []string{"m*n*k"}, Coef: []float64{2}, Intercept: 1})
	a := modelstest.Draw(m, "h", 50, modelstest.GemmDims(1, 9), rand.New(rand.NewPCG(3, 3)))
	b := modelstest.Draw(m, "h", 50, modelstest.GemmDims(1, 9), rand.New(rand.NewPCG(3, 3)))
	for i, s := range a {
		v := s.Vars
		// N0 model: duration is exactly 2·m·n·k + 1.
		if s.Host != "h" || v.W != v.M*v.N*v.K || s.Seconds != 2*v.W+1 || s != b[i] {
			t.Fatalf("sample %d = %+v (other draw %+v)", i, s, b[i])
		}
	}
}

func TestRelErr(t *testing.T) {
	for _, c := range []struct{ got, want, rel float64 }{{1.05, 1, 0.05}, {-2, -1, 1}, {0.5, 0, 0.5}} {
		if e := modelstest.RelErr(c.got, c.want); e < c.rel-1e-12 || e > c.rel+1e-12 {
			t.Errorf("RelErr(%g, %g) = %g, want %g", c.got, c.want, e, c.rel)
		}
	}
}
