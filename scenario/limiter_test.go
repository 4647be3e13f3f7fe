package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

// A shape fluid refuses in a platform file is reported at the file's <cluster>.
func TestXMLShapeErrorNamesTheFile(t *testing.T) {
	xml := filepath.Join(t.TempDir(), "df.xml")
	if err := os.WriteFile(xml, []byte("<?xml version='1.0'?>\n<platform version=\"4.1\">\n"+
		"  <cluster id=\"c\" prefix=\"n\" radical=\"0-2999\" suffix=\"\" speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\"\n"+
		"     topology=\"DRAGONFLY\" topo_parameters=\"1,1;1,1;3000,1;1\"/>\n</platform>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Default()
	if err := s.UsePlatformXML(xml); err != nil {
		t.Fatal(err)
	}
	_, err := s.Validate()
	if want := xml + ":3: cluster: dragonfly parameters \"1,1;1,1;3000,1;1\": "; err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("got %v\nwant %s...", err, want)
	}
}
