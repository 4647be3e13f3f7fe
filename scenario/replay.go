package scenario

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/emu-hpc/emu/apps/replay"
	"github.com/emu-hpc/emu/platform"
	"github.com/emu-hpc/emu/traceformat"
)

// replayTrace resolves [replay]: loads the trace (its errors name the trace's
// file and line) and takes the run's ranks from it. Run on the embedded default
// scenario (emu run --replay FILE, no --platform, no platform.hosts), the flat
// cluster gets one host per rank.
func (s *Scenario) replayTrace(p *Plan) error {
	t := s.Replay
	if t.File == "" {
		return s.errorAt("replay.file", `app = "replay" needs a trace file (a GOAL schedule or a SimGrid TI trace)`)
	}
	format, err := traceformat.ParseFormat(t.Format)
	if err != nil {
		return s.errorAt("replay.format", err.Error())
	}
	path := s.path(t.File)
	tr, err := replay.Load(path, format)
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		return s.errorAt("replay.file", fmt.Sprintf("cannot read %s: %v", path, pe.Err))
	}
	if err != nil {
		return err
	}
	p.Trace, p.Ranks = tr, tr.Ranks()
	if tr.TI != nil {
		if n, file, line := tr.TI.ZeroSized(); n > 0 {
			p.Notes = append(p.Notes, fmt.Sprintf("%s:%d and %d more line(s) count elements of a datatype of size 0: "+
				"SMPI's tracer writes -1 (MPI_DATATYPE_NULL) for a derived datatype, so those messages carry 0 bytes, as in SimGrid's replayer", file, line, n-1))
		}
	}
	if p.Ranks > platform.MaxRanks {
		return s.errorAt("replay.file", fmt.Sprintf("%s has %d ranks: more than %d", path, p.Ranks, platform.MaxRanks))
	}
	_, hostsSet := s.setKeys["platform.hosts"]
	if s.embedded && s.xml == nil && !hostsSet && p.Platform.Hostfile == nil && p.Platform.Ranks() < p.Ranks {
		p.Platform.Hosts = (p.Ranks + p.Platform.CoresPerHost - 1) / p.Platform.CoresPerHost
	}
	return nil
}

// UseReplay makes the scenario run the trace at path (--replay): app = "replay",
// replay.file = path. A relative path is the user's, read from the working
// folder, not from the scenario's.
func (s *Scenario) UseReplay(path string) error {
	if !filepath.IsAbs(path) && s.dir != "" && s.dir != "." {
		abs, err := filepath.Abs(path)
		if err != nil {
			return err
		}
		path = abs
	}
	s.App, s.Replay.File = AppReplay, path
	return nil
}
