package regress

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/tier"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// TestEachEventKindAgreesThreeWays takes each kind of event the three
// ways internal/sim takes it, on a handful of small runs that enable it,
// and checks that they agree: the successor a Stepper describes without
// building it (its fingerprint, length, monitors changed and Step) is
// the one Apply builds, and a Walker, stepping over live values, stays in
// lockstep with a Stepper's Apply (see lockstep). Each kind must be met
// by both checks. The quick tier checks the first 3 000 transitions of
// each run; -long, 30 000.
func TestEachEventKindAgreesThreeWays(t *testing.T) {
	t.Parallel()
	type run struct {
		protocol string
		cfg      model.Config
	}
	bounded := model.Config{Timing: model.Bounded, Delay: 2}
	cases := []struct {
		kind sim.EventKind
		runs []run
	}{
		{sim.Deliver, []run{{"changroberts", model.Config{}}, {"lelann", model.Config{}}, {"causal", model.Config{Channels: model.Unordered}}}},
		{sim.Timeout, []run{{"bully", model.Config{Crashes: 1}}, {"bully", model.Config{Crashes: 1, Timing: model.Async}}, {"reliable", model.Config{Crashes: 1}}}},
		{sim.Act, []run{{"central", model.Config{}}, {"ricartagrawala", model.Config{Channels: model.Unordered}}, {"maekawa", model.Config{}}}},
		{sim.Crash, []run{{"bully", model.Config{Crashes: 1}}, {"reliable", model.Config{Crashes: 1, Channels: model.Unordered}}, {"invitation", model.Config{Crashes: 1}}}},
		{sim.Recover, []run{{"bully", model.Config{Crashes: 1, Recoveries: 1}}, {"invitation", model.Config{Crashes: 1, Recoveries: 1}}, {"ring", model.Config{Crashes: 1, Recoveries: 1}}}},
		{sim.Partition, []run{{"invitation", model.Config{Partitions: 1}}, {"invitation", model.Config{Partitions: 2, Channels: model.Unordered}}, {"bully", model.Config{Partitions: 1}}}},
		{sim.Heal, []run{{"invitation", model.Config{Partitions: 1}}, {"bully", model.Config{Partitions: 1, Timing: model.Async}}}},
		{sim.Lose, []run{{"reliable", model.Config{Losses: 1}}, {"changroberts", model.Config{Losses: 1}}, {"bully", model.Config{Losses: 1, Channels: model.Unordered}}}},
		{sim.Duplicate, []run{{"reliable", model.Config{Duplicates: 1}}, {"lelann", model.Config{Duplicates: 1}}, {"central", model.Config{Duplicates: 1, Channels: model.Unordered}}}},
		{sim.Tick, []run{{"bfs-abd", bounded}, {"bully", model.Config{Crashes: 1, Timing: model.Bounded, Delay: 1}}}},
	}
	limit := tier.Pick(3_000, 30_000)
	for _, c := range cases {
		t.Run(c.kind.String(), func(t *testing.T) {
			succ, walked := 0, 0
			for _, r := range c.runs {
				p, err := protocols.Lookup(r.protocol)
				require.NoError(t, err)
				cfg := r.cfg
				cfg.N = 3
				m, err := p.Compile(cfg, p.Properties)
				if errors.Is(err, model.ErrCrashStop) {
					t.Fatalf("%s does not recover: pick another run for %v", r.protocol, c.kind)
				}
				require.NoError(t, err, r.protocol)
				sm := testhook.Model(m)
				name := fmt.Sprintf("%s %+v", r.protocol, cfg)
				succ += successorsAgree(t, name, sm, limit)[c.kind]
				if sim.Supported(sm.Config()) {
					walked += lockstep(t, name, sm)[c.kind]
				}
			}
			require.Positive(t, succ, "%v events whose successor was checked", c.kind)
			require.Positive(t, walked, "%v events taken in lockstep", c.kind)
		})
	}
}
