package regress

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/internal/testhook"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// lookup is the built-in protocol named name.
func lookup(t *testing.T, name string) *suite.Protocol {
	t.Helper()
	p, err := protocols.Lookup(name)
	require.NoError(t, err)
	return p
}

// compiled looks protocol name up and compiles it for cfg, checking
// props (nil: its claims).
func compiled(t *testing.T, name string, cfg model.Config, props []string) *checker.Machine {
	t.Helper()
	p := lookup(t, name)
	ps, err := p.Props(model.Config{}, props) // nil: every claim, whoever initiates
	require.NoError(t, err)
	m, err := p.Compile(cfg, ps)
	require.NoError(t, err)
	return m
}

func randomRun(t *testing.T, name string, cfg model.Config, props []string, opt checker.RandomOptions) *checker.Result {
	t.Helper()
	m := compiled(t, name, cfg, props)
	return checker.Random(context.Background(), m, opt)
}

// exhaustiveRun is randomRun's counterpart for the exhaustive engine.
func exhaustiveRun(t *testing.T, name string, cfg model.Config, props []string, opt checker.Options) *checker.Result {
	t.Helper()
	m := compiled(t, name, cfg, props)
	return checker.Exhaustive(context.Background(), m, opt)
}

// compileVariant compiles p, a test-only variant of the shipped protocol
// named shipped, under the name variant, with the monitors of the shipped
// protocol's claims: the checker must find the variant's bug.
func compileVariant[S, M any](t *testing.T, shipped, variant string, p model.Protocol[S, M], cfg model.Config) *checker.Machine {
	t.Helper()
	sp := lookup(t, shipped)
	props, err := sp.Props(model.Config{}, nil)
	require.NoError(t, err)
	m, err := checker.Compile(variant, p, cfg, props...)
	require.NoError(t, err)
	return m
}

// keepGraph is opt for a search that keeps the state graph from the start
// rather than trying a lean search first.
func keepGraph(opt checker.Options) checker.Options { return testhook.KeepGraph(opt).(checker.Options) }

// keepParents is opt for a search that keeps every state's parent from the
// start rather than searching again for its counterexamples.
func keepParents(opt checker.Options) checker.Options {
	return testhook.KeepParents(opt).(checker.Options)
}

// withoutSometimes leaves out the sometimes-properties of props. The
// cross-checks that judge properties world by world (the naive
// enumeration, rapid's schedules) judge violations; a sometimes-property
// is the invariant "never reached" turned round, which
// checker/sometimes_test.go checks on its own, and the search still
// judges it as the hidden trigger of the properties that name it.
func withoutSometimes(props []*properties.Property) []*properties.Property {
	return slices.DeleteFunc(slices.Clone(props), func(p *properties.Property) bool { return p.When == properties.Possibly })
}

// equal is require.Equal for values == compares, at no cost where they
// are equal: require.Equal marks itself a helper, which walks the stack,
// at every call, and the cross-checks that compare step by step
// (lockstep, successorsAgree, checkPersistent) call it millions of times.
func equal[T comparable](t *testing.T, want, got T, msgAndArgs ...any) {
	if want != got {
		t.Helper()
		require.Equal(t, want, got, msgAndArgs...)
	}
}

// sampled reports whether the quick tier takes the i-th of a list of
// cases that it samples one in every: those whose index is offset modulo
// every, chosen by index so that each run takes the same ones. The long
// tier takes every case.
func sampled(i, every, offset int) bool {
	return tier.IsLong() || i%every == offset%every
}

// quickShrinkTime is RandomOptions.ShrinkTime for a test that judges
// verdicts, not the length of the runs shown: the quick tier leaves a
// tenth of a second to shorten each counterexample or witness, where a
// run of hundreds of steps at N = 30 takes the default two seconds; the
// long tier, the default.
func quickShrinkTime() time.Duration { return tier.Pick(100*time.Millisecond, 0) }
