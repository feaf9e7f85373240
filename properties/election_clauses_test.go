package properties

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/internal/inplace"
	"github.com/vigil-check/vigil/model"
)

// The election family's properties judged clause by clause. Each table
// holds small hand-built runs, the observations fed to the property's
// monitor and the world the run ends in, that one property must accept or
// reject: a reject row for each clause of its definition (its Doc, and the
// lecture it cites), named after the clause, and accept rows for the
// clauses that leave nodes out of the judgement (crashed, undecided, on
// the other side of a cut).

// electionRun is a hand-built run: n nodes report steps to the monitors
// (fails and restarts crash and recover a node, which the monitors are
// told), and the world where it ends.
type electionRun struct {
	n      int
	ranks  []int // nil: node i's rank is i
	params map[string]int
	steps  []mstep
	// down: nodes crashed where the run ends without the monitors being
	// told, their last reports kept, so that the property's own liveness
	// test is what leaves them out.
	down []model.NodeID
	// sides: node i is on side sides[i] of a cut; nil: the network is whole.
	sides []int
}

func leads(i, l model.NodeID) mstep       { return mstep{i, model.Leader(l)} }
func joins(i model.NodeID) mstep          { return mstep{i, model.InPool(true)} }
func leaves(i model.NodeID) mstep         { return mstep{i, model.InPool(false)} }
func forms(i model.NodeID, seq int) mstep { return mstep{i, model.NewGroup(seq)} }

func steps(s ...mstep) []mstep { return s }

// handView is the world where an electionRun ends, as a property sees it.
type handView struct {
	cfg   model.Config
	alive []bool
	sides []int
	mon   model.Monitor
	st    any
}

func (v *handView) N() int                    { return v.cfg.N }
func (v *handView) Config() *model.Config     { return &v.cfg }
func (v *handView) Alive(i model.NodeID) bool { return v.alive[i] }
func (v *handView) Rank(i model.NodeID) int   { return v.cfg.Rank(i) }
func (v *handView) Split() bool               { return v.sides != nil }
func (v *handView) InFlight() int             { return 0 }
func (v *handView) State(i model.NodeID) any  { panic("the election properties read no node state") }
func (v *handView) Connected(i, j model.NodeID) bool {
	return v.sides == nil || v.sides[i] == v.sides[j]
}

func (v *handView) Monitor(mon model.Monitor) any {
	if mon != v.mon {
		panic("monitor " + mon.Name() + " is not the one fed")
	}
	return v.st
}

// view feeds r's steps to mon (see feed) and returns the world where r
// ends.
func (r electionRun) view(t *testing.T, mon model.Monitor) *handView {
	t.Helper()
	v := &handView{cfg: model.Config{N: r.n, Ranks: r.ranks, Params: r.params}, alive: make([]bool, r.n), sides: r.sides, mon: mon}
	require.NoError(t, v.cfg.Validate())
	for i := range v.alive {
		v.alive[i] = true
	}
	for _, s := range r.steps {
		switch s.obs.Kind {
		case model.ObsCrash, model.ObsRecover:
			require.NotEqual(t, s.obs.Kind == model.ObsRecover, v.alive[s.node], "%v crashes while down or recovers while up", s.node)
			v.alive[s.node] = s.obs.Kind == model.ObsRecover
		default:
			require.True(t, v.alive[s.node], "%v reports while down", s.node)
		}
	}
	for _, i := range r.down {
		v.alive[i] = false
	}
	v.st = feed(t, mon, &v.cfg, r.steps)
	return v
}

// clause is one row of a property's table: the clause it exercises, a run,
// and what the property reports where the run ends ("": it accepts).
type clause struct {
	name string
	run  electionRun
	want string
}

// judgeClauses judges each row by p's Check, and by Judge in a quiescent
// world and in one that is not.
func judgeClauses(t *testing.T, p *Property, rows []clause) {
	for _, c := range rows {
		t.Run(c.name, func(t *testing.T) {
			v := c.run.view(t, p.Monitor)
			require.Equal(t, c.want, p.Check(v), "%s: %s", p.Name, c.name)
			require.Equal(t, c.want, p.Judge(v, true), "%s judged where the run ends", p.Name)
			before := ""
			if p.When == Always {
				before = c.want
			}
			require.Equal(t, before, p.Judge(v, false), "%s judged before the run ends", p.Name)
		})
	}
}

// UniqueLeader, after the safety condition of an election (Vlassov and
// Montelius, Coordination: E1; "one non-failed machine is selected"): at
// most one live node believes itself the leader.
func TestUniqueLeaderClauses(t *testing.T) {
	judgeClauses(t, UniqueLeader, []clause{
		{name: "accept: one self-leader, followed by the others",
			run: electionRun{n: 3, steps: steps(leads(0, 2), leads(1, 2), leads(2, 2))}},
		{name: "reject: at most one live node believes itself the leader",
			run:  electionRun{n: 3, steps: steps(leads(0, 0), leads(2, 2), leads(1, 2))},
			want: "n0 and n2 both believe they are the leader"},
		{name: "reject: a node believes itself the leader again after a recovery",
			run:  electionRun{n: 3, steps: steps(leads(0, 0), fails(0), leads(1, 1), restarts(0), leads(0, 0))},
			want: "n0 and n1 both believe they are the leader"},
		{name: "accept: believing another node leads is no claim to lead",
			run: electionRun{n: 3, steps: steps(leads(0, 1), leads(1, 2), leads(2, 0))}},
		{name: "accept: live: a crashed node forgets its belief",
			run: electionRun{n: 3, steps: steps(leads(0, 0), fails(0), leads(1, 1))}},
		{name: "accept: live: a crashed node's belief kept is not counted",
			run: electionRun{n: 3, steps: steps(leads(0, 0), leads(1, 1)), down: []model.NodeID{0}}},
	})
}

// Agreement, after the safety condition as Vlassov and Montelius word it
// ("if two nodes decided they have decided to trust the same leader") and
// LeLann's L(i) = L(j) for non-faulty i, j: live nodes whose leader is live
// believe in the same one.
func TestLeaderAgreementClauses(t *testing.T) {
	judgeClauses(t, Agreement, []clause{
		{name: "accept: every live node believes in one live leader",
			run: electionRun{n: 3, steps: steps(leads(0, 1), leads(1, 1), leads(2, 1))}},
		{name: "reject: two live nodes believe in different live leaders",
			run:  electionRun{n: 3, steps: steps(leads(0, 1), leads(1, 1), leads(2, 2))},
			want: "n0 believes n1 leads, n2 believes n2"},
		{name: "reject: a disagreement past an undecided node",
			run:  electionRun{n: 4, steps: steps(leads(1, 3), leads(2, 2), leads(3, 3))},
			want: "n1 believes n3 leads, n2 believes n2"},
		{name: "accept: decided: an undecided node neither agrees nor disagrees",
			run: electionRun{n: 3, steps: steps(leads(1, 2), leads(2, 2))}},
		{name: "accept: live: a crashed node's belief kept is not counted",
			run: electionRun{n: 3, steps: steps(leads(0, 0), leads(1, 2), leads(2, 2)), down: []model.NodeID{0}}},
		{name: "accept: whose leader is live: a belief in a crashed leader is stale, not a disagreement",
			run: electionRun{n: 3, steps: steps(leads(0, 2), leads(1, 1), leads(2, 2), fails(2))}},
		{name: "accept: whose leader is live: a leader down with its belief kept is as stale",
			run: electionRun{n: 3, steps: steps(leads(0, 2), leads(1, 1), leads(2, 2)), down: []model.NodeID{2}}},
	})
}

// HighestLeader, after Silberschatz (Operating System Concepts, ch. 18:
// "the coordinator is always the process with the largest priority
// number"; a new election "must elect that active process with the
// largest priority number") and the bully algorithm's goal: every live
// node that has decided believes in the live node of highest rank.
func TestHighestLeaderClauses(t *testing.T) {
	ranked := []int{2, 0, 1}
	judgeClauses(t, HighestLeader, []clause{
		{name: "accept: every node believes in the node of highest rank",
			run: electionRun{n: 3, ranks: ranked, steps: steps(leads(0, 0), leads(1, 0), leads(2, 0))}},
		{name: "reject: of highest rank: a node believes in one of lower rank",
			run:  electionRun{n: 3, ranks: ranked, steps: steps(leads(0, 0), leads(1, 2), leads(2, 0))},
			want: "n1 believes n2 leads, but the live node of highest rank is n0"},
		{name: "reject: of highest rank, not of highest id",
			run:  electionRun{n: 3, ranks: ranked, steps: steps(leads(0, 2), leads(1, 2), leads(2, 2))},
			want: "n0 believes n2 leads, but the live node of highest rank is n0"},
		{name: "reject: the live node: the node of highest rank has crashed",
			run:  electionRun{n: 3, ranks: ranked, steps: steps(leads(1, 0), leads(2, 2), fails(0))},
			want: "n1 believes n0 leads, but the live node of highest rank is n2"},
		{name: "reject: the live node: of highest rank is down with its belief kept",
			run:  electionRun{n: 3, ranks: ranked, steps: steps(leads(0, 0), leads(1, 0), leads(2, 0)), down: []model.NodeID{0}},
			want: "n1 believes n0 leads, but the live node of highest rank is n2"},
		{name: "accept: that has decided: an undecided node is not judged",
			run: electionRun{n: 3, steps: steps(leads(1, 2), leads(2, 2))}},
		{name: "accept: live: a crashed node's belief kept is not judged",
			run: electionRun{n: 3, steps: steps(leads(0, 1), leads(1, 2), leads(2, 2)), down: []model.NodeID{0}}},
	})
}

// Termination, after the liveness condition of an election (Vlassov and
// Montelius: "all nodes will eventually decide"; the Elections notes:
// "elections terminate"): every live node believes in some leader.
func TestTerminationClauses(t *testing.T) {
	judgeClauses(t, Termination, []clause{
		{name: "accept: every live node has decided, even on different leaders",
			run: electionRun{n: 3, steps: steps(leads(0, 0), leads(1, 1), leads(2, 0))}},
		{name: "reject: every live node believes in some leader",
			run:  electionRun{n: 3, steps: steps(leads(0, 2), leads(2, 2))},
			want: "the run is over but n1 has not decided"},
		{name: "reject: a recovered node believes nothing until it reports again",
			run:  electionRun{n: 3, steps: steps(leads(0, 2), leads(1, 2), leads(2, 2), fails(0), restarts(0))},
			want: "the run is over but n0 has not decided"},
		{name: "accept: live: a crashed node need not decide",
			run: electionRun{n: 3, steps: steps(leads(0, 2), leads(2, 2), fails(1))}},
	})
}

// LiveLeader, after LeLann's condition that L(i) is non-faulty for every
// non-faulty i: every live node believes in a live leader.
func TestLiveLeaderClauses(t *testing.T) {
	judgeClauses(t, LiveLeader, []clause{
		{name: "accept: every live node believes in a live leader, not the highest",
			run: electionRun{n: 3, steps: steps(leads(0, 1), leads(1, 1), leads(2, 1))}},
		{name: "reject: every live node believes in a leader",
			run:  electionRun{n: 3, steps: steps(leads(0, 1), leads(1, 1))},
			want: "the run is over but n2 has not decided"},
		{name: "reject: a live leader: the leader has crashed",
			run:  electionRun{n: 3, steps: steps(leads(0, 2), leads(1, 2), leads(2, 2), fails(2))},
			want: "the run is over but n0 believes n2 leads, which has crashed"},
		{name: "accept: live: a crashed node need not decide",
			run: electionRun{n: 3, steps: steps(leads(1, 1), leads(2, 1)), down: []model.NodeID{0}}},
	})
}

// GroupLeader, after Garcia-Molina's invitation algorithm as Kesden
// presents it ("partitioned participants (or whole group) elect their own
// coordinator"): each connected group of live nodes has one coordinator
// (a node that believes it leads), followed by all of the group.
func TestGroupLeaderClauses(t *testing.T) {
	split := []int{0, 0, 1, 1}
	judgeClauses(t, GroupLeader, []clause{
		{name: "accept: one coordinator for each side of a cut",
			run: electionRun{n: 4, sides: split, steps: steps(leads(0, 1), leads(1, 1), leads(2, 3), leads(3, 3))}},
		{name: "reject: followed: a live node follows no coordinator",
			run:  electionRun{n: 3, steps: steps(leads(0, 2), leads(2, 2))},
			want: "the run has settled but n1 follows no coordinator"},
		{name: "reject: of live nodes: the coordinator followed has crashed",
			run:  electionRun{n: 4, steps: steps(leads(0, 3), leads(1, 1), leads(2, 1), leads(3, 3), fails(3))},
			want: "the run has settled but n0 follows n3, which it cannot reach"},
		{name: "reject: connected: the coordinator followed is across the cut",
			run:  electionRun{n: 4, sides: split, steps: steps(leads(0, 3), leads(1, 1), leads(2, 3), leads(3, 3))},
			want: "the run has settled but n0 follows n3, which it cannot reach"},
		{name: "reject: coordinator: the node followed follows another",
			run:  electionRun{n: 4, steps: steps(leads(0, 1), leads(1, 2), leads(2, 3), leads(3, 3))},
			want: "n0 follows n1, which follows n2"},
		{name: "reject: one coordinator: two in one connected group",
			run:  electionRun{n: 3, steps: steps(leads(0, 0), leads(1, 1), leads(2, 0))},
			want: "n0 and n1 are connected but follow n0 and n1"},
		{name: "reject: one coordinator: two on one side of a cut",
			run:  electionRun{n: 4, sides: []int{0, 1, 0, 0}, steps: steps(leads(0, 0), leads(1, 1), leads(2, 2), leads(3, 0))},
			want: "n0 and n2 are connected but follow n0 and n2"},
		{name: "accept: live: a crashed node's belief kept is not counted",
			run: electionRun{n: 3, steps: steps(leads(0, 0), leads(1, 2), leads(2, 2)), down: []model.NodeID{0}}},
	})
}

// HealedLeader, after Kesden's invitation algorithm, which merges groups
// "as partitions heal": in a whole network all live nodes follow one live
// coordinator.
func TestHealedLeaderClauses(t *testing.T) {
	judgeClauses(t, HealedLeader, []clause{
		{name: "accept: everyone follows one live coordinator",
			run: electionRun{n: 3, steps: steps(leads(0, 1), leads(1, 1), leads(2, 1))}},
		{name: "accept: of a whole network: a split one is not judged",
			run: electionRun{n: 4, sides: []int{0, 0, 1, 1}, steps: steps(leads(0, 1), leads(1, 1), leads(3, 3))}},
		{name: "reject: follow a coordinator: a live node follows none",
			run:  electionRun{n: 3, steps: steps(leads(0, 2), leads(2, 2))},
			want: "the network is whole and the run has settled, but n1 follows no live coordinator"},
		{name: "reject: a live coordinator: the one followed has crashed",
			run:  electionRun{n: 3, steps: steps(leads(0, 2), leads(1, 2), leads(2, 2), fails(2))},
			want: "the network is whole and the run has settled, but n0 follows no live coordinator"},
		{name: "reject: one coordinator: two are followed",
			run:  electionRun{n: 4, steps: steps(leads(0, 1), leads(1, 3), leads(2, 1), leads(3, 3))},
			want: "the network is whole and the run has settled, but n0 follows n1 and n1 follows n3"},
		{name: "accept: live: a crashed node's belief kept is not counted",
			run: electionRun{n: 3, steps: steps(leads(0, 0), leads(1, 2), leads(2, 2)), down: []model.NodeID{0}}},
	})
}

// GroupNumbersUnique, after Kesden's invitation algorithm: "the group
// number is unique among all groups, is changed every time a new group is
// formed, and is never reused", a sequence number "incremented each time
// the processor becomes the coordinator of a new group" with the
// processor's id attached.
func TestGroupNumbersUniqueClauses(t *testing.T) {
	judgeClauses(t, GroupNumbersUnique, []clause{
		{name: "accept: each node's sequence grows",
			run: electionRun{n: 2, steps: steps(forms(0, 1), forms(1, 1), forms(0, 2), forms(0, 5))}},
		{name: "accept: with the id attached: one sequence number at two nodes names two groups",
			run: electionRun{n: 2, steps: steps(forms(0, 3), forms(1, 3))}},
		{name: "reject: never reused: a node forms a group it formed before",
			run:  electionRun{n: 2, steps: steps(forms(1, 1), forms(1, 2), forms(1, 2))},
			want: "n1 formed group (2, n1) again"},
		{name: "reject: growing sequence numbers: a node's sequence steps back",
			run:  electionRun{n: 2, steps: steps(forms(0, 3), forms(0, 2))},
			want: "n0 formed group (2, n0) again"},
		{name: "reject: never reused, across a crash",
			run:  electionRun{n: 2, steps: steps(forms(0, 1), fails(0), restarts(0), forms(0, 1))},
			want: "n0 formed group (1, n0) again"},
		{name: "reject: the first reuse is the one told",
			run:  electionRun{n: 2, steps: steps(forms(0, 1), forms(1, 1), forms(1, 1), forms(0, 1), forms(0, 2), forms(0, 2))},
			want: "n1 formed group (1, n1) again"},
		{name: "accept: formed: other observations form no group",
			run: electionRun{n: 2, steps: steps(leads(0, 0), joins(1), forms(1, 1), leads(1, 0), fails(0))}},
	})
}

// PoolSize, after Anthony's emergent election (its pool of slaves between
// a lower and an upper limit, "the trigger lower limit for pool size can
// be made different to the upper limit"): the live nodes in the pool
// number at most pool-max, and at least min(pool-min, live nodes - 1).
func TestPoolSizeClauses(t *testing.T) {
	limits := func(lo, hi int) map[string]int { return map[string]int{PoolMinParam: lo, PoolMaxParam: hi} }
	judgeClauses(t, PoolSize, []clause{
		{name: "accept: within the default limits (1, 2)",
			run: electionRun{n: 5, steps: steps(joins(1), joins(3))}},
		{name: "reject: at most pool-max",
			run:  electionRun{n: 5, steps: steps(joins(0), joins(1), joins(3))},
			want: "the run is over with 3 live nodes in the pool, more than pool-max 2"},
		{name: "reject: at most pool-max, as a parameter",
			run:  electionRun{n: 5, params: limits(1, 3), steps: steps(joins(0), joins(1), joins(2), joins(3))},
			want: "the run is over with 4 live nodes in the pool, more than pool-max 3"},
		{name: "accept: pool-max as a parameter",
			run: electionRun{n: 5, params: limits(1, 3), steps: steps(joins(0), joins(1), joins(3))}},
		{name: "reject: at least pool-min",
			run:  electionRun{n: 5, steps: steps(joins(1), leaves(1))},
			want: "the run is over with 0 live nodes in the pool, fewer than 1 (pool-min 1, 5 live nodes)"},
		{name: "reject: at least pool-min, as a parameter",
			run:  electionRun{n: 5, params: limits(3, 4), steps: steps(joins(1), joins(3))},
			want: "the run is over with 2 live nodes in the pool, fewer than 3 (pool-min 3, 5 live nodes)"},
		{name: "reject: at least live nodes - 1, where that is fewer than pool-min",
			run:  electionRun{n: 5, params: limits(3, 3), steps: steps(joins(3), fails(0), fails(1))},
			want: "the run is over with 1 live nodes in the pool, fewer than 2 (pool-min 3, 3 live nodes)"},
		{name: "accept: live nodes - 1: two live nodes, one of them in the pool",
			run: electionRun{n: 5, params: limits(3, 3), steps: steps(joins(3), fails(0), fails(1), fails(2))}},
		{name: "accept: live nodes - 1: the master alone needs no pool",
			run: electionRun{n: 5, steps: steps(fails(0), fails(1), fails(2), fails(3))}},
		{name: "reject: live nodes in the pool: a recovered node is out until it joins again",
			run:  electionRun{n: 5, steps: steps(joins(3), fails(3), restarts(3))},
			want: "the run is over with 0 live nodes in the pool, fewer than 1 (pool-min 1, 5 live nodes)"},
		{name: "accept: live nodes in the pool: a crashed member kept is not counted",
			run: electionRun{n: 5, steps: steps(joins(0), joins(1), joins(3), leads(2, 2)), down: []model.NodeID{0}}},
	})
}

// The election monitors copy on write: Observe hands back the state it was
// given when nothing changes, and ObserveInPlace writes into the walk's
// state rather than copying it.
func TestElectionMonitorsCopyOnWrite(t *testing.T) {
	cfg := &model.Config{N: 3}
	leaders := Leaders.Start(cfg).([]model.NodeID)
	same := Leaders.Observe(cfg, leaders, 1, model.Leader(model.None)).([]model.NodeID)
	require.True(t, sameSlice(leaders, same), "Observe copied the leaders where nothing changed")
	pool := Pool.Start(cfg).([]bool)
	require.True(t, sameSlice(pool, Pool.Observe(cfg, pool, 1, model.InPool(false)).([]bool)), "Observe copied the pool where nothing changed")

	walk := Leaders.(inplace.Monitor)
	after := walk.ObserveInPlace(cfg, leaders, 2, model.Leader(0)).([]model.NodeID)
	require.True(t, sameSlice(leaders, after), "ObserveInPlace copied the leaders")
	require.Equal(t, []model.NodeID{model.None, model.None, 0}, leaders, "ObserveInPlace writes the walk's state")
	inPool := Pool.(inplace.Monitor).ObserveInPlace(cfg, pool, 0, model.InPool(true)).([]bool)
	require.True(t, sameSlice(pool, inPool), "ObserveInPlace copied the pool")
	require.Equal(t, []bool{true, false, false}, pool, "ObserveInPlace writes the walk's state")

	groups := GroupNumbers.Start(cfg).(groupNumbers)
	grown := GroupNumbers.(inplace.Monitor).ObserveInPlace(cfg, groups, 1, model.NewGroup(4)).(groupNumbers)
	require.True(t, sameSlice(groups.Last, grown.Last), "ObserveInPlace copied the group numbers")
	require.Equal(t, []int{0, 4, 0}, groups.Last, "ObserveInPlace writes the walk's state")
	require.True(t, slices.Equal(grown.Last, GroupNumbers.Observe(cfg, GroupNumbers.Start(cfg), 1, model.NewGroup(4)).(groupNumbers).Last))
}
