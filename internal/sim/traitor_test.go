package sim

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

// chatter is a protocol whose node 0 has one local action, "talk", that
// sends k messages to node 1; its Forge lets a traitor replace message v
// by any of v, v+1, ..., v+d-1 (or, with bad set, leave v out, list one
// twice, or panic).
type chatter struct {
	k, d int
	bad  string
}

func (chatter) Init(*model.Ctx[int]) int { return 0 }

func (chatter) Receive(_ *model.Ctx[int], s int, _ model.NodeID, m int) int { return s + m }

func (p chatter) Actions(env *model.Env, s int) []model.Action {
	if env.Self() != 0 || s != 0 {
		return nil
	}
	return []model.Action{"talk"}
}

func (p chatter) Do(ctx *model.Ctx[int], _ int, _ model.Action) int {
	for i := range p.k {
		ctx.Send(1, 100*i)
	}
	return 1
}

func (p chatter) Forge(_ *model.Env, _ model.NodeID, m int) []int {
	var out []int
	for j := range p.d {
		out = append(out, m+j)
	}
	switch p.bad {
	case "missing":
		return out[1:]
	case "twice":
		return append(out, m)
	case "panic":
		panic("no lies today")
	}
	return out
}

// turned returns the world after node 0 turns traitor, and a stepper.
func turned(t *testing.T, p chatter, traitors int) (*Stepper, World) {
	m, err := Compile[int, int]("chatter", p, model.Config{N: 2, Traitors: traitors})
	require.NoError(t, err)
	st := m.NewStepper()
	w, _ := st.Init()
	if traitors == 0 {
		return st, w
	}
	evs, _ := st.Enabled(w, nil)
	require.Contains(t, evs, Event{Kind: Traitor, Node: 0})
	w, _ = st.Apply(w, Event{Kind: Traitor, Node: 0}, nil)
	require.True(t, st.IsTraitor(w, 0))
	require.False(t, st.IsTraitor(w, 1))
	return st, w
}

// A traitor's step with k sends of d choices each is d^k events, one
// successor each, all distinct, every send drawn from its Forge; a loyal
// node's step is one.
func TestTraitorStepBranchesOnEveryForgedSend(t *testing.T) {
	for _, tc := range []struct {
		name        string
		k, d        int
		traitors    int
		want        int
		wantSendsOf func(choice int) []int
	}{
		{name: "loyal", k: 2, d: 3, traitors: 0, want: 1},
		{name: "one send, two choices", k: 1, d: 2, traitors: 1, want: 2},
		{name: "two sends, three choices", k: 2, d: 3, traitors: 1, want: 9},
		{name: "three sends, two choices", k: 3, d: 2, traitors: 1, want: 8},
		{name: "no lie to tell", k: 2, d: 1, traitors: 1, want: 1},
		{name: "nothing sent", k: 0, d: 2, traitors: 1, want: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st, w := turned(t, chatter{k: tc.k, d: tc.d}, tc.traitors)
			evs, n := st.Enabled(w, nil)
			require.Nil(t, st.TakeFault())
			var talks []Event
			for _, e := range evs[:n] {
				if e.Kind == Act {
					talks = append(talks, e)
				}
			}
			require.Len(t, talks, tc.want)
			seen := map[string]bool{}
			for c, e := range talks {
				require.Equal(t, uint32(c), e.Forge, "the choices in a fixed order")
				next, step := st.Apply(w, e, nil)
				require.Len(t, step.Sends, tc.k)
				var got []int
				for i, snd := range step.Sends {
					msg := st.Machine().FormatMsg(SendMsg(snd))
					var v int
					_, err := fmt.Sscan(msg, &v)
					require.NoError(t, err)
					// mixed radix, the first send the lowest digit
					digit := c
					for range i {
						digit /= tc.d
					}
					if tc.traitors > 0 {
						require.Equal(t, 100*i+digit%tc.d, v, "send %d of choice %d", i, c)
					}
					got = append(got, v)
				}
				key := fmt.Sprint(got)
				require.False(t, seen[key], "choice %d repeats %v", c, got)
				seen[key] = true
				require.Equal(t, st.Fingerprint(next), st.Successor(w, st.Fingerprint(w), e).FP, "Successor agrees with Apply")
			}
		})
	}
}

// The traitor budget: one node at most turns with -traitors 1, and no
// Traitor event is listed once it has.
func TestTraitorBudget(t *testing.T) {
	st, w := turned(t, chatter{k: 1, d: 2}, 1)
	require.Equal(t, 1, st.TraitorsUsed(w))
	evs, _ := st.Enabled(w, nil)
	for _, e := range evs {
		require.NotEqual(t, Traitor, e.Kind, "the budget is spent")
	}
}

// A Forge that breaks its contract is a fault of the protocol, reported,
// not a crash or a silent wrong run.
func TestForgeMisuseIsAFault(t *testing.T) {
	for _, tc := range []struct{ bad, want string }{
		{"missing", "must list the message itself"},
		{"twice", "twice"},
		{"panic", "no lies today"},
	} {
		t.Run(tc.bad, func(t *testing.T) {
			st, w := turned(t, chatter{k: 1, d: 2, bad: tc.bad}, 1)
			st.Enabled(w, nil)
			f := st.TakeFault()
			require.NotNil(t, f)
			require.Equal(t, "Forge", f.Handler)
			require.Contains(t, f.Error(), tc.want)
		})
	}
}

// A run that allows traitors is refused for a protocol without Forge.
func TestTraitorsNeedAForger(t *testing.T) {
	type plain struct{ chatterNoForge }
	_, err := Compile[int, int]("plain", plain{}, model.Config{N: 2, Traitors: 1})
	require.ErrorIs(t, err, model.ErrNoForger)
}

type chatterNoForge struct{}

func (chatterNoForge) Init(*model.Ctx[int]) int                                    { return 0 }
func (chatterNoForge) Receive(_ *model.Ctx[int], s int, _ model.NodeID, _ int) int { return s }
