package scenario

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// TestRandomPlacement: platform.placement = "random" shuffles the ranks over
// every core of every host with the scenario's seed — the same seed gives the
// same placement, another seed another one, no host gets more ranks than it
// has cores — and "block" (the default) keeps rank r on host r / cores.
func TestRandomPlacement(t *testing.T) {
	place := func(sets ...string) ([]int, error) {
		s := Default()
		for _, kv := range append([]string{"platform.hosts=8", "platform.cores_per_host=2", "hpl.grids=[[2,3]]"}, sets...) {
			if err := s.Set(kv); err != nil {
				return nil, err
			}
		}
		p, err := s.Validate()
		if err != nil {
			return nil, err
		}
		return p.Platform.Placement(p.Ranks), nil
	}
	block, err := place()
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{0, 0, 1, 1, 2, 2}; !reflect.DeepEqual(block, want) {
		t.Errorf("block placement %v, want %v", block, want)
	}
	seen := map[string]bool{}
	for _, seed := range []int{1, 1, 2, 3} {
		got, err := place("platform.placement=random", fmt.Sprintf("seed=%d", seed))
		if err != nil {
			t.Fatal(err)
		}
		perHost := map[int]int{}
		for _, h := range got {
			if perHost[h]++; h < 0 || h >= 8 || perHost[h] > 2 {
				t.Fatalf("seed %d: placement %v puts rank(s) on host %d beyond its 2 cores", seed, got, h)
			}
		}
		seen[fmt.Sprint(got)] = true
	}
	if len(seen) != 3 {
		t.Errorf("seeds 1, 1, 2, 3 gave %d distinct placements, want 3: %v", len(seen), seen)
	}
	if _, err := place("platform.placement=scatter"); err == nil || !strings.Contains(err.Error(), "platform.placement: unknown placement \"scatter\" (block or random)") {
		t.Errorf("bad placement: err = %v", err)
	}
}

// TestNPPlacesAsSmpirun: platform.np (--np) offers that many ranks and places
// them as smpirun -np does (SimGrid's smpi_deployment_smpirun): on hostfile
// line i mod lines, or without a hostfile on host i mod hosts, the hosts in
// the order of their names (Engine::get_all_hosts sorts them: n-10 before
// n-2). Without np nothing changes, and a grid or trace beyond np is refused
// at the key.
func TestNPPlacesAsSmpirun(t *testing.T) {
	dir := t.TempDir()
	hostfile := dir + "/hosts"
	if err := os.WriteFile(hostfile, []byte("n-3\nn-1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hostfile1 := dir + "/host1"
	if err := os.WriteFile(hostfile1, []byte("n-2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	trace := dir + "/ti2.txt" // a TI trace of 2 ranks
	if err := os.WriteFile(trace, []byte("0 init\n1 init\n0 send 1 0 1000\n1 recv 0 0 1000\n0 finalize\n1 finalize\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	replay := []string{`app="replay"`, "replay.file=" + strconv.Quote(trace), "platform.hosts=4"}
	tests := []struct {
		name string
		sets []string
		want []int // hosts of ranks 0..len-1
		err  string
	}{
		{"names sort byte-wise", []string{"platform.hosts=12", "platform.np=14", "hpl.grids=[[2,7]]"},
			[]int{0, 1, 10, 11, 2, 3, 4, 5, 6, 7, 8, 9, 0, 1}, ""},
		{"radical numbers name the hosts", []string{"platform.hosts=3", `platform.radical="8-10"`, "platform.np=4", "hpl.grids=[[2,2]]"},
			[]int{2, 0, 1, 2}, ""}, // n-10, n-8, n-9
		{"cores do not fill first", []string{"platform.hosts=4", "platform.cores_per_host=4", "platform.np=6", "hpl.grids=[[2,3]]"},
			[]int{0, 1, 2, 3, 0, 1}, ""},
		{"without np: in order, cores first", []string{"platform.hosts=4", "platform.cores_per_host=4", "hpl.grids=[[2,3]]"},
			[]int{0, 0, 0, 0, 1, 1}, ""},
		{"hostfile lines wrap", []string{"platform.hosts=4", "platform.hostfile=" + strconv.Quote(hostfile), "platform.np=5", "hpl.grids=[[1,5]]"},
			[]int{3, 1, 3, 1, 3}, ""},
		{"without np a hostfile offers its lines", []string{"platform.hosts=4", "platform.hostfile=" + strconv.Quote(hostfile), "hpl.grids=[[1,3]]"},
			nil, "hpl.grids: a 3-process grid needs more ranks than the 2 the platform offers (2 hostfile lines)"},
		{"a grid beyond np", []string{"platform.hosts=4", "platform.np=3", "hpl.grids=[[2,2]]"},
			nil, "platform.np: a 4-process grid needs more ranks than the 3 the platform offers (np = 3)"},
		{"pingpong beyond np", []string{"app=\"pingpong\"", "platform.np=1"},
			nil, "platform.np: 1 ranks, the run needs 2"},
		// A ring or congestor runs on every rank the platform starts: too few
		// is np's or the hostfile's fault when they set the count.
		{"ring under np", []string{`app="ring"`, "platform.np=1"},
			nil, "platform.np: a ring needs at least 2 ranks, the platform starts 1 (np = 1)"},
		{"congestor under np", []string{`app="congestor"`, `congestor.pattern="incast"`, "platform.np=1"},
			nil, "platform.np: a congestor needs at least 2 ranks, the platform starts 1 (np = 1)"},
		{"ring of a one-line hostfile", []string{`app="ring"`, "platform.hostfile=" + strconv.Quote(hostfile1)},
			nil, "platform.hostfile: a ring needs at least 2 ranks, the platform starts 1 (1 hostfile lines)"},
		{"ring of one host", []string{`app="ring"`, "platform.hosts=1"},
			nil, "platform.hosts: a ring needs at least 2 ranks, the platform starts 1 (1 hosts × 1 cores)"},
		{"negative", []string{"platform.np=-2"}, nil, "platform.np: -2: want 1 to 4194304 ranks"},
		// smpirun -np 0 starts nothing: np = 0 was taken for np left out.
		{"zero", []string{"platform.np=0"}, nil, "platform.np: 0: want 1 to 4194304 ranks"},
		// A replay starts the trace's ranks, each once: np offers placement
		// (rank i on host i mod hosts), not more ranks. With more, SMPI's
		// extra ranks would have no actions, and emu would run 2 of the 4
		// ranks asked for without saying so: refused, as too few are.
		{"replay at np", append(replay, "platform.np=2"), []int{0, 1}, ""},
		{"replay beyond np", append(replay, "platform.np=1"), nil, "platform.np: 1 ranks, the run needs 2"},
		{"replay short of np", append(replay, "platform.np=4"),
			nil, "platform.np: 4 ranks, the trace has 2: a replay starts each of the trace's ranks once (np = 2, or leave np out)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Default()
			mustSet(t, s, append([]string{`platform.host_prefix="n-"`}, tt.sets...))
			p, err := s.Validate()
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := p.Platform.Placement(len(tt.want)); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("placement %v, want %v", got, tt.want)
			}
		})
	}
}
