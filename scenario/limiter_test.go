package scenario

import (
	"os"
	"path/filepath"
	"testing"
)

// Limiter links are not modelled: the error names where the limiter was given —
// the XML's line and attribute, or the scenario key — not the scenario's
// [platform] table.
func TestLimiterLinkErrorNamesItsSource(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "lim.xml")
	if err := os.WriteFile(xml, []byte("<?xml version='1.0'?>\n<platform version=\"4.1\">\n"+
		"  <cluster id=\"c\" prefix=\"n\" radical=\"0-3\" suffix=\"\" speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\" limiter_link=\"20Gbps\"/>\n</platform>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Default()
	if err := s.UsePlatformXML(xml); err != nil {
		t.Fatal(err)
	}
	_, err := s.Validate()
	if want := xml + ":3: cluster attribute limiter_link: per-host limiter links are not modelled by emu's topologies"; err == nil || err.Error() != want {
		t.Errorf("XML: got %v\nwant %s", err, want)
	}
	s, err = Parse([]byte("[platform]\nhosts = 4\nlink_bandwidth = \"10Gbps\"\nlink_latency = \"1us\"\nlimiter_bandwidth = \"1GBps\"\n"), "s.toml")
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Validate()
	if want := "s.toml:5: platform.limiter_bandwidth: per-host limiter links are not modelled by emu's topologies"; err == nil || err.Error() != want {
		t.Errorf("TOML: got %v\nwant %s", err, want)
	}
}

// A shape fluid refuses in a platform file is reported at the file's <cluster>.
func TestXMLShapeErrorNamesTheFile(t *testing.T) {
	xml := filepath.Join(t.TempDir(), "df.xml")
	if err := os.WriteFile(xml, []byte("<?xml version='1.0'?>\n<platform version=\"4.1\">\n"+
		"  <cluster id=\"c\" prefix=\"n\" radical=\"0-1\" suffix=\"\" speed=\"1Gf\" bw=\"10Gbps\" lat=\"1us\"\n"+
		"     topology=\"DRAGONFLY\" topo_parameters=\"2,3;1,1;1,1;1\"/>\n</platform>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Default()
	if err := s.UsePlatformXML(xml); err != nil {
		t.Fatal(err)
	}
	_, err := s.Validate()
	if want := xml + ":3: cluster: dragonfly parameters \"2,3;1,1;1,1;1\": "; err == nil || len(err.Error()) < len(want) || err.Error()[:len(want)] != want {
		t.Errorf("got %v\nwant %s...", err, want)
	}
}
