package calibration

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/emu-hpc/emu/models"
)

// TestProbeLogSameTime: two probes of one host measured at the same time
// that differ are refused, naming both files' lines and the field; before,
// LatestPerHost kept whichever was read first, so merge n0 n1 and merge n1
// n0 recorded different references (qa47b). The same probe twice (a copy)
// is kept once; another host, or another time, is no clash.
func TestProbeLogSameTime(t *testing.T) {
	base := ref("n1", 52, testTime)
	with := func(f func(*models.Probe)) models.Probe { p := base; f(&p); return p }
	for _, c := range []struct {
		name string
		b    models.Probe
		keep int    // probes kept when there is no error
		want string // the error's text, "" when none
	}{
		{"a copy", base, 1, ""},
		{"the same instant in another zone", with(func(p *models.Probe) { p.Time = testTime.In(time.FixedZone("X", 3600)) }), 1, ""},
		{"another host", with(func(p *models.Probe) { p.Host = "n2"; p.Gflops = 40 }), 2, ""},
		{"a second later", with(func(p *models.Probe) { p.Time = testTime.Add(time.Second); p.Gflops = 40 }), 2, ""},
		{"another rate", with(func(p *models.Probe) { p.Gflops = 40 }), 0,
			`b.csv:2: probe: host "n1" measured at 2026-11-28T09:00:00Z, as a.csv:2's probe, but gflops 40, not 52: two nodes calibrated under one host name (give each its own --host) or an edited file; keep one of them`},
		{"another CPU", with(func(p *models.Probe) { p.CPU = "other" }), 0, `but cpu "other", not "` + testNode.CPU + `"`},
		{"other cores", with(func(p *models.Probe) { p.Cores = 8 }), 0, "but cores 8, not 4"},
		{"another clock", with(func(p *models.Probe) { p.Clock = "cpu" }), 0, `but clock "cpu", not "wall"`},
		{"other runs", with(func(p *models.Probe) { p.Runs = 3 }), 0, "but runs 3, not 7"},
	} {
		file := func(p models.Probe) []byte {
			var buf bytes.Buffer
			if err := WriteSampleFile(&buf, nil, []models.Probe{p}); err != nil {
				t.Fatal(err)
			}
			return buf.Bytes()
		}
		var l ProbeLog
		if err := l.Add(file(base), "a.csv"); err != nil {
			t.Fatal(err)
		}
		err := l.Add(file(c.b), "b.csv")
		switch {
		case c.want == "" && (err != nil || len(l.Probes()) != c.keep):
			t.Errorf("%s: %d probes, %v; want %d, no error", c.name, len(l.Probes()), err, c.keep)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v; want an error holding %q", c.name, err, c.want)
		}
	}
}

// TestMergeProbesSameTimeEitherOrder: calibrate merge of two files whose
// probes of one host share a time but differ is refused, in either order
// (it recorded the first file's probe), and a file beside its copy keeps
// the one probe.
func TestMergeProbesSameTimeEitherOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, index int, p models.Probe) string {
		path := filepath.Join(dir, name)
		var buf bytes.Buffer
		row := Sample{Index: index, Plan: "p", Host: p.Host, Core: 0, Kernel: "dgemm", M: 1, N: 2, K: 3, Seconds: 1e-6}
		if err := WriteSampleFile(&buf, []Sample{row}, []models.Probe{p}); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	n0 := write("n0.csv", 0, ref("n1", 52, testTime))
	n1 := write("n1.csv", 1, ref("n1", 40, testTime))
	cp := write("copy.csv", 2, ref("n1", 52, testTime))
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{n0, n1}, n1 + ":2: probe: host \"n1\" measured at 2026-11-28T09:00:00Z, as " + n0 + ":2's probe, but gflops 40, not 52"},
		{[]string{n1, n0}, n0 + ":2: probe: host \"n1\" measured at 2026-11-28T09:00:00Z, as " + n1 + ":2's probe, but gflops 52, not 40"},
		{[]string{n0, cp}, ""},
	} {
		_, probes, _, err := Merge(c.files)
		if c.want == "" {
			if err != nil || len(probes) != 1 || probes[0].Gflops != 52 {
				t.Errorf("merge %v: %+v, %v; want the one probe", c.files, probes, err)
			}
			continue
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("merge %v: %v; want %q...", c.files, err, c.want)
		}
	}
}
