package runner

import (
	"testing"

	"github.com/emu-hpc/emu/scenario"
)

// A kernel model's pieces (and mixture modes) may be written as TOML's inline
// array of tables, piece = [{...}, {...}], or as [[kernels.NAME.piece]] tables:
// the same document, the same model — and so from --set.
func TestKernelPiecesInlineOrTables(t *testing.T) {
	const base = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n[hpl]\nn = 300\ngrids = \"2x2\"\n[kernels.dgemm]\nbreaks_on = \"m\"\n"
	docs := map[string]string{
		"tables": base + "[[kernels.dgemm.piece]]\nfrom = 0\nto = 100\nterms = [\"m*n*k\"]\ncoef = [2e-11]\n" +
			"[[kernels.dgemm.piece]]\nfrom = 100\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n",
		"inline": base + "piece = [{from = 0, to = 100, terms = [\"m*n*k\"], coef = [2e-11]}, {from = 100, terms = [\"m*n*k\"], coef = [1e-11]}]\n",
	}
	times := map[string]float64{}
	for name, doc := range docs {
		s, err := scenario.Parse([]byte(doc), name+".toml")
		res, err := validateRun(s, err)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		times[name] = res.HPL[0].Time
	}
	s := scenario.Default()
	err := s.Set(`kernels.dtrsv.piece=[{from=0,to=100,terms=["n"],coef=[2e-9]},{from=100,terms=["n"],coef=[1e-9]}]`)
	if err == nil {
		err = s.Set(`kernels.dtrsv.breaks_on=n`)
	}
	if err == nil {
		_, err = s.Validate()
	}
	if err != nil {
		t.Errorf("--set: %v", err)
	}
	if len(times) == 2 && times["inline"] != times["tables"] {
		t.Errorf("inline pieces give %g s, tables %g s", times["inline"], times["tables"])
	}
}
