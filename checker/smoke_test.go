package checker

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/changroberts"
)

func TestSmoke(t *testing.T) {
	props := properties.Family("election")
	for n := 2; n <= 7; n++ {
		ranks, _ := model.ParseRanks("reverse", n)
		m, err := model.Compile("changroberts", changroberts.Protocol{}, model.Config{N: n, Ranks: ranks}, properties.Monitors(props)...)
		require.NoError(t, err)
		r := Exhaustive(context.Background(), m, props, Options{Messages: true})
		t.Logf("n=%d %v states=%d trans=%d depth=%d msgs=%v", n, r.Verdict, r.Stats.States, r.Stats.Transitions, r.Stats.Depth, r.Messages)
	}
}
