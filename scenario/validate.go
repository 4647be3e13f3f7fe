package scenario

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/apps/pingpong"
	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/kernels"
	"github.com/emu-hpc/emu/loggops"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/ranks"
	"github.com/emu-hpc/emu/traceformat"
)

// Plan is a validated scenario in the core's units: everything a run needs.
type Plan struct {
	App      string // AppHPL, AppPingpong, AppRing or AppReplay
	Seed     uint64
	Ranks    int // ranks of the run (the largest HPL grid, 2 for pingpong, ...)
	Platform platform.Platform
	Network  ranks.Config
	Kernels  kernels.Config // Mode, SpeedRatio, Models, Noise; Host and Seed are set per rank
	Pivot    string         // HPL's pivot rule in model mode: splitmix | diagonal | random | replay
	Replay   *hpl.Pivots    // the rows the replay rule reads

	HPL           []hpl.Params      // the tests, in HPL's order
	HPLDat        *hpl.Dat          // the parameters as HPL echoes them (from HPL.dat or [hpl])
	HPLDatFile    string            // the HPL.dat they came from (--hpl-dat), "" for [hpl]
	MaxIterations int               // emulate only K panels, sampled across the run (0 = all)
	Roll          hpl.RollModel     // how long broadcasts' rolls are emulated (hpl.roll)
	PivotExchange hpl.PivotExchange // how the pivot search's exchanges are emulated (hpl.pivot_exchange)
	CopyL         bool              // HPL built without MPI datatypes copies L2 at each broadcast (hpl.copy_l)

	Sizes      []int // pingpong / ring message sizes, bytes
	Iterations int   // pingpong / ring repetitions per size
	Window     int   // pingpong bandwidth window (0 = osu_bw's 64)

	Trace *traceformat.Trace // app replay: the loaded trace (its ranks are the run's)
	// Semantics is how the trace runs (replay.semantics); under
	// SemanticsLogGOPS, LogGOPS holds the parameters read from the scenario
	// (scenario/loggops.go) and no World is built.
	Semantics replay.Semantics
	LogGOPS   loggops.Params

	Congestor pingpong.CongestorConfig // app congestor

	Jobs []*Job // AppJobs: the [[jobs]], each with its own Plan

	// Notes are remarks on the scenario that are not errors (per-host models
	// of a models file for hosts the platform lacks), for the user to read.
	Notes []string

	// Inputs are the files the plan was read from (ReadFiles), for a command
	// to refuse an output that would overwrite one of them.
	Inputs []string
}

// Applications emu runs.
const (
	AppHPL       = "hpl"
	AppPingpong  = "pingpong"
	AppRing      = "ring"
	AppReplay    = "replay"
	AppCongestor = "congestor"
	// AppJobs is a Plan's App when the scenario has [[jobs]].
	AppJobs = "jobs"
)

// Validate checks the whole scenario in one place and resolves it into a Plan.
// Errors name the file and line (or the --set argument) and the key.
func (s *Scenario) Validate() (*Plan, error) {
	p := &Plan{App: s.App, Seed: uint64(s.Seed), Inputs: s.ReadFiles()}
	switch p.App {
	case "":
		p.App = AppHPL
		if len(s.Jobs) > 0 {
			p.App = AppJobs
		}
	case AppHPL, AppPingpong, AppRing, AppReplay, AppCongestor:
		if len(s.Jobs) > 0 {
			return nil, s.errorAt("app", "the scenario has [[jobs]]: give each job its app, not the scenario")
		}
	default:
		return nil, s.errorAt("app", fmt.Sprintf("unknown application %q (hpl, pingpong, ring, replay or congestor)", s.App))
	}
	if (s.Replay.Semantics != "" || s.Replay.Gap.Set) && p.App != AppReplay {
		key := "replay.semantics"
		if s.Replay.Semantics == "" {
			key = "replay.gap"
		}
		return nil, s.errorAt(key, fmt.Sprintf("says how a trace replays, but the scenario's app is %s (set app = \"replay\")", p.App))
	}
	if s.Replay.File != "" && p.App != AppReplay {
		return nil, s.errorAt("replay.file", fmt.Sprintf("a trace is given, but the scenario's app is %s (set app = \"replay\")", p.App))
	}
	if s.hplDat != nil && p.App != AppHPL {
		return nil, fmt.Errorf("%s: HPL.dat given, but the scenario's app is %s", s.hplDat.file, p.App)
	}
	if err := s.checkSetsRead(p.App); err != nil {
		return nil, err
	}
	var err error
	if p.Platform, err = s.platform(); err != nil {
		return nil, err
	}
	if r := p.Platform.Radical; s.Platform.Radical != "" && len(r) > p.Platform.Hosts {
		// More names than hosts may be meant (part of a machine emulated),
		// but a name that picks no host should not go unsaid.
		var unused []string
		for _, n := range r[p.Platform.Hosts:] {
			unused = append(unused, fmt.Sprintf("%s%d%s", p.Platform.Prefix, n, p.Platform.Suffix))
		}
		p.Notes = append(p.Notes, fmt.Sprintf("platform.radical: %q names %d hosts, the platform has %d: %s unused",
			s.Platform.Radical, len(r), p.Platform.Hosts, abbreviate(unused, 4)))
	}
	if err := s.applyPlatformConfig(p); err != nil {
		return nil, err
	}
	if f := s.Platform.Hostfile; f != "" {
		path := s.path(f)
		data, err := readInput(path)
		if err != nil {
			return nil, s.errorAt("platform.hostfile", err.Error())
		}
		if p.Platform.Hostfile, err = platform.ParseHostfile(data, path, &p.Platform); err != nil {
			return nil, err
		}
	}
	if s.Platform.NP != nil {
		n := *s.Platform.NP
		if n < 1 || n > platform.MaxRanks {
			return nil, s.errorAt("platform.np", fmt.Sprintf("%d: want 1 to %d ranks", n, platform.MaxRanks))
		}
		p.Platform.NP = n
	}
	switch s.Platform.Placement {
	case "", "block":
	case "random":
		p.Platform.RandomPlacement, p.Platform.PlacementSeed = true, p.Seed
	default:
		return nil, s.errorAt("platform.placement", fmt.Sprintf("unknown placement %q (block or random)", s.Platform.Placement))
	}
	if p.Network, err = s.network(); err != nil {
		return nil, err
	}
	p.Network.HostSpeed = p.Platform.Speed // SMPI's flops round trip, under wake_order "simgrid"
	if err = s.kernels(p); err != nil {
		return nil, err
	}
	if err := s.checkUnusedTables(p); err != nil {
		return nil, err
	}
	switch p.App {
	case AppJobs:
		return p, s.jobs(p)
	case AppHPL:
		if err = s.hplValues(p); err == nil {
			err = s.hplFits(p)
		}
		if err == nil {
			err = s.checkReplay(p)
		}
	case AppReplay:
		if err = s.replayTrace(p); err == nil && s.job == nil && p.Platform.NP > p.Ranks {
			// A replay starts each of the trace's ranks once: np beyond them
			// would be ranks without actions, silently not run.
			err = s.errorAt("platform.np", fmt.Sprintf("%d ranks, the trace has %d: a replay starts each of the trace's ranks once (np = %d, or leave np out)",
				p.Platform.NP, p.Ranks, p.Ranks))
		}
	case AppCongestor:
		err = s.congestor(p)
	default:
		err = s.messages(p)
	}
	if err != nil {
		return nil, err
	}
	if avail := p.Platform.Ranks(); p.Ranks > avail {
		if s.job != nil { // the job's size is at fault, not the platform's
			return nil, s.errorAt("ranks", fmt.Sprintf("%d: the platform (%s) holds %d ranks", p.Ranks, p.Platform.Capacity(), avail))
		}
		if p.Platform.NP > 0 {
			return nil, s.errorAt("platform.np", fmt.Sprintf("%d ranks, the run needs %d", avail, p.Ranks))
		}
		key := "platform.hosts" // a fat tree's, torus's or dragonfly's shape is its size
		if k, ok := shapeKeys[p.Platform.Topology]; ok {
			key = k
		}
		return nil, s.errorAt(key, fmt.Sprintf("%s hold %d ranks, the run needs %d",
			p.Platform.Capacity(), avail, p.Ranks))
	}
	if p.App == AppReplay {
		if err := s.replaySemantics(p); err != nil {
			return nil, err
		}
	}
	if err := s.checkDelayClass(p); err != nil {
		return nil, err
	}
	if err := noteUnrouted(p); err != nil {
		return nil, err
	}
	return p, nil
}

// checkDelayClass refuses a network.message_delay_class that no link of the
// platform has: the delay would silently apply to no message.
func (s *Scenario) checkDelayClass(p *Plan) error {
	class := p.Network.DelayClass
	if class == "" {
		return nil
	}
	topo, err := p.Platform.Build()
	if err != nil {
		return err
	}
	var have []string
	for _, l := range topo.Links() {
		if l.Class == class {
			return nil
		}
		if l.Class != "" && !slices.Contains(have, l.Class) {
			have = append(have, l.Class)
		}
	}
	sort.Strings(have)
	return s.errorAt("network.message_delay_class", fmt.Sprintf("no link of the platform has class %q (it has %s)", class, strings.Join(have, ", ")))
}

// checkReplay refuses a pivot file recorded for another order than a test's N:
// replaying it would fall back to the diagonal where its rows do not fit and
// time other messages than the recorded run's.
func (s *Scenario) checkReplay(p *Plan) error {
	if p.Pivot != "replay" || p.Replay == nil {
		return nil
	}
	n := len(p.Replay.Rows())
	for _, test := range p.HPL {
		if test.N == n {
			continue
		}
		msg := fmt.Sprintf("%s holds the pivots of an order-%d system, the test has N = %d", s.path(s.Kernels.Pivots), n, test.N)
		if _, set := s.setKeys["hpl.n"]; s.hplDat != nil && !set {
			return fmt.Errorf("%s:6: N: %s", s.hplDat.file, msg)
		}
		return s.errorAt("hpl.n", msg)
	}
	return nil
}

// InputFiles are the files the scenario names by key, each resolved as the
// run reads it: platform.file, the hostfile, the replayed traces (its own,
// then each of [[jobs]]'), the models file and the pivots file, in that
// order; none when it names none. (Not --platform's XML, which replaces
// platform.file; a TI trace's index is named, not the per-rank files it
// lists: traceformat.IndexedFiles reads those.)
func (s *Scenario) InputFiles() []string {
	var out []string
	add := func(files ...string) {
		for _, f := range files {
			if f != "" {
				out = append(out, s.path(f))
			}
		}
	}
	add(s.Platform.File, s.Platform.Hostfile)
	out = append(out, s.TraceFiles()...)
	add(s.Kernels.Models, s.Kernels.Pivots)
	return out
}

// appTables are the tables that only one application reads.
var appTables = map[string]string{"hpl": AppHPL, "pingpong": AppPingpong, "ring": AppRing, "replay": AppReplay, "congestor": AppCongestor}

// checkSetsRead refuses a --set (or a flag standing for one, --max-iterations)
// of a table the scenario's app does not read: --set hpl.nb=3 on a ping-pong
// changed nothing and the run printed the same figures, a what-if that
// silently was not one. Under [[jobs]] each job reads its own tables.
func (s *Scenario) checkSetsRead(app string) error {
	for _, key := range sortedKeys(s.setKeys) {
		table, _, _ := strings.Cut(key, ".")
		if part := strings.SplitN(key, ".", 4); table == "jobs" && len(part) == 4 {
			// jobs.N.TABLE.KEY: the N-th job's own table (Set checked N).
			i, err := strconv.Atoi(part[1])
			swept := s.sweptApps["jobs."+part[1]+".app"]
			if owner, ok := appTables[part[2]]; ok && err == nil && i < len(s.Jobs) && owner != s.Jobs[i].App && knownApp(s.Jobs[i].App) && !slices.Contains(swept, owner) {
				return fmt.Errorf("%s: job %d's app is %s, which reads no [jobs.%s] table (app = %q runs it)", s.setKeys[key], i, s.Jobs[i].App, part[2], owner)
			}
			continue
		}
		owner, ok := appTables[table]
		if !ok || owner == app || slices.Contains(s.sweptApps["app"], owner) {
			continue
		}
		if app == AppJobs {
			return fmt.Errorf("%s: the scenario runs [[jobs]], which read their own tables: set jobs.N.%s", s.setKeys[key], key)
		}
		return fmt.Errorf("%s: the scenario's app is %s, which reads no [%s] table (app = %q runs it)", s.setKeys[key], app, table, owner)
	}
	return nil
}

// SweptApps tells the scenario that a sweep gives each of apps to its app
// key, "app" or "jobs.N.app" (emu tune --sweep app=pingpong,ring): a --set of
// a table one of them reads, such as ring.iterations, is for the points of
// that app and not refused at the others', which do not read it.
func (s *Scenario) SweptApps(key string, apps ...string) {
	if s.sweptApps == nil {
		s.sweptApps = map[string][]string{}
	}
	s.sweptApps[key] = apps
}

// knownApp reports whether app names an application (a job's app is checked
// with the job, after the --sets).
func knownApp(app string) bool {
	for _, a := range appTables {
		if a == app {
			return true
		}
	}
	return false
}

// ReadFiles are every file the scenario is read from: its own file, the
// HPL.dat and the platform XML that replace its tables (--hpl-dat,
// --platform), then InputFiles; the embedded default has no file of its own.
func (s *Scenario) ReadFiles() []string {
	var out []string
	if s.file != "" && !s.embedded {
		out = append(out, s.file)
	}
	if s.hplDat != nil {
		out = append(out, s.hplDat.file)
	}
	if s.xml != nil {
		out = append(out, s.xml.file)
	}
	return append(out, s.InputFiles()...)
}

// TraceFiles are the replayed traces the scenario names: replay.file, then
// each [[jobs]]' replay.file, resolved as the run reads them.
func (s *Scenario) TraceFiles() []string {
	var out []string
	if s.Replay.File != "" {
		out = append(out, s.path(s.Replay.File))
	}
	for _, j := range s.Jobs {
		if j.Replay.File != "" {
			out = append(out, s.path(j.Replay.File))
		}
	}
	return out
}

// path resolves a path written in the scenario against the scenario's folder.
func (s *Scenario) path(p string) string {
	if filepath.IsAbs(p) || s.dir == "" {
		return p
	}
	return filepath.Join(s.dir, p)
}

// cannotRead says that path, the scenario's p resolved by path, cannot be
// read; when p is relative and names a file of the working folder instead,
// it says how to give that one (a --set path is the scenario's too).
func (s *Scenario) cannotRead(p, path string) string {
	msg := "cannot read " + path
	if path != p && !filepath.IsAbs(p) {
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			msg += fmt.Sprintf(" (paths are relative to the scenario's folder; for ./%s give $PWD/%s)", p, p)
		}
	}
	return msg
}

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
	}
	specs := map[string]models.Spec{}
	where := map[string]string{} // each model's place, for kernels.CallTooLongError
	if k.Models != "" {
		path := s.path(k.Models)
		data, err := os.ReadFile(path)
		if err != nil {
			return s.errorAt("kernels.models", s.cannotRead(k.Models, path))
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
		where[name] = s.keyPlace("kernels." + name)
	}
	set, err := models.NewSet(specs)
	if err != nil {
		// models' errors start with the key ("kernels.dgemm.coef: ..."): find its line.
		key, msg := splitKeyMessage(err.Error())
		return s.errorAt(key, msg)
	}
	for _, name := range sortedKeys(freeModels(specs)) {
		p.Notes = append(p.Notes, fmt.Sprintf("kernels.%s: its coefficients and intercept are all ≤ 0, not all 0: every call costs 0 s (a sign lost?)", name))
	}
	if len(specs) == 0 && m != kernels.Timed && s.runsHPL() {
		// Model and real modes charge a call its model's time, and a kernel
		// without one costs nothing: HPL's Time would be its messages alone.
		p.Notes = append(p.Notes, "kernels: no kernel models (kernels.models or [kernels.dgemm], ...): "+
			"every BLAS call of HPL costs 0 s, so its Time is communication alone (emu calibrate and emu fit write a models file)")
	}
	if _, err := kernels.LookupBackend(k.Backend); err != nil {
		return s.errorAt("kernels.backend", fmt.Sprintf("unknown BLAS backend %q (this build has: %s)", k.Backend, strings.Join(kernels.Backends(), ", ")))
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

// messages resolves [pingpong] or [ring].
func (s *Scenario) messages(p *Plan) error {
	t, table := s.Pingpong, "pingpong"
	if p.App == AppRing {
		t, table = s.Ring, "ring"
	}
	p.Ranks = 2
	if p.App == AppRing {
		p.Ranks = p.Platform.Ranks()
		if s.job != nil {
			p.Ranks = s.job.Ranks
		}
		if p.Ranks > platform.MaxRanks {
			return s.errorAt("platform.cores_per_host", fmt.Sprintf("a ring over %d ranks: more than %d", p.Ranks, platform.MaxRanks))
		}
		if p.Ranks < 2 {
			return s.errorAt("platform.hosts", "a ring needs at least 2 ranks")
		}
	}
	return s.messageValues(p, t, table)
}

// messageValues resolves a [pingpong] or [ring] table's values into p.
func (s *Scenario) messageValues(p *Plan, t PingpongTable, table string) error {
	p.Iterations, p.Window = 10, 0 // 0: osu_bw's window (pingpong.DefaultWindow)
	if t.Iterations != nil {
		p.Iterations = *t.Iterations
	}
	if t.Window != nil {
		if table == "ring" {
			return s.errorAt(table+".window", "a ring has no window (pingpong's bandwidth test has one)")
		}
		if p.Window = *t.Window; p.Window < 1 {
			return s.errorAt(table+".window", fmt.Sprintf("%d must be ≥ 1", p.Window))
		}
	}
	if p.Iterations < 1 {
		return s.errorAt(table+".iterations", fmt.Sprintf("%d must be ≥ 1", p.Iterations))
	}
	if t.Sizes != nil && len(t.Sizes) == 0 { // sizes = [] given, not left out
		return s.errorAt(table+".sizes", "empty list")
	}
	if len(t.Sizes) == 0 {
		p.Sizes = []int{8, 1024, 65536, 1 << 20}
	}
	for _, sz := range t.Sizes {
		if msg := bytesError(sz.Bytes, 1<<40, "1TiB"); msg != "" {
			return s.errorAt(table+".sizes", msg)
		}
		p.Sizes = append(p.Sizes, int(sz.Bytes))
	}
	return nil
}

// checkUnusedTables checks the values of the app tables the run does not use
// ([hpl] when app = "pingpong", the top-level ones beside [[jobs]]) and of
// the other topologies' shapes a platform that names its topology carries. A
// --set app=… or a tune sweep of platform.topology turns them on; a typo in
// them is reported now, where the file is being read, not then. Only values
// are checked: whether a grid fits the platform is the used app's business.
func (s *Scenario) checkUnusedTables(p *Plan) error {
	// The values go into a scratch plan: none of them needs the platform.
	if p.App != AppHPL && !reflect.DeepEqual(s.HPL, HPLTable{}) {
		if err := s.hplValues(new(Plan)); err != nil {
			return err
		}
	}
	for _, m := range []struct {
		app, table string
		t          PingpongTable
	}{{AppPingpong, "pingpong", s.Pingpong}, {AppRing, "ring", s.Ring}} {
		if p.App != m.app && !reflect.DeepEqual(m.t, PingpongTable{}) {
			if err := s.messageValues(new(Plan), m.t, m.table); err != nil {
				return err
			}
		}
	}
	if p.App != AppCongestor && s.Congestor != (CongestorTable{}) {
		if _, err := s.congestorConfig(p.Seed); err != nil {
			return err
		}
	}
	return s.checkOtherTopologies(p)
}

// checkOtherTopologies checks the shapes a [platform] table that names its
// topology gives for the other topologies (see platform: they are kept for a
// --set or a sweep of platform.topology), as that --set would.
func (s *Scenario) checkOtherTopologies(p *Plan) error {
	t := s.Platform
	if t.Topology == "" || s.job != nil {
		return nil // platform refused them already, or the scenario of the jobs checked them
	}
	for _, k := range topologyKeys(t) {
		if !k.given || k.topo == platform.TopoFlat || p.Platform.Topology == k.topo {
			continue
		}
		other := p.Platform
		other.Topology, other.Hostfile = k.topo, nil
		n, err := other.Nodes()
		if err == nil {
			other.Hosts = n
			_, err = other.Build()
		}
		if err != nil {
			return s.errorAt(k.key, fmt.Sprintf("%v (checked for platform.topology = %q)", err, k.topo))
		}
	}
	return nil
}
