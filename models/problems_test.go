package models_test

import (
	"slices"
	"testing"

	"github.com/emu-hpc/emu/models"
)

func TestQualityProblems(t *testing.T) {
	good := models.Quality{N: 100, R2: 0.99, CVRel: 0.02, CVTotal: 0.01, Intercept: 1e-6, SmallCalls: 2e-6}
	cases := []struct {
		name string
		edit func(*models.Quality)
		want []string
	}{
		{"good", func(*models.Quality) {}, nil},
		{"few", func(q *models.Quality) { q.N = 9 }, []string{"fewer than 10 samples"}},
		{"cv", func(q *models.Quality) { q.CVRel = 0.23 }, []string{"CV rel. error 23% > 10%"}},
		{"total", func(q *models.Quality) { q.CVTotal = 0.15 }, []string{"CV total error 15% > 10%"}},
		{"r2", func(q *models.Quality) { q.R2 = -0.31 }, []string{"R² -0.31 < 0.9"}},
		{"outliers", func(q *models.Quality) { q.Outliers = 3 }, []string{"3 outliers down-weighted"}},
		{"outlier", func(q *models.Quality) { q.Outliers = 1 }, []string{"1 outlier down-weighted"}},
		// issue 10: a least-squares intercept of 2.5 ms on calls of 2 µs.
		{"intercept", func(q *models.Quality) { q.Intercept = 2.5e-3 }, []string{"intercept 0.0025 s larger than the smallest calls (2e-06 s)"}},
		// Within InterceptSlack of the smallest calls: timing noise.
		{"intercept within noise", func(q *models.Quality) { q.Intercept = 2.1e-6 }, nil},
		{"two", func(q *models.Quality) { q.N, q.Outliers = 5, 2 }, []string{"fewer than 10 samples", "2 outliers down-weighted"}},
	}
	for _, c := range cases {
		q := good
		c.edit(&q)
		if got := q.Problems(); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
