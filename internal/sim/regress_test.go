package sim_test

import (
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
)

type tree struct {
	Label string
	Kids  []tree
}

// Recursive types have a canonical encoding, and checking them terminates.
func TestRecursiveTypes(t *testing.T) {
	done := make(chan error, 1)
	go func() { done <- sim.CheckKeyable(reflect.TypeOf(tree{})) }()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(5 * time.Second):
		t.Fatal("CheckKeyable does not terminate on a recursive type")
	}
	a := tree{"a", []tree{{"b", nil}, {"c", []tree{{"d", nil}}}}}
	b := tree{"a", []tree{{"b", nil}, {"c", []tree{{"e", nil}}}}}
	require.Equal(t, sim.AppendKey(nil, a), sim.AppendKey(nil, a))
	require.NotEqual(t, sim.AppendKey(nil, a), sim.AppendKey(nil, b))
}

// Goroutines meeting a type for the first time at once all get a complete
// encoder.
func TestEncodersConcurrentFirstUse(t *testing.T) {
	for i := range 200 {
		typ := reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeOf(0)},
			{Name: fmt.Sprintf("B%d", i), Type: reflect.TypeOf([]string{})},
		})
		v := reflect.New(typ).Elem()
		v.Field(0).SetInt(int64(i))
		v.Field(1).Set(reflect.ValueOf([]string{"x"}))
		want := string(sim.AppendKey(nil, v.Interface()))
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() { require.Equal(t, want, string(sim.AppendKey(nil, v.Interface()))) })
		}
		wg.Wait()
	}
}

type vmsg struct{ V []int }

type mutatesMsg struct{}

func (mutatesMsg) Init(ctx *model.Ctx[vmsg]) int {
	if ctx.Self() == 0 {
		ctx.Send(1, vmsg{[]int{1}})
	}
	return 0
}
func (mutatesMsg) Receive(_ *model.Ctx[vmsg], s int, _ model.NodeID, m vmsg) int {
	m.V[0] = 99
	return s + 1
}
func (mutatesMsg) Timeout(_ *model.Ctx[vmsg], s int, _ model.Timer) int { return s }
func (mutatesMsg) Recover(_ *model.Ctx[vmsg], s int) int                { return s }

// A handler that writes into the message it received is caught as a
// fault, the message put back, and the Machine left usable.
func TestMutatedMessageFaultsAndUnlocks(t *testing.T) {
	m, err := sim.Compile("mutates", mutatesMsg{}, model.Config{N: 2})
	require.NoError(t, err)
	st := m.NewStepper()
	w, _ := st.Init()
	evs, _ := st.Enabled(w, nil)
	require.Len(t, evs, 1)
	require.Nil(t, st.TakeFault())
	st.Apply(w, evs[0], nil)
	f := st.TakeFault()
	require.NotNil(t, f)
	require.Equal(t, "protocol mutates: Receive on n1 mutated the message it received at .V[0]: before 1, after 99; messages are read-only", f.Error())
	require.Equal(t, "{V:[1]}", m.FormatMsg(evs[0].Arg), "the message is put back")
	done := make(chan string, 1)
	go func() { done <- m.FormatState(0) }()
	select {
	case s := <-done:
		require.Equal(t, "0", s)
	case <-time.After(5 * time.Second):
		t.Fatal("the Machine stays locked after a handler faulted")
	}
	// nothing of the faulting call was memoised: it faults again
	st.Apply(w, evs[0], nil)
	require.NotNil(t, st.TakeFault())
	require.NotNil(t, func() *sim.Fault { s := m.NewStepper(); s.Apply(w, evs[0], nil); return s.TakeFault() }())
}

// Enabled counts protocol events among those it appends, not those already
// in the buffer.
func TestEnabledCountsOnlyItsOwnEvents(t *testing.T) {
	m, err := sim.Compile("mutates", mutatesMsg{}, model.Config{N: 2})
	require.NoError(t, err)
	st := m.NewStepper()
	w, _ := st.Init()
	evs, n := st.Enabled(w, []sim.Event{{Kind: sim.Crash}})
	require.Len(t, evs, 2)
	require.Equal(t, 1, n)
}
