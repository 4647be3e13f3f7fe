package validation

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/scenario"
)

// PeerRow is one run of the SimGrid/SMPI peer (shared/peers/smpi/results.csv, its
// README §7): what SMPI predicted (HPLTime) and what it cost (WallSeconds, PeakPSSMB).
type PeerRow struct {
	Line        int    // line in the CSV, for messages
	Name        string // the scenario column, e.g. "mr_ip6_flat_4x4_20000"
	P, Q, N, NB int
	BCast       int    // HPL's numbering 0..5 (1ring, 1ringM, 2ring, 2ringM, long, longM)
	Depth       int    // look-ahead depth
	Topology    string // "flat" or "fattree"
	HPLTime     float64
	WallSeconds float64 // smpirun's elapsed time, s
	PeakPSSMB   float64 // peak proportional set size, MiB; 0 when not sampled (runs under ~1 s)
	// SimTime is SMPI's "Simulated time", the end of the whole program, s,
	// as printed (6 significant digits); 0 when the notes do not give it.
	SimTime float64

	Variant      string  // M, MR, MD, MO or REAL (README §2)
	Net          string  // "cm02" or "smpi-default"
	IprobeCost   float64 // smpi/iprobe, s (1e-4 when the notes do not set it)
	IprobeGrowth bool    // smpi/grow-injected-times (default yes)
}

// The peer's smpi/iprobe default (SimGrid 3.32), s.
const smpiDefaultIprobe = 1e-4

var csvColumns = []string{"scenario", "P", "Q", "N", "NB", "BCAST", "DEPTH", "topology",
	"hpl_time_s", "hpl_gflops", "wall_s", "peak_rss_mb", "notes"}

// ReadPeerRows reads results.csv; file names it in errors, which give the line and
// the column at fault.
func ReadPeerRows(r io.Reader, file string) ([]PeerRow, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(csvColumns)
	header, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("%s:1: header: %w", file, err)
	}
	for i, want := range csvColumns {
		if header[i] != want {
			return nil, fmt.Errorf("%s:1: column %d is %q, want %q", file, i+1, header[i], want)
		}
	}
	var rows []PeerRow
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return rows, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", file, err) // csv's errors carry the line
		}
		line, _ := cr.FieldPos(0)
		row, err := parseRow(rec)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %s: %w", file, line, rec[0], err)
		}
		row.Line = line
		rows = append(rows, row)
	}
}

func parseRow(rec []string) (PeerRow, error) {
	row := PeerRow{Name: rec[0], Topology: rec[7], IprobeCost: smpiDefaultIprobe, IprobeGrowth: true}
	ints := []struct {
		col string
		dst *int
		min int
	}{{"P", &row.P, 1}, {"Q", &row.Q, 1}, {"N", &row.N, 1}, {"NB", &row.NB, 1}, {"BCAST", &row.BCast, 0}, {"DEPTH", &row.Depth, 0}}
	for i, c := range ints {
		v, err := strconv.Atoi(rec[1+i])
		if err != nil || v < c.min {
			return row, fmt.Errorf("column %s: %q is not an integer ≥ %d", c.col, rec[1+i], c.min)
		}
		*c.dst = v
	}
	if row.BCast > 5 {
		return row, fmt.Errorf("column BCAST: %d is not one of HPL's 0..5", row.BCast)
	}
	if row.Topology != "flat" && row.Topology != "fattree" {
		return row, fmt.Errorf("column topology: %q, want flat or fattree", row.Topology)
	}
	floats := []struct {
		col  string
		text string
		dst  *float64
	}{{"hpl_time_s", rec[8], &row.HPLTime}, {"wall_s", rec[10], &row.WallSeconds}}
	for _, f := range floats {
		v, err := strconv.ParseFloat(f.text, 64)
		if err != nil || !(v > 0) || v > 1e9 {
			return row, fmt.Errorf("column %s: %q is not a positive number", f.col, f.text)
		}
		*f.dst = v
	}
	return row, row.parseNotes(rec[12])
}

// parseNotes reads the notes column: "variant=MR; net=cm02; shm_block=16MiB;
// smpi/iprobe:1e-6; sim_time_s=...; peak_pss_mb=...; ...".
func (row *PeerRow) parseNotes(notes string) error {
	for _, item := range strings.Split(notes, ";") {
		item = strings.TrimSpace(item)
		key, value, ok := strings.Cut(item, "=")
		if !ok {
			key, value, ok = strings.Cut(item, ":") // SimGrid options: smpi/iprobe:1e-6
		}
		if !ok {
			return fmt.Errorf("notes: %q is not key=value", item)
		}
		var err error
		switch key {
		case "variant":
			switch value {
			case "M", "MR", "MD", "MO", "REAL":
				row.Variant = value
			default:
				err = fmt.Errorf("unknown variant")
			}
		case "net":
			if value != "cm02" && value != "smpi-default" {
				err = fmt.Errorf("unknown network model")
			}
			row.Net = value
		case "smpi/iprobe":
			row.IprobeCost, err = strconv.ParseFloat(value, 64)
			if err == nil && !(row.IprobeCost >= 0 && row.IprobeCost < 1) {
				err = fmt.Errorf("out of range")
			}
		case "smpi/grow-injected-times":
			row.IprobeGrowth = value == "yes"
			if value != "yes" && value != "no" {
				err = fmt.Errorf("want yes or no")
			}
		case "peak_pss_mb":
			row.PeakPSSMB, err = strconv.ParseFloat(value, 64)
		case "sim_time_s":
			row.SimTime, err = strconv.ParseFloat(value, 64)
		}
		if err != nil {
			return fmt.Errorf("notes: %s: %q: %v", key, value, err)
		}
	}
	if row.Variant == "" || row.Net == "" {
		return fmt.Errorf("notes: %q lack variant= or net=", notes)
	}
	return nil
}

// Unreproducible says why emu cannot reproduce a row by definition ("" when it can):
// rule M picks pivots by comparing whatever SMPI's aliased shared memory holds, MO
// is rule M plus HPL's copy/swap kernels costed per laswp variant, and REAL charges
// the CPU time measured on the peer's machine.
func (row PeerRow) Unreproducible() string {
	switch row.Variant {
	case "M":
		return "pivot rule M depends on the contents of SMPI's aliased shared memory (README §2, §6.4)"
	case "MO":
		return "rule M's pivots (memory-dependent) plus per-variant dlaswp01T..04T costs; emu charges one dlaswp model"
	case "REAL":
		return "charges CPU time measured on the peer's machine (OpenBLAS), not a model"
	}
	return ""
}

// Cells is the number of rank-panel iterations P·Q·⌈N/NB⌉, a run's cost in work.
func (row PeerRow) Cells() int { return row.P * row.Q * ((row.N + row.NB - 1) / row.NB) }

// HPLDat names the peer's HPL.dat for this row's (P, Q, N, BCAST, DEPTH).
func (row PeerRow) HPLDat() string {
	return fmt.Sprintf("HPL_%dx%d_N%d_bcast%d_depth%d.dat", row.P, row.Q, row.N, row.BCast, row.Depth)
}

// peerKernels is the scenario every peer row shares: model mode with the SMPI/HPL
// study's dgemm and dtrsm models (README §2; every other kernel costs 0).
const peerKernels = `app = "hpl"
seed = 1

[kernels]
mode = "model"

[kernels.dgemm]
terms = ["m*n*k"]
coef = [1.029e-11]
intercept = 1.981e-12

[kernels.dtrsm]
terms = ["w"]
coef = [1.029e-11]
intercept = 1.981e-12
`

// Scenario builds the emu scenario that reproduces a row: the peer's own HPL.dat
// and platform XML (read from dir, which holds hpl_dat/ and the two cluster files),
// the pivot rule of its variant, its network and Iprobe settings, SimGrid's
// order within an instant (network.wake_order = "simgrid", which reproduces
// SimGrid's arithmetic), and no residual check, as the peer's build. extra are
// --set overrides applied last.
func (row PeerRow) Scenario(dir string, extra ...string) (*scenario.Scenario, error) {
	if why := row.Unreproducible(); why != "" {
		return nil, fmt.Errorf("%s: not reproducible: %s", row.Name, why)
	}
	s, err := scenario.Parse([]byte(peerKernels), "peer:"+row.Name)
	if err != nil {
		return nil, err
	}
	platform := map[string]string{"flat": "cluster_flat_256.xml", "fattree": "cluster_fattree_256.xml"}[row.Topology]
	if err := s.UsePlatformXML(filepath.Join(dir, platform)); err != nil {
		return nil, err
	}
	if err := s.UseHPLDat(filepath.Join(dir, "hpl_dat", row.HPLDat())); err != nil {
		return nil, err
	}
	pivot := map[string]string{"MR": "splitmix", "MD": "diagonal"}[row.Variant]
	model := map[string]string{"cm02": "cm02", "smpi-default": "smpi"}[row.Net]
	sets := []string{
		"kernels.pivot=" + pivot,
		"network.wake_order=simgrid",
		"network.model=" + model,
		"network.iprobe_cost=" + strconv.FormatFloat(row.IprobeCost, 'g', -1, 64) + "s", // as SimGrid parses it: no unit scaling
		fmt.Sprintf("network.iprobe_growth=%t", row.IprobeGrowth),
		// The peer's fork, at its emulation level (SMPI_OPTIMIZATION_LEVEL
		// 1000), returns from HPL_pdtest before the residual check; a
		// threshold ≤ 0 is HPL's own switch for the same. HPL's Time comes
		// before it either way: only the end of the program moves.
		"hpl.threshold=-1",
	}
	for _, kv := range append(sets, extra...) {
		if err := s.Set(kv); err != nil {
			return nil, fmt.Errorf("%s: %w", row.Name, err)
		}
	}
	return s, nil
}
