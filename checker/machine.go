package checker

import (
	"context"
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Machine is a protocol compiled for one configuration, with the
// properties a search checks: the monitors they read are attached to it,
// so that each world carries their states.
type Machine struct {
	m     *sim.Machine
	props []*properties.Property
}

// Compile builds the Machine that runs protocol p, named name, under cfg
// and checks props. It rejects a configuration that is not valid, state or
// message types that have no canonical encoding (see model.CheckKeyable)
// and property lists that cannot be checked together (see
// properties.CheckNames).
func Compile[S, M any](name string, p model.Protocol[S, M], cfg model.Config, props ...*properties.Property) (*Machine, error) {
	if err := properties.CheckNames(props); err != nil {
		return nil, err
	}
	m, err := sim.Compile(name, p, cfg, properties.Monitors(props)...)
	if err != nil {
		return nil, err
	}
	return &Machine{m: m, props: slices.Clone(props)}, nil
}

// Name is the name the protocol was compiled under.
func (m *Machine) Name() string { return m.m.Name }

// Config is the run's configuration.
func (m *Machine) Config() model.Config { return *m.m.Config() }

// Properties are the properties a search of m checks.
func (m *Machine) Properties() []*properties.Property { return slices.Clone(m.props) }

// WithProperties returns a Machine sharing m's tables that checks props
// instead: a subset of m's, or any that read no monitor m lacks (none, to
// run walks for their figures alone).
func (m *Machine) WithProperties(props ...*properties.Property) (*Machine, error) {
	if err := properties.CheckNames(props); err != nil {
		return nil, err
	}
	for _, mon := range properties.Monitors(props) {
		if !slices.Contains(m.m.Monitors(), mon) {
			return nil, fmt.Errorf("monitor %s, which a property reads, is not attached to %s: compile with that property", mon.Name(), m.Name())
		}
	}
	return &Machine{m: m.m, props: slices.Clone(props)}, nil
}

// Exhaustive explores every world reachable from m's initial world, breadth
// first, and checks m's properties: invariants in every world, quiescence properties
// in every quiescent world. The first counterexample of each property is
// among the shortest. The search stops early once every property has a
// counterexample (Result.Stopped), or, with Options.First, once any has
// (Result.StoppedFirst). Each level is expanded in parallel and
// merged in a fixed order, so verdicts, state and transition counts, depth
// and counterexample lengths do not depend on Workers. The events of a
// counterexample can, rarely: messages are numbered in the order workers
// first meet them, and unordered channels list deliveries by number.
//
// With Options.First the search stops after merging the wave (a fixed run
// of waveChunks chunks of the level, whatever Workers) in which the first
// violation appeared. That point does not depend on Workers either: a
// wave's chunks are fixed slices of the level, expanded against the
// visited set as the previous wave's merge left it, and merged in order.
// Every counterexample found by then is still among the shortest: the
// levels above were expanded whole, so every shallower world was judged;
// a wave finds quiescence violations at the level's depth and invariant
// violations one deeper, never a deeper one. Stopping at a wave rather than
// at the end of its level saves up to a whole level's expansion, the
// largest part of the search. The properties without a counterexample are
// Unknown, not Pass, and no message figures or cycles are judged: the
// search did not go to the end.
//
// A sweep (Options.Sweep) keeps in memory only the level it expands and the
// one it builds, with each state's parent for counterexamples: the
// visited set holds the next level alone, and no state graph is kept. It is
// the sweep-line method with the search depth as its progress measure, and
// is meant for state spaces whose runs all end (a bounded number of
// requests, messages or faults). Dropping old levels has two costs: a
// state reached at two depths is expanded, and counted, at each (where
// every edge goes one depth down, the usual case when each step consumes
// a message or a bounded action, the counts are exact); and a state space
// with a cycle has paths of every length, so its sweep never ends: it is
// cut by a bound, and verdicts it could not back stay unknown. A sweep that
// ends has thereby shown that every run ends, so an Eventually property
// is judged exactly where runs end, as quiescence properties are, with no
// fairness to assume; message figures are carried from level to level.
// A window (Options.Window) keeps the visited sets of a few earlier levels
// too, and does not expand again a state met in them: far fewer
// duplicates where paths of different lengths meet, as when a fault can
// fall at many points, at the price of the proof that runs end, a cycle
// shorter than the window being cut short like any revisit. Invariants
// and quiescence properties keep their verdicts; an Eventually property
// that did not fail is unknown once a revisit happened, and message
// figures are not given.
//
// Message figures (Options.Messages) and Eventually properties need the
// state graph only where some edge goes back to a level already reached,
// or within one: that is where cycles, and paths of different lengths to
// one state, can be. So the search first goes lean, keeping the visited
// set and two levels of figures, and no graph and no parents (a run with
// counterexamples searches again to their depth for their runs, as a
// sweep does). As long as every edge goes one level down the graph has no
// cycle, every run ends where quiescence is judged, and the figures carry
// from level to level exactly. The first edge that does not makes the
// search start again, keeping the graph; verdicts, counts and figures are
// the same either way.
func Exhaustive(ctx context.Context, m *Machine, opt Options) *Result {
	res := exhaustive(ctx, m.m, m.props, opt)
	if res.Reduction.Kind == SymmetryUsed {
		// a violation is told as its run shows it (see search.trace)
		for i := range res.Properties {
			if cx := res.Properties[i].Counterexample; cx != nil {
				res.Properties[i].Detail = cx.Detail
			}
		}
	}
	return res
}

// Random runs seeded random walks from m's initial world. Each step picks
// uniformly among the enabled events. A walk ends at the depth bound or in a
// quiescent world; there, if faults are still possible, it goes on with one
// of them with probability 1/2. Invariants are checked in every world of a
// walk, quiescence properties in every quiescent world; a walk in which
// every property has failed stops there. The counterexample
// kept for each property is the one of the walk with the lowest seed, shrunk
// (see shrink).
//
// A handler or monitor that fails (see Fault) ends its walk, and the
// search after its batch: the result is the fault met by the walk of
// lowest seed, with its run (Result.Fault), which replays from that seed.
//
// With opt.First a walk ends at its first violating world and the search
// after the batch of walks (a fixed run of seeds, whatever Workers) in
// which any walk found a violation, so it stops at the same point for any
// number of workers. Every walk of that batch is kept: the properties they
// broke fail, with the counterexample of the lowest seed as usual, and the
// others are Unknown (Result.StoppedFirst) when walks were left to run or a
// walk was cut short by its violation.
//
// Walks run in batches of consecutive seeds (4, 8, 16, 32, then 64), and
// the search stops between batches once every property has failed, or
// when none of the walks of the first batch reached the end of a run and
// only properties judged there are left: walks like those judge nothing
// more. With opt.Shard, a search runs one shard of itself on one machine
// (the walks whose index is Index mod Count, and every walk of the first
// batch to know whether walks end); MergeShards makes the whole search's
// result from the shards' (Result.Shard).
func Random(ctx context.Context, m *Machine, opt RandomOptions) *Result {
	return random(ctx, m.m, m.props, opt)
}

// Replay re-runs a trace's events on m, checking that each is enabled in
// turn, and returns the trace rebuilt with m's states and judged against
// m's properties: the first property the run violates (invariants in its
// last world, quiescence properties when the run is over, Eventually
// properties on its cycle, if it has one) is named in the result. A trace
// with a cycle must return to the world the cycle starts from, and the
// cycle must be fair under the trace's fairness. A handler or monitor that
// fails on the way ends the replay: Replay returns the trace to the fault,
// with Trace.Fault set, and an error wrapping the *Fault. Replay keeps the
// worlds of the run's cycle alone, and refuses a cycle whose worlds take
// more than 1 GiB.
func Replay(m *Machine, in *Trace) (*Trace, error) {
	return replay(m.m, m.props, in)
}
