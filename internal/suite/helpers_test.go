package suite

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
)

// compiled looks protocol name up and compiles it for cfg with the
// monitors of props (nil: its claims).
func compiled(t *testing.T, name string, cfg model.Config, props []string) (*model.Machine, []*properties.Property) {
	t.Helper()
	p, err := protocols.Lookup(name)
	require.NoError(t, err)
	ps, err := Props(p, props)
	require.NoError(t, err)
	m, err := Compile(p, cfg, ps)
	require.NoError(t, err)
	return m, ps
}

func randomRun(t *testing.T, name string, cfg model.Config, props []string, opt checker.RandomOptions) *checker.Result {
	t.Helper()
	m, ps := compiled(t, name, cfg, props)
	return checker.Random(context.Background(), m, ps, opt)
}

// exhaustiveRun is randomRun's counterpart for the exhaustive engine.
func exhaustiveRun(t *testing.T, name string, cfg model.Config, props []string, opt checker.Options) *checker.Result {
	t.Helper()
	m, ps := compiled(t, name, cfg, props)
	return checker.Exhaustive(context.Background(), m, ps, opt)
}

// compileVariant compiles p, a test-only variant of the shipped protocol
// named shipped, under the name variant, with the monitors of the shipped
// protocol's claims: the checker must find the variant's bug.
func compileVariant[S, M any](t *testing.T, shipped, variant string, p model.Protocol[S, M], cfg model.Config) (*model.Machine, []*properties.Property) {
	t.Helper()
	sp, err := protocols.Lookup(shipped)
	require.NoError(t, err)
	props, err := Props(sp, nil)
	require.NoError(t, err)
	m, err := model.Compile(variant, p, cfg, properties.Monitors(props)...)
	require.NoError(t, err)
	return m, props
}
