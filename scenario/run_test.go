package scenario

import (
	"strings"
	"testing"
)

func TestParsePivotsErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"0\n1\nx\n", "p.txt:3: \"x\" is not a row number"},
		{"# nothing\n", "p.txt: no pivot rows"},
		{"2\n0\n2\n", "p.txt: pivot of column 1 is row 0"},
	} {
		if _, err := ParsePivots([]byte(tt.in), "p.txt"); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%q: %v, want %q", tt.in, err, tt.want)
		}
	}
}
