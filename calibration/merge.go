package calibration

import (
	"fmt"

	"github.com/emu-hpc/emu/models"
)

// Merge combines several nodes' sample files, in the order given. A campaign
// row is identified by (host, plan, index); a row seen before (the same file
// given twice, or a copy of a node's file) is dropped and counted in
// duplicates. Rows without an index (other tools' files) are all kept. The
// files' probes are kept too, each node's latest (LatestPerHost).
func Merge(paths []string) (merged []Sample, probes []models.Probe, duplicates int, err error) {
	if len(paths) == 0 {
		return nil, nil, 0, fmt.Errorf("merge: no sample files given")
	}
	type key struct {
		host, plan string
		index      int
	}
	seen := map[key]bool{}
	for _, p := range paths {
		samples, err := ReadSampleFile(p)
		if err != nil {
			return nil, nil, 0, err
		}
		ps, err := ReadProbeFile(p)
		if err != nil {
			return nil, nil, 0, err
		}
		probes = append(probes, ps...)
		for _, s := range samples {
			if s.Index >= 0 {
				k := key{s.Host, s.Plan, s.Index}
				if seen[k] {
					duplicates++
					continue
				}
				seen[k] = true
			}
			merged = append(merged, s)
		}
	}
	return merged, LatestPerHost(probes), duplicates, nil
}
