package service

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// RunFileName is the file in a run's directory that tells vigil validate
// which model judges the logs.
const RunFileName = "run.json"

// Protocol is the model the service follows, as vigil's registry names it
// (twopc.Description's path).
const Protocol = "commit/twopc"

// Properties are the properties the model claims, which a run must keep.
var Properties = []string{"atomicity", "commit-validity", "termination"}

// runFile is run.json: the model, its configuration (the JSON of vigil's
// model.Config) and the properties to judge the run by.
type runFile struct {
	Protocol   string    `json:"protocol"`
	Config     runConfig `json:"config"`
	Properties []string  `json:"properties"`
}

// runConfig is the model.Config of a run of the service: FIFO channels
// (one TCP connection each way), synchronous timing (a vote timer that
// fires means the participant is gone), no faults, and the votes the
// participants may cast as the model's parameters.
type runConfig struct {
	N          int            `json:"n"`
	Channels   string         `json:"channels"`
	Timing     string         `json:"timing"`
	Crashes    int            `json:"crashes"`
	Recoveries int            `json:"recoveries"`
	Params     map[string]int `json:"params"`
}

// WriteRunFile writes the run.json of a run with opts into opts.Dir. The
// divergent service is judged by the same model as the clean one.
func WriteRunFile(opts Options) error {
	flag := func(b bool) int {
		if b {
			return 1
		}
		return 0
	}
	rf := runFile{Protocol: Protocol, Properties: Properties, Config: runConfig{
		N: opts.N, Channels: "fifo", Timing: "sync",
		Params: map[string]int{"yes-votes": flag(opts.YesVotes), "no-votes": flag(opts.NoVotes)},
	}}
	b, err := json.MarshalIndent(rf, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(opts.Dir, RunFileName), append(b, '\n'), 0o644)
}
