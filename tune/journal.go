package tune

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
)

// Result is one evaluated point, as written to the journal (one JSON object a line).
type Result struct {
	ID         string     `json:"id"`
	Label      string     `json:"label"`
	Overrides  []Override `json:"overrides"`
	Gflops     float64    `json:"gflops"`           // best over the point's HPL tests; 0 for other apps
	TimeS      float64    `json:"time_s"`           // the application's reported time, s
	SimulatedS float64    `json:"simulated_time_s"` // end of the simulation, s
	WallS      float64    `json:"wall_time_s"`      // host time spent evaluating, s
	Error      string     `json:"error,omitempty"`

	// Panels is the work emulated (HPL: panels, over the point's tests), the cost
	// measure of a search; Extrapolated says the Time was estimated from part of
	// the run (hpl.max_iterations), so a search evaluates the point again.
	Panels       int  `json:"panels,omitempty"`
	Extrapolated bool `json:"extrapolated,omitempty"`

	// Ensemble, when the point was run several times (emu tune --seeds,
	// --perturb), holds the spread of its runs; Gflops, TimeS and SimulatedS
	// are then the means over the runs, which Rank orders by.
	Ensemble *Ensemble `json:"ensemble,omitempty"`

	// Inputs is a digest of the files the point names beyond the sweep's own
	// (a swept trace, models file or platform), "" for none: a point whose
	// files changed since it ran is run again when the sweep resumes.
	Inputs string `json:"inputs,omitempty"`

	base string // Search: the ID of the point without its fidelity override
}

// Journal is an append-only JSON-lines file of results. Each line is written whole and
// synced before the next point is reported done, so a kill loses at most the point in
// flight; a torn last line (a kill mid-write) is detected and cut off on reopen.
type Journal struct {
	f    *os.File
	done map[string]Result
}

// OpenJournal opens (creating if needed) the journal at path and loads the finished
// points it holds.
func OpenJournal(path string) (*Journal, error) {
	done, good, err := readJournal(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	// Drop a torn tail so the next append starts on a line boundary.
	if err := f.Truncate(good); err != nil {
		f.Close()
		return nil, err
	}
	if _, err := f.Seek(good, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return &Journal{f: f, done: done}, nil
}

// readJournal returns the results in path keyed by ID and the byte length of its
// well-formed prefix. Only a torn final line is forgiven; garbage before it is an error.
func readJournal(path string) (map[string]Result, int64, error) {
	done := map[string]Result{}
	data, err := os.ReadFile(path)
	if err != nil {
		return done, 0, err
	}
	var good int64
	line := 0
	for len(data) > 0 {
		line++
		nl := bytes.IndexByte(data, '\n')
		if nl < 0 { // torn tail: written without its newline
			break
		}
		var r Result
		if err := json.Unmarshal(data[:nl], &r); err != nil || r.ID == "" {
			if nl == len(data)-1 { // a last line that is whole but garbled: also a tear
				break
			}
			return nil, 0, fmt.Errorf("%s:%d: not a tune result line", path, line)
		}
		done[r.ID] = r
		good += int64(nl + 1)
		data = data[nl+1:]
	}
	return done, good, nil
}

// Done reports whether the point with this ID already has a result.
func (j *Journal) Done(id string) bool { _, ok := j.done[id]; return ok }

// Result returns the recorded result of the point with this ID, if any (a resumed
// Search's SearchOptions.Known).
func (j *Journal) Result(id string) (Result, bool) { r, ok := j.done[id]; return r, ok }

// Append records one result durably.
func (j *Journal) Append(r Result) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	if _, err := j.f.Write(append(b, '\n')); err != nil {
		return err
	}
	if err := j.f.Sync(); err != nil {
		return err
	}
	j.done[r.ID] = r
	return nil
}

// Results returns every result in the journal, in ID order.
func (j *Journal) Results() []Result { return sortedResults(j.done) }

// Close closes the journal file.
func (j *Journal) Close() error { return j.f.Close() }

// ReadResults loads the results of one or more journals (e.g. the per-task files of a
// Slurm array), later files winning for a point evaluated twice.
func ReadResults(paths ...string) ([]Result, error) {
	all := map[string]Result{}
	for _, p := range paths {
		done, _, err := readJournal(p)
		if err != nil {
			return nil, err
		}
		for id, r := range done {
			all[id] = r
		}
	}
	return sortedResults(all), nil
}

func sortedResults(m map[string]Result) []Result {
	out := make([]Result, 0, len(m))
	for _, r := range m {
		out = append(out, r)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}
