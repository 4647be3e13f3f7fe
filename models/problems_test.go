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
		poor bool
	}{
		{"good", func(*models.Quality) {}, nil, false},
		{"few", func(q *models.Quality) { q.N = 9 }, []string{"fewer than 10 samples"}, true},
		{"cv", func(q *models.Quality) { q.CVRel = 0.23 }, []string{"CV rel. error 23% > 10%"}, true},
		{"total", func(q *models.Quality) { q.CVTotal = 0.15 }, []string{"CV total error 15% > 10%"}, true},
		{"r2", func(q *models.Quality) { q.R2 = -0.31 }, []string{"R² -0.31 < 0.9"}, true},
		// qa48: a value just past its threshold rounded onto it ("10% > 10%")
		{"cv just past", func(q *models.Quality) { q.CVRel = 0.102 }, []string{"CV rel. error 10.2% > 10%"}, true},
		{"total just past", func(q *models.Quality) { q.CVTotal = 0.10004 }, []string{"CV total error 10.004% > 10%"}, true},
		{"r2 just below", func(q *models.Quality) { q.R2 = 0.899 }, []string{"R² 0.899 < 0.9"}, true},
		{"r2 a hair below", func(q *models.Quality) { q.R2 = 0.9 - 1e-12 }, []string{"R² 0.900000 < 0.9"}, true},
		// Outliers are reported, but a fit that left them out is not poor for it.
		{"outliers", func(q *models.Quality) { q.Outliers = 3 }, []string{"3 outliers down-weighted"}, false},
		{"outlier", func(q *models.Quality) { q.Outliers = 1 }, []string{"1 outlier down-weighted"}, false},
		// issue 10: a least-squares intercept of 2.5 ms on calls of 2 µs.
		{"intercept", func(q *models.Quality) { q.Intercept = 2.5e-3 }, []string{"intercept 0.0025 s larger than the smallest calls (2e-06 s)"}, true},
		// Within InterceptSlack of the smallest calls: timing noise.
		{"intercept within noise", func(q *models.Quality) { q.Intercept = 2.1e-6 }, nil, false},
		{"two", func(q *models.Quality) { q.N, q.Outliers = 5, 2 }, []string{"fewer than 10 samples", "2 outliers down-weighted"}, true},
	}
	for _, c := range cases {
		q := good
		c.edit(&q)
		if got := q.Problems(); !slices.Equal(got, c.want) || q.Poor() != c.poor {
			t.Errorf("%s: %q, poor %v; want %q, %v", c.name, got, q.Poor(), c.want, c.poor)
		}
	}
}
