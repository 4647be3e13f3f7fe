package jsonout

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"testing"
)

type inner struct {
	List []float64 `json:"list"`
	Keep []int     `json:"keep,omitempty"` // omitempty: left out when empty, as before
}

type doc struct {
	Name    string              `json:"name"`
	Hosts   []int               `json:"hosts"`
	Inner   inner               `json:"inner"`
	Ptr     *inner              `json:"ptr"`
	NilPtr  *inner              `json:"nil_ptr"` // null: absent, not a list
	Any     any                 `json:"any"`
	Rows    []inner             `json:"rows"`
	ByName  map[string]inner    `json:"by_name"`
	Tol     map[string]*float64 `json:"tol"`
	Raw     json.RawMessage     `json:"raw"` // bytes: null stays null
	Bytes   []byte              `json:"bytes"`
	Arr     [2]inner            `json:"arr"`
	private []int
	Skipped []int `json:"-"`
	Embedded
}

type Embedded struct {
	Promoted []string `json:"promoted"`
}

func TestFilled(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"nil", nil, `null`},
		{"a nil slice alone", []int(nil), `[]`},
		{"a nil map alone", map[string]int(nil), `{}`},
		{"a float", 1.5, `1.5`},
		{"every place", doc{Ptr: &inner{}, Any: inner{}, Rows: []inner{{}, {List: []float64{1}}}, ByName: map[string]inner{"a": {}},
			Tol: map[string]*float64{"1%": nil}},
			`{"name":"","hosts":[],"inner":{"list":[]},"ptr":{"list":[]},"nil_ptr":null,"any":{"list":[]},` +
				`"rows":[{"list":[]},{"list":[1]}],"by_name":{"a":{"list":[]}},"tol":{"1%":null},"raw":null,"bytes":null,` +
				`"arr":[{"list":[]},{"list":[]}],"promoted":[]}`},
		{"a pointer to a struct", &inner{}, `{"list":[]}`},
		{"an interface holding a nil slice", []any{[]int(nil), nil}, `[[],null]`},
		{"nothing to fill", inner{List: []float64{2}}, `{"list":[2]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Marshal(tc.in)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want {
				t.Errorf("Marshal\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestFilledLeavesTheValueAlone(t *testing.T) {
	d := &doc{Ptr: &inner{}, Rows: []inner{{}}, ByName: map[string]inner{"a": {}}}
	if _, err := Marshal(d); err != nil {
		t.Fatal(err)
	}
	if d.Hosts != nil || d.Ptr.List != nil || d.Rows[0].List != nil || d.ByName["a"].List != nil {
		t.Errorf("the value given was changed: %+v", d)
	}
}

func TestEncodeIsTheEncoders(t *testing.T) {
	// a value with nothing to fill: Encode writes what json.Encoder does
	v := inner{List: []float64{1, 2.5}, Keep: []int{3}}
	var want, got bytes.Buffer
	enc := json.NewEncoder(&want)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := Encode(&got, v); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("Encode\n%s\njson.Encoder\n%s", got.String(), want.String())
	}
}

func TestNullLists(t *testing.T) {
	raw, err := json.Marshal(doc{Ptr: &inner{}, Rows: []inner{{}}, Any: inner{}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := NullLists(reflect.TypeFor[doc](), raw)
	if err != nil {
		t.Fatal(err)
	}
	// the interface's contents are not checked: its type is not known
	want := []string{".arr[0].list", ".arr[1].list", ".by_name", ".hosts", ".inner.list", ".promoted", ".ptr.list", ".rows[0].list", ".tol"}
	if !slices.Equal(got, want) {
		t.Errorf("NullLists of json.Marshal:\n got %q\nwant %q", got, want)
	}
	filled, err := Marshal(doc{Ptr: &inner{}, Rows: []inner{{}}})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := NullLists(reflect.TypeFor[doc](), filled); err != nil || len(got) > 0 {
		t.Errorf("NullLists of Marshal: %q, %v", got, err)
	}
}
