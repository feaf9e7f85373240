package cli

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
)

// checkModeFlags refuses the flags that do not apply to mode (auto below
// checker.AutoWalksN: both an exhaustive search and random walks).
func (f *checkFlags) checkModeFlags(mode checker.Mode, sc suite.Scenario, cfg model.Config) error {
	if mode != checker.ModeExhaustive && mode != checker.ModeRandom && mode != checker.ModeAuto {
		return badInput("mode must be exhaustive, random or auto, not %q", f.mode)
	}
	if f.window != 0 && !f.sweep && !sc.Sweep {
		return badInput("-window sets the levels a sweep keeps: give -sweep too")
	}
	// (negative counts and durations: checkCounts)
	if f.shrinkTime != 0 && mode == checker.ModeExhaustive {
		return badInput("-shrink-time shortens the counterexamples of random walks; it does not apply to -mode %s", mode)
	}
	if f.probe != 0 && f.mode != string(checker.ModeAuto) { // (auto from AutoWalksN nodes on walks alone: no probe)
		return badInput("-probe sets the time of the auto mode's random probe; it does not apply to -mode %s", mode)
	}
	if f.set["hot-bound"] && mode == checker.ModeExhaustive {
		return badInput("-hot-bound bounds how long random walks stay hot; it does not apply to -mode %s", mode)
	}
	if f.scheduler != "uniform" && mode == checker.ModeExhaustive {
		return badInput("-scheduler chooses the events of random walks; it does not apply to -mode %s", mode)
	}
	if f.shard != "" {
		if mode != checker.ModeRandom {
			return badInput("-shard splits a random search; it does not apply to -mode %s", mode)
		}
		if f.trace != "" || f.linHTML != "" {
			return badInput("a shard prints its part of the search; -trace and -linearizability-html go to vigil merge")
		}
	}
	if f.sweep && mode == checker.ModeRandom {
		return badInput("-sweep is a way of searching exhaustively; it does not apply to -mode %s", mode)
	}
	if mode == checker.ModeExhaustive && cfg.N > maxExhaustiveN {
		return badInput("n = %d is too large for an exhaustive search (at most %d); use -mode random", cfg.N, maxExhaustiveN)
	}
	return nil
}

// exhaustiveOptions are the options of an exhaustive search of sc that
// f asks for.
func (f *checkFlags) exhaustiveOptions(sc suite.Scenario) (checker.Options, error) {
	fairness, err := checker.ParseFairness(f.fairness)
	if err != nil {
		return checker.Options{}, usageError{err}
	}
	reduce, err := checker.ParseReduction(f.reduce)
	if err != nil {
		return checker.Options{}, usageError{err}
	}
	return checker.Options{MaxDepth: sc.MaxDepth, MaxStates: f.maxStates, Time: f.timeLimit,
		MaxMemory: f.memoryMB << 20, Workers: f.workers, Messages: true, Fairness: fairness, Sweep: f.sweep || sc.Sweep, Window: max(f.window, sc.Window),
		First: f.first, Rounds: f.rounds, Reduce: reduce}, nil
}

// randomOptions are the options of random walks of p under cfg that f
// asks for.
func (f *checkFlags) randomOptions(p *suite.Protocol, cfg model.Config) (checker.RandomOptions, error) {
	opt := checker.RandomOptions{Walks: f.walks, Seed: f.seed, MaxDepth: f.depth, Time: f.timeLimit, Workers: f.workers, MaxMemory: f.memoryMB << 20,
		EntryFigures: p.EntryFigures, First: f.first, Rounds: f.rounds, ShrinkTime: f.shrinkTime, HotBound: f.hotBound}
	if !f.set["hot-bound"] {
		opt.HotBound = checker.DefaultHotBound(cfg.N)
	}
	var err error
	if opt.Scheduler, err = checker.ParseScheduler(f.scheduler); err != nil {
		return opt, badInput("%v", err)
	}
	if f.shard != "" {
		if opt.Shard, err = checker.ParseShard(f.shard); err != nil {
			return opt, badInput("%v", err)
		}
	}
	if p.Object != nil {
		opt.Object = p.Object(cfg)
	}
	return opt, nil
}
