package kernels

import (
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/emu-hpc/emu/models"
)

// Mode says whether kernels execute and where their charged time comes from.
type Mode uint8

const (
	Real  Mode = iota // execute on real data, charge the model's duration
	Timed             // execute, charge measured wall time × SpeedRatio
	Model             // execute nothing, charge the model's duration
)

var modeNames = [...]string{Real: "real", Timed: "timed", Model: "model"}

func (m Mode) String() string {
	if int(m) < len(modeNames) {
		return modeNames[m]
	}
	return fmt.Sprintf("Mode(%d)", m)
}

// ParseMode reads the scenario spelling of a mode: "real", "timed" or "model".
func ParseMode(s string) (Mode, error) {
	for m, name := range modeNames {
		if s == name {
			return Mode(m), nil
		}
	}
	return 0, fmt.Errorf("kernels: unknown mode %q (want real, timed or model)", s)
}

// Config is one rank's kernel configuration.
type Config struct {
	Mode Mode
	// SpeedRatio scales measured wall time in Timed mode (charged = wall ×
	// SpeedRatio, as SMPI's speed ratio); 0 means 1.
	SpeedRatio float64
	// Models gives each kernel's time model; nil (or a kernel without a model)
	// charges zero.
	Models *models.Set
	// Host selects per-host model overrides.
	Host string
	// CPU is the rank's socket on its host (0 on one-socket hosts): an
	// override keyed "Host/cpuCPU" comes before Host's (models.Set.ForCPU).
	CPU int
	// Noise draws durations with Model.Sample and the rank's rng; otherwise
	// Model.Mean is charged (deterministic).
	Noise bool
	// Backend names the BLAS used in Real and Timed modes; "" is gonum.
	Backend string
	// Seed seeds Idamax's pseudo-random answers in Model mode.
	Seed uint64
	// Clock times calls in Timed mode (default WallClock).
	Clock Clock
	// Observe, if set, sees every call with its dimensions and the seconds
	// charged for it (per-kernel totals, recording an application's calls
	// for calibration, explaining a prediction). It runs on the rank's
	// goroutine and must not block.
	Observe func(Observed)
	// HostSpeed maps a host name to its speed relative to its model (a
	// what-if: node variability). Every duration charged on Host — modelled,
	// with its noise, or measured in Timed mode — is divided by it: 0.9 is a
	// host 10% slower, whose calls take 1/0.9 as long. A host that is absent
	// runs at 1. It is read, never written: ranks share it.
	HostSpeed map[string]float64
	// ChargeEmpty charges a call with an empty dimension its model, as any
	// other call, in Model and Real modes (Timed mode measures it, and never
	// charges it). SMPI's HPL fork (Cornebize's, used for seed 003's Dahu
	// figures) does so: its kernel macros evaluate the model for every call,
	// so an empty dgemm(M, 0, K) costs intercept + mk·M·K under a
	// polynomial model. HPL makes such calls at the end of each level of its
	// recursive panel factorization (the trailing update of zero columns)
	// and each time its update polls a pending broadcast after running out
	// of columns. Off, such a call costs nothing, as in a real BLAS.
	ChargeEmpty bool
	// Where names each kernel's model for CallTooLongError: its table's
	// place ("models.toml:2"), by kernel name. Absent: the message names
	// the kernel alone.
	Where map[string]string
}

// MaxCallSeconds bounds the modelled duration of one kernel call. No BLAS
// call of a real run lasts days (a dgemm's coefficient is about 1e-11 s per
// m·n·k); a model that charges more has its units wrong, and a run of such
// calls is not finite in practice: a wait of W seconds costs SMPI's growing
// Iprobe about √(2W/iprobe_cost) polls (coefficient 1e9 s per m·n·k made an
// N = 400 HPL poll for hours).
const MaxCallSeconds = 1e6

// CallTooLongError stops a run at a call whose model charges more than
// MaxCallSeconds: the model's input fault, named with its place.
type CallTooLongError struct {
	Kernel  string // the name of the model's table: the kernel, its routine variant or its family
	Where   string // Config.Where's entry, or ""
	Vars    models.Vars
	Seconds float64 // what the model charged
}

// InputFault marks the error as its input's fault (ranks.InputFault).
func (e *CallTooLongError) InputFault() {}

// Error names the model and the call; either may be at fault: a model in
// microseconds, or a run of HPL at N = 8·10⁸ (an HPL.dat's typo) whose
// first update the default model charges 5·10⁷ s (qa48: the message asked
// about the coefficients alone).
func (e *CallTooLongError) Error() string {
	at := ""
	if e.Where != "" {
		at = e.Where + ": "
	}
	dims := fmt.Sprintf("m = %g, n = %g", e.Vars.M, e.Vars.N)
	if e.Vars.K != 0 {
		dims += fmt.Sprintf(", k = %g", e.Vars.K)
	}
	return fmt.Sprintf("%skernels.%s: one call (%s) costs %.2g s by this model, over emu's bound of %g s (%.1f days) a call: are its coefficients in seconds, and the problem (its m, n, k) the size meant?",
		at, e.Kernel, dims, e.Seconds, float64(MaxCallSeconds), MaxCallSeconds/86400)
}

// Validate reports a configuration New cannot use.
func (c Config) Validate() error {
	if c.Mode > Model {
		return fmt.Errorf("kernels: unknown mode %d", c.Mode)
	}
	if c.Clock > CPUClock {
		return fmt.Errorf("kernels: unknown clock %d", c.Clock)
	}
	if c.SpeedRatio < 0 || c.SpeedRatio != c.SpeedRatio {
		return fmt.Errorf("kernels: speed_ratio %g must be positive", c.SpeedRatio)
	}
	bad := "" // the first bad host in name order, so the error is always the same
	for h, v := range c.HostSpeed {
		if (!(v > 0) || math.IsInf(v, 0)) && (bad == "" || h < bad) {
			bad = h
		}
	}
	if bad != "" {
		return fmt.Errorf("kernels: host_speed of %s is %g, want a finite factor > 0", bad, c.HostSpeed[bad])
	}
	_, err := LookupBackend(c.Backend)
	return err
}

// Charger receives the compute time of each kernel call; *ranks.Rank
// satisfies it.
type Charger interface {
	Compute(seconds float64, kernel string)
}

// Set is one rank's kernel set. It is not safe for concurrent use: each rank
// owns its own.
type Set struct {
	mode    Mode
	ratio   float64
	noise   bool
	charger Charger
	rng     *rand.Rand
	be      Backend
	set     *models.Set
	host    string
	socket  int                      // Config.CPU
	byID    [numKernels]models.Model // resolved once: the hot path does no map lookup
	byName  map[string]resolvedModel // Charge's kernels, resolved on first use
	pivot   uint64                   // Idamax state in Model mode
	cpu     bool                     // Timed mode reads the process CPU clock
	zero    int64                    // the clock's own cost, ns, subtracted from measurements
	// observer is Config.Observe: nil on the hot path of large runs, so a
	// call pays one nil check for it.
	observer func(Observed)
	speed    float64           // Config.HostSpeed of host: durations are divided by it
	empty    bool              // Config.ChargeEmpty, outside Timed mode
	where    map[string]string // Config.Where
}

// New returns the kernel set of one rank. rng is the rank's stream (used for
// noise only). It panics if cfg does not Validate: configurations are checked
// where they are read.
func New(cfg Config, c Charger, rng *rand.Rand) *Set {
	if err := cfg.Validate(); err != nil {
		panic(err)
	}
	be, _ := LookupBackend(cfg.Backend)
	k := &Set{
		mode:     cfg.Mode,
		ratio:    cfg.SpeedRatio,
		noise:    cfg.Noise,
		charger:  c,
		rng:      rng,
		be:       be,
		set:      cfg.Models,
		host:     cfg.Host,
		socket:   cfg.CPU,
		byName:   map[string]resolvedModel{},
		pivot:    cfg.Seed,
		cpu:      cfg.Clock == CPUClock && cpuClockWorks,
		observer: cfg.Observe,
		empty:    cfg.ChargeEmpty && cfg.Mode != Timed,
		where:    cfg.Where,
	}
	if k.ratio == 0 {
		k.ratio = 1
	}
	k.speed = 1
	if v, ok := cfg.HostSpeed[cfg.Host]; ok {
		k.speed = v
	}
	if k.mode == Timed {
		k.be = OneCore(be) // a rank's call measures one core
		k.zero = zeroNanos(cfg.Clock)
	}
	if cfg.Models != nil {
		for id := range k.byID {
			k.byID[id] = cfg.Models.ForCPU(kernelNames[id], cfg.Host, cfg.CPU)
		}
	}
	return k
}

// Mode returns the set's mode.
func (k *Set) Mode() Mode { return k.mode }

// ChargesEmpty reports whether calls with an empty dimension are charged
// their model (Config.ChargeEmpty, outside Timed mode).
func (k *Set) ChargesEmpty() bool { return k.empty }

// chargeEmpty charges an empty call (a dimension <= 0, taken as 0) when the
// set charges them.
func (k *Set) chargeEmpty(id kernelID, v models.Vars, f Form) {
	if k.empty {
		k.chargeModel(id, v, f)
	}
}

// Backend returns the name of the BLAS backend in use.
func (k *Set) Backend() string { return k.be.Name() }

// modelTime is the duration a model gives for one call; zero without a model.
func (k *Set) modelTime(m models.Model, v models.Vars) float64 {
	if m == nil {
		return 0
	}
	if k.noise && k.rng != nil {
		return m.Sample(v, k.rng) / k.speed
	}
	return m.Mean(v) / k.speed
}

// epoch anchors wall-clock readings so they fit an int64 of nanoseconds.
var epoch = time.Now()

// start opens a measured interval; it reads a clock only in Timed mode.
func (k *Set) start() int64 {
	switch {
	case k.mode != Timed:
		return 0
	case k.cpu:
		return cpuNanos()
	}
	return int64(time.Since(epoch))
}

// elapsed closes the interval opened by start, in seconds, less the
// clock's own cost.
func (k *Set) elapsed(t0 int64) float64 {
	if k.cpu {
		return net(cpuNanos()-t0, k.zero)
	}
	return net(int64(time.Since(epoch))-t0, k.zero)
}

// finish charges one executed call: measured time in Timed mode, the model
// otherwise.
func (k *Set) finish(id kernelID, v models.Vars, f Form, t0 int64) {
	if k.mode == Timed {
		d := k.elapsed(t0) * k.ratio / k.speed
		k.observe(kernelNames[id], v, f, d)
		k.execute(d, kernelNames[id])
		return
	}
	k.chargeModel(id, v, f)
}

func (k *Set) chargeModel(id kernelID, v models.Vars, f Form) {
	d := k.modelTime(k.byID[id], v)
	if d > MaxCallSeconds {
		k.tooLong(kernelNames[id], v, d)
	}
	k.observe(kernelNames[id], v, f, d)
	if d > 0 {
		k.charger.Compute(d, kernelNames[id])
	}
}

// modelFor resolves a Charge kernel's model once and caches it (nil too),
// with the name of its table.
func (k *Set) modelFor(kernel string) resolvedModel {
	r, ok := k.byName[kernel]
	if !ok {
		r.from = kernel
		if k.set != nil {
			r.model = k.set.ForCPU(kernel, k.host, k.socket)
			if r.model == nil && (kernel == Uswp || kernel == Gather || kernel == Scatter) {
				// Models written before these moves were kernels of
				// their own cover them under dlaswp.
				r.model, r.from = k.set.ForCPU(Laswp, k.host, k.socket), Laswp
			}
		}
		k.byName[kernel] = r
	}
	return r
}

// resolvedModel is a kernel's model as modelFor found it, with the name of
// the table it came from (the kernel's own, or dlaswp's for the moves
// models older than them price under it).
type resolvedModel struct {
	model models.Model // nil: no model, the call costs nothing
	from  string
}

// Charge charges the model time of a kernel whose code lives elsewhere (HPL's
// laswp, lacpy, latcpy family) in every mode. v.M is the number of rows, v.N
// of columns; W defaults to M·N (doubles moved). An empty call costs nothing.
func (k *Set) Charge(kernel string, v models.Vars) {
	k.ChargeVariant(kernel, "", v)
}

// HasModel reports whether the set has a model of that very name (no
// family fallback): a routine variant's own model, say.
func (k *Set) HasModel(name string) bool {
	return k.set != nil && k.set.ForCPU(name, k.host, k.socket) != nil
}

// ChargeVariant is Charge for one routine of a kernel's family (HPL's
// "dlaswp01T" of "dlaswp"): the routine's own model if the set has one (a
// per-routine calibration), else the kernel's. Time is reported under kernel
// either way, so breakdowns read the same with both kinds of models.
func (k *Set) ChargeVariant(kernel, variant string, v models.Vars) {
	k.ChargeCopy(k.Copy(kernel, variant), v)
}

// A Copy is one routine of a Charge kernel's family resolved by Set.Copy:
// the kernel its time is reported under and the model that prices it. A
// caller that charges the same routine millions of times (HPL's row swaps)
// holds one, so no call hashes the names again.
type Copy struct {
	kernel string
	from   string       // the name of model's table: kernel, its variant's or its family's
	model  models.Model // nil: the call costs nothing
}

// Copy resolves what ChargeVariant(kernel, variant, …) charges with: the
// variant's own model if the set has one, else the kernel's. The set's
// models do not change, so the Copy holds for the set's life.
func (k *Set) Copy(kernel, variant string) Copy {
	r := k.modelFor(kernel)
	if variant != "" && k.set != nil {
		if vr := k.modelFor(variant); vr.model != nil {
			r = vr
		}
	}
	return Copy{kernel: kernel, from: r.from, model: r.model}
}

// tooLong stops the run at a call of d > MaxCallSeconds seconds: a panic
// of *CallTooLongError, which the rank's World reports as the run's error
// (ranks.PanicError wraps it).
func (k *Set) tooLong(model string, v models.Vars, d float64) {
	panic(&CallTooLongError{Kernel: model, Where: k.where[model], Vars: v, Seconds: d})
}

// ChargeCopy is ChargeVariant with the routine resolved by Copy on this set.
func (k *Set) ChargeCopy(c Copy, v models.Vars) {
	if (v.M <= 0 || v.N <= 0) && !k.empty {
		return
	}
	v.M, v.N = max(v.M, 0), max(v.N, 0)
	if v.W == 0 {
		v.W = v.M * v.N
	}
	d := k.modelTime(c.model, v)
	if d > MaxCallSeconds {
		k.tooLong(c.from, v, d)
	}
	k.observe(c.kernel, v, 0, d)
	if d > 0 {
		k.charger.Compute(d, c.kernel)
	}
}

// Run executes work (in Real and Timed modes) and charges it as kernel with
// dimensions v: measured in Timed mode, modelled otherwise. In Model mode work
// is not called. It lets code outside this package (HPL's own copy routines)
// be timed like a BLAS call. v follows Charge's conventions.
func (k *Set) Run(kernel string, v models.Vars, work func()) {
	if v.M <= 0 || v.N <= 0 {
		if k.mode != Model {
			work()
		}
		if k.empty {
			k.Charge(kernel, v)
		}
		return
	}
	switch k.mode {
	case Real:
		work()
		k.Charge(kernel, v)
	case Model:
		k.Charge(kernel, v)
	case Timed:
		if v.W == 0 {
			v.W = v.M * v.N
		}
		t0 := k.start()
		work()
		d := k.elapsed(t0) * k.ratio / k.speed
		k.observe(kernel, v, 0, d)
		k.execute(d, kernel)
	}
}

// Executor is a Charger that also runs measured work as SMPI's benched
// execution, which shares a host's cores with the other executions there
// (*ranks.Rank's ExecuteFor). Timed mode charges through it when the
// Charger has it: what SMPI measures between MPI calls runs as an
// execution. Real and Model modes charge a model's time, which SMPI's HPL
// runs as a sleep (usleep), with Compute.
type Executor interface {
	ExecuteFor(seconds float64, kernel string)
}

// execute charges a measured call (Timed mode).
func (k *Set) execute(d float64, kernel string) {
	if x, ok := k.charger.(Executor); ok {
		x.ExecuteFor(d, kernel)
		return
	}
	k.charger.Compute(d, kernel)
}
