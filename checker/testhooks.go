package checker

import (
	"context"
	"time"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/properties"
)

// The hooks of vigil's cross-checks in internal/regress (see testhook).
func init() {
	testhook.Model = func(m any) *sim.Machine { return m.(*Machine).m }
	testhook.WalksLive = func(m, opt any) bool { return walksLive(m.(*Machine).m, opt.(RandomOptions)) }
	testhook.KeepGraph = func(opt any) any {
		o := opt.(Options)
		o.graph = true
		return o
	}
	testhook.KeepParents = func(opt any) any {
		o := opt.(Options)
		o.traced = true
		return o
	}
	testhook.SetWaveChunks = func(n int) func() {
		old := waveChunks
		waveChunks = n
		return func() { waveChunks = old }
	}
	testhook.SetLiveWalks = func(on bool) func() {
		old := liveWalks
		liveWalks = on
		return func() { liveWalks = old }
	}
	testhook.SetProgressEvery = func(d time.Duration) func() {
		old := progressEvery
		progressEvery = d
		return func() { progressEvery = old }
	}
	testhook.Canonical = canonical
	testhook.NotJudged = notJudged
	testhook.WalkSteps = walkSteps
}

// walkSteps walks m from seed for at most maxDepth steps, as a random
// search does, and returns the key of each step of the walk's trace.
func walkSteps(m *sim.Machine, props []*properties.Property, seed uint64, maxDepth int) []string {
	r := walk(context.Background(), m.NewStepper(), props, seed, maxDepth, 0, false, nil, false, Scheduler{})
	var out []string
	for _, s := range buildTrace(m, r.events).Events {
		out = append(out, s.key())
	}
	return out
}
