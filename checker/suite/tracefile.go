package suite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/jsonfile"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// TraceFile is a counterexample with what it takes to replay it: the
// protocol's path, the configuration and the properties checked. vigil
// check -trace writes one, the test kit (checker/checktest) one per
// failure, and vigil replay reads them, on any binary whose registry holds
// the protocol.
type TraceFile struct {
	Protocol   string         `json:"protocol"`
	Config     model.Config   `json:"config"`
	Properties []string       `json:"properties"`
	Trace      *checker.Trace `json:"trace"`
}

// NewTraceFile records trace t of p under cfg, checked for props.
func NewTraceFile(p *Protocol, cfg model.Config, props []*properties.Property, t *checker.Trace) *TraceFile {
	tf := &TraceFile{Protocol: p.Path(), Config: cfg, Trace: t}
	for _, prop := range props {
		tf.Properties = append(tf.Properties, prop.Name)
	}
	return tf
}

// JSON is tf as a trace file holds it: indented JSON and a newline.
func (tf *TraceFile) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(tf, "", "  ")
	return append(b, '\n'), err
}

// Write writes tf to path as indented JSON, making its directory if
// needed.
func (tf *TraceFile) Write(path string) error {
	b, err := tf.JSON()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// MaxTraceFileBytes bounds the size of a trace file ReadTraceFile reads:
// a counterexample of many thousands of steps takes a few MiB.
const MaxTraceFileBytes = 16 << 20

// traceFileCap is MaxTraceFileBytes, which tests lower.
var traceFileCap int64 = MaxTraceFileBytes

// MaxReplayNodes bounds the N of a trace file, so that its replay fits in
// memory. A replay starts from the world every node's start-up handler
// made, which holds every message they sent: where each node sends to
// each other, as in the bully algorithm, N² of them, each listed as an
// event at the first step. Measured on bully, that start-up takes 190 MB
// and 6 s at N = 1024 and 0.7 GB and 15 s at 2048, growing as N²: at
// N = 32768 it would take some 180 GB. (The worlds the replay keeps
// beyond its start-up, those of the run's cycle, are bounded apart: see
// checker.Replay.)
const MaxReplayNodes = 1024

// ReadTraceFile reads a trace file (see ParseTraceFile), and reports in
// one line naming the file one that cannot be read, is larger than
// MaxTraceFileBytes, or is no valid trace file.
func ReadTraceFile(path string) (*TraceFile, error) {
	return jsonfile.ReadParsed(path, traceFileCap, "a vigil trace", ParseTraceFile)
}

// ParseTraceFile reads a trace file's contents, which may be anything, and
// validates all of it before it is used: one JSON value and nothing after
// it, a trace, a valid configuration of at most MaxReplayNodes nodes, and
// a trace whose every node, event and cycle is in range for it (see
// checker.Trace.Validate). The protocol and property names are checked
// where they are looked up (see Replay).
func ParseTraceFile(b []byte) (*TraceFile, error) {
	var tf TraceFile
	if err := jsonfile.Decode(b, &tf); err != nil {
		return nil, fmt.Errorf("not a vigil trace: %w", err)
	}
	switch {
	case tf.Protocol == "":
		return nil, fmt.Errorf("not a vigil trace: it names no protocol")
	case tf.Trace == nil:
		return nil, fmt.Errorf("not a vigil trace: it has no events")
	}
	if err := tf.Config.Validate(); err != nil {
		return nil, err
	}
	if tf.Config.N > MaxReplayNodes {
		return nil, fmt.Errorf("n = %d: vigil replays traces of at most %d nodes", tf.Config.N, MaxReplayNodes)
	}
	if err := tf.Trace.Validate(tf.Config.N); err != nil {
		return nil, err
	}
	if t := tf.Trace; t.Property != "" && tf.Properties != nil && !slices.Contains(tf.Properties, t.Property) {
		return nil, fmt.Errorf("the trace violates %q, which is not among its properties %v", t.Property, tf.Properties)
	}
	return &tf, nil
}

// Replay replays tf on protocol p (see checker.Replay): the trace rebuilt
// and judged against the file's properties.
func (tf *TraceFile) Replay(p *Protocol) (*checker.Trace, error) {
	props, err := p.Props(tf.Config, tf.Properties)
	if err != nil {
		return nil, err
	}
	m, err := p.Compile(tf.Config, props)
	if err != nil {
		return nil, err
	}
	return checker.Replay(m, tf.Trace)
}
