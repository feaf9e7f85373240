package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/jsonfile"
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
// would have, with the same exit code. Its -trace file is opened before
// any shard is read; one that cannot be written afterwards is reported on
// stderr, and the result stands.
func merge(r *suite.Registry, args []string, stdout, stderr io.Writer) error {
	f := &checkFlags{}
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.BoolVar(&f.json, "json", false, "print the result as JSON")
	fs.StringVar(&f.trace, "trace", "", "write the first counterexample to this file, for vigil replay")
	if err := parseFlags(fs, args, "vigil merge [flags] SHARD.json ...", stderr); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return badInput("merge needs the files of the shards of a search (vigil check -shard I/K)")
	}
	if f.json {
		f.format = "json"
	}
	var trace *outputFile
	if f.trace != "" {
		out, err := openOutput(f.trace, "counterexample (-trace)")
		if err != nil {
			return usageError{err}
		}
		defer out.Close()
		trace, f.trace = out, "" // written below, not by present
	}
	var files []*shardFile
	for _, path := range fs.Args() {
		sf, err := readShard(path)
		if err != nil {
			return usageError{err}
		}
		files = append(files, sf)
	}
	ms, err := mergeShardFiles(r, fs.Args(), files)
	if err != nil {
		return err
	}
	verdict := present(stdout, ms.p, ms.scenario, ms.cfg, ms.props, ms.res, f)
	if t := firstTrace(ms.res, f.witness); trace != nil && t != nil {
		b, err := suite.NewTraceFile(ms.p, ms.cfg, ms.props, t).JSON()
		if err == nil {
			err = trace.Commit(b)
		}
		if err != nil {
			fmt.Fprintf(stderr, "vigil: warning: %v\n", err)
		}
	}
	return verdict
}

// mergedSearch is the whole search that shards make.
type mergedSearch struct {
	p        *suite.Protocol
	scenario string
	cfg      model.Config
	props    []*properties.Property
	res      *checker.Result
}

// mergeShardFiles merges the shards read from the files of those names:
// each must be a valid shard of the search of the first (see
// ShardRun.Validate), and an error names the file that is not.
func mergeShardFiles(r *suite.Registry, names []string, files []*shardFile) (*mergedSearch, error) {
	first := files[0]
	byIndex := map[int]string{}
	for i, sf := range files {
		name := names[i]
		if other, ok := byIndex[sf.Shard.Index]; ok {
			return nil, badInput("%s: shard %d/%d is given twice (%s is it too)", name, sf.Shard.Index, sf.Shard.Count, other)
		}
		byIndex[sf.Shard.Index] = name
		if i == 0 {
			continue
		}
		if sf.Protocol != first.Protocol || sf.Scenario != first.Scenario || !slices.Equal(sf.Properties, first.Properties) {
			return nil, badInput("%s is a shard of another search (%s [%s] %v, not %s [%s] %v)", name,
				sf.Protocol, sf.Scenario, sf.Properties, first.Protocol, first.Scenario, first.Properties)
		}
		a, _ := json.Marshal(sf.Config)
		b, _ := json.Marshal(first.Config)
		if string(a) != string(b) {
			return nil, badInput("%s is a shard of a search with another configuration (%s, not %s)", name, describeConfig(sf.Config), describeConfig(first.Config))
		}
		if s, t := sf.Shard, first.Shard; s.Count != t.Count || s.Search != t.Search {
			return nil, badInput("%s is shard %d/%d of another search (%+v, not %d shards of %+v)", name, s.Index, s.Count, s.Search, t.Count, t.Search)
		}
	}
	p, err := r.Lookup(first.Protocol)
	if err != nil {
		return nil, badInput("%s: %v", names[0], err)
	}
	props, err := p.Props(first.Config, first.Properties)
	if err != nil {
		return nil, badInput("%s: %v", names[0], err)
	}
	m, err := p.Compile(first.Config, props)
	if err != nil {
		return nil, badInput("%s: %v", names[0], err)
	}
	s := first.Shard.Search
	opt := checker.RandomOptions{Walks: s.Walks, Seed: s.Seed, MaxDepth: s.MaxDepth, HotBound: s.HotBound, First: s.First, Rounds: s.Rounds, EntryFigures: s.EntryFigures}
	if opt.Scheduler, err = checker.ParseScheduler(s.Scheduler); err != nil {
		return nil, badInput("%s: %v", names[0], err)
	}
	if s.Object != "" && p.Object != nil {
		opt.Object = p.Object(first.Config)
	}
	var runs []*checker.ShardRun
	for i, sf := range files {
		if err := sf.Shard.Validate(m, opt); err != nil {
			return nil, badInput("%s: %v", names[i], err)
		}
		runs = append(runs, sf.Shard)
	}
	res, err := checker.MergeShards(m, opt, runs)
	if err != nil {
		return nil, badInput("merging %s: %v", strings.Join(names, ", "), err)
	}
	return &mergedSearch{p: p, scenario: first.Scenario, cfg: first.Config, props: props, res: res}, nil
}

// shardFileCap bounds the size of a shard's file: 64 MiB, some hundred
// thousand walks. Tests lower it.
var shardFileCap int64 = 64 << 20

// readShard reads a shard's file, and reports in one line naming the file
// one that cannot be read, is larger than shardFileCap, or is no shard's.
func readShard(path string) (*shardFile, error) {
	return jsonfile.ReadParsed(path, shardFileCap, "the file of a shard", parseShard)
}

// parseShard reads the contents of a shard's file, which may be anything:
// one JSON value with nothing after it, with a shard's run and a valid
// configuration. What the run holds is validated against the protocol
// where the shards are merged (see mergeShardFiles).
func parseShard(b []byte) (*shardFile, error) {
	var sf shardFile
	if err := jsonfile.Decode(b, &sf); err != nil {
		return nil, fmt.Errorf("not a shard of a vigil search: %w", err)
	}
	switch {
	case sf.Shard == nil:
		return nil, fmt.Errorf("not a shard of a vigil search: it has no walks (vigil check -shard I/K prints one)")
	case sf.Protocol == "":
		return nil, fmt.Errorf("not a shard of a vigil search: it names no protocol")
	}
	if err := sf.Config.Validate(); err != nil {
		return nil, err
	}
	return &sf, nil
}
