package validate

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/vigil-check/vigil/internal/jsonfile"
	"github.com/vigil-check/vigil/model"
)

// RunFileName is the name of the RunFile in a run's directory, beside the
// nodes' logs.
const RunFileName = "run.json"

// maxRunFileBytes bounds a run file: a configuration and a few names.
const maxRunFileBytes = 1 << 20

// RunFile says what a run's logs are the logs of: the protocol's path
// ("election/bully"), the configuration it ran under and the properties
// to judge it by (nil: those the protocol claims). vigil's runtime writes
// it in the run's directory; vigil validate reads it there.
type RunFile struct {
	Protocol   string       `json:"protocol"`
	Config     model.Config `json:"config"`
	Properties []string     `json:"properties,omitempty"`
}

// ReadRunFile reads the run file at path, checking that it names a
// protocol and holds a valid configuration; its errors name the file.
func ReadRunFile(path string) (*RunFile, error) {
	return jsonfile.ReadParsed(path, maxRunFileBytes, "a run file", func(b []byte) (*RunFile, error) {
		var rf RunFile
		if err := jsonfile.Decode(b, &rf); err != nil {
			return nil, fmt.Errorf("not a run file: %w", err)
		}
		if rf.Protocol == "" {
			return nil, fmt.Errorf("not a run file: it names no protocol")
		}
		if err := rf.Config.Validate(); err != nil {
			return nil, err
		}
		return &rf, nil
	})
}

// Write writes rf to path as indented JSON.
func (rf *RunFile) Write(path string) error {
	b, err := json.MarshalIndent(rf, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(b, '\n'), 0o644)
}
