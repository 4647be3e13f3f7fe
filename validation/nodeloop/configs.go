package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/apps/hpl"
	"github.com/emu-hpc/emu/hpldat"
)

// config is one real HPL test of the loop: HPL 2.3's defaults of the
// project's runs (PFACT right, RFACT Crout, NBMIN 4, NDIV 2, SWAP mix 64,
// L1 and U transposed, equilibration) but for these.
type config struct {
	ID          string
	N, NB, P, Q int
	BCast       hpl.BCast
	Depth       int
}

func (c config) String() string {
	return fmt.Sprintf("%s N=%d NB=%d %dx%d %s depth %d", c.ID, c.N, c.NB, c.P, c.Q, c.BCast, c.Depth)
}

// params is the one test of c's HPL.dat.
func (c config) params() hpl.Params {
	p := hpl.DefaultParams()
	p.N, p.NB, p.P, p.Q, p.BCast, p.Depth = c.N, c.NB, c.P, c.Q, c.BCast, c.Depth
	p.L1Transposed, p.UTransposed = true, true
	return p
}

// hplDat is c's HPL.dat, which the real HPL and emu both read. hpcc reads the
// same file as hpccinf.txt, with its PTRANS lines after HPL's (no extra
// PTRANS sizes; hpcc sizes its other benchmarks from HPL's memory).
func (c config) hplDat() []byte {
	b := hpldat.Format(c.params().Dat())
	return append(b, []byte(`##### This line (no. 32) is ignored (it serves as a separator). ######
0                      		Number of additional problem sizes for PTRANS
1200 10000 30000        	values of N
0                       	number of additional blocking sizes for PTRANS
40 9 8 13 13 20 16 32 64       	values of NB
`)...)
}

// defaultConfigs are the loop's 16 tests on a 2-core node: 1×1, 1×2 and 2×1
// grids, 0.3-12 s each on the project's VM (about 70 s for one run of each),
// with the kinds issue 32 item 7 names: 2×1 of N ≥ 6,000 (c10-c12, c14), 2×1
// N = 6,000 NB = 96 (c10), 1×1 (c01-c03, c15), the 0.28 s-class 1×2 (c04).
// c01-c10 and c12 are runs of earlier comparisons (validation/testdata/realhpl);
// c11 and c13-c16 use broadcasts, depths and NBs those never did.
var defaultConfigs = []config{
	{"c01", 4000, 128, 1, 1, hpl.OneRingM, 1},
	{"c02", 6000, 96, 1, 1, hpl.OneRingM, 1},
	{"c03", 8000, 64, 1, 1, hpl.OneRingM, 1},
	{"c04", 3000, 64, 1, 2, hpl.OneRingM, 1},
	{"c05", 4000, 64, 1, 2, hpl.OneRingM, 1},
	{"c06", 8000, 128, 1, 2, hpl.OneRingM, 1},
	{"c07", 8000, 192, 1, 2, hpl.Long, 1},
	{"c08", 12000, 128, 1, 2, hpl.OneRingM, 1},
	{"c09", 4000, 64, 2, 1, hpl.Long, 1},
	{"c10", 6000, 96, 2, 1, hpl.OneRingM, 1},
	{"c11", 7000, 112, 2, 1, hpl.LongM, 1},
	{"c12", 12000, 192, 2, 1, hpl.Long, 1},
	{"c13", 6000, 80, 1, 2, hpl.TwoRingM, 0},
	{"c14", 10000, 160, 2, 1, hpl.OneRing, 0},
	{"c15", 5000, 256, 1, 1, hpl.Long, 0},
	{"c16", 10000, 112, 1, 2, hpl.TwoRing, 1},
}

// readConfigs reads a configuration file: one test a line, "ID N NB P Q
// BCAST DEPTH" (BCAST as HPL.dat's code 0-5 or a name: 1ring, 1ringM, 2ring,
// 2ringM, long, longM); blank lines and lines starting with # are skipped.
func readConfigs(path string) ([]config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []config
	seen := map[string]bool{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if len(f) != 7 {
			return nil, fmt.Errorf("%s:%d: want 7 fields (ID N NB P Q BCAST DEPTH), got %d", path, line, len(f))
		}
		c := config{ID: f[0]}
		for i, dst := range []*int{&c.N, &c.NB, &c.P, &c.Q} {
			v, err := strconv.Atoi(f[i+1])
			if err != nil || v < 1 {
				return nil, fmt.Errorf("%s:%d: %s: want a positive integer, got %q", path, line, []string{"N", "NB", "P", "Q"}[i], f[i+1])
			}
			*dst = v
		}
		if c.BCast, err = hpl.ParseBCast(f[5]); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		if c.Depth, err = strconv.Atoi(f[6]); err != nil || c.Depth < 0 {
			return nil, fmt.Errorf("%s:%d: DEPTH: want an integer ≥ 0, got %q", path, line, f[6])
		}
		if seen[c.ID] {
			return nil, fmt.Errorf("%s:%d: ID %s listed twice", path, line, c.ID)
		}
		seen[c.ID] = true
		if err := c.params().Validate(); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, line, err)
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no configuration", path)
	}
	return out, sc.Err()
}
