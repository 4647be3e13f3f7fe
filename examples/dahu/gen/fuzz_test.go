package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/emu-hpc/emu/models"
	"github.com/emu-hpc/emu/scenario"
)

// FuzzGenerate: gen reads shared/peers/dahu's CSVs; any one of them changed
// (a torn download, an edit, a CSV from another study) makes the scenario
// and models files, each one a models file emu reads, or an error on one
// line that names the file.
func FuzzGenerate(f *testing.F) {
	files := []string{"dgemm_models.csv", "other_kernel_models.csv", "network_model.csv"}
	good := fstest.MapFS{}
	for _, name := range files {
		b, err := os.ReadFile(filepath.Join("../data", name))
		if err != nil {
			f.Fatal(err)
		}
		good[name] = &fstest.MapFile{Data: b}
	}
	for i, name := range files {
		data := good[name].Data
		f.Add(uint8(i), data)
		f.Add(uint8(i), data[:len(data)/2])
		f.Add(uint8(i), []byte(strings.ReplaceAll(string(data), "\n", "\r\n")))
		f.Add(uint8(i), append([]byte("\xef\xbb\xbf"), data...))
		f.Add(uint8(i), []byte{})
	}
	f.Add(uint8(1), []byte("kernel,size_expression,coef_mean,coef_sd\ndgemv,M*N,nan,1e-11\n"))
	f.Add(uint8(2), []byte("name,size_min_bytes,size_max_bytes,intercept_s\nsmpi/os,0,1e400,1e-6\n"))
	f.Fuzz(func(t *testing.T, which uint8, data []byte) {
		fsys := fstest.MapFS{}
		for k, v := range good {
			fsys[k] = v
		}
		name := files[int(which)%len(files)]
		fsys[name] = &fstest.MapFile{Data: data}
		out, err := generate(fsys, "d")
		if err != nil {
			msg := err.Error()
			named := strings.HasPrefix(msg, "d/")
			for _, l := range ladder {
				named = named || strings.HasPrefix(msg, l.file+": ")
			}
			if strings.Contains(msg, "\n") || !named {
				t.Fatalf("error %q: want one line naming the file", msg)
			}
			return
		}
		for file, body := range out {
			if file == "dahu.toml" {
				if _, err := scenario.Parse(body, file); err != nil {
					t.Fatalf("dahu.toml, written from a %s that gen took, is no scenario: %v", name, err)
				}
				continue
			}
			if _, err := models.ParseSet(body, file); err != nil {
				t.Fatalf("%s, written from a %s that gen took, is no models file: %v", file, name, err)
			}
		}
	})
}
