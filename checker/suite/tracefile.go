package suite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/vigil-check/vigil/checker"
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

// Write writes tf to path as indented JSON, making its directory if
// needed.
func (tf *TraceFile) Write(path string) error {
	b, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// ReadTraceFile reads a trace file, and reports a file that cannot be read
// or is no trace file.
func ReadTraceFile(path string) (*TraceFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read trace: %w", err)
	}
	var tf TraceFile
	if err := json.Unmarshal(b, &tf); err != nil {
		return nil, fmt.Errorf("%s is not a vigil trace: %w", path, err)
	}
	if tf.Trace == nil {
		return nil, fmt.Errorf("%s is not a vigil trace: it has no events", path)
	}
	if err := tf.Config.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
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
