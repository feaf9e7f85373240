package checker

import (
	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
)

// SetWaveChunks makes waves of n chunks until the returned function
// restores the default, so that small searches have levels of several
// waves.
func SetWaveChunks(n int) (restore func()) { return testhook.SetWaveChunks(n) }

// NotJudged is the detail of a property left unknown by Options.First.
const NotJudged = notJudged

// ModelOf is the sim.Machine that m wraps, for tests that enumerate its
// worlds by hand.
func ModelOf(m *Machine) *sim.Machine { return m.m }

// SetLiveWalks turns random walks on sim.Walker on or off until the
// returned function restores the default.
func SetLiveWalks(on bool) (restore func()) { return testhook.SetLiveWalks(on) }

// WalksLive reports whether a search of m with opt walks on a sim.Walker.
func WalksLive(m *Machine, opt RandomOptions) bool { return walksLive(m.m, opt) }

// Canonical is canonical, for tests that walk a Stepper and a Walker in
// lockstep.
func Canonical(m *sim.Machine, evs []sim.Event, ev sim.Event, keys map[sim.Event]string) sim.Event {
	return canonical(m, evs, ev, keys)
}

// KeepGraph is opt for a search that keeps the state graph from the start
// rather than trying a lean search first.
func KeepGraph(opt Options) Options { return testhook.KeepGraph(opt).(Options) }

// KeepParents is opt for a search that keeps every state's parent from
// the start rather than searching again for its counterexamples.
func KeepParents(opt Options) Options { return testhook.KeepParents(opt).(Options) }

// SetReplayCycleWords bounds the words of the worlds a replay keeps until
// the returned function restores the default.
func SetReplayCycleWords(n int) (restore func()) {
	old := replayCycleWords
	replayCycleWords = n
	return func() { replayCycleWords = old }
}
