package models

import (
	"fmt"
	"math"
	"reflect"
	"time"

	"github.com/BurntSushi/toml"
)

// Probe is a node's reference measurement, taken when its kernels were
// calibrated: which node it was and how fast one fixed call ran there (a
// dgemm of order Size, the median of Runs timed runs). A models file keeps
// one [[probe]] per calibrated node, so that the node can be measured again
// later and the models' age read as a ratio (emu calibrate --check). This
// package only carries probes; measuring them is calibration's.
//
//	[[probe]]
//	host = "node1"
//	cpu = "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz"
//	cores = 32
//	backend = "gonum"
//	clock = "wall"
//	kernel = "dgemm"
//	size = 512
//	runs = 7
//	gflops = 41.7
//	time = 2026-11-28T08:30:00Z
type Probe struct {
	Host    string    `toml:"host" json:"host"`
	CPU     string    `toml:"cpu,omitempty" json:"cpu,omitempty"`         // the CPU's model name ("" unknown)
	Cores   int       `toml:"cores,omitzero" json:"cores,omitempty"`      // logical CPUs of the node (0 unknown)
	Backend string    `toml:"backend,omitempty" json:"backend,omitempty"` // BLAS that ran the call
	Clock   string    `toml:"clock,omitempty" json:"clock,omitempty"`     // "wall" or "cpu"
	Kernel  string    `toml:"kernel" json:"kernel"`                       // "dgemm"
	Size    int       `toml:"size" json:"size"`                           // m = n = k
	Runs    int       `toml:"runs" json:"runs"`                           // timed runs behind Gflops
	Gflops  float64   `toml:"gflops" json:"gflops"`                       // 2·Size³ flops / the median run, 1e9/s
	Time    time.Time `toml:"time" json:"time"`                           // when it was measured (UTC)
}

// MaxProbeSize is the largest probe order a models file may give: the probe
// is measured again with it (emu calibrate --check, emu run's check), and a
// dgemm of order 100,000 would ask for 240 GB.
const MaxProbeSize = 2048

// Validate reports a probe that cannot serve as a reference; the error
// starts with the field's key.
func (p Probe) Validate() error {
	switch {
	case p.Host == "":
		return bad("host", "missing (the node the probe was measured on)")
	case p.Kernel == "":
		return bad("kernel", "missing (the call measured, e.g. \"dgemm\")")
	case p.Size <= 0 || p.Size > MaxProbeSize:
		return bad("size", "%d, want the call's order from 1 to %d (emu probes 512)", p.Size, MaxProbeSize)
	case p.Runs <= 0:
		return bad("runs", "%d, want at least 1", p.Runs)
	case !(p.Gflops > 0) || math.IsInf(p.Gflops, 0):
		return bad("gflops", "%v, want a finite rate > 0", p.Gflops)
	case p.Cores < 0:
		return bad("cores", "%d, want ≥ 0 (0: unknown)", p.Cores)
	}
	return nil
}

// ParseProbes reads only the [[probe]] tables of a models.toml document
// (ParseSet reads and checks the whole; this is for a caller that has its
// models already).
func ParseProbes(data []byte, file string) ([]Probe, error) {
	var doc struct {
		Probes []Probe `toml:"probe"`
	}
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return nil, decodeError(data, file, err)
	}
	if err := checkProbes(data, file, doc.Probes); err != nil {
		return nil, err
	}
	return doc.Probes, nil
}

// checkProbes validates each probe, naming the file's line and key. Several
// probes of one node may stand (its latest is the reference,
// calibration.ReferenceFor).
func checkProbes(data []byte, file string, probes []Probe) error {
	for i, p := range probes {
		if err := p.Validate(); err != nil {
			se := err.(*specError)
			k := fmt.Sprintf("probe[%d]", i)
			return fmt.Errorf("%s: %s.%s: %s", locate(data, file, []string{k, se.key}), k, se.key, se.msg)
		}
	}
	return nil
}

// Probes returns the set's reference probes, one per calibrated node (none
// for models that were not calibrated by emu, e.g. published ones).
func (s *Set) Probes() []Probe {
	if s == nil {
		return nil
	}
	return append([]Probe(nil), s.probes...)
}

// WithProbes returns a copy of the set that carries probes instead of its
// own (the models are shared: a Set is immutable).
func (s *Set) WithProbes(probes []Probe) *Set {
	c := *s
	c.probes = append([]Probe(nil), probes...)
	return &c
}

// Scaled returns the spec with every duration multiplied by f: the mean's
// coefficients and intercept (each piece's too), the noise's σ, σ(v)
// coefficients and intercept, a mixture's offsets and σ, and the host
// overrides alike. Relative quantities (a mixture's mean_scale and
// sigma_scale) stay as they are. It is how aged models are rescaled to a
// node that now runs f times as long (seed 003's authors multiplied their
// dgemm coefficients by 1.034 and 1.072 the same way).
func (s Spec) Scaled(f float64) Spec {
	out := s
	out.Coef = timesAll(s.Coef, f)
	out.Intercept = s.Intercept * f
	out.Sigma = s.Sigma * f
	out.SigmaCoef = timesAll(s.SigmaCoef, f)
	out.SigmaIntercept = s.SigmaIntercept * f
	if s.Mixture != nil {
		out.Mixture = make([]Component, len(s.Mixture))
		for i, c := range s.Mixture {
			c.Offset *= f
			c.Sigma *= f
			out.Mixture[i] = c
		}
	}
	if s.Pieces != nil {
		out.Pieces = make([]Piece, len(s.Pieces))
		for i, p := range s.Pieces {
			p.Coef = timesAll(p.Coef, f)
			p.Intercept *= f
			out.Pieces[i] = p
		}
	}
	if s.Host != nil {
		out.Host = make(map[string]Spec, len(s.Host))
		for h, hs := range s.Host {
			out.Host[h] = hs.Scaled(f)
		}
	}
	return out
}

func timesAll(x []float64, f float64) []float64 {
	if x == nil {
		return nil
	}
	out := make([]float64, len(x))
	for i, v := range x {
		out[i] = v * f
	}
	return out
}

// scaledFields lists every field of Spec, Piece and Component by whether
// Scaled multiplies it: a test holds it equal to the types' fields, so a
// field added to a spec (a new noise family's parameter) must be placed.
var scaledFields = map[reflect.Type]map[string]bool{
	reflect.TypeOf(Spec{}): {"Terms": false, "Coef": true, "Intercept": true, "Noise": false, "Sigma": true,
		"SigmaTerms": false, "SigmaCoef": true, "SigmaIntercept": true, "Mixture": true, "BreaksOn": false,
		"Pieces": true, "Host": true},
	reflect.TypeOf(Piece{}):     {"From": false, "To": false, "Terms": false, "Coef": true, "Intercept": true},
	reflect.TypeOf(Component{}): {"Weight": false, "MeanScale": false, "Offset": true, "Sigma": true, "SigmaScale": false},
}
