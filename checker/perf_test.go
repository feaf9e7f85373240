package checker

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/election/changroberts"
)

func TestPerf(t *testing.T) {
	props := properties.Family("election")
	for _, rk := range []string{"reverse"} {
		for _, msgs := range []bool{false} {
			ranks, _ := model.ParseRanks(rk, 13)
			m, _ := model.Compile("changroberts", changroberts.Protocol{}, model.Config{N: 13, Ranks: ranks}, properties.Monitors(props)...)
			st := time.Now()
			r := Exhaustive(context.Background(), m, props, Options{Messages: msgs})
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("%s msgs=%v %v states=%d trans=%d depth=%d %.2fs %.0f st/s vb=%.1f heapmax=%dMB msgs=%v", rk, msgs, r.Verdict, r.Stats.States, r.Stats.Transitions, r.Stats.Depth, time.Since(st).Seconds(), r.Stats.StatesPerS, r.Stats.VisitedBytes, ms.HeapSys>>20, r.Messages)
		}
	}
}
