package platform

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/emu-hpc/emu/fluid"
)

// TestParseProfile: SimGrid 3.32's legacy profile format
// (ProfileBuilder.cpp): dates become differences from the previous one,
// LOOPAFTER is the delay after the last event, PERIODICITY P makes it
// P − the last date.
func TestParseProfile(t *testing.T) {
	tests := []struct {
		text string
		per  float64
		want fluid.Profile
	}{
		{"0 0.5\n2 1.0\n4 0.7\n", -1, fluid.Profile{Steps: steps(0, 0.5, 2, 1, 2, 0.7), Repeat: -1}},
		// jupiter_speed.profile of SimGrid's examples
		{"0 0.5\n2 1.0\n4 0.7\n6 0.1\n8 4\nLOOPAFTER 10", -1, fluid.Profile{Steps: steps(0, 0.5, 2, 1, 2, 0.7, 2, 0.1, 2, 4), Repeat: 10}},
		// comments, blank lines, CR, indentation
		{"# c\r\n% d\r\n\r\n  1   3e6 \r\n  5 1e6\r\n", -1, fluid.Profile{Steps: steps(1, 3e6, 4, 1e6), Repeat: -1}},
		// a <trace>'s periodicity: the loop delay is 21 − 20
		{"0.0 1.0\n11.0 0.5\n20.0 0.9\n", 21, fluid.Profile{Steps: steps(0, 1, 11, 0.5, 9, 0.9), Repeat: 1}},
		{"PERIODICITY 30\n0 1\n10 0.8\n20 0.4\n", -1, fluid.Profile{Steps: steps(0, 1, 10, 0.8, 10, 0.4), Repeat: 10}},
		// a UTF-8 byte order mark that an editor saved (was "date \"\ufeff0\"" on line 1)
		{"\ufeff0 0.5\r\n2 1.0\r\n", -1, fluid.Profile{Steps: steps(0, 0.5, 2, 1), Repeat: -1}},
		{"", -1, fluid.Profile{Repeat: -1}},
		{"3 1\n3 2\n", -1, fluid.Profile{Steps: steps(3, 1, 0, 2), Repeat: -1}},
	}
	for _, tt := range tests {
		got, err := ParseProfile(tt.text, tt.per, "p.txt", 1)
		if err != nil || !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%q (periodicity %v): got %+v, %v; want %+v", tt.text, tt.per, got, err, tt.want)
		}
	}
}

// TestParseProfileErrors: one line naming the file and the line.
func TestParseProfileErrors(t *testing.T) {
	tests := []struct {
		text string
		per  float64
		want string
	}{
		{"0 1\n2\n", -1, `p.txt:2: "2": want DATE VALUE`},
		{"0 1\n2 1 3\n", -1, `p.txt:2: "2 1 3": want DATE VALUE`},
		{"1 1\nx 2\n", -1, `p.txt:2: date "x": want a number of seconds ≥ 0`},
		{"-1 1\n", -1, `p.txt:1: date "-1"`},
		{"1 -2\n", -1, `p.txt:1: value "-2": want a number ≥ 0`},
		{"1 NaN\n", -1, `p.txt:1: value "NaN"`},
		{"1 Inf\n", -1, `p.txt:1: value "Inf"`},
		{"2 1\n1 1\n", -1, `p.txt:2: date 1 comes before the previous one, 2`},
		{"LOOPAFTER\n", -1, `p.txt:1: "LOOPAFTER": want LOOPAFTER and one number`},
		{"LOOPAFTER -1\n", -1, `p.txt:1: LOOPAFTER "-1"`},
		{"STOCHASTIC\n", -1, `p.txt:1: "STOCHASTIC": stochastic profiles are not supported`},
		{"NORM 1 2 3\n", -1, `p.txt:1: "NORM 1 2 3": stochastic`},
		{"0 1\n5 1\n", 3, `p.txt:1: periodicity 3 is shorter than the last date, 5`},
		{"0 1\n5 1\nPERIODICITY 3\n", -1, `p.txt:3: periodicity 3 is shorter than the last date, 5`},
		{"PERIODICITY 4\nLOOPAFTER 1\n0 1\n", -1, `p.txt:2: both PERIODICITY and LOOPAFTER`},
		{"0 1\nLOOPAFTER 0\n", -1, `p.txt:2: the profile loops without time passing`},
	}
	for _, tt := range tests {
		_, err := ParseProfile(tt.text, tt.per, "p.txt", 1)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: got %v, want %q...", tt.text, err, tt.want)
		}
	}
}

// FuzzParseProfile: any text gives a profile or one line of error, never
// a panic; a profile's steps are finite and ≥ 0, and a loop advances time.
func FuzzParseProfile(f *testing.F) {
	for _, s := range []string{"0 0.5\n2 1\nLOOPAFTER 10", "PERIODICITY 3\n1 2", "# x\n% y\n\n1 1e9", "1 2 3", "STOCHASTIC LOOP", "0 1\nLOOPAFTER 0", "1e308 1e308\n"} {
		f.Add(s, -1.0)
		f.Add(s, 5.0)
	}
	f.Fuzz(func(t *testing.T, text string, per float64) {
		p, err := ParseProfile(text, per, "f.txt", 1)
		if err != nil {
			if strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "f.txt:") {
				t.Fatalf("error %q: want one line naming the file", err)
			}
			return
		}
		total := 0.0
		for _, s := range p.Steps {
			if !(s.Delta >= 0) || !(s.Value >= 0) || math.IsInf(s.Delta, 0) || math.IsInf(s.Value, 0) {
				t.Fatalf("step %+v", s)
			}
			total += s.Delta
		}
		if p.Loops() && !(p.Repeat+total > 0) {
			t.Fatalf("a loop of period %v", p.Repeat+total)
		}
	})
}

// TestSimGridProfilePlatforms: SimGrid 3.32's example platforms with
// profiles. small_platform_profile.xml loads with Jupiter's speed profile
// and link 1's bandwidth and latency profiles, read from files relative to
// the platform's folder; the four that give a host or link failures
// (state_file, HOST_AVAIL) are refused, one line naming the element.
// (two_hosts_platform_with_availability_included.xml's inline <trace>s
// load once its HOST_AVAIL connection is taken out.)
func TestSimGridProfilePlatforms(t *testing.T) {
	dir := filepath.Join("testdata", "profiles")
	read := func(name string) (*Platform, error) {
		path := filepath.Join(dir, name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return ParseXML(data, path)
	}
	p, err := read("small_platform_profile.xml")
	if err != nil {
		t.Fatal(err)
	}
	pr := p.Profiles
	jupiter := fluid.Profile{Steps: steps(0, 0.5, 2, 1, 2, 0.7, 2, 0.1, 2, 4), Repeat: 10}
	link1 := p.Zones.Links[pr.Bandwidth[0].Link].Name
	if len(pr.Speed) != 1 || p.Names[pr.Speed[0].Host] != "Jupiter" || !reflect.DeepEqual(pr.Speed[0].Profile, jupiter) ||
		len(pr.Bandwidth) != 1 || link1 != "1" || !reflect.DeepEqual(pr.Bandwidth[0].Profile, fluid.Profile{Steps: steps(2, 2e6, 2, 3e6), Repeat: 6}) ||
		len(pr.Latency) != 1 || pr.Latency[0].Link != pr.Bandwidth[0].Link || !reflect.DeepEqual(pr.Latency[0].Profile, fluid.Profile{Steps: steps(1, 0.003, 2, 0.015), Repeat: 6}) {
		t.Errorf("small_platform_profile.xml: %+v", *pr)
	}
	for _, f := range []struct{ name, want string }{
		{"two_hosts_profiles.xml", `two_hosts_profiles.xml:5: <host id="Cpu A">: state_file is not supported`},
		{"two_hosts_platform_with_availability_included.xml", `two_hosts_platform_with_availability_included.xml:29: <trace_connect kind="HOST_AVAIL" element="Cpu A">: failures are not supported`},
		{"faulty_host.xml", `faulty_host.xml:5: <host id="Faulty Host">: state_file is not supported`},
		{"small_platform_failures.xml", `small_platform_failures.xml:6: <host id="Jupiter">: state_file is not supported`},
	} {
		_, err := read(f.name)
		if err == nil || !strings.Contains(err.Error(), f.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want ...%s", f.name, err, f.want)
		}
	}
	// the inline traces, without the failures' connection
	data, _ := os.ReadFile(filepath.Join(dir, "two_hosts_platform_with_availability_included.xml"))
	text := strings.Replace(string(data), `<trace_connect kind="HOST_AVAIL" trace="A_failure" element="Cpu A"/>`, "", 1)
	p, err = ParseXML([]byte(text), filepath.Join(dir, "inline.xml"))
	if err != nil {
		t.Fatal(err)
	}
	a := fluid.Profile{Steps: steps(0, 1, 11, 0.5, 9, 0.9), Repeat: 1}
	b := fluid.Profile{Steps: steps(0, 1, 10, 0.8, 10, 0.4), Repeat: 10}
	if s := p.Profiles.Speed; len(s) != 2 || p.Names[s[0].Host] != "Cpu A" || !reflect.DeepEqual(s[0].Profile, a) || p.Names[s[1].Host] != "Cpu B" || !reflect.DeepEqual(s[1].Profile, b) {
		t.Errorf("inline traces: %+v", p.Profiles.Speed)
	}
}

// TestNoProfiles: a platform without profiles has none (nil).
func TestNoProfiles(t *testing.T) {
	p, err := ParseXML(readFile(t, filepath.Join("testdata", "zones", "full.xml")), "full.xml")
	if err != nil {
		t.Fatal(err)
	}
	if p.Profiles != nil || !p.Profiles.Empty() {
		t.Errorf("profiles %+v", p.Profiles)
	}
}

// steps makes profile steps of (delta, value) pairs.
func steps(pairs ...float64) []fluid.ProfileStep {
	var out []fluid.ProfileStep
	for i := 0; i+1 < len(pairs); i += 2 {
		out = append(out, fluid.ProfileStep{Delta: pairs[i], Value: pairs[i+1]})
	}
	return out
}
