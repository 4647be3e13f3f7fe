package scenario

// The [kernels] table: the mode, the models file and the inline tables laid
// over it key by key, and the checks that a model is used by some kernel and host.

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/platform"
)

// kernels resolves [kernels]: mode, pivot rule, speed ratio and the models (the
// models file first, inline [kernels.NAME] tables over it key by key, with a
// note: kernelSpec).
func (s *Scenario) kernels(p *Plan) error {
	k := s.Kernels
	mode := k.Mode
	if mode == "" {
		mode = "model"
	}
	m, err := kernels.ParseMode(mode)
	if err != nil {
		return s.errorAt("kernels.mode", fmt.Sprintf("unknown mode %q (real, timed or model)", mode))
	}
	p.Pivot = k.Pivot
	switch p.Pivot {
	case "":
		p.Pivot = "splitmix"
	case "splitmix", "diagonal", "random":
	case "replay":
		if k.Pivots == "" {
			return s.errorAt("kernels.pivot", "replay needs kernels.pivots, a file of pivot rows (emu run --record-pivots)")
		}
		path := s.path(k.Pivots)
		data, err := readInput(path)
		if err != nil {
			return s.errorAt("kernels.pivots", err.Error())
		}
		if p.Replay, err = ParsePivots(data, path); err != nil {
			return err
		}
	default:
		return s.errorAt("kernels.pivot", fmt.Sprintf("unknown pivot rule %q (splitmix, diagonal, random or replay)", k.Pivot))
	}
	ratio := 0.0 // kernels' default, 1
	if k.SpeedRatio != nil {
		if ratio = *k.SpeedRatio; !(ratio > 0) {
			return s.errorAt("kernels.speed_ratio", fmt.Sprintf("%g must be positive", ratio))
		}
		if ratio > maxSpeedRatio { // +Inf ran until a Compute(+Inf); 1e300 polled for ever
			return s.errorAt("kernels.speed_ratio", fmt.Sprintf("%g: at most %g (a measured second would pass the clock's 1e9 s)", ratio, float64(maxSpeedRatio)))
		}
	}
	specs := map[string]models.Spec{}
	where := map[string]string{} // each model's place, for kernels.CallTooLongError
	if k.Models != "" {
		path := s.path(k.Models)
		data, err := inputfile.ReadFile(path)
		if err != nil {
			return s.errorAt("kernels.models", s.cannotRead(k.Models, path, err))
		}
		set, err := models.ParseSet(data, path)
		if err != nil {
			return err // names the models file and its line
		}
		absent, bare := map[string]bool{}, map[string]bool{}
		for _, name := range set.Kernels() {
			specs[name], _ = set.Spec(name)
			where[name] = models.Locate(data, path, "kernels."+name)
			// a models file may hold per-host models of a whole machine, of which
			// the platform emulates a part: only its kernel names are checked,
			// and the hosts the platform lacks are noted
			if err := checkModelNames(name, specs[name], nil); err != nil {
				return fmt.Errorf("%s: %v", path, err)
			}
			for _, h := range unusedHosts(specs[name], &p.Platform) {
				absent[h] = true
			}
			for _, c := range modelLessCPUs(specs[name], &p.Platform) {
				bare[c] = true
			}
		}
		if len(absent) > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("%s: per-host models for %d host(s) or CPU(s) this platform lacks, unused: %s",
				path, len(absent), abbreviate(sortedKeys(absent), 4)))
		}
		if len(bare) > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("%s: per-CPU models, but none for %d CPU(s) of this platform, which take the platform-wide model: %s",
				path, len(bare), abbreviate(sortedKeys(bare), 4)))
		}
	}
	names := sortedKeys(k.Specs)
	for name := range k.sets {
		if _, ok := k.Specs[name]; !ok {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		fileSpec, inFile := specs[name]
		spec, keys, err := s.kernelSpec(name, fileSpec, inFile, &p.Platform)
		if err != nil {
			return err
		}
		specs[name] = spec
		if inFile && len(keys) == 0 {
			continue // the file's alone (the embedded default's placeholder gave way)
		}
		if inFile {
			p.Notes = append(p.Notes, fmt.Sprintf("kernels.%s: the scenario's %s over %s's %s, key by key",
				name, abbreviate(keys, 4), s.path(k.Models), name))
		}
		if !inFile && k.Models != "" && s.embedded && k.tables[name] != nil && k.sets[name] == nil {
			// A file of this node's dtrsm alone (calibrate --kernels dtrsm)
			// left the study's dgemm charging every update without a word.
			p.Notes = append(p.Notes, fmt.Sprintf("kernels.%s: %s has no %s model, so the embedded default's (the SMPI study's) charges it",
				name, s.path(k.Models), name))
		}
		where[name] = s.keyPlace("kernels." + name)
	}
	set, err := models.NewSet(specs)
	if err != nil {
		// models' errors start with the key ("kernels.dgemm.coef: ..."): find its line.
		key, msg := splitKeyMessage(err.Error())
		return s.errorAt(key, msg)
	}
	free := freeModels(specs)
	for _, name := range sortedKeys(free) {
		p.Notes = append(p.Notes, fmt.Sprintf("kernels.%s: its coefficients and intercept are all ≤ 0, not all 0: every call costs 0 s (a sign lost?)", name))
	}
	for _, name := range sortedKeys(specs) {
		if key, b := negativeIntercept(specs[name], "kernels."+name); key != "" && !free[name] {
			at := where[name]
			if at == "" {
				at = s.keyPlace("kernels." + name)
			}
			p.Notes = append(p.Notes, fmt.Sprintf("%s: %s = %g s is negative: a call whose terms sum to less than %g s is charged 0 s (a mean is clamped at 0)", at, key, b, -b))
		}
	}
	if len(specs) == 0 && m != kernels.Timed && s.runsHPL() {
		// Model and real modes charge a call its model's time, and a kernel
		// without one costs nothing: HPL's Time would be its messages alone.
		p.Notes = append(p.Notes, "kernels: no kernel models (kernels.models or [kernels.dgemm], ...): "+
			"every BLAS call of HPL costs 0 s, so its Time is communication alone (emu calibrate and emu fit write a models file)")
	}
	if _, err := kernels.LookupBackend(k.Backend); err != nil {
		// kernels' own message says which build tag a known backend needs.
		return s.errorAt("kernels.backend", strings.TrimPrefix(err.Error(), "kernels: "))
	}
	clock := kernels.WallClock
	if k.Clock != "" {
		if clock, err = kernels.ParseClock(k.Clock); err != nil {
			return s.errorAt("kernels.clock", fmt.Sprintf("unknown clock %q (wall or cpu)", k.Clock))
		}
	}
	p.Kernels = kernels.Config{Mode: m, SpeedRatio: ratio, Models: set, Noise: k.Noise, Backend: k.Backend, Clock: clock,
		ChargeEmpty: k.ChargeEmpty, Where: where}
	return s.variability(p)
}

// kernelSpec is kernel name's model: the models file's (file, when inFile),
// the scenario's inline table over it, then the --set's over that, each key
// by key (models.Spec.Override: a part of another form replaces the file's
// part whole). The embedded default's own tables are placeholders that give
// way to a models file: `emu run --set kernels.models=fitted.toml` charges
// the fitted dgemm, not the SMPI study's. keys lists the keys the layers set,
// none when the model is the file's alone.
func (s *Scenario) kernelSpec(name string, file models.Spec, inFile bool, pl *platform.Platform) (models.Spec, []string, error) {
	k := s.Kernels
	type layer struct {
		over  models.Spec    // the table decoded
		table map[string]any // the table as read: its keys are the ones it sets
	}
	var layers []layer
	if table := k.tables[name]; table != nil && !(inFile && s.embedded) { // the default's: a placeholder
		layers = append(layers, layer{k.Specs[name], table})
	}
	if table := k.sets[name]; table != nil {
		over, err := decodeSpec(name, table) // each --set was decoded alone already
		if err != nil {
			return models.Spec{}, nil, err
		}
		layers = append(layers, layer{over, table})
	}
	hosts := map[string]models.Spec{} // the hosts the scenario names, for their names alone
	for _, l := range layers {
		h, _ := l.table["host"].(map[string]any)
		for host := range h {
			hosts[host] = models.Spec{}
		}
	}
	if err := checkModelNames(name, models.Spec{Host: hosts}, pl); err != nil {
		key, msg := splitKeyMessage(err.Error())
		return models.Spec{}, nil, s.errorAt(key, msg)
	}
	spec := models.Spec{}
	if inFile {
		spec = file
	}
	var keys []string
	for _, l := range layers {
		var err error
		if spec, err = spec.Override(l.over, l.table); err != nil {
			key, msg := splitKeyMessage(err.Error())
			return models.Spec{}, nil, s.errorAt("kernels."+name+"."+key, msg)
		}
		keys = append(keys, leafKeys(l.table, "")...)
	}
	for _, host := range sortedKeys(hosts) {
		if err := shadowedHost(name, host, spec, pl); err != nil {
			key, msg := splitKeyMessage(err.Error())
			return models.Spec{}, nil, s.errorAt(key, msg)
		}
	}
	// A platform-wide key that no call reads: every host has its own model,
	// which comes first, as for a host whose CPUs all have theirs.
	var wide []string
	for _, l := range layers {
		for _, key := range leafKeys(l.table, "") {
			if !strings.HasPrefix(key, "host.") {
				wide = append(wide, key)
			}
		}
	}
	if own, every := everyHostHasOwn(spec, pl); every && len(wide) > 0 {
		sort.Strings(wide)
		return models.Spec{}, nil, s.errorAt("kernels."+name+"."+wide[0], fmt.Sprintf(
			"no call would use it: every host of the platform has its own %s model (its CPUs' or its own), which comes before the platform-wide one; set a host's, e.g. kernels.%s.host.%q",
			name, name, own))
	}
	sort.Strings(keys)
	return spec, slices.Compact(keys), nil
}

// everyHostHasOwn reports whether every host of the platform has a model of
// its own in spec, its host's or each of its CPUs', so that no call takes
// the platform-wide model (models.Set.ForCPU); own is the first such key, for
// the error to show.
func everyHostHasOwn(spec models.Spec, pl *platform.Platform) (own string, every bool) {
	if len(spec.Host) == 0 || pl.Hosts < 1 {
		return "", false
	}
	for h := range pl.Hosts {
		name := pl.HostName(h)
		key := name
		if _, ok := spec.Host[name]; !ok {
			if pl.SocketsPerHost < 1 {
				return "", false
			}
			for c := range pl.SocketsPerHost {
				if _, ok := spec.Host[models.CPUKey(name, c)]; !ok {
					return "", false
				}
			}
			key = models.CPUKey(name, 0)
		}
		if own == "" {
			own = key
		}
	}
	return own, true
}

// shadowedHost refuses the scenario's table of a host (not of one CPU) when
// every CPU of the host has a model of its own, which comes first
// (models.Set.ForCPU): no call would use it, and a tweak of Dahu's per-CPU
// models written as kernels.dgemm.host.dahu-5.intercept would change nothing.
func shadowedHost(name, host string, spec models.Spec, pl *platform.Platform) error {
	if _, cpu, _ := models.SplitCPUKey(host); cpu >= 0 || pl.SocketsPerHost < 1 {
		return nil
	}
	cpus := make([]string, pl.SocketsPerHost)
	for c := range cpus {
		cpus[c] = models.CPUKey(host, c)
		if _, ok := spec.Host[cpus[c]]; !ok {
			return nil
		}
	}
	return fmt.Errorf("kernels.%s.host.%s: no call would use it: its CPUs' own models (%s) come before a host's; set theirs, e.g. kernels.%s.host.%q",
		name, host, strings.Join(cpus, ", "), name, cpus[0])
}

// leafKeys are the dotted keys of table's values that are not tables,
// below prefix.
func leafKeys(table map[string]any, prefix string) []string {
	var keys []string
	for key, v := range table {
		if sub, ok := v.(map[string]any); ok {
			keys = append(keys, leafKeys(sub, prefix+tomlKey(key)+".")...)
			continue
		}
		keys = append(keys, prefix+tomlKey(key))
	}
	return keys
}

// freeModels is the set of kernels whose platform-wide model is a plain
// polynomial (no pieces, no noise) with no positive coefficient and some
// negative one: its terms being products of dimensions, every call costs ≤ 0,
// which the kernels charge as 0 s.
func freeModels(specs map[string]models.Spec) map[string]bool {
	free := map[string]bool{}
	for name, sp := range specs {
		if len(sp.Pieces) > 0 || (sp.Noise != "" && sp.Noise != "none") {
			continue
		}
		neg, pos := sp.Intercept < 0, sp.Intercept > 0
		for _, c := range sp.Coef {
			neg, pos = neg || c < 0, pos || c > 0
		}
		if neg && !pos {
			free[name] = true
		}
	}
	return free
}

// negativeIntercept finds, in a kernel's model (key is its table,
// "kernels.dgemm"), an intercept below 0 beside a positive coefficient:
// the model's small calls cost ≤ 0, which the kernels charge as 0 s
// silently (a dgemm with intercept = -1 s ran every HPL call free). It
// returns the intercept's key and value, or "" when there is none; a
// model whose every coefficient is ≤ 0 is freeModels'.
func negativeIntercept(sp models.Spec, key string) (string, float64) {
	pos := func(c []float64) bool { return slices.ContainsFunc(c, func(v float64) bool { return v > 0 }) }
	if len(sp.Pieces) == 0 && sp.Intercept < 0 && pos(sp.Coef) {
		return key + ".intercept", sp.Intercept
	}
	for i, pc := range sp.Pieces {
		if pc.Intercept < 0 && pos(pc.Coef) {
			return fmt.Sprintf("%s.piece[%d].intercept", key, i), pc.Intercept
		}
	}
	for _, host := range sortedKeys(sp.Host) {
		if k, b := negativeIntercept(sp.Host[host], key+".host."+tomlKey(host)); k != "" {
			return k, b
		}
	}
	return "", 0
}

// runsHPL reports whether the scenario runs HPL: as its app, or as a job.
func (s *Scenario) runsHPL() bool {
	if len(s.Jobs) == 0 {
		return s.App == "" || s.App == AppHPL
	}
	for _, j := range s.Jobs {
		if j.App == AppHPL {
			return true
		}
	}
	return false
}

// checkModelNames refuses a model that nothing would use: one for a kernel emu
// does not call (a typo leaves the real kernel without a model, so free), or, when
// pl is not nil, a per-host model for a host the platform does not have. The error
// starts with the key ("kernels.NAME: ...").
func checkModelNames(name string, spec models.Spec, pl *platform.Platform) error {
	if !kernels.Known(name) {
		hint := ""
		best, bestD := "", 3
		for _, k := range kernels.Names() {
			if d := editDistance(name, k); d < bestD {
				best, bestD = k, d
			}
		}
		if best != "" {
			hint = " (did you mean " + best + "?)"
		}
		return fmt.Errorf("kernels.%s: no kernel of that name%s; emu's kernels: %s", name, hint, strings.Join(kernels.Names(), ", "))
	}
	if len(spec.Host) == 0 || pl == nil {
		return nil
	}
	if bad := unusedHosts(spec, pl); len(bad) > 0 {
		key := bad[0]
		host, cpu, _ := models.SplitCPUKey(key)
		if cpu >= 0 && hostNames(pl)[host] {
			return fmt.Errorf("kernels.%s.host.%s: CPU %d of a host with platform.sockets_per_host = %d (CPUs 0 … %d)", name, key, cpu, pl.SocketsPerHost, pl.SocketsPerHost-1)
		}
		hint := ""
		if strings.Contains(host, "..") || strings.ContainsAny(host, "*?[") {
			// kernels.host_speed takes ranges and globs; a model is one host's.
			hint = "; a per-host model names one host (ranges and globs are kernels.host_speed's)"
		}
		return fmt.Errorf("kernels.%s.host.%s: the platform has no host of that name (%s … %s)%s", name, key, pl.HostName(0), pl.HostName(pl.Hosts-1), hint)
	}
	return nil
}

// hostNames is the set of the platform's host names.
func hostNames(pl *platform.Platform) map[string]bool {
	hosts := make(map[string]bool, pl.Hosts)
	for h := range pl.Hosts {
		hosts[pl.HostName(h)] = true
	}
	return hosts
}

// unusedHosts lists, sorted, the override keys of spec that no rank of the
// platform would use: a host it does not have, or a "HOST/cpuS" with S beyond
// its sockets_per_host.
func unusedHosts(spec models.Spec, pl *platform.Platform) []string {
	if len(spec.Host) == 0 {
		return nil
	}
	hosts := hostNames(pl)
	var out []string
	for _, key := range sortedHosts(spec.Host) {
		host, cpu, _ := models.SplitCPUKey(key)
		if !hosts[host] || cpu >= pl.SocketsPerHost {
			out = append(out, key)
		}
	}
	return out
}

// modelLessCPUs lists the platform's CPUs ("HOST/cpuS") that a models file
// of per-CPU models leaves to the platform-wide model: neither their own
// override nor their host's. Nil when spec has no per-CPU override (a
// file of per-host models, or of one model).
func modelLessCPUs(spec models.Spec, pl *platform.Platform) []string {
	perCPU := false
	for key := range spec.Host {
		if _, cpu, ok := models.SplitCPUKey(key); ok && cpu >= 0 {
			perCPU = true
			break
		}
	}
	if !perCPU {
		return nil
	}
	var out []string
	for h := range pl.Hosts {
		name := pl.HostName(h)
		if _, ok := spec.Host[name]; ok {
			continue
		}
		for cpu := range max(pl.SocketsPerHost, 1) {
			if _, ok := spec.Host[models.CPUKey(name, cpu)]; !ok {
				out = append(out, models.CPUKey(name, cpu))
			}
		}
	}
	return out
}

// abbreviate joins up to n names, then says how many more there are.
func abbreviate(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

func sortedHosts(m map[string]models.Spec) []string {
	out := make([]string, 0, len(m))
	for h := range m {
		out = append(out, h)
	}
	sort.Strings(out)
	return out
}

// splitKeyMessage splits "kernels.dgemm.coef: 3 coefficients for 1 term" at the
// first ": ".
func splitKeyMessage(s string) (string, string) {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == ':' && s[i+1] == ' ' {
			return s[:i], s[i+2:]
		}
	}
	return "kernels", s
}

// maxSpeedRatio bounds kernels.speed_ratio as units bounds a time: a second
// of wall time measured in timed mode is charged at most 1e9 s, the clock's
// bound, past which HPL's polling ranks (each probe one step dearer) poll
// for ever.
const maxSpeedRatio = 1e9
