package checker_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// A Node runs the handlers one call at a time, and its messages and states
// travel as JSON and come back as the same interned values.
func TestNodeRunsHandlersOutsideAWorld(t *testing.T) {
	m, err := checker.Compile("flood", Flood{}, model.Config{N: 3, Channels: model.Unordered}, properties.UniqueLeader)
	require.NoError(t, err)
	n0, n1 := m.Node(0), m.Node(1)

	st, err := n1.Init()
	require.NoError(t, err)
	require.Len(t, st.Sends, 2)
	require.Equal(t, []model.NodeID{0, 2}, []model.NodeID{st.Sends[0].To, st.Sends[1].To})
	msg := st.Sends[0].Msg
	require.Equal(t, "{Rank:1}", m.MessageText(msg))

	wire, err := m.EncodeMessage(msg)
	require.NoError(t, err)
	require.JSONEq(t, `{"Rank":1}`, string(wire))
	back, err := m.DecodeMessage(wire)
	require.NoError(t, err)
	require.Equal(t, msg, back)

	s0, err := n0.Init()
	require.NoError(t, err)
	s, err := n0.Receive(s0.State, 1, back)
	require.NoError(t, err)
	require.Empty(t, s.Observed, "one rank of two heard: no leader yet")
	s, err = n0.Receive(s.State, 1, back)
	require.NoError(t, err)
	require.Equal(t, []model.Obs{model.Leader(1)}, s.Observed)
	require.Equal(t, "{Heard:2 Best:n1}", m.StateText(s.State))

	disk, err := m.EncodeState(s.State)
	require.NoError(t, err)
	again, err := m.DecodeState(disk)
	require.NoError(t, err)
	require.Equal(t, s.State, again)
	_, err = n0.Recover(again)
	require.NoError(t, err)

	_, err = m.DecodeMessage([]byte(`{"Rank":1,"Extra":2}`))
	require.ErrorContains(t, err, "Extra", "a field the type lacks is refused, not dropped")
	_, err = m.DecodeMessage([]byte(`{"Rank":`))
	require.Error(t, err)
}

// hidden's messages carry an unexported field, which JSON drops.
type hidden struct{}

type hiddenMsg struct {
	Seen   int
	secret int
}

func (hidden) Init(ctx *model.Ctx[hiddenMsg]) int {
	ctx.Send(1-ctx.Self(), hiddenMsg{Seen: 1, secret: 7})
	return 0
}

func (hidden) Receive(_ *model.Ctx[hiddenMsg], s int, _ model.NodeID, m hiddenMsg) int {
	return s + m.Seen + m.secret
}

// wobbly's Init is not deterministic.
type wobbly struct{ calls *int }

func (w wobbly) Init(*model.Ctx[int]) int {
	*w.calls++
	return *w.calls
}
func (wobbly) Receive(_ *model.Ctx[int], s int, _ model.NodeID, _ int) int { return s }

func TestNodeRefusesWhatARealRunWouldNotRepeat(t *testing.T) {
	m, err := checker.Compile("hidden", hidden{}, model.Config{N: 2})
	require.NoError(t, err)
	st, err := m.Node(0).Init()
	require.NoError(t, err)
	_, err = m.EncodeMessage(st.Sends[0].Msg)
	require.ErrorContains(t, err, "does not come back from its JSON")

	calls := 0
	w, err := checker.Compile("wobbly", wobbly{&calls}, model.Config{N: 2})
	require.NoError(t, err)
	_, err = w.Node(0).Init()
	var f *checker.Fault
	require.True(t, errors.As(err, &f), "got %v", err)
	require.NotEmpty(t, f.Nondeterministic)
}
