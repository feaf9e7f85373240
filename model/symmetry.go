package model

// Symmetric is implemented by protocols some of whose nodes are
// interchangeable: nodes of one role that the handlers never tell apart by
// id or rank (the participants of a commit, the clients of a server, the
// workers of a farm). Renaming such nodes into one another in a reachable
// world gives a world that behaves the same, so an exhaustive search
// explores one world of each such family (symmetry reduction) and keeps
// every verdict. The checker never guesses a symmetry: a protocol declares
// it, for each configuration.
//
// To rename a world, the checker renames every NodeID value in node
// states, messages, timers and actions (None stays None), and moves the
// entries of every slice or array field tagged `vigil:"bynode"` (indexed
// by node, as a vector clock is) to their nodes' new places. A type that
// holds node ids in another form implements Renamer; a monitor whose state
// does, or whose state is indexed by node, implements SymmetricMonitor.
// Every monitor of a search must be a SymmetricMonitor for the search to be
// reduced, and its properties must not tell interchangeable nodes apart
// either: an exhaustive search checks both on a sample of its worlds, and
// reports a fault where renaming changes what a world does.
type Symmetric interface {
	// Interchangeable returns the classes of nodes that may trade places
	// in runs of cfg, each of two nodes or more, no node in two classes:
	// nodes not listed keep their ids. Nil declares no symmetry for cfg
	// (say, when the run's initiators or topology tell the nodes apart).
	Interchangeable(cfg *Config) [][]NodeID
}

// Renamer is implemented by values that hold node ids where the checker
// cannot see them as NodeID values (a type defined over NodeID, a packed
// id, a table indexed by node without the bynode tag): RenameNodes returns
// the value with node i renamed to(i) throughout. It must return a value
// of the receiver's own type.
type Renamer interface {
	RenameNodes(to func(NodeID) NodeID) any
}

// SymmetricMonitor is a Monitor that can rename the nodes in its states
// (see Symmetric): RenameNodes returns st with node i renamed to(i)
// throughout, as Observe would have built it had every observation of node
// i come from to(i). A monitor whose state names no node returns st.
type SymmetricMonitor interface {
	Monitor
	RenameNodes(cfg *Config, st any, to func(NodeID) NodeID) any
}
