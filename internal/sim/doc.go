// Package sim is the machinery under vigil's engines: a protocol compiled
// for one configuration (Machine) and the worlds of its runs, stepped by a
// Stepper. Node states, messages and timer sets are interned as small
// integers and every handler call is memoised, so a world is a short slice
// of words (World) and a step is mostly a table lookup; worlds are
// fingerprinted incrementally for the visited sets of the searches.
//
// Whenever a handler runs on a state or message holding slices or maps (the
// only way to write into a value passed by value), the Machine re-encodes
// the input afterwards to check that the handler did not mutate it;
// monitors are checked the same way. A handler or monitor that panics,
// mutates its input or misuses its context does not crash the process: the
// Stepper records a Fault (see Stepper.TakeFault), the Machine stays
// unlocked with its tables as they were, and the faulting call is not
// memoised.
//
// A Walker runs the same worlds over live values instead, one walk at a
// time, for random walks, which rarely meet a world twice: nothing
// interned, the enabled events kept up to date step by step.
//
// What each kind of event does is written once per kind, in its own file,
// three ways side by side: building the successor world (Stepper.Apply),
// its fingerprint without building it (Stepper.Successor) and a Walker's
// step: deliver.go, local.go (timeouts and actions), crash.go (crashes and
// recoveries), network.go (partitions and heals), msgfault.go (losses and
// duplications) and tick.go (Bounded timing). world.go holds what they
// share: the World's words, the fingerprint, and a node's memoised step
// with its effects on a world and on a fingerprint; enabled.go lists the
// events enabled. The Walker's own machinery is in the live*.go files and
// fenwick.go.
//
// The semantics of the worlds are those package model states for protocol
// authors. Nothing here is part of vigil's public API: package checker is.
package sim
