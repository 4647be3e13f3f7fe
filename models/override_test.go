package models

import (
	"reflect"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

// overrideBase is a models file's dgemm: a polynomial with hetero noise, a
// host n1 without noise and a host n2 with the half-normal of constant σ.
const overrideBase = `
terms = ["m*n*k"]
coef = [2e-11]
intercept = 1e-5
noise = "hetero"
sigma_terms = ["m*n*k"]
sigma_coef = [1e-13]
sigma_intercept = 1e-7

[host.n1]
terms = ["m*n*k", "m*n"]
coef = [3e-11, 1e-10]
intercept = 2e-6

[host.n2]
terms = ["m*n*k"]
coef = [4e-11]
intercept = 3e-6
noise = "halfnormal"
sigma = 5e-7
`

// decodeOverride decodes a [kernels.NAME] table written as TOML, as the
// scenario reads an inline table: the Spec and the table itself.
func decodeOverride(t *testing.T, doc string) (Spec, map[string]any) {
	t.Helper()
	var sp Spec
	if _, err := toml.Decode(doc, &sp); err != nil {
		t.Fatal(err)
	}
	var table map[string]any
	if _, err := toml.Decode(doc, &table); err != nil {
		t.Fatal(err)
	}
	return sp, table
}

// The wanted specs are written by hand from overrideBase and the table: the
// keys it names replace the base's, a part it gives another form is the
// table's alone, and the rest is the base's.
func TestOverride(t *testing.T) {
	n1 := Spec{Terms: []string{"m*n*k", "m*n"}, Coef: []float64{3e-11, 1e-10}, Intercept: 2e-6}
	n2 := Spec{Terms: []string{"m*n*k"}, Coef: []float64{4e-11}, Intercept: 3e-6, Noise: NoiseHalfNormal, Sigma: 5e-7}
	hetero := func(hosts map[string]Spec) Spec {
		return Spec{Terms: []string{"m*n*k"}, Coef: []float64{2e-11}, Intercept: 1e-5, Noise: NoiseHetero,
			SigmaTerms: []string{"m*n*k"}, SigmaCoef: []float64{1e-13}, SigmaIntercept: 1e-7, Host: hosts}
	}
	pieces := []Piece{{From: 0, To: 64, Intercept: 1e-6}, {From: 64, Terms: []string{"m*n*k"}, Coef: []float64{2.5e-11}}}
	piecesDoc := "breaks_on = \"k\"\npiece = [{from = 0, to = 64, intercept = 1e-6}, {from = 64, terms = [\"m*n*k\"], coef = [2.5e-11], intercept = 0}]\n"
	tests := []struct {
		name    string
		table   string
		want    Spec
		wantErr string // the error, key first
	}{
		{"one host's intercept", "host.n1.intercept = 5e-6",
			hetero(map[string]Spec{"n1": {Terms: n1.Terms, Coef: n1.Coef, Intercept: 5e-6}, "n2": n2}), ""},
		{"the platform-wide coef", "coef = [2.2e-11]",
			func() Spec { s := hetero(map[string]Spec{"n1": n1, "n2": n2}); s.Coef = []float64{2.2e-11}; return s }(), ""},
		{"a host the base lacks: whole", "host.n3.intercept = 1e-6",
			hetero(map[string]Spec{"n1": n1, "n2": n2, "n3": {Intercept: 1e-6}}), ""},
		{"the same family: sigma_intercept alone", "sigma_intercept = 2e-7",
			func() Spec { s := hetero(map[string]Spec{"n1": n1, "n2": n2}); s.SigmaIntercept = 2e-7; return s }(), ""},
		{"another noise family replaces the noise, keeps the mean", "noise = \"gaussian\"\nsigma = 4e-7",
			Spec{Terms: []string{"m*n*k"}, Coef: []float64{2e-11}, Intercept: 1e-5, Noise: NoiseGaussian, Sigma: 4e-7,
				Host: map[string]Spec{"n1": n1, "n2": n2}}, ""},
		{"noise none drops the noise", "noise = \"none\"",
			Spec{Terms: []string{"m*n*k"}, Coef: []float64{2e-11}, Intercept: 1e-5, Noise: NoiseNone,
				Host: map[string]Spec{"n1": n1, "n2": n2}}, ""},
		{"pieces replace the polynomial, keep the noise", piecesDoc,
			Spec{BreaksOn: "k", Pieces: pieces, Noise: NoiseHetero, SigmaTerms: []string{"m*n*k"}, SigmaCoef: []float64{1e-13},
				SigmaIntercept: 1e-7, Host: map[string]Spec{"n1": n1, "n2": n2}}, ""},
		{"halfnormal: σ(dims) replaces a constant σ", "host.n2.sigma_terms = [\"m*n*k\"]\nhost.n2.sigma_coef = [1e-13]",
			hetero(map[string]Spec{"n1": n1, "n2": {Terms: n2.Terms, Coef: n2.Coef, Intercept: 3e-6, Noise: NoiseHalfNormal,
				SigmaTerms: []string{"m*n*k"}, SigmaCoef: []float64{1e-13}}}), ""},
		{"a host's noise family", "host.n1.noise = \"gaussian\"\nhost.n1.sigma = 1e-7",
			hetero(map[string]Spec{"n1": {Terms: n1.Terms, Coef: n1.Coef, Intercept: 2e-6, Noise: NoiseGaussian, Sigma: 1e-7}, "n2": n2}), ""},

		{"sigma under hetero", "sigma = 1e-7", Spec{},
			`sigma: not a key of noise = "hetero", which takes sigma_terms, sigma_coef, sigma_intercept; give noise too to change the family`},
		{"sigma on a host without noise", "host.n1.sigma = 1e-7", Spec{},
			`host.n1.sigma: the model has no noise (noise = "none"); give noise too to set one`},
		{"the old family's key beside the new family", "noise = \"gaussian\"\nsigma = 1e-7\nsigma_coef = [1e-13]", Spec{},
			`sigma_coef: not a key of noise = "gaussian", which takes sigma; give noise too to change the family`},
		{"mixture under halfnormal", "host.n2.mixture = [{weight = 1}]", Spec{},
			`host.n2.mixture: not a key of noise = "halfnormal", which takes sigma, sigma_terms, sigma_coef, sigma_intercept; give noise too to change the family`},
		{"breaks_on over a polynomial", "breaks_on = \"m\"", Spec{},
			"breaks_on: the model's mean is a polynomial (terms, coef, intercept); give piece too to make it piecewise"},
		// qa51: an empty list made the mean neither, every call 0 s, exit 0.
		{"an empty piece list over a polynomial", "host.n1.piece = []", Spec{},
			"host.n1.piece: an empty list, which would make every call cost 0 s; give [[piece]] tables (with breaks_on), or terms for a polynomial"},
		{"intercept beside new pieces", piecesDoc + "intercept = 1e-6", Spec{},
			"intercept: the model's mean is piecewise (breaks_on and [[piece]]), which takes terms, coef and intercept in each piece; give terms too to make it a polynomial"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, _ := decodeOverride(t, overrideBase)
			keep, _ := decodeOverride(t, overrideBase)
			over, table := decodeOverride(t, tc.table)
			got, err := base.Override(over, table)
			if !reflect.DeepEqual(base, keep) {
				t.Errorf("the base changed: %+v", base)
			}
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr {
					t.Fatalf("error %v, want %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
			if _, err := NewSet(map[string]Spec{"dgemm": got}); err != nil {
				t.Errorf("the result does not build: %v", err)
			}
		})
	}
}

// A piecewise base: terms make it a polynomial (its pieces dropped), a bare
// intercept is refused, and a table over an empty base is the table.
func TestOverridePiecewiseBase(t *testing.T) {
	base, _ := decodeOverride(t, "breaks_on = \"k\"\npiece = [{from = 0, to = 64, intercept = 1e-6}, {from = 64, intercept = 2e-6}]\n")
	over, table := decodeOverride(t, "terms = [\"m*n*k\"]\ncoef = [2e-11]")
	got, err := base.Override(over, table)
	if want := (Spec{Terms: []string{"m*n*k"}, Coef: []float64{2e-11}}); err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("terms over pieces: %+v, %v; want %+v", got, err, want)
	}
	over, table = decodeOverride(t, "intercept = 1e-6")
	if _, err := base.Override(over, table); err == nil || !strings.HasPrefix(err.Error(), "intercept: the model's mean is piecewise") {
		t.Errorf("intercept over pieces: %v", err)
	}
	over, table = decodeOverride(t, overrideBase)
	if got, err := (Spec{}).Override(over, table); err != nil || !reflect.DeepEqual(got, over) {
		t.Errorf("over an empty base: %+v, %v; want the table %+v", got, err, over)
	}
}
