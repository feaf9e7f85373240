package tracelog

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"github.com/vigil-check/vigil/internal/jsonfile"
)

// MaxFileBytes bounds a log file that ReadFile reads: 1 GiB.
const MaxFileBytes = 1 << 30

// Logged is a record with the line of its file it was read from (from 1).
type Logged struct {
	Record
	Line int
}

// FileName is the name of node i's log in a run's directory: "n3.jsonl".
func FileName(i int) string { return "n" + strconv.Itoa(i) + ".jsonl" }

// ReadFile reads the log at path of one node of a run of n nodes (n 0:
// as many as the first record's clock has entries), checking each record
// (Record.Check), that every record is the same node's and that each
// counts one event more than the one before: a line lost or added shows.
// Blank lines are skipped.
func ReadFile(path string, n int) ([]Logged, error) {
	b, err := jsonfile.ReadCapped(path, MaxFileBytes, "a node's log")
	if err != nil {
		return nil, err
	}
	var out []Logged
	for i, line := range bytes.Split(b, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var r Record
		if err := json.Unmarshal(line, &r); err != nil {
			return nil, fmt.Errorf("%s:%d: not a record: %w", path, i+1, err)
		}
		if n == 0 {
			n = len(r.Clock)
		}
		if err := r.Check(n); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, i+1, err)
		}
		if len(out) > 0 {
			prev := out[len(out)-1]
			if r.Node != prev.Node {
				return nil, fmt.Errorf("%s:%d: a record of n%d in the log of n%d", path, i+1, r.Node, prev.Node)
			}
			if want := prev.Clock[prev.Node] + 1; r.Clock[r.Node] != want {
				return nil, fmt.Errorf("%s:%d: n%d's event %d follows its event %d: the events between are missing", path, i+1, r.Node, r.Clock[r.Node], want-1)
			}
		} else if r.Clock[r.Node] != 1 {
			return nil, fmt.Errorf("%s:%d: n%d's log begins at its event %d, not 1", path, i+1, r.Node, r.Clock[r.Node])
		}
		out = append(out, Logged{Record: r, Line: i + 1})
	}
	return out, nil
}

// Run is the logs of one run: Nodes[i] is node i's, read from Files[i]
// (empty for a node that left no log).
type Run struct {
	N     int
	Nodes [][]Logged
	Files []string
}

var logName = regexp.MustCompile(`^n(0|[1-9][0-9]{0,5})\.jsonl$`)

// ReadDir reads the logs of a run from dir, where node i's is FileName(i).
// The number of nodes is the length of the clocks; a node with no file
// left no log. A log of a node outside the run is an error.
func ReadDir(dir string) (*Run, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var nodes []int
	for _, e := range entries {
		if m := logName.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() {
			i, _ := strconv.Atoi(m[1])
			nodes = append(nodes, i)
		}
	}
	if len(nodes) == 0 {
		return nil, fmt.Errorf("%s holds no node's log (n0.jsonl, n1.jsonl, ...)", dir)
	}
	slices.Sort(nodes)
	run := &Run{}
	logs := map[int][]Logged{}
	for _, i := range nodes {
		path := filepath.Join(dir, FileName(i))
		recs, err := ReadFile(path, run.N)
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			continue
		}
		if run.N == 0 {
			run.N = len(recs[0].Clock)
		}
		if recs[0].Node != i {
			return nil, fmt.Errorf("%s: it holds the records of n%d", path, recs[0].Node)
		}
		logs[i] = recs
	}
	if run.N == 0 {
		return nil, fmt.Errorf("%s: every node's log is empty", dir)
	}
	if last := nodes[len(nodes)-1]; last >= run.N {
		return nil, fmt.Errorf("%s: a log of n%d in a run of %d nodes", filepath.Join(dir, FileName(last)), last, run.N)
	}
	run.Nodes, run.Files = make([][]Logged, run.N), make([]string, run.N)
	for i := range run.N {
		run.Nodes[i], run.Files[i] = logs[i], filepath.Join(dir, FileName(i))
	}
	return run, nil
}
