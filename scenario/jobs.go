package scenario

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/BurntSushi/toml"

	"github.com/emu-hpc/emu/apps/pingpong"
)

// Job is one [[jobs]] entry, resolved: its application's Plan (Ranks, the
// app's inputs; Platform and Network are the scenario's), its name, when it
// starts and the hosts its ranks run on.
type Job struct {
	Name  string
	Seed  uint64  // its ranks' random streams: the scenario's seed XOR the job's index (job 0 has the scenario's)
	Start float64 // s
	Place []int   // rank → host
	Plan  *Plan
}

// jobRef is what a [[jobs]] entry's validation needs to know of it.
type jobRef struct {
	index int // from 0
	Ranks int
}

// jobSlotStream is the random stream of a job's random placement, beside
// the job's index and the scenario's seed.
const jobSlotStream = 0x6a6f6273 // "jobs"

// jobs resolves [[jobs]]: each entry is validated as a scenario of its own
// app on the platform (errors name jobs[i].key and its line, or the line of the entry's header), and
// takes its ranks' slots from those the earlier jobs left: in order
// (placement = "block") or at random with the seed. Jobs never share a slot.
func (s *Scenario) jobs(p *Plan) error {
	slots := p.Platform.Placement(p.Platform.Ranks()) // every slot, in order
	free := make([]bool, len(slots))
	for i := range free {
		free[i] = true
	}
	names := map[string]int{}
	for i, jt := range s.Jobs {
		ref := &jobRef{index: i, Ranks: jt.Ranks}
		sub := *s
		sub.Jobs, sub.job = nil, ref
		sub.App, sub.HPL, sub.Pingpong, sub.Ring, sub.Replay, sub.Congestor = jt.App, jt.HPL, jt.Pingpong, jt.Ring, jt.Replay, jt.Congestor
		sub.Platform.Placement = ""
		if jt.App == "" {
			return sub.errorAt("app", "missing (hpl, pingpong, ring, replay or congestor)")
		}
		if (jt.App == AppRing || jt.App == AppCongestor) && jt.Ranks < 2 {
			return sub.errorAt("ranks", fmt.Sprintf("%d: a %s job needs ranks ≥ 2", jt.Ranks, jt.App))
		}
		if jt.Ranks < 0 { // was "-3, but the job's largest HPL grid needs 4 ranks"
			return sub.errorAt("ranks", fmt.Sprintf("%d: want ≥ 1 (or leave it out: the job's %s input says how many)", jt.Ranks, jt.App))
		}
		jp, err := sub.Validate()
		if err != nil {
			return err
		}
		if jt.Ranks != 0 && jt.Ranks < jp.Ranks && jt.App == AppHPL {
			return sub.errorAt("ranks", fmt.Sprintf("%d, but the job's largest HPL grid needs %d ranks (more may be given: those past the grid sit idle, as with mpirun -np)", jt.Ranks, jp.Ranks))
		}
		if jt.Ranks != 0 && jt.Ranks != jp.Ranks {
			return sub.errorAt("ranks", fmt.Sprintf("%d, but the job's %s has %d ranks", jt.Ranks, jt.App, jp.Ranks))
		}
		name := jt.Name
		if name == "" {
			name = fmt.Sprintf("%s-%d", jt.App, i+1)
		}
		if j, dup := names[name]; dup {
			return sub.errorAt("name", fmt.Sprintf("%q is also jobs[%d]'s name", name, j))
		}
		names[name] = i
		var idx []int
		for k, f := range free {
			if f {
				idx = append(idx, k)
			}
		}
		if len(idx) < jp.Ranks {
			return sub.errorAt("ranks", fmt.Sprintf("the job needs %d ranks, the platform has %d slots left of %d", jp.Ranks, len(idx), len(slots)))
		}
		switch jt.Placement {
		case "", "block":
		case "random":
			rng := rand.New(rand.NewPCG(p.Seed^uint64(i), jobSlotStream))
			rng.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		default:
			return sub.errorAt("placement", fmt.Sprintf("unknown placement %q (block or random)", jt.Placement))
		}
		place := make([]int, jp.Ranks)
		for r := range place {
			place[r] = slots[idx[r]]
			free[idx[r]] = false
		}
		p.Jobs = append(p.Jobs, &Job{Name: name, Seed: p.Seed ^ uint64(i), Start: jt.Start.Seconds, Place: place, Plan: jp})
		p.Ranks += jp.Ranks
	}
	if len(p.Jobs) == 0 {
		return s.errorAt("jobs", "no job")
	}
	return nil
}

// jobsHeaders are the lines (from 1) of a TOML document's [[jobs]] headers,
// in order: header i opens the entry errors call jobs[i].
func jobsHeaders(data []byte) []int {
	var out []int
	for i, line := range strings.Split(string(data), "\n") {
		line, _, _ = strings.Cut(line, "#")
		line = strings.TrimSpace(line)
		inner, ok := strings.CutPrefix(line, "[[")
		if inner, ok2 := strings.CutSuffix(inner, "]]"); ok && ok2 && unquoteKey(inner) == "jobs" {
			out = append(out, i+1)
		}
	}
	return out
}

// jobKey names a key that toml.Decode reports as "jobs.key" (the array's
// entries are not numbered there) as jobs[i].key, i being the [[jobs]] entry
// the key's line belongs to (its first line in the document if line is 0).
// Other keys, and a key outside every [[jobs]] entry, are returned as they are.
func (s *Scenario) jobKey(key string, line int) string {
	rest, ok := strings.CutPrefix(key, "jobs.")
	if !ok {
		return key
	}
	if line <= 0 {
		line = keyLine(s.data, key)
	}
	headers := jobsHeaders(s.data)
	i := -1
	for _, h := range headers {
		if h <= line {
			i++
		}
	}
	if len(headers) == 0 { // jobs = [{...}, ...]: the first entry that has the key
		i = inlineJobWith(s.data, strings.Split(rest, "."))
	}
	if i < 0 {
		return key
	}
	return fmt.Sprintf("jobs[%d].%s", i, rest)
}

// inlineJobWith is the index of the entry of the document's jobs array
// that the decoder's error about the dotted key path is about: the first that
// has the key and fails to decode alone, else the first that has it; -1 if
// none has it.
func inlineJobWith(data []byte, path []string) int {
	var doc map[string]any
	if _, err := toml.Decode(string(data), &doc); err != nil {
		return -1
	}
	var list []map[string]any
	switch l := doc["jobs"].(type) {
	case []map[string]any:
		list = l
	case []any:
		for _, e := range l {
			m, _ := e.(map[string]any)
			list = append(list, m)
		}
	}
	first := -1
	for i, entry := range list {
		var v any = entry
		for _, k := range path {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		if v == nil {
			continue
		}
		if first < 0 {
			first = i
		}
		var b strings.Builder
		if toml.NewEncoder(&b).Encode(entry) != nil {
			continue
		}
		md, err := toml.Decode(b.String(), new(JobTable))
		if err != nil || unknownKey(md) != "" {
			return i
		}
	}
	return first
}

// jobKeyLine is the line of key within the index-th [[jobs]] entry: the key's
// own line if the entry has it, else the entry's header; 0 if there is no such
// entry (the default scenario, inline tables).
func jobKeyLine(data []byte, index int, key string) int {
	headers := jobsHeaders(data)
	if len(headers) == 0 { // jobs = [{...}, ...]
		return keyLine(data, "jobs")
	}
	if index >= len(headers) {
		return 0
	}
	lines := strings.Split(string(data), "\n")
	from, to := headers[index], len(lines)+1
	if index+1 < len(headers) {
		to = headers[index+1]
	}
	entry := strings.Join(lines[from-1:to-1], "\n")
	if exact, _ := keyLines([]byte(entry), "jobs."+key); exact > 0 {
		return from - 1 + exact
	}
	return from
}

// jobError reports msg about key of a [[jobs]] entry: "FILE:LINE: jobs[i].key: msg",
// LINE being the key's in the entry (or the entry's [[jobs]] header), or
// "--set jobs.i.key=v: jobs[i].key: msg" when a --set gave the key.
func (s *Scenario) jobError(key, msg string) error {
	full := fmt.Sprintf("jobs[%d].%s", s.job.index, key)
	for k := key; k != ""; k = parentKey(k) {
		if arg, ok := s.setKeys[fmt.Sprintf("jobs.%d.%s", s.job.index, k)]; ok {
			return fmt.Errorf("%s: %s: %s", arg, full, msg)
		}
	}
	name := s.file
	if name == "" {
		name = "default scenario"
	}
	if line := jobKeyLine(s.data, s.job.index, key); line > 0 {
		return fmt.Errorf("%s:%d: %s: %s", name, line, full, msg)
	}
	return fmt.Errorf("%s: %s: %s", name, full, msg)
}

// congestor resolves [congestor]: the pattern, 1 MiB messages and 10
// rounds unless given (with a duration, rounds until it is up, the
// iterations if given a limit), on the job's ranks (every slot of the platform for a
// scenario's own app).
func (s *Scenario) congestor(p *Plan) error {
	c, err := s.congestorConfig(p.Seed)
	if err != nil {
		return err
	}
	p.Congestor = c
	p.Ranks = p.Platform.Ranks()
	if s.job != nil {
		p.Ranks = s.job.Ranks
	}
	if p.Ranks < 2 {
		return s.errorAt(ranksKey(&p.Platform, "platform.hosts"), fmt.Sprintf("a congestor needs at least 2 ranks, the platform starts %d (%s)", p.Ranks, p.Platform.Capacity()))
	}
	return nil
}

// congestorConfig resolves the [congestor] table's values.
func (s *Scenario) congestorConfig(seed uint64) (pingpong.CongestorConfig, error) {
	t := s.Congestor
	var none pingpong.CongestorConfig
	switch t.Pattern {
	case pingpong.RandomRing, pingpong.AllToAll, pingpong.Incast:
	case "":
		return none, s.errorAt("congestor.pattern", fmt.Sprintf("missing (%s, %s or %s)", pingpong.RandomRing, pingpong.AllToAll, pingpong.Incast))
	default:
		return none, s.errorAt("congestor.pattern", fmt.Sprintf("unknown pattern %q (%s, %s or %s)", t.Pattern, pingpong.RandomRing, pingpong.AllToAll, pingpong.Incast))
	}
	c := pingpong.CongestorConfig{Pattern: t.Pattern, Bytes: 1 << 20, Iterations: 10, Seed: seed}
	if t.Bytes.Set {
		c.Bytes = int(t.Bytes.Bytes)
	}
	if t.Duration.Set {
		if !(t.Duration.Seconds > 0) {
			return none, s.errorAt("congestor.duration", fmt.Sprintf("%g s must be > 0", t.Duration.Seconds))
		}
		c.Duration, c.Iterations = t.Duration.Seconds, 0
	}
	if t.Iterations != nil {
		c.Iterations = *t.Iterations
		if c.Iterations < 1 {
			return none, s.errorAt("congestor.iterations", fmt.Sprintf("%d must be ≥ 1", c.Iterations))
		}
	}
	return c, nil
}
