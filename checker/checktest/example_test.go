package checktest_test

import (
	"fmt"
	"testing"

	"github.com/vigil-check/vigil/checker/checktest"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/tokenring"
)

// printer stands in for a test's *testing.T here, printing what the test
// would report.
type printer struct{ testing.TB }

func (printer) Helper()                           {}
func (printer) Errorf(format string, args ...any) { fmt.Printf(format+"\n", args...) }

// A protocol's unit test is a table of handler calls, one row each: the
// node, its state and what it receives, and the state and effects the
// handler must give (an effect left nil, the handler must not have). In a
// test, pass its *testing.T. The second row wants the wrong successor.
func ExampleHandlers() {
	type step = checktest.Step[tokenring.State, tokenring.Msg]
	ring := checktest.Handlers[tokenring.State, tokenring.Msg]{Protocol: tokenring.Protocol{}, Config: model.Config{N: 3}}
	var t testing.TB = printer{}

	ring.Receive(t, []step{
		{Name: "wanted: keep the token and enter", Self: 1, In: tokenring.State{Phase: mutex.Wanted}, From: 0,
			Want: tokenring.State{Phase: mutex.Held}, Observed: []model.Obs{model.EnterCS()}},
		{Name: "not wanted: pass it on", Self: 1, From: 0,
			Sent: []model.Sent[tokenring.Msg]{{To: 0}}},
	})
	// Output:
	// Receive "not wanted: pass it on": the messages it sent at [0].To: want n0, got n2
	// 	want:   [{To:n0 Msg:token}]
	// 	got:    [{To:n2 Msg:token}]
}
