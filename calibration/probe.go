package calibration

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/blas"

	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
)

// A probe is a node's reference measurement (models.Probe): one dgemm of
// order ProbeSize, timed a few times on one core, its median read as Gflop/s,
// with the node's identity. A campaign takes one before it measures and
// writes it into the sample file; emu fit carries it into the models file;
// emu calibrate --check measures it again and reads how far the node has
// drifted since (Compare), and --rescale multiplies the models by that ratio
// (Rescale). A node's dgemm speed can move by a third within minutes on a
// shared or thermally limited machine, and models from before the move then
// predict long or short by as much: the probe says so in a second.

// Probe sizes and repetitions.
const (
	// ProbeSize is the order of the probe's dgemm: 2·512³ = 268 Mflop, tens of
	// milliseconds on one core, far above the clock's resolution; its
	// operands (6 MiB) stream from memory as a large update's do.
	ProbeSize = 512
	// ProbeRuns is how many timed runs a calibration's or --check's probe
	// takes (after one untimed run): the median of 7 shrugs off two runs
	// hit by a neighbour.
	ProbeRuns = 7
	// QuickProbeRuns is emu run's probe, which must stay cheap.
	QuickProbeRuns = 3
)

// Node is a machine as a probe names it.
type Node struct {
	Host  string
	CPU   string // the CPU's model name; "" when the system does not say
	Cores int    // logical CPUs
}

// ThisNode describes the machine emu runs on: its host name, its CPU's model
// name (from /proc/cpuinfo where there is one) and its logical CPUs.
func ThisNode() Node {
	host, _ := os.Hostname()
	data, _ := os.ReadFile("/proc/cpuinfo")
	return Node{Host: host, CPU: cpuModel(data), Cores: runtime.NumCPU()}
}

// cpuModel finds the CPU's model name in the text of /proc/cpuinfo: x86's
// "model name", or what other architectures call it.
func cpuModel(cpuinfo []byte) string {
	for _, key := range []string{"model name", "cpu model", "Model", "Processor", "cpu"} {
		for _, line := range strings.Split(string(cpuinfo), "\n") {
			k, v, ok := strings.Cut(line, ":")
			if ok && strings.TrimSpace(k) == key && strings.TrimSpace(v) != "" {
				return strings.Join(strings.Fields(v), " ")
			}
		}
	}
	return ""
}

// ProbeOptions says how to measure a probe.
type ProbeOptions struct {
	// Node is the machine measured; the zero Node is ThisNode(). Host, if
	// set, replaces its host name (emu calibrate --host).
	Node Node
	Host string
	// Backend and Clock are the BLAS and the clock (those of the campaign,
	// or of the reference being checked).
	Backend string
	Clock   kernels.Clock
	// Size is the dgemm's order (0: ProbeSize); Runs its timed runs (0:
	// ProbeRuns).
	Size, Runs int
	// Timer times one run of f in seconds; nil is kernels.Measure on Clock.
	// Tests give a fake one to set the rate the probe reads.
	Timer func(f func()) float64
	// Now stamps the probe; nil is time.Now.
	Now func() time.Time
}

// MeasureProbe runs the probe on this node: one untimed run, then Runs timed
// ones on one core of the backend, each on fresh operands; the rate is that
// of the median run.
func MeasureProbe(o ProbeOptions) (models.Probe, error) {
	be, err := kernels.LookupBackend(o.Backend)
	if err != nil {
		return models.Probe{}, err
	}
	n, runs := o.Size, o.Runs
	if n == 0 {
		n = ProbeSize
	}
	if runs == 0 {
		runs = ProbeRuns
	}
	if n < 0 || runs < 0 {
		return models.Probe{}, fmt.Errorf("probe: size %d, runs %d: want positive values", n, runs)
	}
	node := o.Node
	if node == (Node{}) {
		node = ThisNode()
	}
	if o.Host != "" {
		node.Host = o.Host
	}
	timer := o.Timer
	if timer == nil {
		timer = func(f func()) float64 { return kernels.Measure(o.Clock, f) }
	}
	now := o.Now
	if now == nil {
		now = time.Now
	}
	m := newMeasurer(be, o.Clock, runs, 0x9e0be)
	call := Call{Kernel: "dgemm", M: n, N: n, K: n, TransA: blas.NoTrans, TransB: blas.NoTrans}
	timer(m.prepare(call)) // warm-up: pages touched, the backend's code paged in
	times := make([]float64, runs)
	for i := range times {
		times[i] = timer(m.prepare(call))
	}
	sec := median(times)
	if !(sec > 0) {
		return models.Probe{}, fmt.Errorf("probe: a %d³ dgemm measured %g s on the %s clock: too fast to time", n, sec, o.Clock)
	}
	return models.Probe{Host: node.Host, CPU: node.CPU, Cores: node.Cores, Backend: be.Name(), Clock: o.Clock.String(),
		Kernel: "dgemm", Size: n, Runs: runs, Gflops: 2 * float64(n) * float64(n) * float64(n) / sec / 1e9,
		Time: now().UTC().Truncate(time.Second)}, nil
}

// OptionsFor returns the options that measure a probe comparable with ref:
// the same call, backend and clock, on this node.
func OptionsFor(ref models.Probe, runs int) (ProbeOptions, error) {
	clock, err := kernels.ParseClock(ref.Clock)
	if ref.Clock == "" {
		clock, err = kernels.WallClock, nil
	}
	if err != nil {
		return ProbeOptions{}, fmt.Errorf("probe of %s: %w", ref.Host, err)
	}
	if ref.Kernel != "dgemm" {
		return ProbeOptions{}, fmt.Errorf("probe of %s: kernel %q: this emu probes with dgemm", ref.Host, ref.Kernel)
	}
	return ProbeOptions{Backend: ref.Backend, Clock: clock, Size: ref.Size, Runs: runs}, nil
}

// Drift compares a node's probe now with its reference.
type Drift struct {
	Then, Now models.Probe
	// Ratio is how many times as long a call takes now as then:
	// Then.Gflops / Now.Gflops (1.2: 20% slower now). Models rescaled by it
	// describe the node as it is now.
	Ratio float64
	// Differs says what tells the two nodes apart, in words; empty when the
	// probe ran on the node of the reference.
	Differs []string
}

// Compare reads the drift between a reference probe and one measured now.
// They must be the same measurement (kernel, size, backend, clock; a
// reference that names no backend or clock took the defaults).
func Compare(then, now models.Probe) (Drift, error) {
	then, now = measuredAs(then), measuredAs(now)
	if then.Kernel != now.Kernel || then.Size != now.Size || then.Backend != now.Backend || then.Clock != now.Clock {
		return Drift{}, fmt.Errorf("probes differ: %s %d³ on %s (%s clock) then, %s %d³ on %s (%s clock) now",
			then.Kernel, then.Size, then.Backend, then.Clock, now.Kernel, now.Size, now.Backend, now.Clock)
	}
	return Drift{Then: then, Now: now, Ratio: then.Gflops / now.Gflops,
		Differs: NodeDiffers(then, Node{Host: now.Host, CPU: now.CPU, Cores: now.Cores})}, nil
}

// measuredAs is how a probe was taken: a hand-written probe's missing
// backend and clock are the defaults OptionsFor measures it again with (a
// probe of neither said "on  ( clock) then, on gonum (wall clock) now").
func measuredAs(p models.Probe) models.Probe {
	if p.Backend == "" {
		p.Backend = kernels.DefaultBackend
	}
	if p.Clock == "" {
		p.Clock = kernels.WallClock.String()
	}
	return p
}

// NodeDiffers says in words how node n differs from the node ref was
// measured on (host, CPU model, cores; an unknown value differs from
// nothing); nil when it is the same node.
func NodeDiffers(ref models.Probe, n Node) []string {
	var out []string
	if ref.Host != n.Host {
		out = append(out, fmt.Sprintf("host %s, not %s", n.Host, ref.Host))
	}
	if ref.CPU != "" && n.CPU != "" && ref.CPU != n.CPU {
		out = append(out, fmt.Sprintf("CPU %q, not %q", n.CPU, ref.CPU))
	}
	if ref.Cores > 0 && n.Cores > 0 && ref.Cores != n.Cores {
		out = append(out, fmt.Sprintf("%d cores, not %d", n.Cores, ref.Cores))
	}
	return out
}

// ReferenceFor picks the probe of host among a models file's probes: the
// latest of that host's; else, when the file has probes of a single node,
// that node's (ok, a different node: the caller says so); else none.
func ReferenceFor(probes []models.Probe, host string) (ref models.Probe, found bool) {
	hosts := map[string]bool{}
	for _, p := range probes {
		hosts[p.Host] = true
		if p.Host == host && (!found || p.Time.After(ref.Time)) {
			ref, found = p, true
		}
	}
	if found {
		return ref, true
	}
	if len(hosts) == 1 {
		return latest(probes), true
	}
	return models.Probe{}, false
}

func latest(probes []models.Probe) models.Probe {
	best := probes[0]
	for _, p := range probes[1:] {
		if p.Time.After(best.Time) {
			best = p
		}
	}
	return best
}

// LatestPerHost keeps each host's latest probe, sorted by host: what a
// models file fitted from several sample files (several nodes, or resumed
// campaigns) records.
func LatestPerHost(probes []models.Probe) []models.Probe {
	by := map[string]models.Probe{}
	for _, p := range probes {
		if q, ok := by[p.Host]; !ok || p.Time.After(q.Time) {
			by[p.Host] = p
		}
	}
	out := make([]models.Probe, 0, len(by))
	for _, p := range by {
		out = append(out, p)
	}
	slices.SortFunc(out, func(a, b models.Probe) int { return strings.Compare(a.Host, b.Host) })
	return out
}

// Rescale returns set with the models of d's node multiplied by d.Ratio and
// d.Now as that node's probe: every BLAS kernel's mean and noise (HPL's own
// copies, dlaswp and the like, move memory rather than compute, and are left
// as they are). When the set describes that node alone (its probes are all
// of one host), the whole models are rescaled; when it holds several nodes,
// only that host's: its per-host override, or a new override made from the
// platform-wide model, and its per-CPU overrides. It returns the kernels
// rescaled.
func Rescale(set *models.Set, d Drift) (*models.Set, []string, error) {
	if !(d.Ratio > 0) {
		return nil, nil, fmt.Errorf("rescale: ratio %g", d.Ratio)
	}
	host := d.Then.Host
	alone := true
	for _, p := range set.Probes() {
		alone = alone && p.Host == host
	}
	specs := map[string]models.Spec{}
	var done []string
	for _, k := range set.Kernels() {
		sp, _ := set.Spec(k)
		switch {
		case isCopy(k):
		case alone:
			sp = sp.Scaled(d.Ratio)
			done = append(done, k)
		default:
			own, ok := sp.Host[host]
			if !ok {
				own = sp
				own.Host = nil
			}
			hosts := make(map[string]models.Spec, len(sp.Host)+1)
			for h, hs := range sp.Host {
				// the node's per-CPU models ("HOST/cpuS") come before its
				// own, so they move with it
				if hh, cpu, ok := models.SplitCPUKey(h); ok && cpu >= 0 && hh == host {
					hs = hs.Scaled(d.Ratio)
				}
				hosts[h] = hs
			}
			hosts[host] = own.Scaled(d.Ratio)
			sp.Host = hosts
			done = append(done, k)
		}
		specs[k] = sp
	}
	out, err := models.NewSet(specs)
	if err != nil {
		return nil, nil, fmt.Errorf("rescale: %w", err)
	}
	probes := set.Probes()
	for i, p := range probes {
		if p.Host == host {
			probes[i] = d.Now
			probes[i].Host = host
		}
	}
	return out.WithProbes(LatestPerHost(probes)), done, nil
}

// isCopy reports whether a kernel is one of HPL's own copies and
// interchanges (kernels.Family), which a dgemm probe does not speak for.
func isCopy(kernel string) bool {
	switch kernels.Family(kernel) {
	case kernels.Laswp, kernels.Uswp, kernels.Lacpy, kernels.Latcpy, kernels.Locswp:
		return true
	}
	return false
}

// probePrefix starts a sample file's probe line: a CSV comment that readers
// of samples skip, "# probe " then the probe as JSON.
const probePrefix = "# probe "

// appendProbe appends p as one probe line.
func appendProbe(b []byte, p models.Probe) ([]byte, error) {
	j, err := jsonMarshal(p)
	if err != nil {
		return b, err
	}
	b = append(b, probePrefix...)
	b = append(b, j...)
	return append(b, '\n'), nil
}

// ReadProbes returns the probes of a sample file's probe lines, in order.
// file names the input in errors, which carry the line number.
func ReadProbes(data []byte, file string) ([]models.Probe, error) {
	out, _, err := readProbeLines(data, file)
	return out, err
}

// ProbeLog gathers the probes of several sample files (or of several probe
// lines of one) for LatestPerHost, refusing two of one host measured at the
// same time that differ: LatestPerHost kept whichever came first, so
// merging n0.csv n1.csv or n1.csv n0.csv recorded different references
// without a word. Such a pair is two campaigns under one host name (two
// nodes calibrated without --host whose clocks agree to the second) or an
// edited file; the same probe twice (a file and its copy) is kept once.
// The zero ProbeLog is ready to use.
type ProbeLog struct {
	probes []models.Probe
	at     map[probeKey]probeAt
}

type probeKey struct {
	host string
	time int64 // Unix nanoseconds
}

type probeAt struct {
	file string
	line int
	p    models.Probe
}

// Add reads data's probe lines (file names it in errors) and checks each
// against the probes added before.
func (l *ProbeLog) Add(data []byte, file string) error {
	ps, lines, err := readProbeLines(data, file)
	if err != nil {
		return err
	}
	if l.at == nil {
		l.at = map[probeKey]probeAt{}
	}
	for i, p := range ps {
		k := probeKey{p.Host, p.Time.UnixNano()}
		if was, ok := l.at[k]; ok {
			if sameProbe(was.p, p) {
				continue
			}
			return fmt.Errorf("%s:%d: probe: host %q measured at %s, as %s:%d's probe, but %s: two nodes calibrated under one host name (give each its own --host) or an edited file; keep one of them",
				file, lines[i], p.Host, p.Time.UTC().Format(time.RFC3339Nano), was.file, was.line, probeDiff(was.p, p))
		}
		l.at[k] = probeAt{file, lines[i], p}
		l.probes = append(l.probes, p)
	}
	return nil
}

// Probes returns the probes added, each once, in the order read.
func (l *ProbeLog) Probes() []models.Probe { return l.probes }

// sameProbe reports whether a and b are one measurement (times compared as
// instants).
func sameProbe(a, b models.Probe) bool {
	if !a.Time.Equal(b.Time) {
		return false
	}
	a.Time, b.Time = time.Time{}, time.Time{}
	return a == b
}

// probeDiff names the first field in which b departs from a.
func probeDiff(a, b models.Probe) string {
	switch {
	case a.Gflops != b.Gflops:
		return fmt.Sprintf("gflops %g, not %g", b.Gflops, a.Gflops)
	case a.Size != b.Size:
		return fmt.Sprintf("size %d, not %d", b.Size, a.Size)
	case a.Runs != b.Runs:
		return fmt.Sprintf("runs %d, not %d", b.Runs, a.Runs)
	case a.CPU != b.CPU:
		return fmt.Sprintf("cpu %q, not %q", b.CPU, a.CPU)
	case a.Cores != b.Cores:
		return fmt.Sprintf("cores %d, not %d", b.Cores, a.Cores)
	case a.Kernel != b.Kernel:
		return fmt.Sprintf("kernel %q, not %q", b.Kernel, a.Kernel)
	case a.Backend != b.Backend:
		return fmt.Sprintf("backend %q, not %q", b.Backend, a.Backend)
	}
	return fmt.Sprintf("clock %q, not %q", b.Clock, a.Clock)
}

// readProbeLines is ReadProbes with each probe's line number.
func readProbeLines(data []byte, file string) ([]models.Probe, []int, error) {
	var out []models.Probe
	var lines []int
	for i, line := range bytes.Split(data, []byte("\n")) {
		rest, ok := bytes.CutPrefix(line, []byte(probePrefix))
		if !ok {
			continue
		}
		var p models.Probe
		if err := jsonUnmarshalStrict(bytes.TrimSpace(rest), &p); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: probe: %v", file, i+1, err)
		}
		if err := p.Validate(); err != nil {
			return nil, nil, fmt.Errorf("%s:%d: probe: %v", file, i+1, err)
		}
		out = append(out, p)
		lines = append(lines, i+1)
	}
	return out, lines, nil
}

// ReadProbeFile reads the probes of a sample file on disk.
func ReadProbeFile(path string) ([]models.Probe, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return ReadProbes(data, path)
}

func jsonMarshal(p models.Probe) ([]byte, error) { return json.Marshal(p) }

// jsonUnmarshalStrict decodes one JSON object into v, refusing unknown keys
// and trailing data.
func jsonUnmarshalStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the probe's object")
	}
	return duplicateKey(data)
}

// duplicateKey refuses a JSON object that names a key twice, whose last
// value encoding/json takes without a word ("gflops":1, ..., "gflops":52
// read 52, qa47). data is one object that decoded.
func duplicateKey(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // {
		return err
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		low := strings.ToLower(key) // encoding/json matches keys case-blind
		if seen[low] {
			return fmt.Errorf("key %q given twice", key)
		}
		seen[low] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return err
		}
	}
	return nil
}
