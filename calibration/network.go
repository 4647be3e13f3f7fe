package calibration

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/emu-hpc/emu/models"
)

// ParseNetwork reads network measurements — each the one-way time of a
// message (half a ping-pong round trip) — in either accepted form, chosen by
// content: the text output of osu_latency or osu_bw (a "# Size …" header),
// or a CSV with bytes and seconds columns (see ParsePingPongCSV).
func ParseNetwork(data []byte, file string) ([]models.PingPong, error) {
	if isOSU(data) {
		return ParseOSU(data, file)
	}
	return ParsePingPongCSV(data, file)
}

func isOSU(data []byte) bool {
	for _, line := range bytes.Split(data, []byte("\n")) {
		t := strings.TrimSpace(string(line))
		if strings.HasPrefix(t, "#") && strings.Contains(strings.ToLower(t), "size") {
			return true
		}
	}
	return false
}

// ParsePingPongCSV reads a CSV with a header holding at least the columns
// bytes and seconds (any order; other columns ignored). seconds is the
// one-way time of one message.
func ParsePingPongCSV(data []byte, file string) ([]models.PingPong, error) {
	r := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	header, err := r.Read()
	if err == io.EOF {
		return nil, fmt.Errorf("%s: empty file, want a header with bytes,seconds", file)
	}
	if err != nil {
		return nil, csvError(file, err)
	}
	ib, is := -1, -1
	for i, h := range header {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "bytes":
			ib = i
		case "seconds":
			is = i
		}
	}
	if ib < 0 || is < 0 {
		return nil, fmt.Errorf("%s:1: want columns bytes and seconds, header is %q", file, strings.Join(header, ","))
	}
	var out []models.PingPong
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvError(file, err)
		}
		line, _ := r.FieldPos(0)
		if err := extraFields(rec, len(header)); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		if max(ib, is) >= len(rec) {
			return nil, fmt.Errorf("%s:%d: row has %d fields, want bytes and seconds", file, line, len(rec))
		}
		p, err := pingPoint(rec[ib], rec[is], 1)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s: no measurements", file)
	}
	if hasLine(data, MPIBenchFirst) && !hasLine(data, MPIBenchDone) {
		return nil, fmt.Errorf("%s:%d: mpibench's output ends here without its last line %q: a run cut short (killed, or out of time), its larger messages or its poll costs missing; rerun mpibench",
			file, lastLineNumber(data), MPIBenchDone)
	}
	return out, nil
}

// MPIBenchFirst and MPIBenchDone are the first and the last line of
// tools/mpibench's output: a file that opens with the first and lacks the
// last is a run cut short, whose larger messages (the factors beyond them
// extrapolated) or poll costs are missing. (No "size" in them: a comment
// line with it is an OSU header.)
const (
	MPIBenchFirst = "# mpibench: one-way ping-pong times, then the costs of a poll; its last line says done"
	MPIBenchDone  = "# mpibench: done"
)

// mpibenchLargest is the largest message tools/mpibench times (16 MiB).
const mpibenchLargest = 16 << 20

// OlderMPIBenchCut is the line of the last row of a file that reads as an
// older mpibench's output cut short (one from before MPIBenchFirst and
// MPIBenchDone, so that it cannot be told for sure): sizes doubling from 1 B
// that stop short of 16 MiB, with no poll costs after them. 0: not such a
// file. pp is what ParseNetwork read of data.
func OlderMPIBenchCut(data []byte, pp []models.PingPong) int {
	if len(pp) == 0 || hasLine(data, MPIBenchFirst) || hasPrefixLine(data, "# iprobe_cost") || hasPrefixLine(data, "# test_cost") {
		return 0
	}
	for i, p := range pp {
		if p.Bytes != 1<<i || p.Bytes >= mpibenchLargest {
			return 0
		}
	}
	line := 0 // the last line holding a row
	for i, l := range bytes.Split(data, []byte("\n")) {
		if t := bytes.TrimSpace(l); len(t) > 0 && t[0] != '#' {
			line = i + 1
		}
	}
	return line
}

// hasLine reports whether one of data's lines is text (spaces around it aside).
func hasLine(data []byte, text string) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if string(bytes.TrimSpace(l)) == text {
			return true
		}
	}
	return false
}

// hasPrefixLine reports whether one of data's lines begins with prefix
// (leading spaces aside).
func hasPrefixLine(data []byte, prefix string) bool {
	for _, l := range bytes.Split(data, []byte("\n")) {
		if bytes.HasPrefix(bytes.TrimSpace(l), []byte(prefix)) {
			return true
		}
	}
	return false
}

// lastLineNumber is the 1-based number of data's last line (a final
// newline ends a line, it does not begin one).
func lastLineNumber(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return max(n, 1)
}

// pingPoint reads a (bytes, time) pair; time is multiplied by unit to get
// seconds.
func pingPoint(bs, ts string, unit float64) (models.PingPong, error) {
	b, t, err := sizeValue(bs, ts)
	if err != nil {
		return models.PingPong{}, err
	}
	return oneWay(b, t*unit)
}

// sizeValue reads a line's size (bytes) and its non-negative value.
func sizeValue(bs, vs string) (int, float64, error) {
	b, err := strconv.ParseFloat(strings.TrimSpace(bs), 64)
	if err != nil || b < 0 || b > math.MaxInt32 || b != math.Trunc(b) {
		return 0, 0, fmt.Errorf("bytes %q is not an integer in 0..2³¹−1", bs)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(vs), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, 0, fmt.Errorf("time %q is not a number", vs)
	}
	if v < 0 {
		return 0, 0, fmt.Errorf("negative time %s", vs)
	}
	return int(b), v, nil
}

// oneWay is a measurement of a message of b bytes taking s seconds, which
// must be positive: the fit divides by it, and a message takes time.
func oneWay(b int, s float64) (models.PingPong, error) {
	if !(s > 0) {
		return models.PingPong{}, fmt.Errorf("time %g s for %d bytes: a message's one-way time must be positive", s, b)
	}
	return models.PingPong{Bytes: b, Seconds: s}, nil
}

// ParseOSU reads the output of osu_latency (one-way latency in µs per size)
// or osu_bw (bandwidth in MB/s per size, turned into the time of one message:
// size / bandwidth). The kind and unit come from the "# Size …" header.
func ParseOSU(data []byte, file string) ([]models.PingPong, error) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	const (
		unknown = iota
		latency
		bandwidth
	)
	kind := unknown
	var out []models.PingPong
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" {
			continue
		}
		if strings.HasPrefix(text, "#") {
			low := strings.ToLower(text)
			if !strings.Contains(low, "size") {
				continue // title line
			}
			switch {
			case strings.Contains(low, "latency") && strings.Contains(low, "(us)"):
				kind = latency
			case strings.Contains(low, "bandwidth") && strings.Contains(low, "(mb/s)"):
				kind = bandwidth
			default:
				return nil, fmt.Errorf("%s:%d: header %q: want Latency (us) or Bandwidth (MB/s)", file, line, text)
			}
			continue
		}
		if kind == unknown {
			return nil, fmt.Errorf("%s:%d: data before the \"# Size\" header", file, line)
		}
		f := strings.Fields(text)
		if len(f) < 2 {
			return nil, fmt.Errorf("%s:%d: want size and value, got %q", file, line, text)
		}
		var p models.PingPong
		var err error
		if kind == latency {
			p, err = pingPoint(f[0], f[1], 1e-6) // µs
		} else {
			p, err = bwPoint(f[0], f[1])
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, line, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s: a line longer than 1 MiB: not the output of osu_latency or osu_bw", file)
	} else if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(out) == 0 {
		return nil, errors.New(file + ": no measurements")
	}
	return out, nil
}

// bwPoint turns an osu_bw line into the time of one message: size bytes at
// bw MB/s (10⁶ bytes per second, as OSU prints).
func bwPoint(size, bw string) (models.PingPong, error) {
	b, v, err := sizeValue(size, bw)
	if err != nil {
		return models.PingPong{}, err
	}
	if v == 0 {
		return models.PingPong{}, fmt.Errorf("bandwidth %s is zero", bw)
	}
	s := float64(b) / (v * 1e6)
	if math.IsInf(s, 0) {
		return models.PingPong{}, fmt.Errorf("bandwidth %s is too small for %s bytes", bw, size)
	}
	return oneWay(b, s)
}
