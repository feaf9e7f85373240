// Package model is the protocol author's manual: node ids, the run's
// configuration, the Protocol contract, observations and monitors, and the
// semantics of the runs vigil explores. The engines that explore them are
// package checker.
//
// # The contract
//
// A protocol is written against one node at a time as pure functions over a
// plain Go state type S and message type M (see Protocol). Handlers receive a
// *Ctx through which they send messages, arm and cancel timers and report
// observations; they must not mutate their input state, keep globals, read
// clocks or draw random numbers. States, messages, timers and actions are
// plain values (booleans, numbers, strings, and arrays, slices, maps and
// structs of them; no pointers, interfaces, channels or funcs) that the
// checker compares and interns by content, and it runs each handler once
// per distinct (node, state, input), remembering the outcome. A handler's
// unit test calls it directly with a context from NewCtx and reads its
// effects back with package checker/checktest.
//
// # Faults
//
// A handler or monitor that panics, mutates its input (writes into a slice
// or map it was given), or misuses its context (a send to no node or to a
// node that is not a neighbour, a timer that is no plain comparable value)
// is a bug of the protocol: the checker
// does not crash but ends the search and reports the fault (a Fault) with
// the run that leads to it (see checker.Fault).
//
// # Semantics
//
// The network is a connected undirected graph, Config.Topology (the complete
// graph unless a run says otherwise; see ParseTopology). A node may send only
// to its neighbours (Env.Neighbors, Env.Adjacent) and to itself; a send to
// any other node is a fault of the protocol. The topology only restricts
// sends: channels, crashes, partitions and timers are the same on every
// graph, and a node may still know of, rank and wait on every node.
//
// A world holds, per node, its state, its armed timers and whether it is
// alive; the messages in flight; the faults used so far; and the state of
// every monitor. From a world these events may be enabled:
//
//   - Deliver: a message in flight to a live node is received. With FIFO
//     channels only the oldest message of each ordered pair (from, to) can be
//     delivered; with unordered channels any message can. With Set channels
//     the messages sent form a set of (from, to, message) that only grows:
//     any message of the set may be delivered to its receiver while it is
//     alive, and stays in the set, to be delivered again any number of
//     times; a send of a message the set holds adds nothing, and a crash
//     takes nothing out (messages to a crashed node wait in the set).
//   - Timeout: an armed timer of a live node fires. With Async timing any armed
//     timer may fire at any time (an unreliable failure detector). With Sync
//     timing a timer armed with SetTimer(t, waitOn...) fires only once every
//     node in waitOn has crashed and no message from them to this node is in
//     flight (a perfect failure detector; under Set channels, whose set never
//     empties, once every node in waitOn has crashed, their messages still
//     deliverable after the timer fires); a timer that waits on no node may
//     fire at any time in both modes. With Bounded timing a timer armed with
//     SetTimerAfter(t, k) fires exactly k ticks after it was armed, and one
//     armed with SetTimer behaves as under Sync.
//   - Tick (Bounded timing only): one tick of time passes. Every message in
//     flight ages by one and every timer armed with SetTimerAfter counts down.
//     Time does not pass while a message is Config.Delay ticks old (it must be
//     delivered first) or a timer is due (it must fire first), nor where
//     nothing would count it: no message in flight, no timer counting down.
//     So every message is delivered within Config.Delay ticks of its send.
//   - Action: a local action the protocol declares enabled (see Actor).
//   - Crash: while fewer than Config.Crashes crashes happened, any live node
//     may crash. Its timers are disarmed, messages in flight to it are lost,
//     and messages sent to it while it is down are lost at send time; its
//     state is kept for Recover.
//   - Recover: while fewer than Config.Recoveries recoveries happened, a
//     crashed node may recover; the protocol's Recover (see Recoverer)
//     decides what survives.
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
//   - Lose: while fewer than Config.Losses losses happened, any one message
//     in flight may vanish. With FIFO channels it may be any message of its
//     channel, not only the oldest: the messages behind it keep their order
//     and the lost one leaves a gap. As a message lost to a cut, it expires
//     the timers of either end that wait on the other.
//   - Traitor: while fewer than Config.Traitors nodes turned traitor, any
//     live loyal node may turn; the monitors observe ObsTraitor. From then
//     on its handlers run as written and each message it sends is one the
//     checker chooses among those its protocol's Forge lists (see Forger):
//     one successor per choice of every send of the step.
//   - Duplicate: while fewer than Config.Duplicates duplications happened,
//     any message in flight may be duplicated: a copy joins its channel,
//     with FIFO channels at the tail (so it arrives again after everything
//     sent before the duplication), with unordered channels as one more
//     message that may arrive at any time.
//
// A Timeout or Action that would leave the world exactly as it is (same
// node state and timers, no observation, every message it sends lost) is a
// stutter and is not listed as enabled: a coordinator that keeps polling
// nodes a partition cut off changes nothing. Under Set channels so is a
// Deliver, Timeout or Action whose successor is the same world: the same
// node state and timers, every message it sends in the set already, every
// monitor in the same state after what it observes. A stutter is not a
// transition, does not keep a world from being quiescent, and no fair
// cycle is made of stutters.
//
// A world is quiescent when no Deliver, Timeout or Action event is enabled:
// only faults could still happen. Quiescent worlds are the ends of complete
// runs; termination-like properties are judged there.
package model
