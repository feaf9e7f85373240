package runtime

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/model"
)

func TestParseChaos(t *testing.T) {
	r := func(lo, hi float64) *Range { return &Range{lo, hi} }
	for _, c := range []struct {
		spec string
		want Chaos
	}{
		{"", Chaos{}},
		{"delay=0-0.5", Chaos{Delay: r(0, 0.5)}},
		{"delay=none", Chaos{Delay: r(0, 0)}},
		{"delay=2-2", Chaos{Delay: r(2, 2)}},
		{"partition=1-3", Chaos{Partition: r(1, 3)}},
		{"restart=0-0", Chaos{Restart: r(0, 0)}},
		{"restart=4-12,delay=1-3,partition=0-2.5", Chaos{Delay: r(1, 3), Partition: r(0, 2.5), Restart: r(4, 12)}},
	} {
		got, err := ParseChaos(c.spec)
		require.NoError(t, err, c.spec)
		require.Equal(t, c.want, got, c.spec)
	}
	for _, c := range []struct{ spec, err string }{
		{"delay", `"delay": want NAME=LO-HI`},
		{"jitter=1-2", `no fault is named "jitter"`},
		{"delay=1-2,delay=none", "delay is given twice"},
		{"delay=1-2,", `"": want NAME=LO-HI`},
		{"delay=3", `want a range of ticks LO-HI`},
		{"delay=", `want a range of ticks LO-HI`},
		{"delay=3-1", "LO 3 is above HI 1"},
		{"delay=-1-2", `"" is not a number of ticks`},
		{"delay=1-x", `"x" is not a number of ticks`},
		{"delay=0-Inf", `"Inf" is not a number of ticks`},
		{"restart=NaN-1", `"NaN" is not a number of ticks`},
		{"partition=none", "only delay can be none"},
		{"partition=0-0", "a partition must last"},
	} {
		_, err := ParseChaos(c.spec)
		require.ErrorContains(t, err, c.err, c.spec)
	}
}

func TestChaosDefaults(t *testing.T) {
	sync := RunConfig{Timing: DefaultTiming}
	require.Equal(t, Range{0, 0.5}, Chaos{}.delay(sync))
	async := RunConfig{Config: model.Config{Timing: model.Async}, Timing: DefaultTiming}
	require.Equal(t, Range{0, 3}, Chaos{}.delay(async))
	require.Equal(t, Range{1, 2}, Chaos{Delay: &Range{1, 2}}.delay(sync))
	require.Equal(t, Range{5, 20}, Chaos{}.partition())
	require.Equal(t, Range{2, 10}, Chaos{}.restart())
	require.Equal(t, Range{3, 4}, Chaos{Restart: &Range{3, 4}}.restart())
}
