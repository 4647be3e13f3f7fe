package observe

import (
	"sort"

	"github.com/emu-hpc/emu/kernels"
)

// KernelLog gathers the kernel calls of a run: per kernel, the calls and the
// seconds charged (Result.Kernels, `--json`'s "kernels"), and with Shapes
// set every distinct call shape with its count, the input of an
// application-driven calibration (`emu calibrate --hpl-dat`). Ranks run one
// at a time, so the log needs no lock.
//
// Each rank's seconds are summed in that rank's own call order, and the
// ranks' sums added in rank order when asked: floats depend on the order
// they are added in, and the order in which ranks interleave is the
// scheduler's (merged kernel sleeps change it) while each rank's calls are
// its program's. So the totals are the same bits however the ranks took turns.
type KernelLog struct {
	// Shapes keeps each distinct (kernel, m, n, k, form) with its count.
	Shapes bool
	// Ranks, if not nil, says which ranks' calls are logged (a calibration
	// wants the calls of the ranks sharing one node); nil logs all.
	Ranks func(rank int) bool

	ranks map[int]*rankLog // by rank
}

// rankLog is one rank's share of the log.
type rankLog struct {
	totals byName[KernelTotal]
	shapes map[CallShape]*ShapeCount
}

// KernelTotal is one kernel's share of a run, summed over the logged ranks.
type KernelTotal struct {
	Kernel  string  `json:"kernel"`
	Calls   int     `json:"calls"`
	Seconds float64 `json:"seconds"` // charged compute time, s
}

// CallShape is a kernel call's identity for calibration: its kernel, its
// dimensions (kernels.VarsFor's conventions) and its BLAS form.
type CallShape struct {
	Kernel  string
	M, N, K int
	Form    kernels.Form
}

// ShapeCount is how often a shape was called and the seconds charged for it.
type ShapeCount struct {
	CallShape
	Calls   int
	Seconds float64
}

// Observer returns the kernels.Config.Observe function of one rank.
func (l *KernelLog) Observer(rank int) func(kernels.Observed) {
	if l.Ranks != nil && !l.Ranks(rank) {
		return nil
	}
	if l.ranks == nil {
		l.ranks = map[int]*rankLog{}
	}
	rl := l.ranks[rank]
	if rl == nil {
		rl = &rankLog{shapes: map[CallShape]*ShapeCount{}}
		l.ranks[rank] = rl
	}
	return func(o kernels.Observed) {
		t := rl.totals.get(o.Kernel, newKernelTotal)
		t.Calls++
		t.Seconds += o.Seconds
		if !l.Shapes {
			return
		}
		key := CallShape{Kernel: o.Kernel, M: int(o.Vars.M), N: int(o.Vars.N), K: int(o.Vars.K), Form: o.Form}
		s := rl.shapes[key]
		if s == nil {
			s = &ShapeCount{CallShape: key}
			rl.shapes[key] = s
		}
		s.Calls++
		s.Seconds += o.Seconds
	}
}

// Totals returns each kernel's calls and seconds, sorted by kernel name.
func (l *KernelLog) Totals() []KernelTotal {
	sum := map[string]*KernelTotal{}
	for _, rl := range l.byRank() {
		for k, t := range rl.totals.entries {
			if sum[k] == nil {
				sum[k] = &KernelTotal{Kernel: k}
			}
			sum[k].Calls += t.Calls
			sum[k].Seconds += t.Seconds
		}
	}
	out := make([]KernelTotal, 0, len(sum))
	for _, t := range sum {
		out = append(out, *t)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Kernel < out[j].Kernel })
	return out
}

// Calls returns every distinct call shape logged (Shapes set), in a fixed
// order: by kernel, then dimensions, then form.
func (l *KernelLog) Calls() []ShapeCount {
	sum := map[CallShape]*ShapeCount{}
	for _, rl := range l.byRank() {
		for k, c := range rl.shapes {
			if sum[k] == nil {
				sum[k] = &ShapeCount{CallShape: k}
			}
			sum[k].Calls += c.Calls
			sum[k].Seconds += c.Seconds
		}
	}
	out := make([]ShapeCount, 0, len(sum))
	for _, s := range sum {
		out = append(out, *s)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i].CallShape, out[j].CallShape
		switch {
		case a.Kernel != b.Kernel:
			return a.Kernel < b.Kernel
		case a.M != b.M:
			return a.M < b.M
		case a.N != b.N:
			return a.N < b.N
		case a.K != b.K:
			return a.K < b.K
		}
		return a.Form < b.Form
	})
	return out
}

// byRank lists the ranks' logs in rank order.
func (l *KernelLog) byRank() []*rankLog {
	ids := make([]int, 0, len(l.ranks))
	for r := range l.ranks {
		ids = append(ids, r)
	}
	sort.Ints(ids)
	out := make([]*rankLog, len(ids))
	for i, r := range ids {
		out[i] = l.ranks[r]
	}
	return out
}

func newKernelTotal(kernel string) *KernelTotal { return &KernelTotal{Kernel: kernel} }
