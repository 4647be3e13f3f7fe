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
// cluster gets one host per rank (growDefault).
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
	s.growDefault(p)
	return nil
}

// defaultGrows reports whether the run's platform is the embedded default's
// flat cluster with nothing naming its size: no --platform, platform.hosts,
// hostfile or np, and no other topology (a fat tree's, torus's or dragonfly's
// shape is its size: grown, its ranks fell off the shape, exit 1). Such a
// platform takes the size the run needs (growDefault).
func (s *Scenario) defaultGrows(p *Plan) bool {
	_, hostsSet := s.setKeys["platform.hosts"]
	return s.embedded && s.xml == nil && !hostsSet && p.Platform.Hostfile == nil && p.Platform.NP == 0 &&
		p.Platform.Topology == platform.TopoFlat
}

// growDefault gives the embedded default's flat cluster (defaultGrows) hosts
// enough for p.Ranks, as `mpirun -np` would be sized for the run: `emu run
// --replay FILE` runs every rank of the trace, `emu run --hpl-dat FILE` every
// grid of the file.
func (s *Scenario) growDefault(p *Plan) {
	if s.defaultGrows(p) && p.Platform.Ranks() < p.Ranks {
		was := p.Platform.Hosts
		p.Platform.Hosts = (p.Ranks + p.Platform.CoresPerHost - 1) / p.Platform.CoresPerHost
		p.Notes = append(p.Notes, fmt.Sprintf("platform.hosts: the default flat cluster grows from %d to %d hosts for the run's %d ranks (--platform or --set platform.hosts=N to choose)",
			was, p.Platform.Hosts, p.Ranks))
	}
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
