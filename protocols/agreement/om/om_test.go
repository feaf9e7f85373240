package om_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	. "github.com/vigil-check/vigil/protocols/agreement/om"
)

const (
	attack  = properties.Attack
	retreat = properties.Retreat
)

func path(ids ...model.NodeID) []model.NodeID { return ids }

// receive runs lieutenant self's Receive in a run of n generals allowing
// traitors, m set when m >= 0, from state s.
func receive(n, traitors, m int, self model.NodeID, s State, from model.NodeID, msg Msg) (State, *model.Ctx[Msg]) {
	cfg := model.Config{N: n, Traitors: traitors}
	if m >= 0 {
		cfg.Params = map[string]int{MParam: m}
	}
	ctx := model.NewCtx[Msg](cfg, self)
	return Protocol{}.Receive(ctx, s, from, msg), ctx
}

// Step 2: a lieutenant relays what it receives along a path of at most m
// generals to every general off the path, its own name appended; along a
// path of m+1 generals it relays nothing (OM(0)).
func TestLieutenantRelays(t *testing.T) {
	for _, tc := range []struct {
		name        string
		n, traitors int
		m           int
		self        model.NodeID
		msg         Msg
		from        model.NodeID
		want        []model.Sent[Msg]
	}{
		{"OM(1): the commander's order", 4, 1, -1, 1, Msg{path(0), attack}, 0,
			checktest.SentTo(Msg{path(0, 1), attack}, 2, 3)},
		{"OM(1): a relay is not relayed", 4, 1, -1, 1, Msg{path(0, 2), retreat}, 2, nil},
		{"OM(2): a relay is relayed", 5, 2, -1, 1, Msg{path(0, 2), retreat}, 2,
			checktest.SentTo(Msg{path(0, 2, 1), retreat}, 3, 4)},
		{"OM(0): nothing relayed", 4, 1, 0, 1, Msg{path(0), attack}, 0, nil},
		{"m follows -traitors", 4, 0, -1, 1, Msg{path(0), attack}, 0, nil},
		{"a path the sender is not last on", 4, 1, -1, 1, Msg{path(0, 2), attack}, 3, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, ctx := receive(tc.n, tc.traitors, tc.m, tc.self, State{Values: map[string]int{}}, tc.from, tc.msg)
			require.Equal(t, tc.want, checktest.Sent(ctx))
		})
	}
}

// Step 3: a lieutenant decides once it holds every value owed, the
// majority of what it received and what the others relayed, RETREAT on a
// tie.
func TestLieutenantDecidesByMajority(t *testing.T) {
	for _, tc := range []struct {
		name   string
		n, m   int
		values map[string]int // held before the last message
		last   Msg
		want   []model.Obs
	}{
		{"OM(1), two attack of three", 4, 1, map[string]int{"[n0]": attack, "[n0 n2]": retreat}, Msg{path(0, 3), attack},
			[]model.Obs{properties.Obey(attack)}},
		{"OM(1), two retreat of three", 4, 1, map[string]int{"[n0]": attack, "[n0 n2]": retreat}, Msg{path(0, 3), retreat},
			[]model.Obs{properties.Obey(retreat)}},
		{"OM(1) at n = 3, a tie", 3, 1, map[string]int{"[n0]": attack}, Msg{path(0, 2), retreat},
			[]model.Obs{properties.Obey(retreat)}},
		{"OM(1), a value still owed", 4, 1, map[string]int{"[n0]": attack}, Msg{path(0, 2), attack}, nil},
		{"OM(0), the order obeyed", 4, 0, map[string]int{}, Msg{path(0), attack}, []model.Obs{properties.Obey(attack)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ctx := receive(tc.n, 1, tc.m, 1, State{Values: tc.values}, tc.last.Path[len(tc.last.Path)-1], tc.last)
			require.Equal(t, tc.want, checktest.Observed(ctx))
			require.Equal(t, tc.want != nil, s.Decided)
		})
	}
}

// OM(2) at n = 7: a lieutenant owes 1 + 5 + 5·4 = 26 values; with the
// commander's attack and every relay of one traitor, n2, saying retreat,
// it still obeys attack.
func TestOM2OutvotesOneTraitor(t *testing.T) {
	cfg := model.Config{N: 7, Traitors: 2}
	values := map[string]int{}
	var paths [][]model.NodeID
	paths = append(paths, path(0))
	for j := model.NodeID(2); j < 7; j++ {
		paths = append(paths, path(0, j))
		for k := model.NodeID(2); k < 7; k++ {
			if k != j {
				paths = append(paths, path(0, j, k))
			}
		}
	}
	require.Len(t, paths, 26)
	var last Msg
	for i, p := range paths {
		v := attack
		if p[len(p)-1] == 2 {
			v = retreat
		}
		m := Msg{Path: p, Value: v}
		if i == len(paths)-1 {
			last = m
			break
		}
		values[m.String()[len(properties.OrderName(v))+1:]] = v
	}
	ctx := model.NewCtx[Msg](cfg, 1)
	s := Protocol{}.Receive(ctx, State{Values: values}, last.Path[len(last.Path)-1], last)
	require.True(t, s.Decided)
	require.Equal(t, []model.Obs{properties.Obey(attack)}, checktest.Observed(ctx))
}

// Forge offers the message itself first, then the other value, along the
// same path.
func TestForgeListsBothValues(t *testing.T) {
	env := &model.NewCtx[Msg](model.Config{N: 4, Traitors: 1}, 2).Env
	m := Msg{Path: path(0, 2), Value: attack}
	require.Equal(t, []Msg{m, {Path: path(0, 2), Value: retreat}}, Protocol{}.Forge(env, 1, m))
}

// The commander orders once, either value, to every lieutenant.
func TestCommanderOrders(t *testing.T) {
	cfg := model.Config{N: 4}
	ctx := model.NewCtx[Msg](cfg, Commander)
	s := Protocol{}.Init(ctx)
	acts := Protocol{}.Actions(&ctx.Env, s)
	require.Equal(t, []model.Action{Order{attack}, Order{retreat}}, acts)
	s = Protocol{}.Do(ctx, s, acts[1])
	require.Equal(t, checktest.SentTo(Msg{path(0), retreat}, 1, 2, 3), checktest.Sent(ctx))
	require.Equal(t, []model.Obs{properties.Command(retreat)}, checktest.Observed(ctx))
	require.Empty(t, Protocol{}.Actions(&ctx.Env, s))
}

// Validate refuses what OM cannot run, each in words.
func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		cfg  model.Config
		want string
	}{
		{model.Config{N: 4, Traitors: 1}, ""},
		{model.Config{N: 3, Traitors: 1}, ""},
		{model.Config{N: 2, Traitors: 1}, "m must be at most n-2"},
		{model.Config{N: 4, Params: map[string]int{MParam: 3}}, "m must be at most n-2"},
		{model.Config{N: 4, Params: map[string]int{MParam: -2}}, "m must be at least 0"},
		{model.Config{N: 1}, "at least 2"},
	} {
		err := Validate(tc.cfg)
		if tc.want == "" {
			require.NoError(t, err)
		} else {
			require.ErrorContains(t, err, tc.want)
		}
	}
}
