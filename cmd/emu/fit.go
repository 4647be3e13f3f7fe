package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/internal/inputfile"
	"github.com/emu-hpc/emu/internal/jsonout"
	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/plots"
	"github.com/emu-hpc/emu/units"
)

func init() { register(newFitCmd) }

type fitFlags struct {
	family    string
	perHost   bool
	out       string
	plotDir   string
	seed      uint64
	network   string
	latency   string
	bandwidth string
	envelope  int
	loss      string
	report    string
	products  []string // --product KERNEL=PRODUCT, as given
}

func newFitCmd() *cobra.Command {
	var fl fitFlags
	cmd := &cobra.Command{
		Use:   "fit samples.csv... [-o models.toml] | fit --network pingpong.csv --latency 1us --bandwidth 10GBps",
		Short: "Fit kernel time models to samples, or network factors to ping-pong measurements",
		Long: `fit estimates one time model per kernel from sample files (emu calibrate's, or any CSV
with kernel,host,m,n,k,seconds columns), prints a table of fit quality per kernel (and
host, with --per-host), and writes the models as TOML for a scenario's
[kernels] models = "models.toml". Means are fitted on relative errors with a robust loss
(--loss robust): a call far slower than its neighbours is an outlier and does not count.
--family auto compares the families by cross-validated relative error and BIC, and never
picks one that predicts worse than the plain rate (Mr: seconds = rate × product term);
M1-N0, M2-N2, Mp-N1, M2-Nmix, Mh2-N2 (per host), rate, ... force one. The table's last
column says why a kernel's fit is poor (CV error > 10%, R² < 0.9, outliers, too few
samples, an intercept above the smallest calls); --report FILE writes it as JSON.
A kernel of your own (any name but emu's) is fitted with --product NAME=PRODUCT, the
product of its m, n, k its time grows with (--product sweep=m*n); it then loads with
models.ParseSet and charges ranks.Rank.Compute (docs/library.md).
--plot DIR writes, per kernel, duration against its product term with the model and the
residuals (SVG).

With --network, fit instead SMPI-style piecewise latency and bandwidth factors from
ping-pong measurements (CSV bytes,seconds, or osu_latency / osu_bw output) against the
nominal --latency and --bandwidth of the measured route, and print them as the
scenario's [network] lat_factor and bw_factor.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			out := fl.out
			if out == "-" {
				out = ""
			}
			if err := checkOutputs(append(append([]string{}, args...), fl.network), outputPath{"-o", out, false}, outputPath{"--plot", fl.plotDir, true}, outputPath{"--report", fl.report, false}); err != nil {
				return err
			}
			if fl.network != "" {
				if len(args) > 0 {
					return fmt.Errorf("--network %s: give either sample files or --network, not both", fl.network)
				}
				return fitNetwork(cmd, fl)
			}
			if len(args) == 0 {
				return fmt.Errorf("no sample file given (emu fit samples.csv, or --network FILE)")
			}
			return fitKernels(cmd, args, fl)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.family, "family", "auto", "model family: auto, rate, or MEAN-NOISE (M1-N1, M2-N2, Mp-N1, M2-Nmix, Mh2-N2, ...): M0 constant, M1 linear, M2 polynomial, Mp piecewise, Mh1/Mh2 per host; N0 no noise, N1 Gaussian, N2 σ growing with the call, Nmix mixture")
	f.BoolVar(&fl.perHost, "per-host", false, fmt.Sprintf("also fit each host with %d samples or more of a kernel (the study's Mh); fewer take the pooled model, and fit names them", minHostSamples))
	f.StringVarP(&fl.out, "out", "o", "", "write the models (or network factors) here as TOML (default: standard output, table on standard error)")
	f.StringVar(&fl.plotDir, "plot", "", "write SVG figures per kernel into this directory")
	f.Uint64Var(&fl.seed, "seed", 1, "seed of cross-validation folds and EM restarts")
	f.StringVar(&fl.network, "network", "", "fit network factors from this ping-pong CSV or OSU output")
	f.StringVar(&fl.latency, "latency", "", "nominal latency of the measured route (e.g. 1us), with --network")
	f.StringVar(&fl.bandwidth, "bandwidth", "", "nominal bandwidth of the measured route (e.g. 10GBps), with --network")
	f.StringVar(&fl.loss, "loss", "robust", "how means are fitted: robust (relative errors, outliers rejected) or squares (plain least squares)")
	f.StringVar(&fl.report, "report", "", "also write the fit table as JSON here (one object per kernel and host; with --network, the factors and their fit)")
	f.StringArrayVar(&fl.products, "product", nil, "KERNEL=PRODUCT: fit KERNEL, one of your own, as growing with PRODUCT of its sizes (m*n, m*n*k, n*n, ...; repeatable); for one of emu's, fit PRODUCT instead of its natural term")
	f.IntVar(&fl.envelope, "envelope", 0, "bytes added to each payload before the factor lookup (SMPI adds 16), with --network")
	return cmd
}

// onceEach drops a sample file given again (fit s.csv s.csv, or s.csv
// ./s.csv), with a note: rows with calibrate's identity columns were already
// counted once, but a file of plain kernel,host,m,n,k,seconds rows (as
// examples/sweep-samples.csv) counted twice over, which moved the family
// chosen (M1-N2 on that file, Mp-N2 doubled) without a word.
func onceEach(stderr io.Writer, files []string) []string {
	var out []string
	var stats []os.FileInfo
next:
	for _, f := range files {
		st, err := os.Stat(f)
		if err == nil {
			for i, seen := range stats {
				if seen != nil && os.SameFile(seen, st) {
					fmt.Fprintf(stderr, "emu: note: %s given again (as %s): read once\n", out[i], f)
					continue next
				}
			}
		}
		out, stats = append(out, f), append(stats, st) // a missing file: reading it says why
	}
	return out
}

// outputs returns where the table and the TOML go: with -o the table is on
// stdout and the TOML in the file, staged in st; without, the TOML is on stdout
// and the table on stderr, so `emu fit s.csv > models.toml` works.
func outputs(cmd *cobra.Command, st *staging, out string) (table io.Writer, toml func([]byte) error) {
	if out == "" || out == "-" {
		return cmd.ErrOrStderr(), func(b []byte) error {
			_, err := cmd.OutOrStdout().Write(b)
			return asFailure(err)
		}
	}
	return cmd.OutOrStdout(), func(b []byte) error {
		return st.write(out, func(w io.Writer) error {
			_, err := w.Write(b)
			return asFailure(err)
		})
	}
}

func fitKernels(cmd *cobra.Command, files []string, fl fitFlags) error {
	family, err := models.ParseFamily(fl.family)
	if err != nil {
		return fmt.Errorf("--family: %w", err)
	}
	loss, err := models.ParseLoss(fl.loss)
	if err != nil {
		return fmt.Errorf("--loss: %w", err)
	}
	products, err := parseProducts(fl.products)
	if err != nil {
		return err
	}
	files = onceEach(cmd.ErrOrStderr(), files)
	var (
		sets   [][]calibration.Sample
		probes calibration.ProbeLog // two of one host at one time that differ are refused
	)
	for _, f := range files {
		data, err := inputfile.ReadFile(f) // once: its samples, its torn row, its probes
		if err != nil {
			return err
		}
		s, err := calibration.ReadSamplesOf(data, f, products)
		if uk := (*calibration.UnknownKernelError)(nil); errors.As(err, &uk) {
			return fmt.Errorf("%s:%d: unknown kernel %q: for a kernel of your own, say which product of m, n, k its time grows with: --product %s=%s",
				uk.File, uk.Line, uk.Kernel, uk.Kernel, productHint(uk.M, uk.N, uk.K))
		}
		if err != nil {
			return withFlagHint(err, f, "fit")
		}
		sets = append(sets, s)
		noteTornRow(cmd.ErrOrStderr(), f, data)
		if err := probes.Add(data, f); err != nil {
			return err
		}
	}
	// A row read before (a file given twice, a merged file beside its parts)
	// would count twice in the fit and its cross-validation, as merge drops it.
	samples, dups, err := calibration.Combine(files, sets)
	if err != nil {
		return err
	}
	if dups > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "emu: note: %d samples are in more than one file (the same campaign's rows): each counted once\n", dups)
	}
	if err := checkProductsSampled(fl.products, products, samples); err != nil {
		return err
	}
	opts := models.FitOptions{Seed: fl.seed, PerHost: fl.perHost || family.PerHost, Loss: loss, MinHost: minHostSamples}
	// Kernels fit independently: fit those that can be, say which cannot.
	set, fits, failed, err := calibration.FitEachKernelWith(samples, family, opts, products)
	if err != nil {
		return fmt.Errorf("%s: %w", strings.Join(files, ", "), err)
	}
	for _, e := range failed {
		fmt.Fprintf(cmd.ErrOrStderr(), "emu: %v (skipped)\n", e)
	}
	for _, l := range mixedSources(samples, fits) {
		fmt.Fprintln(cmd.ErrOrStderr(), "emu: note: "+l)
	}
	if opts.PerHost {
		for _, l := range pooledHosts(samples, fits) {
			fmt.Fprintln(cmd.ErrOrStderr(), "emu: --per-host: "+l)
		}
	}
	// The nodes' reference probes go with their models (emu calibrate --check).
	set = set.WithProbes(calibration.LatestPerHost(probes.Probes()))
	data, err := set.MarshalTOML()
	if err != nil {
		return asFailure(err)
	}
	// The files go together, the plots' folder too, whole or none.
	var st staging
	defer st.discard()
	table, writeTOML := outputs(cmd, &st, fl.out)
	if err := calibration.WriteFitTable(table, fits); err != nil {
		return asFailure(err)
	}
	if fl.report != "" {
		if err := st.write(fl.report, func(w io.Writer) error {
			return asFailure(calibration.WriteFitJSON(w, fits))
		}); err != nil {
			return err
		}
	}
	given := ""
	for _, p := range fl.products {
		given += " --product " + p
	}
	header := fmt.Sprintf("# emu fit --family %s%s of %s: %d samples\n", family, given, strings.Join(files, " "), len(samples))
	if err := writeTOML(append([]byte(header), data...)); err != nil {
		return err
	}
	var written []string
	if fl.plotDir != "" {
		if err := st.plots(fl.plotDir, func(dir string) (err error) {
			written, err = plots.Calibration(dir, calibration.PointsVsModel(samples, set, products))
			return err
		}); err != nil {
			return err
		}
	}
	if err := st.commit(); err != nil {
		return err
	}
	if fl.plotDir != "" {
		fmt.Fprintf(table, "wrote %d figures in %s\n", len(written), fl.plotDir)
	}
	return nil
}

// parseProducts reads fit's --product KERNEL=PRODUCT values into the
// kernel → canonical product term map calibration.FitEachKernelWith takes.
// A product is of the sizes a sample file has, m, n and k: w (a known
// kernel's work variable) and "1" (no growth) are refused.
// checkProductsSampled refuses a --product whose kernel no sample calls: a
// misspelt name fitted nothing and was dropped without a word.
func checkProductsSampled(given []string, products map[string]string, samples []calibration.Sample) error {
	if len(products) == 0 || len(samples) == 0 {
		return nil // none at all: the fit says so ("no samples to fit")
	}
	seen := map[string]bool{}
	for _, s := range samples {
		seen[s.Kernel] = true
	}
	for _, g := range given {
		kernel, _, _ := strings.Cut(g, "=")
		if kernel = strings.TrimSpace(kernel); !seen[kernel] {
			return fmt.Errorf("--product %q: no sample is a call of %s (the samples hold %s)", g, kernel, strings.Join(slices.Sorted(maps.Keys(seen)), ", "))
		}
	}
	return nil
}

func parseProducts(given []string) (map[string]string, error) {
	if len(given) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(given))
	for _, g := range given {
		kernel, product, ok := strings.Cut(g, "=")
		kernel = strings.TrimSpace(kernel)
		if !ok || kernel == "" {
			return nil, fmt.Errorf("--product %q: want KERNEL=PRODUCT, as sweep=m*n", g)
		}
		term, err := models.CanonicalTerm(product)
		if err != nil {
			return nil, fmt.Errorf("--product %q: %w", g, err)
		}
		if term == "1" || strings.Contains(term, "w") {
			return nil, fmt.Errorf("--product %q: a product of m, n and k (sample files have no w), as m*n", g)
		}
		if _, dup := out[kernel]; dup {
			return nil, fmt.Errorf("--product %q: %s's product is given twice", g, kernel)
		}
		out[kernel] = term
	}
	return out, nil
}

// productHint is the product of the sizes a row gives (m, n, k not 0), the
// guess fit's refusal of an unknown kernel offers for --product.
func productHint(m, n, k int) string {
	var f []string
	for _, d := range []struct {
		name string
		v    int
	}{{"m", m}, {"n", n}, {"k", k}} {
		if d.v != 0 {
			f = append(f, d.name)
		}
	}
	if len(f) == 0 {
		return "n"
	}
	return strings.Join(f, "*")
}

func fitNetwork(cmd *cobra.Command, fl fitFlags) error {
	if fl.latency == "" || fl.bandwidth == "" {
		return errors.New("--network: --latency and --bandwidth of the measured route are required")
	}
	lat, err := units.ParseTime(fl.latency)
	if err != nil {
		return fmt.Errorf("--latency: %w", err)
	}
	bw, err := units.ParseBandwidth(fl.bandwidth)
	if err != nil {
		return fmt.Errorf("--bandwidth: %w", err)
	}
	if fl.envelope < 0 {
		return fmt.Errorf("--envelope: %d bytes is negative", fl.envelope)
	}
	data, err := inputfile.ReadFile(fl.network)
	if err != nil {
		return err
	}
	pp, err := calibration.ParseNetwork(data, fl.network)
	if err != nil {
		return err
	}
	if line := calibration.OlderMPIBenchCut(data, pp); line > 0 {
		fmt.Fprintf(cmd.ErrOrStderr(), "emu: note: %s:%d: the ping-pong stops at %d bytes with no poll costs after it, as an older mpibench's output cut short does: if it is one, the factors beyond %d bytes are extrapolated; rerun mpibench\n",
			fl.network, line, pp[len(pp)-1].Bytes, pp[len(pp)-1].Bytes)
	}
	fac, err := models.FitFactors(pp, models.FactorOptions{Latency: lat, Bandwidth: bw, Envelope: fl.envelope})
	if err != nil {
		return fmt.Errorf("%s: %w", fl.network, err)
	}
	var st staging // the report and the factors go together, whole or none
	defer st.discard()
	table, writeTOML := outputs(cmd, &st, fl.out)
	q := fac.Quality
	fmt.Fprintf(table, "%s: %d measurements, %d size ranges, R² %.4f, RMSE %.3g µs\n",
		fl.network, len(pp), len(fac.Bounds), q.R2, q.RMSE*1e6)
	if fac.CVHeld > 0 {
		how := "leave-one-size-out (each size predicted by the factors refitted without it)"
		if fac.CVFolds < distinctSizes(pp) {
			how = fmt.Sprintf("%d-fold by size (each fold of sizes predicted by the factors refitted without it)", fac.CVFolds)
		}
		fmt.Fprintf(table, "%s: mean error %.3g%%, median %.3g%%, max %.3g%%, CV-RMSE %.3g µs, CV total %.3g%%\n",
			how, 100*fac.CVMean, 100*q.CVRel, 100*fac.CVMax, q.CVRMSE*1e6, 100*q.CVTotal)
	} else {
		fmt.Fprintf(table, "leave-one-size-out: none (too few sizes to refit without one)\n")
	}
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# emu fit --network %s --latency %s --bandwidth %s", fl.network, fl.latency, fl.bandwidth)
	if fl.envelope != 0 { // the factors are looked up on payload + envelope: part of what they mean
		fmt.Fprintf(&buf, " --envelope %d", fl.envelope)
	}
	buf.WriteString("\n")
	fmt.Fprintf(&buf, "[network]\nlat_factor = %q\nbw_factor = %q\n", fac.LatencyTable(), fac.BandwidthTable())
	if fl.report != "" {
		if err := st.write(fl.report, func(w io.Writer) error {
			return asFailure(writeFactorsJSON(w, fl, len(pp), fac))
		}); err != nil {
			return err
		}
	}
	if err := writeTOML(buf.Bytes()); err != nil {
		return err
	}
	return st.commit()
}

func distinctSizes(pp []models.PingPong) int {
	seen := map[int]bool{}
	for _, p := range pp {
		seen[p.Bytes] = true
	}
	return len(seen)
}

// factorsReport is fit --network's --report: the summary's figures, units in
// the names; the cv_ fields are absent when the sizes are too few to leave
// one out.
type factorsReport struct {
	Network      string   `json:"network"`
	Envelope     int      `json:"envelope_bytes"`
	Measurements int      `json:"measurements"`
	Ranges       int      `json:"ranges"`
	LatFactor    string   `json:"lat_factor"`
	BwFactor     string   `json:"bw_factor"`
	R2           float64  `json:"r2"`
	RMSE         float64  `json:"rmse_s"`
	CVHeld       int      `json:"cv_held"`  // measurements predicted with their size left out
	CVFolds      int      `json:"cv_folds"` // refits: one per size, or 10 folds of sizes beyond 30
	CVMean       *float64 `json:"cv_mean_rel,omitempty"`
	CVRel        *float64 `json:"cv_rel,omitempty"` // median
	CVMax        *float64 `json:"cv_max_rel,omitempty"`
	CVRMSE       *float64 `json:"cv_rmse_s,omitempty"`
	CVTotal      *float64 `json:"cv_total,omitempty"`
}

func writeFactorsJSON(w io.Writer, fl fitFlags, measurements int, fac models.Factors) error {
	q := fac.Quality
	r := factorsReport{Network: fl.network, Envelope: fl.envelope, Measurements: measurements, Ranges: len(fac.Bounds),
		LatFactor: fac.LatencyTable(), BwFactor: fac.BandwidthTable(), R2: q.R2, RMSE: q.RMSE, CVHeld: fac.CVHeld, CVFolds: fac.CVFolds}
	if fac.CVHeld > 0 {
		r.CVMean, r.CVRel, r.CVMax, r.CVRMSE, r.CVTotal = &fac.CVMean, &q.CVRel, &fac.CVMax, &q.CVRMSE, &q.CVTotal
	}
	return jsonout.Encode(w, r)
}

// pooledHosts names, per kernel fitted, the hosts of several that got no
// model of their own under --per-host (too few samples: models.FitOptions'
// MinHost), so a per-host fit that fell back to the pooled model says so.
func pooledHosts(samples []calibration.Sample, fits []calibration.KernelFit) []string {
	count := map[string]map[string]int{} // kernel → host → samples
	for _, s := range samples {
		if s.Host == "" || s.Status == calibration.StatusOutlier {
			continue
		}
		if count[s.Kernel] == nil {
			count[s.Kernel] = map[string]int{}
		}
		count[s.Kernel][s.Host]++
	}
	var lines []string
	for _, f := range fits {
		hosts := count[f.Kernel]
		if len(hosts) < 2 {
			continue
		}
		var few []string
		for _, h := range slices.Sorted(maps.Keys(hosts)) {
			if _, own := f.Spec.Host[h]; !own {
				few = append(few, fmt.Sprintf("%s (%d samples)", h, hosts[h]))
			}
		}
		if len(few) > 0 {
			lines = append(lines, fmt.Sprintf("%s: no model of its own for %s (a host needs %d samples, outliers and empty calls left out); the pooled model applies", f.Kernel, strings.Join(few, ", "), minHostSamples))
		}
	}
	return lines
}

// mixedSources names, per kernel fitted, the BLAS backends and the clocks
// its samples were measured with where there are several: a model fitted
// on gonum's and OpenBLAS's calls together (two nodes' files merged, one
// node calibrated with two builds), or on wall and CPU times, is the
// model of neither. Samples that do not say (other tools' files) and
// outliers are not counted.
func mixedSources(samples []calibration.Sample, fits []calibration.KernelFit) []string {
	type count = map[string]int
	backends, clocks := map[string]count{}, map[string]count{}
	add := func(m map[string]count, kernel, v string) {
		if v == "" {
			return
		}
		if m[kernel] == nil {
			m[kernel] = count{}
		}
		m[kernel][v]++
	}
	for _, s := range samples {
		if s.Status == calibration.StatusOutlier {
			continue
		}
		add(backends, s.Kernel, s.Backend)
		add(clocks, s.Kernel, s.Clock)
	}
	list := func(c count) string {
		var parts []string
		for _, k := range slices.Sorted(maps.Keys(c)) {
			parts = append(parts, fmt.Sprintf("%s %d", k, c[k]))
		}
		return strings.Join(parts, ", ")
	}
	var lines []string
	for _, f := range fits {
		if b := backends[f.Kernel]; len(b) > 1 {
			lines = append(lines, fmt.Sprintf("%s: samples of %d BLAS backends (%s) fitted as one model, which is neither's; fit each backend's files apart", f.Kernel, len(b), list(b)))
		}
		if c := clocks[f.Kernel]; len(c) > 1 {
			lines = append(lines, fmt.Sprintf("%s: samples timed by %d clocks (%s) fitted as one model; fit each clock's files apart", f.Kernel, len(c), list(c)))
		}
	}
	return lines
}

// minHostSamples is the samples of a kernel a host needs for its own model
// under --per-host (models.FitOptions.MinHost).
const minHostSamples = 30

// noteTornRow says that sample file f's torn last row (no newline: an
// interrupted calibration's, or a file cut short), which
// calibration.ReadSamples leaves out, is left out, at its file:line; fit and
// calibrate merge both read sample files so, and say it alike. data is f's
// content.
func noteTornRow(w io.Writer, f string, data []byte) {
	if n := calibration.TornLine(data); n > 0 {
		fmt.Fprintf(w, "emu: note: %s:%d: a row without its newline (torn by an interrupted write) is left out\n", f, n)
	}
}
