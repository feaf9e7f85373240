package model

// Monitor is a small automaton fed with the observations of a run, and with
// ObsCrash and ObsRecover when a node crashes or recovers (and ObsTraitor
// when it turns traitor). Its state is
// part of every world the checker explores, so a search that merges equal
// worlds never hides a violation. States must be plain values, as node
// states are (see the package doc); Observe must be pure and return a new
// state rather than change st, which the checker verifies as it does for
// handlers. properties.NewMonitor builds one from typed functions, and
// properties.NewInPlaceMonitor one that a random walk may update in place.
type Monitor interface {
	Name() string
	Start(cfg *Config) any
	Observe(cfg *Config, st any, node NodeID, o Obs) any
}
