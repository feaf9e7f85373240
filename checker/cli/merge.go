package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// shardFile is what vigil check -shard I/K prints: its part of a random
// search, with what it takes to merge it (the protocol, scenario,
// configuration and properties of the search).
type shardFile struct {
	Protocol   string            `json:"protocol"`
	Scenario   string            `json:"scenario"`
	Config     model.Config      `json:"config"`
	Properties []string          `json:"properties"`
	Shard      *checker.ShardRun `json:"shard"`
}

func printShard(out io.Writer, p *suite.Protocol, scenario string, cfg model.Config, props []*properties.Property, run *checker.ShardRun) error {
	sf := shardFile{Protocol: p.Path(), Scenario: scenario, Config: cfg, Shard: run, Properties: []string{}}
	for _, prop := range props {
		sf.Properties = append(sf.Properties, prop.Name)
	}
	enc := json.NewEncoder(out)
	enc.SetIndent("", " ")
	return enc.Encode(sf)
}

// merge combines the parts that the shards of one random search printed
// (vigil check -shard I/K) and reports the whole search as vigil check
// would have, with the same exit code.
func merge(r *suite.Registry, args []string, stdout, stderr io.Writer) error {
	f := &checkFlags{}
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&f.json, "json", false, "print the result as JSON")
	fs.StringVar(&f.trace, "trace", "", "write the first counterexample to this file, for vigil replay")
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			fs.SetOutput(stderr)
			fmt.Fprintln(stderr, "usage: vigil merge [flags] SHARD.json ...")
			fs.PrintDefaults()
			return nil
		}
		return usageError{err}
	}
	if fs.NArg() == 0 {
		return badInput("merge needs the files of the shards of a search (vigil check -shard I/K)")
	}
	var files []*shardFile
	var runs []*checker.ShardRun
	for _, path := range fs.Args() {
		sf, err := readShard(path)
		if err != nil {
			return usageError{err}
		}
		if len(files) > 0 {
			first := files[0]
			if sf.Protocol != first.Protocol || sf.Scenario != first.Scenario || !slices.Equal(sf.Properties, first.Properties) {
				return badInput("%s is a shard of another search (%s [%s] %v, not %s [%s] %v)", path,
					sf.Protocol, sf.Scenario, sf.Properties, first.Protocol, first.Scenario, first.Properties)
			}
			a, _ := json.Marshal(sf.Config)
			b, _ := json.Marshal(first.Config)
			if string(a) != string(b) {
				return badInput("%s is a shard of a search with another configuration (%s, not %s)", path, describeConfig(sf.Config), describeConfig(first.Config))
			}
		}
		files = append(files, sf)
		runs = append(runs, sf.Shard)
	}
	sf := files[0]
	p, err := r.Lookup(sf.Protocol)
	if err != nil {
		return usageError{err}
	}
	props, err := p.Props(sf.Config, sf.Properties)
	if err != nil {
		return usageError{err}
	}
	m, err := p.Compile(sf.Config, props)
	if err != nil {
		return usageError{err}
	}
	s := sf.Shard.Search
	opt := checker.RandomOptions{Walks: s.Walks, Seed: s.Seed, MaxDepth: s.MaxDepth, First: s.First, Rounds: s.Rounds, EntryFigures: s.EntryFigures}
	if opt.Scheduler, err = checker.ParseScheduler(s.Scheduler); err != nil {
		return badInput("%v", err)
	}
	if s.Object != "" && p.Object != nil {
		opt.Object = p.Object(sf.Config)
	}
	res, err := checker.MergeShards(m, opt, runs)
	if err != nil {
		return badInput("%v", err)
	}
	return present(stdout, p, sf.Scenario, sf.Config, props, res, f)
}

// readShard reads a shard's file, and reports a file that cannot be read
// or is no shard's.
func readShard(path string) (*shardFile, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read shard: %w", err)
	}
	var sf shardFile
	if err := json.Unmarshal(b, &sf); err != nil {
		return nil, fmt.Errorf("%s is not a shard of a vigil search: %w", path, err)
	}
	if sf.Shard == nil {
		return nil, fmt.Errorf("%s is not a shard of a vigil search: it has no walks (vigil check -shard I/K prints one)", path)
	}
	if err := sf.Config.Validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &sf, nil
}
