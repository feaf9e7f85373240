// Package protocols names every protocol vigil ships, with the properties
// each claims and the scenarios that show it succeed or fail, for the
// command line, the examples and the regression tests.
//
// Each protocol's Source names the work its handlers follow; the scenarios'
// Why cite them by the short forms in parentheses:
//
//   - (Garcia-Molina) H. Garcia-Molina, Elections in a Distributed
//     Computing System, IEEE Transactions on Computers C-31(1), 1982: the
//     bully and invitation algorithms, which the works below present.
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
package protocols

import (
	"fmt"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Protocol describes one shipped protocol.
type Protocol struct {
	Name    string // package name, e.g. "bully"
	Family  string // e.g. "election"
	Summary string // one line
	Source  string // the work it follows: author, title, chapter or lecture
	// Claims lists the properties the algorithm claims when every node
	// initiates, checked by default.
	Claims []string
	// PartialClaims, if set, replaces Claims when only some nodes initiate.
	PartialClaims []string
	// Compile builds the protocol's Machine for cfg, feeding monitors.
	Compile func(cfg model.Config, monitors ...model.Monitor) (*model.Machine, error)
	// Scenarios: the first is the default; the rest show where the
	// textbook's assumptions matter.
	Scenarios []Scenario
}

// ClaimsFor returns the properties the algorithm claims under cfg.
func (p *Protocol) ClaimsFor(cfg model.Config) []string {
	if cfg.Initiators != nil && p.PartialClaims != nil {
		for _, init := range cfg.Initiators {
			if !init {
				return p.PartialClaims
			}
		}
	}
	return p.Claims
}

// Object returns the client-visible object built on the protocol under
// cfg, whose histories porcupine checks in random runs, or nil: the lock
// on mutual exclusion; the register on total-order multicast when the run
// has reads.
func (p *Protocol) Object(cfg model.Config) *properties.Object {
	if p.Family == "multicast" && cfg.Param("reads", 0) == 0 {
		return nil
	}
	return properties.ObjectFor(p.Family)
}

// The works the protocols follow (see the package doc).
const (
	garcia  = "H. Garcia-Molina, Elections in a Distributed Computing System (IEEE Trans. Computers, 1982)"
	kesden  = "G. Kesden, Coordinator Selection, 14-736 Distributed Systems, lecture 8 (Carnegie Mellon, 2019)"
	anthony = "R. J. Anthony, emergent election (ICAC 2004, doi:10.1109/ICAC.2004.1301356), as presented in the lecture notes Elections"
	silber  = "A. Silberschatz, P. B. Galvin and G. Gagne, Operating System Concepts, ch. 18, Distributed Coordination"
	vlassov = "V. Vlassov and J. Montelius, Coordination (lecture notes, ID2201 Distributed Systems, KTH), after G. Coulouris et al., Distributed Systems: Concepts and Design, ch. 15"
	leNotes = "Distributed Coordination: Leader Election (lecture notes after V. K. Garg, Elements of Distributed Computing, and S. Ghosh, Distributed Systems)"
)

// Path is the protocol's family/name.
func (p *Protocol) Path() string { return p.Family + "/" + p.Name }

// Scenario is a named run configuration with the verdict the textbook
// predicts.
type Scenario struct {
	Name       string
	Why        string // what the run shows, citing the Source
	N          int
	Channels   string // "fifo" (default) or "unordered"
	Timing     string // "sync" (default) or "async"
	Crashes    int
	Recoveries int
	Partitions int
	Ranks      string         // see model.ParseRanks; default "sorted"
	Initiators string         // see model.ParseInitiators; default "all"
	Props      []string       // nil: the protocol's claims
	MaxDepth   int            // 0: unbounded; needed where the state space is not finite
	Sweep      bool           // search two levels at a time (checker.Options.Sweep): runs that all end, too many states to keep
	Window     int            // levels of visited states a sweep keeps (checker.Options.Window)
	Params     map[string]int // protocol parameters (model.Config.Params)
	// Expect is "pass", or "fail" when the run shows a counterexample: then
	// Shows names the property that must fail, and Violates the others
	// that may fail with it.
	Expect   string
	Shows    string
	Violates []string
}

// Config turns the scenario into a model.Config.
func (s *Scenario) Config() (model.Config, error) {
	cfg := model.Config{N: s.N, Crashes: s.Crashes, Recoveries: s.Recoveries, Partitions: s.Partitions, Params: s.Params}
	var err error
	if s.Channels != "" {
		if cfg.Channels, err = model.ParseChannels(s.Channels); err != nil {
			return cfg, err
		}
	}
	if s.Timing != "" {
		if cfg.Timing, err = model.ParseTiming(s.Timing); err != nil {
			return cfg, err
		}
	}
	if cfg.Ranks, err = model.ParseRanks(s.Ranks, s.N); err != nil {
		return cfg, err
	}
	if cfg.Initiators, err = model.ParseInitiators(s.Initiators, s.N); err != nil {
		return cfg, err
	}
	return cfg, cfg.Validate()
}

// All lists every protocol, by family then name.
func All() []*Protocol { return all }

var all []*Protocol

// register adds protocols, keeping all ordered by family then name
// whichever file's init runs first.
func register(ps ...*Protocol) {
	all = append(all, ps...)
	slices.SortFunc(all, func(a, b *Protocol) int { return strings.Compare(a.Path(), b.Path()) })
}

// Lookup finds a protocol by name ("bully") or path ("election/bully").
func Lookup(name string) (*Protocol, error) {
	for _, p := range all {
		if name == p.Name || name == p.Path() {
			return p, nil
		}
	}
	var names []string
	for _, p := range all {
		names = append(names, p.Path())
	}
	return nil, fmt.Errorf("unknown protocol %q (known: %s)", name, strings.Join(names, ", "))
}
