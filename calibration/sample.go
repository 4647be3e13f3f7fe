package calibration

import (
	"fmt"
	"strconv"
	"time"

	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

// Sample is one measured kernel call: a row of the sample file.
type Sample struct {
	Index   int    // position in the campaign's plan; -1 when the file has none
	Plan    string // fingerprint of the plan the index belongs to ("" if unknown)
	Host    string
	Core    int // worker that measured it (0 … parallel−1); -1 when unknown
	Kernel  string
	M, N, K int     // kernels.VarsFor conventions; unused dimensions are 0
	Seconds float64 // measured duration of one call
	Time    time.Time
	Backend string // BLAS backend that ran it ("" if unknown)
	Clock   string // clock that timed it: "wall" or "cpu" ("" if unknown)
	Runs    int    // timed runs behind Seconds (their median); 0 if unknown
	// Status says what screening did (Screen): "" kept as measured,
	// StatusRemeasured measured again after looking like an outlier,
	// StatusOutlier an outlier even when measured again, left out of fits.
	Status string
}

// Values of Sample.Status.
const (
	StatusRemeasured = "remeasured"
	StatusOutlier    = "outlier"
)

// Columns of the sample files this package writes, in order. Readers need
// only kernel,host,m,n,k,seconds (in any order).
var Columns = []string{"index", "plan", "host", "core", "kernel", "m", "n", "k", "seconds", "timestamp", "backend", "clock", "runs", "status"}

// requiredColumns must be present in any sample file.
var requiredColumns = []string{"kernel", "host", "m", "n", "k", "seconds"}

// appendRow appends s as one CSV line (with its newline) in Columns order.
// Host, kernel and backend names are written as they are: they may not hold
// commas, quotes or newlines (Writer checks).
func appendRow(b []byte, s Sample) []byte {
	if s.Index >= 0 { // unknown index or core stay empty cells
		b = strconv.AppendInt(b, int64(s.Index), 10)
	}
	b = append(b, ',')
	b = append(b, s.Plan...)
	b = append(b, ',')
	b = append(b, s.Host...)
	b = append(b, ',')
	if s.Core >= 0 {
		b = strconv.AppendInt(b, int64(s.Core), 10)
	}
	b = append(b, ',')
	b = append(b, s.Kernel...)
	for _, d := range []int{s.M, s.N, s.K} {
		b = append(b, ',')
		b = strconv.AppendInt(b, int64(d), 10)
	}
	b = append(b, ',')
	b = strconv.AppendFloat(b, s.Seconds, 'g', -1, 64)
	b = append(b, ',')
	if !s.Time.IsZero() {
		b = s.Time.UTC().AppendFormat(b, time.RFC3339Nano)
	}
	b = append(b, ',')
	b = append(b, s.Backend...)
	b = append(b, ',')
	b = append(b, s.Clock...)
	b = append(b, ',')
	if s.Runs > 0 {
		b = strconv.AppendInt(b, int64(s.Runs), 10)
	}
	b = append(b, ',')
	b = append(b, s.Status...)
	return append(b, '\n')
}

func headerLine() []byte {
	var b []byte
	for i, c := range Columns {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, c...)
	}
	return append(b, '\n')
}

// varsOf gives a sample's model variables (kernels.VarsFor); a kernel emu
// does not know that own names (FitEachKernelWith) has its sizes as M, N, K
// and its product's value as W (the plots' x); no call of it is empty: its
// model's intercept says what one costs.
func varsOf(s Sample, own map[string]string) (models.Vars, bool, error) {
	if _, mine := own[s.Kernel]; mine && !kernels.Known(s.Kernel) {
		if s.M < 0 || s.N < 0 || s.K < 0 {
			return models.Vars{}, false, fmt.Errorf("negative dimension (m=%d n=%d k=%d)", s.M, s.N, s.K)
		}
		v := models.Vars{M: float64(s.M), N: float64(s.N), K: float64(s.K)}
		w, err := models.TermValue(own[s.Kernel], v) // W, as a known kernel's: its product
		if err != nil {
			return models.Vars{}, false, err
		}
		v.W = w
		return v, false, nil
	}
	return kernels.VarsFor(s.Kernel, s.M, s.N, s.K)
}
