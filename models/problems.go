package models

import (
	"fmt"
	"strconv"
)

// Thresholds of Quality.Problems.
const (
	// PoorCVRel is the cross-validated error (median relative error of a
	// held-out call, or of the held-out total) above which a fit is poor.
	PoorCVRel = 0.10
	// PoorR2 is the R² (of the inliers) below which a fit is poor.
	PoorR2 = 0.9
	// FewSamples is the fewest samples a fit is trusted on.
	FewSamples = 10
)

// Problems says in words what is wrong with a fit, one phrase a problem
// ("CV rel. error 23% > 10%", "3 outliers down-weighted", ...); nil for a
// good fit. Per-host fits are not looked at.
func (q Quality) Problems() []string {
	p, _ := q.problems()
	return p
}

// Poor says whether the fit has a problem besides outliers it left out
// (which it has dealt with, and which Problems reports too).
func (q Quality) Poor() bool {
	_, poor := q.problems()
	return poor
}

func (q Quality) problems() (p []string, poor bool) {
	if q.N < FewSamples {
		p = append(p, fmt.Sprintf("fewer than %d samples", FewSamples))
	}
	if q.CVRel > PoorCVRel {
		p = append(p, fmt.Sprintf("CV rel. error %s%% > %.0f%%", apart(100*q.CVRel, 100*PoorCVRel, 0), 100*PoorCVRel))
	}
	if q.CVTotal > PoorCVRel {
		p = append(p, fmt.Sprintf("CV total error %s%% > %.0f%%", apart(100*q.CVTotal, 100*PoorCVRel, 0), 100*PoorCVRel))
	}
	if q.R2 < PoorR2 {
		p = append(p, fmt.Sprintf("R² %s < %g", apart(q.R2, PoorR2, 2), PoorR2))
	}
	poor = len(p) > 0
	if q.Outliers == 1 {
		p = append(p, "1 outlier down-weighted")
	} else if q.Outliers > 1 {
		p = append(p, fmt.Sprintf("%d outliers down-weighted", q.Outliers))
	}
	if q.Intercept > (1+InterceptSlack)*q.SmallCalls {
		p = append(p, fmt.Sprintf("intercept %.3g s larger than the smallest calls (%.3g s)", q.Intercept, q.SmallCalls))
		poor = true
	}
	return p, poor
}

// apart writes x with dec decimals, or with more where dec would show it
// equal to the threshold it is past ("CV rel. error 10% > 10%" for 10.2%).
func apart(x, limit float64, dec int) string {
	for d := dec; ; d++ {
		if s := strconv.FormatFloat(x, 'f', d, 64); d == dec+4 || s != strconv.FormatFloat(limit, 'f', d, 64) {
			return s
		}
	}
}
