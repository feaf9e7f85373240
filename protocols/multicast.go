package protocols

import (
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols/multicast"
	"github.com/vigil-check/vigil/protocols/multicast/basic"
	"github.com/vigil-check/vigil/protocols/multicast/causal"
	"github.com/vigil-check/vigil/protocols/multicast/fifo"
	"github.com/vigil-check/vigil/protocols/multicast/isis"
	"github.com/vigil-check/vigil/protocols/multicast/reliable"
	"github.com/vigil-check/vigil/protocols/multicast/sequencer"
)

// msgs returns scenario parameters for k operations per node.
func msgs(k int) map[string]int { return map[string]int{properties.MsgsParam: k} }

// orderedReads: each initiator writes or reads the replicated register
// once, reads going through the total order too.
func orderedReads() map[string]int {
	return map[string]int{properties.MsgsParam: 1, multicast.ReadsParam: int(multicast.OrderedReads)}
}

// withLinearizable is what the register's scenarios check: the claims of
// a total order and the register's linearizability.
var withLinearizable = []string{"validity", "integrity", "total-order", "linearizable"}

// group describes what the multicast protocols share: their properties,
// the msgs parameter, and for those that order every message (withReads)
// the reads parameter, a replicated register over the total order.
func group(withReads bool, p *suite.Protocol) *suite.Protocol {
	p.Family = "multicast"
	p.Properties = properties.Family("multicast")
	p.Params = []suite.Param{{Name: properties.MsgsParam, Default: 1, Doc: "operations each initiator issues (values multicast, or register writes and reads)"}}
	name, compile := p.Path(), p.Compile
	p.Compile = func(cfg model.Config, props []*properties.Property) (*checker.Machine, error) {
		if err := multicast.CheckParams(name, cfg, withReads); err != nil {
			return nil, err
		}
		return compile(cfg, props)
	}
	if withReads {
		p.Params = append(p.Params, suite.Param{Name: multicast.ReadsParam, Values: []string{"none", "local", "ordered"},
			Doc: "a replicated register over the total order, whose reads are local or ordered (none: no register)"})
		p.Object = func(cfg model.Config) *properties.Object {
			if multicast.Reads(cfg.Param(multicast.ReadsParam, 0)) == multicast.NoReads {
				return nil
			}
			return properties.Register
		}
		p.Properties = append(p.Properties, properties.Register.Linearizable())
	}
	return p
}

func init() {
	register(
		group(false, &suite.Protocol{
			Name:    "basic",
			Summary: "B-multicast: a loop of sends; a received message is delivered",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "agreement"},
			Compile: suite.Compiler("multicast/basic", basic.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "no-crash", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: msgs(2), Expect: checker.Pass,
					Why:      "two nodes multicast twice each and nobody crashes: everyone delivers everything, N messages a multicast",
					Messages: "msg 12"},
				{Name: "sender-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: msgs(1), Expect: checker.Fail, Shows: "agreement",
					Why: "the sender crashes in the middle of its loop of sends: \"as long as the multicaster does not crash\" (Vlassov and Montelius)"},
				{Name: "fifo", N: 3, Channels: model.Unordered, Params: msgs(2), Props: []string{"fifo-order"}, Expect: checker.Fail, Shows: "fifo-order",
					Why: "two messages of one sender overtake each other on unordered channels"},
				{Name: "uniform", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: msgs(1), Props: []string{"uniform-agreement"}, Expect: checker.Fail, Shows: "uniform-agreement",
					Why: "the sender delivers its own message and crashes before the others get it: a crashed node delivered what no correct one will, which R-multicast's relaying rules out (Vlassov and Montelius: uniform agreement)"},
				{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0", Params: msgs(1), Expect: checker.Fail, Shows: "integrity",
					Why: "the network duplicates a message and B-multicast delivers it twice: its integrity rests on channels that do not duplicate, where R-multicast copes, as \"a message may arrive more than once\" (Vlassov and Montelius)"},
				{Name: "loss", N: 3, Channels: model.Unordered, Losses: 1, Initiators: "0", Params: msgs(1), Expect: checker.Fail, Shows: "validity", Violates: []string{"agreement"},
					Why: "the network loses a message of the loop of sends, the sender's own copy or another's: \"Assuming we have a reliable network layer, this is simple\" (Vlassov and Montelius), and without one a message is never delivered"},
			},
		}),
		group(false, &suite.Protocol{
			Name:    "reliable",
			Summary: "R-multicast over B-multicast: relay on first receipt, then deliver; duplicates dropped",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "agreement", "uniform-agreement"},
			Compile: suite.Compiler("multicast/reliable", reliable.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: msgs(1), Expect: checker.Pass,
					Why: "any node may crash at any point, mid-loop too: a node relays before it delivers, so the uniform agreement of Vlassov and Montelius holds"},
				{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0", Params: msgs(1), Expect: checker.Pass,
					Why:      "the network duplicates a message: \"duplicates of the message are detected and not delivered\" (Vlassov and Montelius), so integrity holds where B-multicast's fails; N² messages a multicast, every receiver relaying",
					Messages: "msg 9"},
				{Name: "two-crashes", N: 3, Channels: model.Unordered, Crashes: 2, Initiators: "0", Params: msgs(1), Expect: checker.Pass,
					Why: "the sender and a node that delivered both crash, and only what that node relayed reaches the third: relaying before delivering keeps uniform agreement, delivering first would not"},
				{Name: "loss", N: 3, Channels: model.Unordered, Losses: 1, Crashes: 1, Initiators: "0", Params: msgs(1), Expect: checker.Fail,
					Shows: "agreement", Violates: []string{"uniform-agreement"},
					Why: "the sender's message to one node is lost and the only other node that could relay it crashes before it gets it: R-multicast is built on B-multicast, which assumes \"a reliable network layer\" (Vlassov and Montelius); relaying masks a crash or a loss, not both"},
			},
		}),
		group(false, &suite.Protocol{
			Name:    "fifo",
			Summary: "FIFO order: per-sender sequence numbers and a hold-back queue over B-multicast",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "fifo-order"},
			Compile: suite.Compiler("multicast/fifo", fifo.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: msgs(2), Expect: checker.Pass,
					Why:      "messages overtake each other on the channels; the hold-back queue restores each sender's order, at B-multicast's N messages a multicast",
					Messages: "msg 12"},
				{Name: "chain", N: 3, Channels: model.Unordered, Initiators: "0", Params: msgs(3), Expect: checker.Pass,
					Why: "a sender's third message can arrive first and its second next, both held back: the first releases the whole chain"},
				{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0", Params: msgs(2), Expect: checker.Pass,
					Why: "a message already delivered in turn arrives again and is dropped, so integrity holds"},
				{Name: "sender-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0", Params: msgs(2), Expect: checker.Pass,
					Why: "the sender crashes part way through its sends: what arrives is still delivered in its order"},
				{Name: "loss", N: 3, Channels: model.Unordered, Losses: 1, Initiators: "0", Params: msgs(2), Expect: checker.Fail, Shows: "validity",
					Why: "the network loses the copy a sender sends itself: the hold-back queue restores order, not lost messages, and the sender never delivers its own message (B-multicast assumes \"a reliable network layer\", Vlassov and Montelius)"},
				{Name: "causal", N: 3, Channels: model.Unordered, Params: msgs(1), Props: []string{"causal-order"}, Expect: checker.Fail, Shows: "causal-order",
					Why: "a reply overtakes the message it answers: FIFO order says nothing across senders"},
				{Name: "total", N: 3, Channels: model.Unordered, Params: msgs(1), Props: []string{"total-order"}, Expect: checker.Fail, Shows: "total-order",
					Why: "two senders' messages reach two nodes in opposite orders"},
			},
		}),
		group(false, &suite.Protocol{
			Name:    "causal",
			Summary: "causal order: vector timestamps and a hold-back queue over B-multicast",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "fifo-order", "causal-order"},
			Compile: suite.Compiler("multicast/causal", causal.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: msgs(2), Expect: checker.Pass,
					Why:      "a message waits until everything its sender had delivered is delivered here: causal, hence FIFO, order, N-1 messages a multicast",
					Messages: "msg 8"},
				{Name: "chain", N: 3, Channels: model.Unordered, Initiators: "0", Params: msgs(3), Props: []string{"validity", "integrity", "agreement", "fifo-order", "causal-order"}, Expect: checker.Pass,
					Why: "a sender's third message can arrive first and its second next, both held back: the first releases one, then the next, while the rest still wait; with no crash every node delivers all three (agreement)"},
				{Name: "sender-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0,1", Params: msgs(1), Expect: checker.Pass,
					Why: "a sender crashes part way through its sends: a message that depends on one never received waits for ever, and none is delivered out of causal order"},
				{Name: "total", N: 3, Channels: model.Unordered, Params: msgs(1), Props: []string{"total-order"}, Expect: checker.Fail, Shows: "total-order",
					Why: "concurrent messages are not ordered: two nodes deliver them in opposite orders"},
			},
		}),
		group(true, &suite.Protocol{
			Name:    "sequencer",
			Summary: "total order through a sequencer (node 0): hold-back queue, order messages, deliver by sequence number",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "total-order"},
			Compile: suite.Compiler("multicast/sequencer", sequencer.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "1", Params: msgs(2), Expect: checker.Pass,
					Why:      "every node delivers in the sequencer's order, whatever order the messages and orders arrive in: 2N messages a multicast",
					Messages: "msg 6, order 6"},
				{Name: "register", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: orderedReads(), Props: withLinearizable, Expect: checker.Pass,
					Why: "a replicated register: writes and reads are multicast in the sequencer's order, so every replica applies them in one order and every history is linearizable"},
				{Name: "sequencer-crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "1", Params: msgs(1),
					Props: []string{"validity", "agreement"}, Expect: checker.Fail, Shows: "validity", Violates: []string{"agreement"},
					Why: "\"the sequencer may become a bottleneck and is a critical point of failure\" (Vlassov and Montelius): messages it never ordered are never delivered"},
				{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "1", Params: msgs(1), Expect: checker.Fail,
					Shows: "integrity", Violates: []string{"total-order"},
					Why: "the network duplicates a message and the sequencer, which keeps no record of what it ordered, gives the copy a sequence number of its own: every node delivers the message twice (Vlassov and Montelius: retransmission must \"avoid duplication of messages\")"},
				{Name: "local-reads", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: map[string]int{properties.MsgsParam: 1, multicast.ReadsParam: int(multicast.LocalReads)}, Props: withLinearizable,
					Expect: checker.Fail, Shows: "linearizable",
					Why: "a register whose reads are answered from the local replica: the writes keep one order, yet a read misses a write another client saw complete"},
				{Name: "one-client", N: 3, Channels: model.Unordered, Initiators: "0", Params: map[string]int{properties.MsgsParam: 2, multicast.ReadsParam: int(multicast.LocalReads)}, Props: withLinearizable,
					Expect: checker.Pass, Messages: "msg 0..6, order 0..6",
					Why: "local reads are linearizable when one client writes: a write returns once the client's own replica applied it, so its next read, answered there, sees it; two operations, each write N messages and N orders, each read none"},
			},
		}),
		group(true, &suite.Protocol{
			Name:    "isis",
			Summary: "ISIS total order: proposed sequence numbers, the highest agreed, deliver in agreed order",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "total-order"},
			Compile: suite.Compiler("multicast/isis", isis.Protocol{}, nil),
			Scenarios: []suite.Scenario{
				{Name: "unordered", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: msgs(1), Expect: checker.Pass,
					Why:      "proposals and agreed numbers cross in any order; every node delivers in agreed order: 3N messages a multicast",
					Messages: "msg 6, propose 6, agreed 6"},
				{Name: "register", N: 3, Channels: model.Unordered, Initiators: "0,1", Params: orderedReads(), Props: withLinearizable, Expect: checker.Pass,
					Why: "a replicated register: writes and reads take agreed numbers like any message, so every replica applies them in one order and every history is linearizable"},
				{Name: "crash", N: 3, Channels: model.Unordered, Crashes: 1, Initiators: "0,1", Params: msgs(1), Props: []string{"validity"}, Expect: checker.Fail, Shows: "validity",
					Why: "a node crashes before it proposes: its sender waits for the Nth proposal forever"},
				{Name: "duplicate", N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: "0,1", Params: msgs(1), Expect: checker.Fail,
					Shows: "total-order", Violates: []string{"validity"},
					Why: "a duplicated proposal completes a count of N before every node has proposed: the agreed number is not the highest, and two nodes deliver in opposite orders (ISIS counts on reliable channels)"},
			},
		}),
	)
}
