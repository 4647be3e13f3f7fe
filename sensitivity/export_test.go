package sensitivity

import "testing"

// Test-only access for the external tests (peers_test.go), which import
// sensitivity/goal and so cannot live in this package.
func SolveLPWithGlpsol(t *testing.T, g *Graph, o LPOptions) (objective float64, reducedCost map[string]float64) {
	needGlpsol(t)
	s := solveLP(t, g, o)
	return s.obj, s.dual
}

const GlpsolRel = glpsolRel
