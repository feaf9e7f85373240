// Package model is the vocabulary shared by protocols, properties and
// engines: node ids, run configuration, the Protocol contract, observations,
// and the global state (World) with its semantics and canonical encoding.
//
// # The contract
//
// A protocol is written against one node at a time as pure functions over a
// plain Go state type S and message type M (see Protocol). Handlers receive a
// *Ctx through which they send messages, arm and cancel timers and report
// observations; they must not mutate their input state, keep globals, read
// clocks or draw random numbers. Compile turns a Protocol and a Config into a
// Machine: node states, messages and timer sets are interned as small
// integers, and every handler result is memoised, so a handler runs once per
// distinct (node, state, input). Whenever a handler runs on a state or
// message holding slices or maps (the only way to write into a value
// passed by value), the Machine keeps a copy and re-encodes the input
// afterwards to check that the handler did not mutate it; monitors are
// checked the same way.
//
// # Faults
//
// A handler or monitor that panics, mutates its input, or misuses its
// context (a send to no node, a timer that is no plain comparable value)
// does not crash the process: the Stepper records a Fault (see
// Stepper.TakeFault), the Machine stays unlocked with its tables as they
// were, and the faulting call is not memoised. The engines stop there and
// report the fault with the run that leads to it.
//
// # Semantics
//
// A World holds, per node, its interned state, its armed timers and whether it
// is alive; the messages in flight; the crash and recovery budget used; and the
// state of every property monitor. From a World these events may be enabled:
//
//   - Deliver: a message in flight to a live node is received. With FIFO
//     channels only the oldest message of each ordered pair (from, to) can be
//     delivered; with unordered channels any message can.
//   - Timeout: an armed timer of a live node fires. With Async timing any armed
//     timer may fire at any time (an unreliable failure detector). With Sync
//     timing a timer armed with SetTimer(t, waitOn...) fires only once every
//     node in waitOn has crashed and no message from them to this node is in
//     flight (a perfect failure detector); a timer that waits on no node may
//     fire at any time in both modes.
//   - Action: a local action the protocol declares enabled (see Actor).
//   - Crash: while fewer than Config.Crashes crashes happened, any live node
//     may crash. Its timers are disarmed, messages in flight to it are lost,
//     and messages sent to it while it is down are lost at send time; its
//     state is kept for Recover.
//   - Recover: while fewer than Config.Recoveries recoveries happened, a
//     crashed node may recover; Protocol.Recover decides what survives.
//   - Partition: while fewer than Config.Partitions partitions happened, the
//     network may split. A cut separates an arc a..b of the ring of node ids
//     (1 ≤ a ≤ b ≤ N-1) from the rest, refining the groups it crosses, so
//     every two-way split into arcs is explored, and with more partitions
//     finer groupings (choose Config.Ranks to put any ranks on either side).
//     Messages in flight across the cut are lost, so are messages sent
//     across it later. Under Sync timing a node cut off counts as crashed
//     for the timers waiting on it. Each lost message expires the timers of
//     either end that wait on the other: they may fire at any time from
//     then on, even after a heal, as a real timeout would, since what they
//     wait for may never come.
//   - Heal: a split network may become whole again at any time. Nobody is
//     told; messages simply pass again.
//
// A Timeout or Action that would leave the World exactly as it is (same
// node state and timers, no observation, every message it sends lost) is a
// stutter and is not listed as enabled: a coordinator that keeps polling
// nodes a partition cut off changes nothing.
//
// A World is quiescent when no Deliver, Timeout or Action event is enabled:
// only faults could still happen. Quiescent worlds are the ends of complete
// runs; termination-like properties are judged there.
package model
