package calibration

import "fmt"

// Merge combines several nodes' sample files, in the order given. A campaign
// row is identified by (host, plan, index); a row seen before (the same file
// given twice, or a copy of a node's file) is dropped and counted in
// duplicates. Rows without an index (other tools' files) are all kept.
func Merge(paths []string) (merged []Sample, duplicates int, err error) {
	if len(paths) == 0 {
		return nil, 0, fmt.Errorf("merge: no sample files given")
	}
	type key struct {
		host, plan string
		index      int
	}
	seen := map[key]bool{}
	for _, p := range paths {
		samples, err := ReadSampleFile(p)
		if err != nil {
			return nil, 0, err
		}
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
	return merged, duplicates, nil
}
