package fluid_test

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
	"github.com/emu-hpc/emu/internal/golden"
)

// Scenario files (testdata/scenarios/*.txt) are readable System tests, in
// the spirit of SimGrid's tesh files: links and timed flows above a "----"
// line, the trace of the run below it. Lines starting with # are comments
// (derive the expected trace there). Commands:
//
//	link NAME bw=BYTES/S [lat=S] [fatpipe]
//	flow NAME at=S bytes=B links=L1,L2 [bound=B/S] [weight=W] [reverse=L3,L4 share=F] [cancel=S]
//
// The trace prints, at each event, the event and the rates of all running
// flows. `go test -run Scenario -update` rewrites the traces.
func TestScenarios(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			input, want, _ := strings.Cut(string(data), "----\n")
			sc, err := parseScenario(file, input)
			if err != nil {
				t.Fatal(err)
			}
			got := sc.run()
			if golden.Updating() {
				if err := os.WriteFile(file, []byte(input+"----\n"+got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if got != want {
				t.Errorf("%s: trace differs; got:\n%s\nwant:\n%s", file, got, want)
			}
		})
	}
}

type scFlow struct {
	name     string
	spec     fluid.FlowSpec
	at       float64
	cancel   float64
	id       fluid.FlowID
	running  bool
	finished bool
}

type scFile struct {
	links []fluid.Link
	flows []*scFlow
}

// parseScenario reads the command lines of a scenario; errors name the
// file and line.
func parseScenario(file, input string) (*scFile, error) {
	sc := &scFile{}
	linkID := map[string]fluid.LinkID{}
	sn := bufio.NewScanner(strings.NewReader(input))
	for line := 1; sn.Scan(); line++ {
		text := strings.TrimSpace(sn.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		words := strings.Fields(text)
		if len(words) < 2 {
			return nil, fmt.Errorf("%s:%d: want a command and a name", file, line)
		}
		args := map[string]string{}
		for _, w := range words[2:] {
			k, v, _ := strings.Cut(w, "=")
			args[k] = v
		}
		num := func(key string, def float64) (float64, error) {
			v, ok := args[key]
			if !ok {
				return def, nil
			}
			x, err := strconv.ParseFloat(v, 64)
			if err != nil || x < 0 {
				return 0, fmt.Errorf("%s:%d: %s=%q is not a number ≥ 0", file, line, key, v)
			}
			return x, nil
		}
		ids := func(key string) ([]fluid.LinkID, error) {
			var out []fluid.LinkID
			for _, n := range strings.Split(args[key], ",") {
				if n == "" {
					continue
				}
				id, ok := linkID[n]
				if !ok {
					return nil, fmt.Errorf("%s:%d: unknown link %q", file, line, n)
				}
				out = append(out, id)
			}
			return out, nil
		}
		var errs [8]error
		switch words[0] {
		case "link":
			l := fluid.Link{Name: words[1]}
			l.Bandwidth, errs[0] = num("bw", 0)
			l.Latency, errs[1] = num("lat", 0)
			if _, ok := args["fatpipe"]; ok {
				l.Sharing = fluid.FatPipe
			}
			linkID[l.Name] = fluid.LinkID(len(sc.links))
			sc.links = append(sc.links, l)
		case "flow":
			f := &scFlow{name: words[1]}
			f.at, errs[0] = num("at", 0)
			f.cancel, errs[1] = num("cancel", math.Inf(1))
			f.spec.Bytes, errs[2] = num("bytes", 0)
			f.spec.Bound, errs[3] = num("bound", 0)
			f.spec.Weight, errs[4] = num("weight", 0)
			f.spec.ReverseShare, errs[5] = num("share", 0)
			f.spec.Links, errs[6] = ids("links")
			f.spec.Reverse, errs[7] = ids("reverse")
			f.cancel = math.Max(f.cancel, f.at) // a flow is cancelled once started
			sc.flows = append(sc.flows, f)
		default:
			return nil, fmt.Errorf("%s:%d: unknown command %q", file, line, words[0])
		}
		for _, err := range errs {
			if err != nil {
				return nil, err
			}
		}
	}
	return sc, nil
}

// run drives a System through the scenario and returns its trace.
func (sc *scFile) run() string {
	s := fluid.NewSystem(sc.links)
	byID := map[fluid.FlowID]*scFlow{}
	var out strings.Builder
	for {
		// Next timed event: a start or a cancel, earliest first, file order on ties.
		var next *scFlow
		nextT, cancel := math.Inf(1), false
		for _, f := range sc.flows {
			if !f.running && !f.finished && f.at < nextT {
				next, nextT, cancel = f, f.at, false
			}
			if f.running && f.cancel < nextT {
				next, nextT, cancel = f, f.cancel, true
			}
		}
		tc, id, ok := s.NextCompletion()
		switch {
		case ok && tc <= nextT:
			f := byID[id]
			s.Finish(tc, id)
			f.running, f.finished = false, true
			fmt.Fprintf(&out, "%.9f done %s\n", tc, f.name)
		case next != nil && cancel:
			s.Cancel(nextT, next.id)
			next.running, next.finished = false, true
			fmt.Fprintf(&out, "%.9f cancel %s\n", nextT, next.name)
		case next != nil:
			next.id = s.Start(nextT, next.spec)
			next.running = true
			byID[next.id] = next
			fmt.Fprintf(&out, "%.9f start %s\n", nextT, next.name)
		default:
			return out.String()
		}
		var rates []string
		for _, f := range sc.flows {
			if f.running {
				rates = append(rates, fmt.Sprintf("%s=%.6g", f.name, s.Rate(f.id)))
			}
		}
		if rates = slices.Clip(rates); len(rates) > 0 {
			fmt.Fprintf(&out, "  rates %s\n", strings.Join(rates, " "))
		}
	}
}

// FuzzParseScenario: no input panics the scenario parser.
func FuzzParseScenario(f *testing.F) {
	f.Add("link wire bw=100\nflow a at=0 bytes=100 links=wire\n")
	f.Add("link x\nflow a links=x,y\n")
	f.Add("flow\n# comment\nlink l bw=-1 fatpipe\n")
	f.Fuzz(func(t *testing.T, input string) {
		parseScenario("fuzz.txt", input)
	})
}
