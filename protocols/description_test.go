package protocols_test

import (
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols"
	"github.com/vigil-check/vigil/protocols/consensus/paxos"
	"github.com/vigil-check/vigil/protocols/election/activelist"
	"github.com/vigil-check/vigil/protocols/election/bully"
	"github.com/vigil-check/vigil/protocols/election/changroberts"
	"github.com/vigil-check/vigil/protocols/election/emergent"
	"github.com/vigil-check/vigil/protocols/election/invitation"
	"github.com/vigil-check/vigil/protocols/election/lelann"
	"github.com/vigil-check/vigil/protocols/election/ring"
	"github.com/vigil-check/vigil/protocols/election/ringbased"
	"github.com/vigil-check/vigil/protocols/multicast/basic"
	"github.com/vigil-check/vigil/protocols/multicast/causal"
	"github.com/vigil-check/vigil/protocols/multicast/fifo"
	"github.com/vigil-check/vigil/protocols/multicast/isis"
	"github.com/vigil-check/vigil/protocols/multicast/reliable"
	"github.com/vigil-check/vigil/protocols/multicast/sequencer"
	"github.com/vigil-check/vigil/protocols/mutex/central"
	"github.com/vigil-check/vigil/protocols/mutex/maekawa"
	"github.com/vigil-check/vigil/protocols/mutex/ricartagrawala"
	"github.com/vigil-check/vigil/protocols/mutex/tokenring"
	"github.com/vigil-check/vigil/protocols/sync/abd"
	"github.com/vigil-check/vigil/protocols/sync/alpha"
	"github.com/vigil-check/vigil/protocols/sync/beta"
	"github.com/vigil-check/vigil/protocols/sync/bfs"
	"github.com/vigil-check/vigil/protocols/sync/simple"
	"github.com/vigil-check/vigil/protocols/work/dynamic"
	"github.com/vigil-check/vigil/protocols/work/static"
)

// Each built-in protocol is its package's Description itself, not a copy:
// a module that imports one protocol package checks what vigil lists, and
// every package's description is listed under the path of the package
// that holds its handlers.
func TestBuiltinsAreTheirPackagesDescriptions(t *testing.T) {
	table := []struct {
		path string
		d    *suite.Protocol
	}{
		{"consensus/paxos", paxos.Description},
		{"election/activelist", activelist.Description},
		{"election/bully", bully.Description},
		{"election/changroberts", changroberts.Description},
		{"election/emergent", emergent.Description},
		{"election/invitation", invitation.Description},
		{"election/lelann", lelann.Description},
		{"election/ring", ring.Description},
		{"election/ringbased", ringbased.Description},
		{"multicast/basic", basic.Description},
		{"multicast/causal", causal.Description},
		{"multicast/fifo", fifo.Description},
		{"multicast/isis", isis.Description},
		{"multicast/reliable", reliable.Description},
		{"multicast/sequencer", sequencer.Description},
		{"mutex/central", central.Description},
		{"mutex/maekawa", maekawa.Description},
		{"mutex/ricartagrawala", ricartagrawala.Description},
		{"mutex/tokenring", tokenring.Description},
		{"sync/bfs", bfs.Description},
		{"sync/bfs-abd", abd.Description},
		{"sync/bfs-alpha", alpha.Description},
		{"sync/bfs-beta", beta.Description},
		{"sync/bfs-simple", simple.Description},
		{"work/dynamic", dynamic.Description},
		{"work/static", static.Description},
	}
	for _, c := range table {
		p, err := protocols.Lookup(c.path)
		require.NoError(t, err)
		require.Same(t, c.d, p, c.path)
		require.Equal(t, c.path, c.d.Path())
	}
	require.Len(t, protocols.All(), len(table), "a built-in protocol without its row here")
}
