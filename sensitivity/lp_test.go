package sensitivity

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// glpsolRel is the relative agreement required between glpk's simplex and
// the longest path, on the objective and on the reduced costs.
const glpsolRel = 1e-9

// lpSolution is what glpsol reports: the objective and, per column name,
// the value and reduced cost.
type lpSolution struct {
	obj          float64
	value, dual  map[string]float64
	status, kind string
}

// solveLP runs glpsol on the graph's exported LP and reads its raw solution
// (-w) and the column names (--wglp, the same numbering).
func solveLP(t *testing.T, g *Graph, o LPOptions) lpSolution {
	t.Helper()
	dir := t.TempDir()
	lp := filepath.Join(dir, "g.lp")
	f, err := os.Create(lp)
	if err != nil {
		t.Fatal(err)
	}
	if err := g.WriteLP(f, o); err != nil {
		t.Fatal(err)
	}
	f.Close()
	sol, glp := filepath.Join(dir, "sol.txt"), filepath.Join(dir, "p.glp")
	if out, err := exec.Command("glpsol", "--lp", lp, "-w", sol, "--wglp", glp).CombinedOutput(); err != nil {
		t.Fatalf("glpsol: %v\n%s", err, out)
	}
	names := map[int]string{}
	scan(t, glp, func(f []string) {
		if len(f) == 4 && f[0] == "n" && f[1] == "j" {
			j, _ := strconv.Atoi(f[2])
			names[j] = f[3]
		}
	})
	s := lpSolution{value: map[string]float64{}, dual: map[string]float64{}}
	scan(t, sol, func(f []string) {
		switch {
		case len(f) == 7 && f[0] == "s":
			s.kind, s.status = f[4], f[5]
			s.obj = atof(t, f[6])
		case len(f) == 5 && f[0] == "j":
			j, _ := strconv.Atoi(f[1])
			s.value[names[j]], s.dual[names[j]] = atof(t, f[3]), atof(t, f[4])
		}
	})
	if s.kind != "f" || s.status != "f" {
		t.Fatalf("glpsol: solution status %q/%q, want feasible", s.kind, s.status)
	}
	return s
}

func scan(t *testing.T, path string, line func([]string)) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line(strings.Fields(sc.Text()))
	}
}

func atof(t *testing.T, s string) float64 {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return x
}

func relNear(a, b, rel float64) bool {
	return math.Abs(a-b) <= rel*math.Max(math.Abs(a), math.Abs(b))
}

func needGlpsol(t *testing.T) {
	if _, err := exec.LookPath("glpsol"); err != nil {
		t.Skip("glpsol not installed (Debian: glpk-utils)")
	}
}

// checkAgainstGlpsol compares objective and reduced costs of every latency
// class and of g with the longest path's T, slopes and bytes.
func checkAgainstGlpsol(t *testing.T, name string, g *Graph, lat []float64, G float64) {
	t.Helper()
	sol := solveLP(t, g, LPOptions{Latencies: lat, G: G})
	const ns = 1e-9
	tt := g.Runtime(lat)
	if !relNear(sol.obj*ns, tt, glpsolRel) && !(tt == 0 && sol.obj == 0) {
		t.Errorf("%s: glpsol objective %v ns, longest path %v s", name, sol.obj, tt)
	}
	for c := 0; c < g.Classes(); c++ {
		_, left, right, bytes := g.Slopes(lat, c)
		rc := sol.dual[fmt.Sprintf("l%d", c)]
		// A simplex dual at a tie may be anything between the one-sided slopes.
		// Reduced costs are integer counts; glpk leaves ~1e-15 of rounding
		// on zero ones, hence the floor of 1 in the tolerance.
		tol := glpsolRel * math.Max(1, math.Abs(rc))
		if rc < float64(left)-tol || rc > float64(right)+tol {
			t.Errorf("%s: reduced cost of l%d = %v, slopes [%d, %d]", name, c, rc, left, right)
		}
		if c == 0 && left == right && G > 0 {
			if rg := sol.dual["g"]; !relNear(rg, bytes, glpsolRel) && !(rg == 0 && bytes == 0) {
				t.Errorf("%s: reduced cost of g = %v bytes, critical path carries %v", name, rg, bytes)
			}
		}
	}
}

func TestLPAgainstGlpsolByHand(t *testing.T) {
	needGlpsol(t)
	checkAgainstGlpsol(t, "ping-pong", mustBuild(t, pingPong(2e-6, 1e-6, 0.5e-6)), []float64{3e-6}, 0)
	three := threePaths() // T = max(12, 10+L, 2+3L) in s: scale to µs
	for _, L := range []float64{1, 2, 3, 4, 7} {
		checkAgainstGlpsol(t, fmt.Sprintf("three paths L=%v", L), three, []float64{L}, 0)
	}
	b := NewBuilder(2)
	s := b.Vertex(0, Send, 0)
	r := b.Vertex(1, Recv, 0)
	b.Edge(s, r, 1e-6, LatTerm{1, 3}, LatTerm{2, 2}) // per-wire and switch classes
	checkAgainstGlpsol(t, "multi-class", mustBuild(t, b), []float64{0, 1e-6, 0.1e-6}, 0)
}

func TestLPAgainstGlpsolRandom(t *testing.T) {
	needGlpsol(t)
	rng := rand.New(rand.NewPCG(11, 12))
	trials := 300
	if testing.Short() {
		trials = 30
	}
	sensitive := 0
	for i := range trials {
		g := mustBuild(t, randomDAG(rng, 1+rng.IntN(6), 2+rng.IntN(80), 3, 1+rng.IntN(3), i%2 == 0))
		lat := []float64{rng.Float64() * 10e-6, rng.Float64() * 2e-6, rng.Float64() * 1e-6}
		checkAgainstGlpsol(t, fmt.Sprintf("random %d", i), g, lat, 0.018e-9)
		if _, _, right, _ := g.Slopes(lat, 0); right > 0 {
			sensitive++
		}
	}
	// The comparison must mostly be about non-zero slopes.
	if sensitive < trials/2 {
		t.Errorf("only %d of %d random graphs have λ_L > 0", sensitive, trials)
	}
}

// TestPairwiseLPAgainstGlpsol: the reduced costs of the per-pair latency
// variables are the λ_L(i,j) that Analyze reads off the critical path.
func TestPairwiseLPAgainstGlpsol(t *testing.T) {
	needGlpsol(t)
	rng := rand.New(rand.NewPCG(13, 14))
	trials := 60
	if testing.Short() {
		trials = 10
	}
	nonEmpty := 0
	for i := range trials {
		g := mustBuild(t, randomDAG(rng, 2+rng.IntN(4), 2+rng.IntN(60), 3, 1, i%2 == 0))
		lat := []float64{rng.Float64() * 10e-6}
		sol := solveLP(t, g, LPOptions{Latencies: lat, G: 0.018e-9, Pairwise: true})
		tt := g.Runtime(lat)
		if !relNear(sol.obj*1e-9, tt, glpsolRel) && !(tt == 0 && sol.obj == 0) {
			t.Errorf("trial %d: pairwise LP objective %v ns, longest path %v s", i, sol.obj, tt)
		}
		r, err := Analyze(g, Params{L0: lat[0], Pairwise: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.LambdaL != r.LambdaLLeft {
			continue // a tie: the simplex may pick either path
		}
		want := map[string]float64{}
		for _, p := range r.Pairs {
			if p.Lambda > 0 { // a pair with bytes but no latency term on the path is λ_G's only
				want[fmt.Sprintf("l0_%d_%d", p.Src, p.Dst)] = float64(p.Lambda)
			}
		}
		for name, rc := range sol.dual {
			if !strings.HasPrefix(name, "l0_") {
				continue
			}
			if math.Abs(rc-want[name]) > glpsolRel*math.Max(1, math.Abs(rc)) {
				t.Errorf("trial %d: reduced cost of %s = %v, critical path has %v", i, name, rc, want[name])
			}
		}
		for name := range want {
			if _, ok := sol.dual[name]; !ok {
				t.Errorf("trial %d: critical pair %s has no LP variable", i, name)
			}
		}
		if len(r.Pairs) > 0 {
			nonEmpty++
		}
	}
	if nonEmpty < trials/3 {
		t.Errorf("only %d of %d graphs had critical messages", nonEmpty, trials)
	}
}
