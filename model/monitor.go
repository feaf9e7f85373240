package model

// Monitor is a small automaton fed with the observations of a run, and with
// ObsCrash and ObsRecover when a node crashes or recovers. Its state is
// part of every world the checker explores, so a search that merges equal
// worlds never hides a violation. States must be plain values (see
// CheckKeyable); Observe must be pure and return a new state rather than
// change st, which the checker verifies as it does for handlers.
// properties.NewMonitor builds one from typed functions.
type Monitor interface {
	Name() string
	Start(cfg *Config) any
	Observe(cfg *Config, st any, node NodeID, o Obs) any
}

// InPlaceMonitor is a Monitor that can also update a state it is handed
// to keep. A random walk holds one world at a time and never goes back to
// an earlier one, so where a search calls Observe, a walk calls
// ObserveInPlace on a state that only it holds (what Start returned, or a
// deep copy of it where two calls of Start share memory; then what
// ObserveInPlace returned) and never reads st again:
// ObserveInPlace may write into st's slices and return them, where
// Observe must copy each one it changes. It must return what Observe
// returns for the same input, which a walk checks on a sample of calls,
// and it must not store one slice in two places of the state (the next
// write in place would change both).
type InPlaceMonitor interface {
	Monitor
	ObserveInPlace(cfg *Config, st any, node NodeID, o Obs) any
}
