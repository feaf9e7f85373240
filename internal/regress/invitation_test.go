package regress

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
	"github.com/vigil-check/vigil/protocols/election/invitation"
)

func invitationProtocol(t *testing.T) *suite.Protocol {
	t.Helper()
	p, err := protocols.Lookup("invitation")
	require.NoError(t, err)
	require.Equal(t, []string{"group-leader", "healed-leader", "group-numbers-unique"}, p.Claims)
	return p
}

// Every scenario of the invitation algorithm gives its recorded verdict.
func TestInvitationScenarios(t *testing.T) {
	t.Parallel()
	p := invitationProtocol(t)
	var names []string
	for i := range p.Scenarios {
		s := &p.Scenarios[i]
		names = append(names, s.Name)
		// (the quick tier leaves the scenarios of over 300 000 states, the
		// duplicate's millions, to -long)
		r, err := suite.Exhaustive(context.Background(), p, s, checker.Options{MaxStates: tier.Pick[int64](300_000, 0)})
		require.NoError(t, err, s.Name)
		if r.Cut == checker.CutStates {
			continue
		}
		require.Empty(t, suite.Judge(s, r), s.Name)
		require.Empty(t, r.Cut, s.Name)
		if s.Expect == "pass" {
			require.Positive(t, r.Stats.Quiescent, "%s: no complete run, so group-leader and healed-leader were never judged", s.Name)
		}
		t.Logf("%s: %s", s.Name, suite.Describe(r))
	}
	require.Equal(t, []string{"partition-heal", "crash", "one-leader", "recovery", "lost-invitation", "three-crashes", "volatile-seq", "duplicate"}, names)
}

// Beyond the scenarios, at N = 3: two partitions (so three groups, or a
// second split after a heal), and a crash, a recovery and a partition
// together. Each explores about ten million worlds; both together stay
// well under a minute on two cores.
func TestInvitationExhaustiveVariants(t *testing.T) {
	t.Parallel()
	tier.Long(t, "two searches of about ten million worlds")
	cases := []struct {
		name string
		cfg  model.Config
	}{
		{"n3 two partitions", model.Config{N: 3, Partitions: 2}},
		{"n3 crash, recovery and partition", model.Config{N: 3, Crashes: 1, Recoveries: 1, Partitions: 1}},
	}
	for _, c := range cases {
		r := exhaustiveRun(t, "invitation", c.cfg, nil, checker.Options{})
		require.Empty(t, r.Cut, c.name)
		require.Equal(t, checker.Pass, r.Verdict, "%s: %s", c.name, suite.Describe(r))
		require.Positive(t, r.Stats.Quiescent, c.name)
		t.Logf("%s: %d states, %d quiescent, %.2fs", c.name, r.Stats.States, r.Stats.Quiescent, r.Stats.Seconds)
	}
}

// Random walks at N = 30 with a partition and a crash raise no false alarm,
// and the quiescence claims are judged: every walk ends in a quiescent
// world.
func TestInvitationRandomN30(t *testing.T) {
	t.Parallel()
	const walks, maxDepth = 1000, 100_000
	r := randomRun(t, "invitation", model.Config{N: 30, Partitions: 1, Crashes: 1}, nil,
		checker.RandomOptions{Walks: walks, Seed: 1, MaxDepth: maxDepth})
	require.Equal(t, checker.Pass, r.Verdict, suite.Describe(r))
	require.Len(t, r.Properties, 3)
	require.Equal(t, walks, r.Stats.Walks)
	// A walk stops at the depth bound, when every property has failed, or
	// in a quiescent world (with probability 1/2 each time one is reached,
	// else it goes on with a fault). Nothing failed and no walk reached the
	// bound, so every walk ended complete, having judged group-leader and
	// healed-leader at least there.
	require.Less(t, r.Stats.Depth, maxDepth)
	require.GreaterOrEqual(t, r.Stats.Quiescent, int64(walks))
	require.NotNil(t, r.Messages, "message figures cover complete walks only")
	t.Logf("%s, %d quiescent worlds judged", suite.Describe(r), r.Stats.Quiescent)
}

// amnesiac is a seeded bug: a node without stable storage, which forgets
// its sequence number in a crash and starts again from 0, so a recovered
// coordinator forms a group number it used before.
type amnesiac struct{ invitation.Protocol }

func (a amnesiac) Recover(ctx *model.Ctx[invitation.Msg], _ invitation.State) invitation.State {
	return a.Protocol.Recover(ctx, invitation.State{})
}

// The checker catches the node that forgets its sequence number: group
// numbers are reused once a coordinator crashes and recovers. The shipped
// protocol, which keeps the number in stable storage, passes the same
// searches.
func TestInvitationSeededBugForgetsSequence(t *testing.T) {
	t.Parallel()
	exhaustive := model.Config{N: 3, Crashes: 1, Recoveries: 1}
	random := model.Config{N: 30, Crashes: 1, Recoveries: 1}
	ropt := checker.RandomOptions{Walks: 1000, Seed: 1}

	m := compileVariant(t, "invitation", "election/invitation", invitation.Protocol{}, exhaustive)
	r := checker.Exhaustive(context.Background(), m, checker.Options{})
	require.Equal(t, checker.Pass, r.Verdict, "shipped, exhaustive: %s", suite.Describe(r))
	m = compileVariant(t, "invitation", "election/invitation", invitation.Protocol{}, random)
	r = checker.Random(context.Background(), m, ropt)
	require.Equal(t, checker.Pass, r.Verdict, "shipped, random: %s", suite.Describe(r))

	m = compileVariant(t, "invitation", "election/invitation-amnesiac", amnesiac{}, exhaustive)
	r = checker.Exhaustive(context.Background(), m, checker.Options{})
	pr := requireReuse(t, r, "exhaustive n=3")
	// the shortest run: the first coordinator crashes and recovers
	require.Equal(t, "n2 formed group (1, n2) again", pr.Detail)
	require.Len(t, pr.Counterexample.Events, 2)
	require.Equal(t, "crash", pr.Counterexample.Events[0].Kind)
	require.Equal(t, "recover", pr.Counterexample.Events[1].Kind)
	require.Equal(t, 2, pr.Counterexample.Events[1].Node)

	m = compileVariant(t, "invitation", "election/invitation-amnesiac", amnesiac{}, random)
	r = checker.Random(context.Background(), m, ropt)
	pr = requireReuse(t, r, "random n=30")
	require.NotNil(t, pr.Counterexample.Seed)
}

// requireReuse fails unless group-numbers-unique has a counterexample that
// ends with a recovery.
func requireReuse(t *testing.T, r *checker.Result, what string) *checker.PropertyResult {
	t.Helper()
	pr := r.Property("group-numbers-unique")
	require.NotNil(t, pr, what)
	require.Equal(t, checker.Fail, pr.Verdict, "%s: the seeded bug went unnoticed: %s", what, suite.Describe(r))
	require.NotNil(t, pr.Counterexample, what)
	evs := pr.Counterexample.Events
	require.NotEmpty(t, evs, what)
	require.Equal(t, "recover", evs[len(evs)-1].Kind, "%s: the reuse follows a recovery", what)
	t.Logf("%s: %s: %s (%d events)", what, suite.Describe(r), pr.Detail, len(evs))
	return pr
}
