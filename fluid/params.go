package fluid

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseFatTreeParams reads SimGrid's FAT_TREE topo_parameters
// "L;d1,...,dL;u1,...,uL;c1,...,cL" into the shape fields of a config (the
// caller fills Link, Loopback and Naming). The shape is validated.
func ParseFatTreeParams(s string) (FatTreeConfig, error) {
	fields := strings.Split(s, ";")
	if len(fields) != 4 {
		return FatTreeConfig{}, paramErr("fat-tree", s, "want 4 ';'-separated fields L;down;up;links, got %d", len(fields))
	}
	levels, err := parseInts("fat-tree", s, "levels", fields[0])
	if err != nil {
		return FatTreeConfig{}, err
	}
	if len(levels) != 1 {
		return FatTreeConfig{}, paramErr("fat-tree", s, "levels: want one number, got %q", fields[0])
	}
	c := FatTreeConfig{Levels: levels[0], Link: LinkSpec{Bandwidth: 1}}
	for i, dst := range []*[]int{&c.Down, &c.Up, &c.Parallel} {
		name := []string{"down", "up", "links"}[i]
		if *dst, err = parseInts("fat-tree", s, name, fields[i+1]); err != nil {
			return FatTreeConfig{}, err
		}
	}
	if err := c.Validate(); err != nil {
		return FatTreeConfig{}, paramErr("fat-tree", s, "%v", strings.TrimPrefix(err.Error(), "fluid: "))
	}
	c.Link = LinkSpec{}
	return c, nil
}

// ParseTorusParams reads SimGrid's TORUS topo_parameters "d0,d1,...".
func ParseTorusParams(s string) ([]int, error) {
	dims, err := parseInts("torus", s, "dimensions", s)
	if err != nil {
		return nil, err
	}
	c := TorusConfig{Dims: dims, Link: LinkSpec{Bandwidth: 1}}
	if err := c.Validate(); err != nil {
		return nil, paramErr("torus", s, "%v", strings.TrimPrefix(err.Error(), "fluid: "))
	}
	return dims, nil
}

// ParseDragonflyParams reads SimGrid's DRAGONFLY topo_parameters
// "groups,blue;chassis,black;routers,green;nodes" into the shape fields of
// a config (the caller fills Link, Loopback and Naming).
func ParseDragonflyParams(s string) (DragonflyConfig, error) {
	fields := strings.Split(s, ";")
	if len(fields) != 4 {
		return DragonflyConfig{}, paramErr("dragonfly", s, "want 4 ';'-separated fields groups,links;chassis,links;routers,links;nodes, got %d", len(fields))
	}
	var v [4][]int
	for i, name := range []string{"groups", "chassis", "routers", "nodes"} {
		xs, err := parseInts("dragonfly", s, name, fields[i])
		if err != nil {
			return DragonflyConfig{}, err
		}
		want := 2
		if i == 3 {
			want = 1
		}
		if len(xs) != want {
			return DragonflyConfig{}, paramErr("dragonfly", s, "%s: want %d comma-separated numbers, got %q", name, want, fields[i])
		}
		v[i] = xs
	}
	c := DragonflyConfig{Groups: v[0][0], GroupLinks: v[0][1], Chassis: v[1][0], ChassisLinks: v[1][1],
		Routers: v[2][0], RouterLinks: v[2][1], Nodes: v[3][0], Link: LinkSpec{Bandwidth: 1}}
	if err := c.Validate(); err != nil {
		return DragonflyConfig{}, paramErr("dragonfly", s, "%v", strings.TrimPrefix(err.Error(), "fluid: "))
	}
	c.Link = LinkSpec{}
	return c, nil
}

func parseInts(topo, whole, name, field string) ([]int, error) {
	parts := strings.Split(field, ",")
	xs := make([]int, len(parts))
	for i, p := range parts {
		x, err := strconv.Atoi(strings.TrimSpace(p))
		if err != nil {
			return nil, paramErr(topo, whole, "%s: %q is not an integer", name, p)
		}
		xs[i] = x
	}
	return xs, nil
}

func paramErr(topo, whole, format string, args ...any) error {
	return fmt.Errorf("fluid: %s parameters %q: %s", topo, whole, fmt.Sprintf(format, args...))
}
