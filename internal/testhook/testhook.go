// Package testhook lets vigil's own tests outside the checker package reach
// what the checker keeps unexported: the engine's machine under a
// checker.Machine and the switches of its search. The cross-checks of the
// engines on the shipped protocols live in internal/regress, not in
// checker's own tests, because each protocol package imports checker (its
// description compiles through checker/suite): a test binary of checker's
// that imported them would compile every protocol again against checker's
// test files. The checker sets the hooks as it starts; only tests call
// them. The package also holds what both checker's tests and internal/regress
// use of the naive enumeration (Families, WorldKey, Busy).
//
// A checker.Machine, Options or RandomOptions travels as any, since this
// package cannot import checker; each function says what it takes.
package testhook

import (
	"time"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

var (
	// Model is the sim.Machine under a *checker.Machine.
	Model func(m any) *sim.Machine
	// WalksLive reports whether a random search of a *checker.Machine
	// with checker.RandomOptions walks on a sim.Walker.
	WalksLive func(m, opt any) bool
	// KeepGraph and KeepParents are checker.Options for a search that
	// keeps the state graph, or every state's parent, from the start.
	KeepGraph, KeepParents func(opt any) any
	// SetWaveChunks makes a search's waves n chunks, and SetLiveWalks
	// turns walks on a sim.Walker on or off, until the function they
	// return restores the default.
	SetWaveChunks func(n int) (restore func())
	SetLiveWalks  func(on bool) (restore func())
	// SetProgressEvery makes a search report its progress (Options.Progress,
	// RandomOptions.Progress) at most every d rather than every second,
	// until the function it returns restores the default: a test that
	// waits for a search to be under way need not wait a second.
	SetProgressEvery func(d time.Duration) (restore func())
	// Canonical is the event of evs that a random walk on a sim.Walker
	// draws for ev, for tests that walk a Stepper and a Walker in
	// lockstep (keys: a cache of the events' content keys).
	Canonical func(m *sim.Machine, evs []sim.Event, ev sim.Event, keys map[sim.Event]string) sim.Event
	// NotJudged is the detail of a property that a search stopped at the
	// first violation left unknown.
	NotJudged string
	// WalkSteps walks a machine from seed for at most maxDepth steps, as
	// a random search does, and returns the key of each step of the walk.
	WalkSteps func(m *sim.Machine, props []*properties.Property, seed uint64, maxDepth int) []string
)
