package plots_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/calibration"
	"github.com/emu-hpc/emu/observe"
	"github.com/emu-hpc/emu/plots"
	"github.com/emu-hpc/emu/sensitivity"
	"github.com/emu-hpc/emu/tune"
)

// TestBreakdown: the three parts are drawn and named in the legend.
func TestBreakdown(t *testing.T) {
	b := &observe.Breakdown{Compute: []float64{1, 0}, Comm: []float64{1e-4, 1e-4}, Wait: []float64{0, 1}}
	var svg bytes.Buffer
	if err := plots.Breakdown(&svg, b, "two ranks"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", "two ranks", "compute", "communication", "waiting"} {
		if !strings.Contains(svg.String(), want) {
			t.Errorf("the breakdown's SVG lacks %q", want)
		}
	}
}

// TestHottestLinks: of 20 links of utilisation 0.01·i, the 16 hottest are
// drawn (l4 to l19) and the four coolest are not.
func TestHottestLinks(t *testing.T) {
	tr := &observe.Traffic{Time: 1}
	for i := range 20 {
		tr.Links = append(tr.Links, observe.LinkUse{Name: fmt.Sprintf("l%d", i), Class: "host", Util: 0.01 * float64(i), BusyUtil: 0.5})
	}
	tr.Classes = []observe.ClassUse{{Class: "host", Links: 20, Util: 0.095, BusyUtil: 0.5}, {Class: "level1", Links: 2}}
	var hot, classes bytes.Buffer
	if err := plots.HottestLinks(&hot, tr, "hot"); err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if drawn := strings.Contains(hot.String(), fmt.Sprintf(">l%d<", i)); drawn != (i >= 4) {
			t.Errorf("link l%d drawn: %v, want %v", i, drawn, i >= 4)
		}
	}
	if err := plots.LinkClasses(&classes, tr, "classes"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{">host<", ">level1<", "mean over the run", "while busy"} {
		if !strings.Contains(classes.String(), want) {
			t.Errorf("the classes' SVG lacks %q", want)
		}
	}
}

// threePaths is sensitivity's test graph: a 12 s calc beside two messages,
// one of one latency term and one of three.
func threePaths() *sensitivity.Graph {
	b := sensitivity.NewBuilder(3)
	b.Vertex(0, sensitivity.Calc, 12)
	s1 := b.Vertex(1, sensitivity.Send, 4)
	r1 := b.Vertex(2, sensitivity.Recv, 4)
	b.Edge(s1, r1, 2, sensitivity.LatTerm{Class: 0, Count: 1})
	s2 := b.Vertex(1, sensitivity.Send, 0)
	r2 := b.Vertex(2, sensitivity.Recv, 1)
	b.EdgeBytes(s2, r2, 1, 64, sensitivity.LatTerm{Class: 0, Count: 3})
	return b.Graph()
}

func TestSensitivity(t *testing.T) {
	dir := t.TempDir()
	r, err := sensitivity.Analyze(threePaths(), sensitivity.Params{L0: 1, Lmin: 0, Lmax: 10})
	if err != nil {
		t.Fatal(err)
	}
	if err := plots.Sensitivity(dir, r); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"runtime.svg", "lambda_L.svg", "rho_L.svg"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil || !strings.Contains(string(b), "<svg") {
			t.Errorf("%s: %v, %d bytes", f, err, len(b))
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "runtime_by_class.svg")); err == nil {
		t.Error("runtime_by_class.svg written for a report without swept classes")
	}
	// λ_L counts latency terms: a message of a wire-mode graph carries one a
	// link of its route (a 3-message critical path on a fat tree has λ_L 10),
	// so the axis does not call them messages.
	if b, _ := os.ReadFile(filepath.Join(dir, "lambda_L.svg")); !strings.Contains(string(b), "latency terms on the critical path") {
		t.Error("lambda_L.svg: the axis does not say λ_L counts latency terms")
	}
	// With link classes swept alone, one line per class, named in the legend.
	r.Classes = []sensitivity.ClassSensitivity{
		{Class: 0, Name: "terminal", L: 1, Curve: []sensitivity.CurvePoint{{L: 1, T: 2}, {L: 2, T: 3}}},
		{Class: 1, Name: "inter", L: 1, Curve: []sensitivity.CurvePoint{{L: 1, T: 2}, {L: 2, T: 5}}},
	}
	if err := plots.Sensitivity(dir, r); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "runtime_by_class.svg"))
	if err != nil || !strings.Contains(string(b), "terminal") || !strings.Contains(string(b), "inter") {
		t.Errorf("runtime_by_class.svg: %v, %d bytes, want both classes in the legend", err, len(b))
	}
}

// TestCalibration: each kernel gets its figure and its residuals', the
// files come back sorted, and each host is named in the legend, with its
// model line only where the model predicts a positive time.
func TestCalibration(t *testing.T) {
	dir := t.TempDir()
	fits := []calibration.KernelPoints{
		{Kernel: "dgemm", Product: "m*n*k", Hosts: []calibration.HostPoints{
			{Host: "node1", Points: []calibration.FitPoint{{W: 1, Seconds: 1e-9, Model: 1.1e-9}, {W: 8, Seconds: 9e-9, Model: 8e-9}}},
			{Host: "node2", Points: []calibration.FitPoint{{W: 1000, Seconds: 2e-6, Model: 0}, {W: 2000, Seconds: 3e-6, Model: 0}}},
		}},
		{Kernel: "daxpy", Product: "n", Hosts: []calibration.HostPoints{
			{Host: "node1", Points: []calibration.FitPoint{{W: 100, Seconds: 1e-7, Model: 1e-7}, {W: 200, Seconds: 2.2e-7, Model: 2e-7}}},
		}},
	}
	files, err := plots.Calibration(dir, fits)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"daxpy-residuals.svg", "daxpy.svg", "dgemm-residuals.svg", "dgemm.svg"}
	if len(files) != len(want) {
		t.Fatalf("wrote %v, want %v", files, want)
	}
	for i, f := range files {
		if filepath.Base(f) != want[i] || filepath.Dir(f) != dir {
			t.Errorf("file %d: %s, want %s in %s", i, f, want[i], dir)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "dgemm.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<svg", "dgemm: measured duration and model", "w = m*n*k", ">node1<", ">node1 model<", ">node2<"} {
		if !strings.Contains(string(b), s) {
			t.Errorf("dgemm.svg lacks %q", s)
		}
	}
	if strings.Contains(string(b), "node2 model") {
		t.Error("dgemm.svg draws node2's model, which predicts no time")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "dgemm-residuals.svg")); !strings.Contains(string(b), "(measured − model) / model") {
		t.Error("dgemm-residuals.svg lacks its axis")
	}
}

// TestTune: one bar chart per envelope, named after its key with dots and
// slashes as underscores, its values' quotes left off the labels.
func TestTune(t *testing.T) {
	dir := t.TempDir()
	envs := []tune.Envelope{
		{Key: "hpl.nb", Values: []string{"64", "256"}, Best: []float64{4, 5}},
		{Key: "hpl/bcast", Values: []string{`"1ring"`, `"2ringM"`}, Best: []float64{3, 2}},
	}
	if err := plots.Tune(dir, envs); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ file, label string }{{"gflops_vs_hpl_nb.svg", ">256<"}, {"gflops_vs_hpl_bcast.svg", ">2ringM<"}} {
		b, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil || !strings.Contains(string(b), "<svg") || !strings.Contains(string(b), c.label) {
			t.Errorf("%s: %v, %d bytes, want an SVG labelled %s", c.file, err, len(b), c.label)
		}
		if strings.Contains(string(b), `"1ring"`) || strings.Contains(string(b), "&#34;") {
			t.Errorf("%s: a value's quotes are drawn", c.file)
		}
	}
}

// TestCalibrationOfOneDuration: a kernel whose samples all took the same
// time, below a second, as its model says, is drawn, not a panic (gonum/plot
// widened the one-value log axis to [t−1, t+1], below zero); so is one whose
// only product term is 1.
func TestCalibrationOfOneDuration(t *testing.T) {
	for _, p := range []calibration.FitPoint{{W: 100, Seconds: 1e-7, Model: 1e-7}, {W: 1, Seconds: 2e-9, Model: 1e-9}} {
		fits := []calibration.KernelPoints{{Kernel: "daxpy", Product: "n", Hosts: []calibration.HostPoints{{Host: "h", Points: []calibration.FitPoint{p, p}}}}}
		files, err := plots.Calibration(t.TempDir(), fits)
		if err != nil || len(files) != 2 {
			t.Errorf("%+v: wrote %v, %v; want daxpy's two figures", p, files, err)
		}
	}
}
