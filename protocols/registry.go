// Package protocols lists every protocol vigil ships, for the command
// line, the examples and the regression tests. Each protocol's package
// describes it, as a checker/suite description: its Description holds the
// properties it claims, its parameters and the scenarios that show it
// succeed or fail, each with the verdict it must give (bully.Description,
// in protocols/election/bully), beside the handlers and the tests. The
// scenarios are written in the package's scenarios.txt, in the form
// suite.ParseScenarios reads, and embedded. A vigil binary of one's own
// may hold them beside its own protocols (see Register).
//
// Each protocol's Source names the work its handlers follow; the scenarios'
// Why cite them by the short forms in parentheses:
//
//   - (Garcia-Molina) H. Garcia-Molina, Elections in a Distributed
//     Computing System, IEEE Transactions on Computers C-31(1), 1982: the
//     bully and invitation algorithms, which the works below present.
//   - (the Elections notes) Elections, lecture notes on coordination: work
//     sharing ("Work schedule": static and dynamic sharing), the bully
//     algorithm and the emergent election.
//   - (Kesden) G. Kesden, Coordinator Selection, 14-736 Distributed
//     Systems, lecture 8, Carnegie Mellon University, spring 2019.
//   - (Anthony) R. J. Anthony's emergent election, Proceedings of the
//     International Conference on Autonomic Computing (ICAC 2004),
//     doi:10.1109/ICAC.2004.1301356, as the lecture notes Elections present it.
//   - (Silberschatz et al.) A. Silberschatz, P. B. Galvin and G. Gagne,
//     Operating System Concepts, ch. 18, Distributed Coordination.
//   - (Vlassov and Montelius) V. Vlassov and J. Montelius, Coordination,
//     lecture notes, ID2201 Distributed Systems, KTH Royal Institute of
//     Technology, after G. Coulouris, J. Dollimore, T. Kindberg and G. Blair,
//     Distributed Systems: Concepts and Design, 5th ed., ch. 15,
//     Coordination and Agreement.
//   - (the Leader Election notes) Distributed Coordination: Leader Election,
//     lecture notes after H. Yu's CS4231 Parallel and Distributed Algorithms
//     (NUS), V. K. Garg's Elements of Distributed Computing and S. Ghosh's
//     Distributed Systems (22C:166, University of Iowa); its ring elections
//     are G. LeLann's (Distributed Systems: Towards a Formal Approach, IFIP
//     Congress 1977) and E. Chang and R. Roberts' (An Improved Algorithm for
//     Decentralized Extrema-Finding in Circular Configurations of Processes,
//     CACM 22(5), 1979).
//   - (Awerbuch) B. Awerbuch, Complexity of Network Synchronization, Journal
//     of the ACM 32(4), 1985: the synchronizers α and β, as the Leader
//     Election notes present them (section Synchronizers, with the simple
//     synchronizer and the BFS tree, SynchBfsTree, run over them).
//   - (Lamport) L. Lamport, Paxos Made Simple, ACM SIGACT News 32(4),
//     2001: single-decree Paxos, its phases 1 and 2 and the learners, the
//     invariant P2c that the value rule keeps, and why progress needs a
//     distinguished proposer.
//   - (Lamport et al.) L. Lamport, R. Shostak and M. Pease, The Byzantine
//     Generals Problem, ACM TOPLAS 4(3), 1982: the oral-messages algorithm
//     OM(m), its message figures, and why no solution exists with fewer
//     than 3m+1 generals.
package protocols

import (
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols/agreement/om"
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

var builtins suite.Registry

// builtin lists every protocol package's description, family by family,
// under the path vigil lists it by: the description itself, not a copy, so
// that a module that imports one protocol package checks what vigil lists.
var builtin = []struct {
	path string
	d    *suite.Protocol
}{
	{"election/bully", bully.Description},
	{"election/changroberts", changroberts.Description},
	{"election/invitation", invitation.Description},
	{"election/lelann", lelann.Description},
	{"election/ringbased", ringbased.Description},
	{"election/activelist", activelist.Description},
	{"election/emergent", emergent.Description},
	{"election/ring", ring.Description},
	{"multicast/basic", basic.Description},
	{"multicast/reliable", reliable.Description},
	{"multicast/fifo", fifo.Description},
	{"multicast/causal", causal.Description},
	{"multicast/sequencer", sequencer.Description},
	{"multicast/isis", isis.Description},
	{"mutex/central", central.Description},
	{"mutex/tokenring", tokenring.Description},
	{"mutex/ricartagrawala", ricartagrawala.Description},
	{"mutex/maekawa", maekawa.Description},
	{"sync/bfs", bfs.Description},
	{"sync/bfs-simple", simple.Description},
	{"sync/bfs-abd", abd.Description},
	{"sync/bfs-alpha", alpha.Description},
	{"sync/bfs-beta", beta.Description},
	{"work/static", static.Description},
	{"work/dynamic", dynamic.Description},
	{"consensus/paxos", paxos.Description},
	{"agreement/om", om.Description},
}

// init registers the built-in protocols, which the stock vigil binary
// replays; a description that does not hold together, or that is listed
// here under a path other than its own, is a bug of vigil's, found by
// every test.
func init() {
	for _, b := range builtin {
		if b.d.Path() != b.path {
			panic("protocols: " + b.d.Path() + " is listed as " + b.path)
		}
		b.d.Binary = "vigil"
		builtins.MustRegister(b.d)
	}
}

// All lists the built-in protocols, by path.
func All() []*suite.Protocol { return builtins.All() }

// Lookup finds a built-in protocol by name ("bully") or path
// ("election/bully").
func Lookup(name string) (*suite.Protocol, error) { return builtins.Lookup(name) }

// Register adds every built-in protocol to r, for a vigil binary that
// offers them beside its own.
func Register(r *suite.Registry) error { return r.Register(All()...) }

// Registry returns a new registry of the built-in protocols.
func Registry() *suite.Registry {
	r := &suite.Registry{}
	if err := Register(r); err != nil {
		panic(err) // they all registered once already
	}
	return r
}
