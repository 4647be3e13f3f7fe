package calibration

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"

	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/models"
)

// Merge combines several nodes' sample files, in the order given. A campaign
// row is identified by (host, plan, index); a row seen before (the same file
// given twice, or a copy of a node's file) is dropped and counted in
// duplicates. A row whose identity was seen before with another measurement
// is an error: two campaigns under one host name (two nodes calibrated
// without --host that share a name, or one node calibrated twice), whose
// second campaign would otherwise be dropped unseen. Rows without an index
// (other tools' files) are all kept, but of a file given twice (under any
// spelling of its path), its second copy is dropped whole as duplicates.
// The files' probes are kept too, each node's latest (LatestPerHost); two
// of one host at the same time that differ are an error (ProbeLog). Rows
// of a kernel of the user's own (one emu does not know, which emu fit fits
// with --product) are merged as they are: merging needs no product.
func Merge(paths []string) (merged []Sample, probes []models.Probe, duplicates int, err error) {
	if len(paths) == 0 {
		return nil, nil, 0, fmt.Errorf("merge: no sample files given")
	}
	sets := make([][]Sample, len(paths))
	var stats []os.FileInfo // of the files read so far
	var log ProbeLog
	for i, p := range paths {
		if sets[i], err = readAnyKernel(p); err != nil {
			return nil, nil, 0, err
		}
		// The same file given twice (two spellings of its path, a link):
		// Combine drops its second copy's indexed rows, but would keep
		// rows without an index twice (a sweep's file merged with itself
		// had 96 samples of 48, "0 duplicates dropped").
		if st, err := os.Stat(p); err == nil {
			if slices.ContainsFunc(stats, func(o os.FileInfo) bool { return os.SameFile(o, st) }) {
				duplicates += len(sets[i])
				sets[i] = nil
				continue
			}
			stats = append(stats, st)
		}
		data, err := inputfile.ReadFile(p)
		if err != nil {
			return nil, nil, 0, err
		}
		if err := log.Add(data, p); err != nil {
			return nil, nil, 0, err
		}
	}
	merged, dups, err := Combine(paths, sets)
	if err != nil {
		return nil, nil, 0, err
	}
	return merged, LatestPerHost(log.Probes()), duplicates + dups, nil
}

// maxOwnKernels bounds the kernels of one's own a merged file may hold: each
// costs readAnyKernel one more pass over the file.
const maxOwnKernels = 64

// ownKernelName is the name a kernel of one's own may have in a merged file:
// one word, so that the file's CSV and a --product KERNEL=... can name it.
var ownKernelName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.+-]*$`)

// readAnyKernel is ReadSampleFile that also takes the rows of kernels emu does
// not know: calibrate merge refused a file of one's own kernel's samples
// (examples/sweep-samples.csv: unknown kernel "sweep"), so the samples of
// several nodes could not be merged before emu fit --product.
func readAnyKernel(path string) ([]Sample, error) {
	data, err := inputfile.ReadFile(path)
	if err != nil {
		return nil, err
	}
	own := map[string]string{}
	for {
		samples, err := ReadSamplesOf(data, path, own)
		var uk *UnknownKernelError
		if !errors.As(err, &uk) || !ownKernelName.MatchString(uk.Kernel) || len(own) >= maxOwnKernels {
			return samples, err // an empty or odd name stays "unknown kernel", at its line
		}
		own[uk.Kernel] = ""
	}
}

// Combine joins the samples of several files (sets[i] read from paths[i]),
// dropping a row already read (a file given twice, or a merged file beside
// the ones it merged) and counting it; two rows of one campaign's identity
// (host, plan, index) measured otherwise are two campaigns under one host
// name, an error naming both files. Rows of one file are not compared with
// each other (a hand-made table may number each kernel's rows from 0), and
// rows without an index are all kept.
func Combine(paths []string, sets [][]Sample) (merged []Sample, duplicates int, err error) {
	type key struct {
		host, plan string
		index      int
	}
	type first struct {
		file int // its index in sets
		s    Sample
	}
	seen := map[key]first{}
	for i, samples := range sets {
		p := paths[i]
		for _, s := range samples {
			if s.Index >= 0 {
				k := key{s.Host, s.Plan, s.Index}
				if f, ok := seen[k]; ok && f.file != i {
					if !sameMeasurement(f.s, s) {
						return nil, 0, fmt.Errorf("%s: host %s's sample %d (plan %s) is also in %s, measured otherwise: two campaigns of one plan under one host name; give each node its own --host (one node measured twice: another --seed)",
							p, s.Host, s.Index, s.Plan, paths[f.file])
					}
					duplicates++
					continue
				}
				if _, ok := seen[k]; !ok {
					seen[k] = first{i, s}
				}
			}
			merged = append(merged, s)
		}
	}
	return merged, duplicates, nil
}

// sameMeasurement reports whether two rows of one campaign's identity are
// the same measurement (a file given twice, or a copy).
func sameMeasurement(a, b Sample) bool {
	return a.Kernel == b.Kernel && a.M == b.M && a.N == b.N && a.K == b.K &&
		a.Seconds == b.Seconds && a.Time.Equal(b.Time)
}
