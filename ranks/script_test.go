package ranks

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/internal/golden"
)

// TestScripts runs the tiny scenario language of testdata/script/*.txt —
// SimGrid's tesh and raft's interaction tests in spirit: a platform, a
// model, each rank's calls, then "----" and the times at which every call
// returned. The expected part is regenerated with -update and reviewed as a
// diff; the comments in each file derive the numbers by hand.
//
//	crossbar HOSTS BW LAT          test topology (B/s, s)
//	model cm02|smpi [key=value...] eager= async= iprobe= test= os= or= ois= fifo=
//	R: compute S | send D TAG BYTES | isend D TAG BYTES | recv S TAG |
//	   irecv S TAG | wait | waitall | iprobe-until S TAG | barrier |
//	   bcast ROOT BYTES | allreduce BYTES        (S may be "any", TAG "any")
func TestScripts(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "script", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no script under testdata/script")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			input, want, _ := strings.Cut(string(data), "\n----\n")
			got, err := runScript(input)
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			if golden.Updating() {
				if err := os.WriteFile(file, []byte(input+"\n----\n"+got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("%s: output differs (run with -update and review the diff)\ngot:\n%swant:\n%s", file, got, want)
			}
		})
	}
}

type scriptOp struct {
	line int
	name string
	args []string
}

func runScript(input string) (string, error) {
	var topo *crossbar
	var cfg Config
	ops := map[int][]scriptOp{}
	for i, raw := range strings.Split(input, "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		switch {
		case f[0] == "crossbar" && len(f) == 4:
			n, err1 := strconv.Atoi(f[1])
			bw, err2 := strconv.ParseFloat(f[2], 64)
			lat, err3 := strconv.ParseFloat(f[3], 64)
			if err1 != nil || err2 != nil || err3 != nil {
				return "", fmt.Errorf("line %d: crossbar HOSTS BW LAT", i+1)
			}
			topo = newCrossbar(n, bw, lat)
		case f[0] == "model":
			var err error
			if cfg, err = Preset(f[1]); err != nil {
				return "", fmt.Errorf("line %d: %v", i+1, err)
			}
			for _, kv := range f[2:] {
				if err := setScriptKey(&cfg, kv); err != nil {
					return "", fmt.Errorf("line %d: %v", i+1, err)
				}
			}
		case strings.HasSuffix(f[0], ":"):
			r, err := strconv.Atoi(strings.TrimSuffix(f[0], ":"))
			if err != nil || len(f) < 2 {
				return "", fmt.Errorf("line %d: want \"RANK: op args\"", i+1)
			}
			ops[r] = append(ops[r], scriptOp{line: i + 1, name: f[1], args: f[2:]})
		default:
			return "", fmt.Errorf("line %d: unknown command %q", i+1, f[0])
		}
	}
	if topo == nil {
		return "", fmt.Errorf("no crossbar line")
	}
	w, err := NewWorld(cfg, topo, identity(topo.hosts), 1)
	if err != nil {
		return "", err
	}
	type record struct {
		t    float64
		rank int
		text string
	}
	var out []record
	runErr := w.Run(func(r *Rank) {
		c := r.World()
		var pending []*Request
		for _, op := range ops[r.ID()] {
			text := op.name + " " + strings.Join(op.args, " ")
			if extra := doScriptOp(c, op, &pending); extra != "" {
				text += " -> " + extra
			}
			out = append(out, record{r.Now(), r.ID(), strings.TrimSpace(text)})
		}
	})
	if runErr != nil {
		return "", runErr
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].t < out[j].t })
	var b strings.Builder
	for _, rec := range out {
		fmt.Fprintf(&b, "%.9e  rank %d  %s\n", rec.t, rec.rank, rec.text)
	}
	return b.String(), nil
}

func setScriptKey(cfg *Config, kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("%q: want key=value", kv)
	}
	num, err := strconv.ParseFloat(v, 64)
	if err != nil && k != "os" && k != "or" && k != "ois" {
		return fmt.Errorf("%q: %v", kv, err)
	}
	switch k {
	case "eager":
		cfg.EagerThreshold = int(num)
	case "async":
		cfg.AsyncThreshold = int(num)
	case "iprobe":
		cfg.IprobeCost = num
	case "test":
		cfg.TestCost = num
	case "fifo": // fifo=1 is WakeFIFO unless SimGrid's order (FIFO too) is set
		switch {
		case num != 0 && cfg.WakeOrder == WakeRank:
			cfg.WakeOrder = WakeFIFO
		case num == 0 && cfg.WakeOrder == WakeFIFO:
			cfg.WakeOrder = WakeRank
		}
	case "simgrid":
		switch {
		case num != 0:
			cfg.WakeOrder = WakeSimGrid
		case cfg.WakeOrder == WakeSimGrid:
			cfg.WakeOrder = WakeRank
		}
	case "os", "or", "ois":
		tb, err := ParseTable(v)
		if err != nil {
			return fmt.Errorf("%q: %v", kv, err)
		}
		*map[string]*Table{"os": &cfg.SendOverhead, "or": &cfg.RecvOverhead, "ois": &cfg.IsendOverhead}[k] = tb
	default:
		return fmt.Errorf("unknown key %q", k)
	}
	return nil
}

// doScriptOp runs one call; it panics on a malformed op (reported by Run as
// the rank's panic, with the script line).
func doScriptOp(c *Comm, op scriptOp, pending *[]*Request) string {
	arg := func(i int) int {
		if i >= len(op.args) {
			panic(fmt.Sprintf("line %d: %s needs %d arguments", op.line, op.name, i+1))
		}
		switch op.args[i] {
		case "any":
			return -1 // AnySource and AnyTag alike
		}
		n, err := strconv.Atoi(op.args[i])
		if err != nil {
			panic(fmt.Sprintf("line %d: %v", op.line, err))
		}
		return n
	}
	status := func(st Status) string { return fmt.Sprintf("src %d tag %d %d B", st.Source, st.Tag, st.Bytes) }
	switch op.name {
	case "compute":
		s, err := strconv.ParseFloat(op.args[0], 64)
		if err != nil {
			panic(fmt.Sprintf("line %d: %v", op.line, err))
		}
		c.r.Compute(s, "script")
	case "send":
		c.Send(arg(0), arg(1), Msg{Bytes: arg(2)})
	case "isend":
		*pending = append(*pending, c.Isend(arg(0), arg(1), Msg{Bytes: arg(2)}))
	case "recv":
		_, st := c.Recv(arg(0), arg(1))
		return status(st)
	case "irecv":
		*pending = append(*pending, c.Irecv(arg(0), arg(1)))
	case "wait":
		q := (*pending)[0]
		*pending = (*pending)[1:]
		if _, st := q.Wait(); !q.send {
			return status(st)
		}
	case "waitall":
		Waitall(*pending...)
		*pending = nil
	case "iprobe-until":
		for n := 1; ; n++ {
			if ok, st := c.Iprobe(arg(0), arg(1)); ok {
				return fmt.Sprintf("%s after %d probes", status(st), n)
			}
		}
	case "barrier":
		c.Barrier()
	case "bcast":
		c.Bcast(arg(0), Msg{Bytes: arg(1)})
	case "allreduce":
		c.Allreduce(Msg{Bytes: arg(0)}, Sum)
	default:
		panic(fmt.Sprintf("line %d: unknown op %q", op.line, op.name))
	}
	return ""
}
