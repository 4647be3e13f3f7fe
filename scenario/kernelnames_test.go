package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

// A model for a kernel emu does not call, or for a host the platform does not
// have, would be silently unused (a typo'd [kernels.dgemmm] leaves dgemm free):
// both are errors naming the key.
func TestKernelModelNamesMustExist(t *testing.T) {
	const base = "[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\n"
	for _, c := range []struct{ name, doc, want string }{
		{"typo", base + "[kernels.dgemmm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n",
			"s.toml:5: kernels.dgemmm: no kernel of that name (did you mean dgemm?); emu's kernels: dgemm, dtrsm, dgemv, dger, dtrsv, dscal, daxpy, dcopy, dswap, idamax, dlaswp, dgather, dscatter, duswp, dlacpy, dlatcpy, dlocswp"},
		{"unknown host", base + "[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n[kernels.dgemm.host.host-9]\nintercept = 1e-6\n",
			"s.toml:8: kernels.dgemm.host.host-9: the platform has no host of that name (host-0 … host-3)"},
		{"unknown host of a CPU key", base + "[kernels.dgemm]\n[kernels.dgemm.host.\"host-9/cpu0\"]\nintercept = 1e-6\n",
			"s.toml:6: kernels.dgemm.host.host-9/cpu0: the platform has no host of that name (host-0 … host-3)"},
		// host_speed takes "host-1..2" and globs; a model table does not, and
		// said only that no host has that name.
		{"a range", base + "[kernels.dgemm]\n[kernels.dgemm.host.\"host-1..2\"]\nintercept = 1e-6\n",
			"s.toml:6: kernels.dgemm.host.host-1..2: the platform has no host of that name (host-0 … host-3); a per-host model names one host (ranges and globs are kernels.host_speed's)"},
		{"a glob", base + "[kernels.dgemm]\n[kernels.dgemm.host.\"host-*\"]\nintercept = 1e-6\n",
			"s.toml:6: kernels.dgemm.host.host-*: the platform has no host of that name (host-0 … host-3); a per-host model names one host (ranges and globs are kernels.host_speed's)"},
		{"CPU beyond the sockets", base + "sockets_per_host = 1\n[kernels.dgemm]\n[kernels.dgemm.host.\"host-1/cpu1\"]\nintercept = 1e-6\n",
			"s.toml:7: kernels.dgemm.host.host-1/cpu1: CPU 1 of a host with platform.sockets_per_host = 1 (CPUs 0 … 0)"},
	} {
		s, err := Parse([]byte(c.doc), "s.toml")
		if err == nil {
			_, err = s.Validate()
		}
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.name, err, c.want)
		}
	}
	// HPL's own routines' variants belong to their family; a host that exists is fine
	ok := base + "[kernels.HPL_dlaswp01T]\nintercept = 1e-7\n[kernels.dgemm]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n[kernels.dgemm.host.host-2]\nintercept = 1e-6\n"
	s, err := Parse([]byte(ok), "s.toml")
	if err == nil {
		_, err = s.Validate()
	}
	if err != nil {
		t.Errorf("known names: %v", err)
	}
	// a models file is checked too, naming the file
	dir := t.TempDir()
	m := filepath.Join(dir, "m.toml")
	if err := os.WriteFile(m, []byte("[kernels.dgem]\nterms = [\"m*n*k\"]\ncoef = [1e-11]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Parse([]byte(base+"[kernels]\nmodels = \""+m+"\"\n"), "s.toml")
	if err == nil {
		_, err = s.Validate()
	}
	if want := m + ": kernels.dgem: no kernel of that name (did you mean dgemm?)"; err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("models file: got %v, want %s...", err, want)
	}
	// but a models file's per-host models may cover more hosts than the platform
	// (a whole machine calibrated, a part emulated)
	if err := os.WriteFile(m, []byte("[kernels.dgemm]\nintercept = 1e-6\n[kernels.dgemm.host.host-3]\nintercept = 2e-6\n[kernels.dgemm.host.host-99]\nintercept = 3e-6\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Parse([]byte(base+"[kernels]\nmodels = \""+m+"\"\n"), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	p, err := s.Validate()
	if err != nil {
		t.Errorf("models file with hosts beyond the platform: %v", err)
	}
	// and the plan notes the ones it will not use
	if want := m + ": per-host models for 1 host(s) or CPU(s) this platform lacks, unused: host-99"; len(p.Notes) != 1 || p.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", p.Notes, want)
	}
	// A file of per-CPU models notes the CPUs it leaves to the platform-wide model
	// (neither their own override nor their host's): with 2 sockets, host-0's
	// two and host-2's cpu1, where host-1 has a host model and host-3 both CPUs.
	perCPU := "[kernels.dgemm]\nintercept = 1e-6\n[kernels.dgemm.host.\"host-1\"]\nintercept = 2e-6\n" +
		"[kernels.dgemm.host.\"host-2/cpu0\"]\nintercept = 3e-6\n[kernels.dgemm.host.\"host-3/cpu0\"]\nintercept = 3e-6\n[kernels.dgemm.host.\"host-3/cpu1\"]\nintercept = 3e-6\n"
	if err := os.WriteFile(m, []byte(perCPU), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err = Parse([]byte(base+"[kernels]\nmodels = \""+m+"\"\n"), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Set("platform.sockets_per_host=2"); err != nil {
		t.Fatal(err)
	}
	if err := s.Set("platform.cores_per_host=2"); err != nil {
		t.Fatal(err)
	}
	if p, err = s.Validate(); err != nil {
		t.Fatal(err)
	}
	if want := m + ": per-CPU models, but none for 3 CPU(s) of this platform, which take the platform-wide model: host-0/cpu0, host-0/cpu1, host-2/cpu1"; len(p.Notes) != 1 || p.Notes[0] != want {
		t.Errorf("notes %q, want [%q]", p.Notes, want)
	}
}
