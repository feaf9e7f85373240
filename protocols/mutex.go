package protocols

import (
	"fmt"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/central"
	"github.com/vigil-check/vigil/protocols/mutex/maekawa"
	"github.com/vigil-check/vigil/protocols/mutex/ricartagrawala"
	"github.com/vigil-check/vigil/protocols/mutex/tokenring"
)

// exclusion describes what the mutual-exclusion protocols share: their
// properties and claims, the requests parameter, the lock clients see and
// the evaluation figures of their runs.
func exclusion(p *suite.Protocol) *suite.Protocol {
	p.Family = "mutex"
	p.Properties = append(properties.Family("mutex"), properties.Lock.Linearizable())
	if p.Claims == nil {
		p.Claims = []string{"mutual-exclusion", "no-deadlock", "no-starvation"}
	}
	p.Params = []suite.Param{{Name: mutex.RequestsParam, Default: 1,
		Doc: "times each node asks for the critical section (0: forever, central and tokenring only)"}}
	p.Object = func(model.Config) *properties.Object { return properties.Lock }
	p.EntryFigures = true
	return p
}

// requests checks the requests parameter: how many times each node
// asks for the critical section, 0 for forever. why, if set, is why
// forever is not supported.
func requests(name, why string) func(cfg model.Config) error {
	return func(cfg model.Config) error {
		r := cfg.Param(mutex.RequestsParam, 1)
		switch {
		case r < 0:
			return fmt.Errorf("%s: requests must be at least 0, not %d", name, r)
		case r == 0 && why != "":
			return fmt.Errorf("%s: requests must be at least 1 here, not 0 (forever): %s", name, why)
		}
		return nil
	}
}

func init() {
	register(
		exclusion(&suite.Protocol{
			Name:    "central",
			Summary: "mutual exclusion through a central server: request, grant and release a token",
			Source:  vlassov,
			Compile: suite.Compiler("mutex/central", central.Protocol{}, requests("mutex/central", "")),
			Scenarios: []suite.Scenario{
				{Name: "two-each", N: 3, Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
					Why:      "every node, the server too, asks twice: the server grants the token in turn (Vlassov and Montelius: enter 2 messages, exit 1)",
					Messages: "request 6, grant 6, release 6"},
				{Name: "forever", N: 3, Params: map[string]int{mutex.RequestsParam: 0}, Expect: checker.Pass,
					Why: "every node asks again and again: the server's FIFO queue keeps the state finite"},
				{Name: "loss", N: 3, Losses: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "no-deadlock", Violates: []string{"no-starvation"},
					Why: "one lost grant, request or release, and the token is gone or a node waits for ever: \"None of the algorithms we described would tolerate the loss of messages if the channels were unreliable\" (Vlassov and Montelius)"},
				{Name: "order", N: 3, Params: map[string]int{mutex.RequestsParam: 1}, Props: []string{"request-order"}, Expect: checker.Fail, Shows: "request-order",
					Why: "the server grants in the order requests reach it, so a node whose request comes first in (timestamp, id) order, the order Ricart and Agrawala enter in, can wait while another enters (Vlassov and Montelius ask \"ordering?\")"},
				{Name: "duplicate", N: 3, Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1},
					Props:  []string{"mutual-exclusion", "no-deadlock", "no-starvation", "linearizable"},
					Expect: checker.Fail, Shows: "mutual-exclusion", Violates: []string{"linearizable"},
					Why: "the algorithms assume reliable channels (Vlassov and Montelius): a duplicated grant is a second token, and the node it reaches after its exit enters again while the server grants the next; clients see a lock that two hold at once"},
			},
		}),
		exclusion(&suite.Protocol{
			Name:    "tokenring",
			Summary: "mutual exclusion by a token passed round a ring; idle nodes pass it on",
			Source:  vlassov,
			Compile: suite.Compiler("mutex/tokenring", tokenring.Protocol{}, requests("mutex/tokenring", "")),
			Scenarios: []suite.Scenario{
				{Name: "two-each", N: 3, Topology: "uniring", Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
					Why: "every node asks twice and enters when the token comes by (Vlassov and Montelius: enter 0 to N messages, exit 1); the token circulates for ever, so no run ends"},
				{Name: "forever", N: 3, Topology: "uniring", Params: map[string]int{mutex.RequestsParam: 0}, Expect: checker.Pass,
					Why: "every node asks again and again: one token, so one node in the critical section"},
				{Name: "order", N: 3, Topology: "uniring", Params: map[string]int{mutex.RequestsParam: 1}, Props: []string{"request-order"}, Expect: checker.Fail, Shows: "request-order",
					Why: "the token serves nodes in ring order, not in (timestamp, id) order (Vlassov and Montelius ask \"ordering?\")"},
				{Name: "duplicate", N: 3, Topology: "uniring", Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail, Shows: "mutual-exclusion",
					Why: "the ring assumes reliable channels (Vlassov and Montelius): a duplicated token is two tokens, and two nodes enter at once"},
				{Name: "loss", N: 3, Topology: "uniring", Losses: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "no-deadlock", Violates: []string{"no-starvation"},
					Why: "the token is lost and nothing regenerates it: every node that asks waits for ever (\"None of the algorithms we described would tolerate the loss of messages if the channels were unreliable\", Vlassov and Montelius)"},
				{Name: "crash", N: 3, Topology: "uniring", Crashes: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "no-starvation", Violates: []string{"no-deadlock"},
					Why: "a node crashes, with the token or before it comes by: its predecessor passes the token into the gap and the live nodes that asked never enter (Vlassov and Montelius: \"Even if we can detect them reliably, crashing nodes is a problem\")"},
			},
		}),
		exclusion(&suite.Protocol{
			Name:    "ricartagrawala",
			Summary: "Ricart and Agrawala: multicast a Lamport-timestamped request, enter after N-1 replies",
			Source:  vlassov,
			Claims:  []string{"mutual-exclusion", "no-deadlock", "no-starvation", "request-order"},
			Compile: suite.Compiler("mutex/ricartagrawala", ricartagrawala.Protocol{}, requests("mutex/ricartagrawala", "the Lamport clocks grow with every request")),
			Scenarios: []suite.Scenario{
				{Name: "two-each", N: 3, Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
					Why:      "every node asks twice: requests enter in (timestamp, id) order, 2(N-1) messages per entry",
					Messages: "total 24"},
				{Name: "unordered", N: 3, Channels: model.Unordered, Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
					Why: "Vlassov and Montelius ask for reliable channels, not FIFO ones: replies overtaking requests do no harm"},
				{Name: "loss", N: 3, Losses: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "no-deadlock", Violates: []string{"no-starvation"},
					Why: "one lost request or reply, and a node waits for ever for the replies it needs: \"None of the algorithms we described would tolerate the loss of messages if the channels were unreliable\" (Vlassov and Montelius)"},
				{Name: "duplicate", N: 3, Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "mutual-exclusion", Violates: []string{"request-order"},
					Why: "a duplicated reply counts twice towards the N-1 a node waits for, and it enters while the node that has not replied is inside (Vlassov and Montelius: \"wait until (number of replies received = (N - 1))\", over channels that must \"avoid duplication of messages\")"},
				{Name: "crash", N: 3, Crashes: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "no-starvation", Violates: []string{"no-deadlock"},
					Why: "a node crashes and never replies: every other node that asks waits for its N-1 replies for ever (Vlassov and Montelius: \"Even if we can detect them reliably, crashing nodes is a problem\")"},
			},
		}),
		exclusion(&suite.Protocol{
			Name:    "maekawa",
			Summary: "Maekawa's voting: ask a row-and-column voting set, enter after K votes",
			Source:  vlassov,
			Compile: suite.Compiler("mutex/maekawa", maekawa.Protocol{}, requests("mutex/maekawa", "only central and tokenring ask forever")),
			Scenarios: []suite.Scenario{
				{Name: "deadlock", N: 4, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "no-deadlock", Violates: []string{"no-starvation"},
					Why:      "concurrent requests each win part of their voting set and wait in a cycle for the rest, e.g. nodes 0 and 1 each vote for themselves first: \"Unfortunately, the algorithm is deadlock-prone\" (Vlassov and Montelius); where none deadlocks, every node's K votes reach it",
					Messages: "request 12, reply 4..12"},
				{Name: "one-client", N: 4, Initiators: "0", Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
					Why:      "a single node asks twice: it enters once its whole voting set has voted, and releases every vote it took (Vlassov and Montelius: 3K messages an entry, K = 3 on the 2x2 grid)",
					Messages: "request 6, reply 6, release 6"},
				{Name: "one-shared-voter", N: 3, Initiators: "1,2", Params: map[string]int{mutex.RequestsParam: 2}, Expect: checker.Pass,
					Why:      "on three nodes the voting sets of nodes 1 and 2, {0, 1} and {0, 2}, share node 0 alone: its one vote decides who enters, the other waits in its queue for the release, and nothing deadlocks",
					Messages: "request 8, reply 8, release 8"},
				{Name: "duplicate", N: 3, Initiators: "1,2", Duplicates: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "mutual-exclusion", Violates: []string{"no-deadlock", "no-starvation"},
					Why: "a duplicated vote counts twice towards the K a node waits for: node 2 enters on its own vote, counted twice, without that of node 0, the voter it shares with node 1, which voted for node 1 (Vlassov and Montelius: \"wait until (number of replies received = K)\", over channels that must \"avoid duplication of messages\")"},
				{Name: "voter-crash", N: 4, Initiators: "0", Crashes: 1, Params: map[string]int{mutex.RequestsParam: 1}, Expect: checker.Fail,
					Shows: "no-starvation", Violates: []string{"no-deadlock"},
					Why: "a member of the voting set crashes before it votes: the requester waits for its K votes for ever, with no other node asking (Vlassov and Montelius: \"Even if we can detect them reliably, crashing nodes is a problem\")"},
			},
		}),
	)
}
