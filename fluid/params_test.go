package fluid

import (
	"fmt"
	"strings"
	"testing"
)

func TestParseParams(t *testing.T) {
	ft, err := ParseFatTreeParams("2;4,4;1,2;1,2")
	if err != nil || ft.Levels != 2 || fmt.Sprint(ft.Down, ft.Up, ft.Parallel) != "[4 4] [1 2] [1 2]" {
		t.Errorf("fat-tree: %+v, %v", ft, err)
	}
	dims, err := ParseTorusParams("4,4,4")
	if err != nil || fmt.Sprint(dims) != "[4 4 4]" {
		t.Errorf("torus: %v, %v", dims, err)
	}
	df, err := ParseDragonflyParams("3,4;4,3;5,1;2")
	if err != nil || df.Groups != 3 || df.GroupLinks != 4 || df.Chassis != 4 || df.ChassisLinks != 3 ||
		df.Routers != 5 || df.RouterLinks != 1 || df.Nodes != 2 {
		t.Errorf("dragonfly: %+v, %v", df, err)
	}
	for _, bad := range []struct{ s, want string }{
		{"2;4,4;1,2", "want 4"},
		{"2;4,x;1,2;1,2", `"x" is not an integer`},
		{"2;4;1,2;1,2", "Down: 1 entries for 2 levels"},
		{"1,2;4;1;1", "levels: want one number"},
	} {
		if _, err := ParseFatTreeParams(bad.s); err == nil || !strings.Contains(err.Error(), bad.want) || !strings.Contains(err.Error(), bad.s) {
			t.Errorf("fat-tree %q: error %v, want one quoting the input and saying %q", bad.s, err, bad.want)
		}
	}
	if _, err := ParseTorusParams("4,0"); err == nil || !strings.Contains(err.Error(), "Dims[1]") {
		t.Errorf("torus 4,0: %v", err)
	}
	if _, err := ParseDragonflyParams("2,2;2;1,2;2"); err == nil || !strings.Contains(err.Error(), "chassis") {
		t.Errorf("dragonfly: %v", err)
	}
}

// The fuzzers check that no parameter string panics the parsers or, once
// accepted, the constructors and routing.
func FuzzParseFatTreeParams(f *testing.F) {
	for _, s := range []string{"2;4,4;1,2;1,2", "1;4;1;1", "3;2,2,3;1,2,2;1,2,1", "0;;;", "2;4,4;1,2;1,-2", "1;99999999999;1;1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseFatTreeParams(s)
		if err != nil || c.hosts() > 4096 {
			return
		}
		c.Link = spec
		ft, err := NewFatTree(c)
		if err != nil {
			return
		}
		ft.Route(0, ft.Hosts()-1)
	})
}

func FuzzParseTorusParams(f *testing.F) {
	for _, s := range []string{"4,4,4", "5", "", "1,,2", "-1", "3, 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		dims, err := ParseTorusParams(s)
		if err != nil {
			return
		}
		n := 1
		for _, d := range dims {
			n *= d
		}
		if n > 4096 {
			return
		}
		to, err := NewTorus(TorusConfig{Dims: dims, Link: spec})
		if err != nil {
			t.Fatalf("accepted %q but NewTorus failed: %v", s, err)
		}
		to.Route(0, to.Hosts()-1)
	})
}

func FuzzParseDragonflyParams(f *testing.F) {
	for _, s := range []string{"3,4;4,3;5,1;2", "2,2;2,1;1,2;2", "1,1;1,1;1,1;1", "a;b;c;d", "9,1;1,1;2,1;1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseDragonflyParams(s)
		if err != nil || c.hosts() > 4096 {
			return
		}
		c.Link = spec
		df, err := NewDragonfly(c)
		if err != nil {
			t.Fatalf("accepted %q but NewDragonfly failed: %v", s, err)
		}
		df.Route(0, df.Hosts()-1)
	})
}
