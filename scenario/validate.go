package scenario

import (
	"errors"
	"fmt"
	"io/fs"
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

	HPL        []hpl.Params // the tests, in HPL's order
	HPLDat     *hpl.Dat     // the parameters as HPL echoes them (from HPL.dat or [hpl])
	HPLDatFile string       // the HPL.dat they came from (--hpl-dat), "" for [hpl]
	// PlatformFile is the SimGrid platform XML the machine came from
	// (--platform or platform.file), "" for a [platform] table alone: run
	// errors about the machine (a route it lacks) name it.
	PlatformFile  string
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
	// Unread are warnings, one line each, naming the scenario file's
	// application tables that this run does not read ([hpl] in a ping-pong
	// file, [jobs.ring] in a job whose app is hpl), with the file and the
	// table's line; none for an app a sweep gives the scenario (SweptApps)
	// nor for the embedded default. A --set of such a table is an error.
	Unread []UnreadTable

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
	// A --set of [replay]'s keys under another app is refused; the file's own
	// [replay] table is one of Unread's, as another app's table is.
	if (s.Replay.Semantics != "" && s.isSet("replay.semantics") || s.Replay.Gap.Set && s.isSet("replay.gap")) && p.App != AppReplay {
		key := "replay.semantics"
		if s.Replay.Semantics == "" || !s.isSet(key) {
			key = "replay.gap"
		}
		return nil, s.errorAt(key, fmt.Sprintf("says how a trace replays, but the scenario's app is %s (set app = \"replay\")", p.App))
	}
	if s.Replay.File != "" && s.isSet("replay.file") && p.App != AppReplay {
		return nil, s.errorAt("replay.file", fmt.Sprintf("a trace is given, but the scenario's app is %s (set app = \"replay\")", p.App))
	}
	if s.hplDat != nil && p.App != AppHPL {
		return nil, fmt.Errorf("%s: HPL.dat given, but the scenario's app is %s", s.hplDat.file, p.App)
	}
	if err := s.checkSetsRead(p.App); err != nil {
		return nil, err
	}
	if s.job == nil {
		p.Unread = s.unreadTables(p.App)
	}
	var err error
	p.PlatformFile = s.platformFile()
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

// UnreadTable is one of Plan.Unread: a table of the scenario file that the
// run does not read, where it is and why.
type UnreadTable struct {
	Where string // FILE:LINE (FILE where the line is not known)
	Table string // as written: "[hpl]", "jobs[1]: [jobs.ring]"
	Why   string // "the scenario's app is pingpong (--set app=hpl runs it)"
}

// String is the warning's line: "FILE:LINE: [hpl] is not read: WHY".
func (u UnreadTable) String() string { return u.Where + ": " + u.Table + " is not read: " + u.Why }

// isSet reports whether a --set (or a flag standing for one) gave key, a
// key of the scenario's own tables (of the job's, for a [[jobs]] entry).
func (s *Scenario) isSet(key string) bool {
	if s.job != nil {
		key = fmt.Sprintf("jobs.%d.%s", s.job.index, key)
	}
	_, ok := s.setKeys[key]
	return ok
}

// appTablesIn are the application tables a decoded document holds at its top
// level, and in each entry of its [[jobs]], in appTables' names' order.
func appTablesIn(doc map[string]any) (top []string, jobs [][]string) {
	in := func(m map[string]any) []string {
		var out []string
		for _, name := range sortedKeys(appTables) {
			if _, ok := m[name].(map[string]any); ok {
				out = append(out, name)
			}
		}
		return out
	}
	top = in(doc)
	var entries []map[string]any
	switch l := doc["jobs"].(type) {
	case []map[string]any:
		entries = l
	case []any:
		for _, e := range l {
			m, _ := e.(map[string]any)
			entries = append(entries, m)
		}
	}
	for _, e := range entries {
		jobs = append(jobs, in(e))
	}
	return top, jobs
}

// unreadTables are Plan.Unread: the file's application tables that app (the
// scenario's, "jobs" for [[jobs]]) and each job's app do not read, but those
// of an app a sweep gives.
func (s *Scenario) unreadTables(app string) []UnreadTable {
	if s.embedded || s.file == "" {
		return nil
	}
	at := func(line int) string {
		if line > 0 {
			return fmt.Sprintf("%s:%d", s.file, line)
		}
		return s.file
	}
	var out []UnreadTable
	swept := s.sweptApps["app"]
	for _, table := range s.fileTables {
		owner := appTables[table]
		if owner == app || slices.Contains(swept, owner) {
			continue
		}
		why := fmt.Sprintf("the scenario's app is %s (--set app=%s runs it)", app, owner)
		switch {
		case app == AppJobs:
			why = fmt.Sprintf("the scenario runs [[jobs]], which read their own tables ([jobs.%s])", table)
		case len(swept) > 0:
			why = fmt.Sprintf("no app of the sweep (%s) reads it", strings.Join(swept, ", "))
		}
		out = append(out, UnreadTable{at(keyLine(s.data, table)), "[" + table + "]", why})
	}
	if app != AppJobs {
		return out
	}
	for i, tables := range s.jobFileTables {
		if i >= len(s.Jobs) || !knownApp(s.Jobs[i].App) {
			continue
		}
		jobApp := s.Jobs[i].App
		for _, table := range tables {
			owner := appTables[table]
			swept := s.sweptApps[fmt.Sprintf("jobs.%d.app", i)]
			if owner == jobApp || slices.Contains(swept, owner) {
				continue
			}
			why := fmt.Sprintf("the job's app is %s (--set jobs.%d.app=%s runs it)", jobApp, i, owner)
			if len(swept) > 0 {
				why = fmt.Sprintf("no app of the sweep of jobs.%d.app (%s) reads it", i, strings.Join(swept, ", "))
			}
			out = append(out, UnreadTable{at(jobKeyLine(s.data, i, table)), fmt.Sprintf("jobs[%d]: [jobs.%s]", i, table), why})
		}
	}
	return out
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
// read, and why (err's cause: "no such file or directory", a device that
// never ends); when p is relative and names a file of the working folder
// instead, it says how to give that one (a --set path is the scenario's too).
func (s *Scenario) cannotRead(p, path string, err error) string {
	msg := "cannot read " + path
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg += ": " + pe.Err.Error()
	}
	if path != p && !filepath.IsAbs(p) {
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			msg += fmt.Sprintf(" (paths are relative to the scenario's folder; for ./%s give $PWD/%s)", p, p)
		}
	}
	return msg
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
			return s.errorAt(ranksKey(&p.Platform, "platform.cores_per_host"), fmt.Sprintf("a ring over %d ranks: more than %d", p.Ranks, platform.MaxRanks))
		}
		if p.Ranks < 2 {
			return s.errorAt(ranksKey(&p.Platform, "platform.hosts"), fmt.Sprintf("a ring needs at least 2 ranks, the platform starts %d (%s)", p.Ranks, p.Platform.Capacity()))
		}
	}
	return s.messageValues(p, t, table)
}

// ranksKey names the key that sets how many ranks a platform starts, for an
// app that runs on all of them (ring, congestor): np when given, else the
// hostfile's lines, else the platform's size (key: its hosts or cores; a fat
// tree's, torus's or dragonfly's shape).
func ranksKey(pl *platform.Platform, key string) string {
	switch {
	case pl.NP > 0:
		return "platform.np"
	case len(pl.Hostfile) > 0:
		return "platform.hostfile"
	}
	if k, ok := shapeKeys[pl.Topology]; ok && key == "platform.hosts" {
		return k
	}
	return key
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
