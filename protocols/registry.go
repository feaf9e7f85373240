// Package protocols describes every protocol vigil ships, with the
// properties each claims, its parameters and the scenarios that show it
// succeed or fail, as checker/suite descriptions: for the command line,
// the examples and the regression tests. A vigil binary of one's own may
// hold them beside its own protocols (see Register).
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
package protocols

import (
	"github.com/vigil-check/vigil/checker/suite"
)

// The works the protocols follow (see the package doc).
const (
	garcia  = "H. Garcia-Molina, Elections in a Distributed Computing System (IEEE Trans. Computers, 1982)"
	kesden  = "G. Kesden, Coordinator Selection, 14-736 Distributed Systems, lecture 8 (Carnegie Mellon, 2019)"
	anthony = "R. J. Anthony, emergent election (ICAC 2004, doi:10.1109/ICAC.2004.1301356), as presented in the lecture notes Elections"
	silber  = "A. Silberschatz, P. B. Galvin and G. Gagne, Operating System Concepts, ch. 18, Distributed Coordination"
	vlassov = "V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201 Distributed Systems, KTH), after G. Coulouris et al., Distributed Systems: Concepts and Design, ch. 15"
	leNotes = "Distributed Coordination: Leader Election (lecture notes after V. K. Garg, Elements of Distributed Computing, and S. Ghosh, Distributed Systems)"
)

var builtins suite.Registry

// register adds built-in protocols, which the stock vigil binary replays;
// a description that does not hold together is a bug of vigil's, found by
// every test.
func register(ps ...*suite.Protocol) {
	for _, p := range ps {
		p.Binary = "vigil"
	}
	builtins.MustRegister(ps...)
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
