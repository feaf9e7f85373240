package regress

import (
	"errors"
	"fmt"
	"testing"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/internal/tier"

	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols"
)

// The incremental fingerprint of every successor equals the fingerprint of
// the successor Apply builds, in every reachable world of small runs of
// every protocol, under every channel and timing mode, with crashes,
// recoveries and a partition, and with lost and duplicated messages. The
// quick tier checks the first 2 000 transitions of each configuration;
// -long, 20 000.
func TestSuccessorFingerprintAgreesWithApply(t *testing.T) {
	t.Parallel()
	limit := tier.Pick(2_000, 20_000)
	faults := []model.Config{
		{Crashes: 1, Recoveries: 1, Partitions: 1},
		{Losses: 2, Duplicates: 2},
		{Crashes: 1, Partitions: 1, Losses: 1, Duplicates: 1},
	}
	msgFaults := 0 // losses and duplications checked
	for _, p := range protocols.All() {
		total := 0 // transitions checked, over the configurations
		for _, ch := range []model.Channels{model.FIFO, model.Unordered} {
			for _, tm := range []model.Timing{model.Sync, model.Async, model.Bounded} {
				if p.Name == "bfs-abd" && tm != model.Bounded {
					continue // it counts time: only bounded timing runs it (abd.Validate)
				}
				for _, fc := range faults {
					cfg := fc
					cfg.N, cfg.Channels, cfg.Timing = 3, ch, tm
					if tm == model.Bounded {
						cfg.Delay = 2
					}
					m, err := p.Compile(cfg, p.Properties)
					if errors.Is(err, model.ErrCrashStop) {
						cfg.Recoveries = 0
						m, err = p.Compile(cfg, p.Properties)
					}
					require.NoError(t, err)
					counts := successorsAgree(t, fmt.Sprintf("%s %+v", p.Path(), cfg), testhook.Model(m), limit)
					msgFaults += counts[sim.Lose] + counts[sim.Duplicate]
					for _, n := range counts {
						total += n
					}
				}
			}
		}
		require.Positive(t, total, p.Path())
	}
	require.Positive(t, msgFaults)
}

// successorsAgree checks, over the worlds of m reached breadth first,
// that Successor agrees with Apply on every event enabled (fingerprint,
// length, monitors changed, Step taken), for up to limit events; it
// returns how many of each kind it checked.
func successorsAgree(t *testing.T, name string, m *sim.Machine, limit int) map[sim.EventKind]int {
	st := m.NewStepper()
	w0, _ := st.Init()
	seen := map[string]bool{}
	queue := []sim.World{w0}
	counts := map[sim.EventKind]int{}
	checked := 0
	for len(queue) > 0 && checked < limit {
		w := queue[0]
		queue = queue[1:]
		f := st.Fingerprint(w)
		evs, _ := st.Enabled(w, nil)
		for _, ev := range evs {
			got := st.Successor(w, f, ev)
			next, step := st.Apply(w, ev, nil)
			require.Equal(t, st.Fingerprint(next), got.FP, "%s: %v from %v", name, ev, w)
			require.Equal(t, len(next), got.Len, "%s: %v from %v", name, ev, w)
			require.Equal(t, !st.SameMonitors(w, next), got.MonitorsChanged, "%s: %v from %v", name, ev, w)
			require.Same(t, step, got.Step, "%s: %v from %v", name, ev, w)
			checked++
			counts[ev.Kind]++
			if k := string(wordsKey(next)); !seen[k] {
				seen[k] = true
				queue = append(queue, next)
			}
		}
	}
	return counts
}

func wordsKey(w sim.World) []byte {
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		for i := range 8 {
			b = append(b, byte(x>>(8*i)))
		}
	}
	return b
}
