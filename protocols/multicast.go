package protocols

import (
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/multicast"
	"github.com/vigil-check/vigil/protocols/multicast/basic"
	"github.com/vigil-check/vigil/protocols/multicast/causal"
	"github.com/vigil-check/vigil/protocols/multicast/fifo"
	"github.com/vigil-check/vigil/protocols/multicast/isis"
	"github.com/vigil-check/vigil/protocols/multicast/reliable"
	"github.com/vigil-check/vigil/protocols/multicast/sequencer"
)

// msgs returns scenario parameters for k operations per node.
func msgs(k int) map[string]int { return map[string]int{"msgs": k} }

func init() {
	register(
		&Protocol{
			Name: "basic", Family: "multicast",
			Summary: "B-multicast: a loop of sends; a received message is delivered",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "agreement"},
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := multicast.CheckParams("multicast/basic", cfg, false); err != nil {
					return nil, err
				}
				return model.Compile("multicast/basic", basic.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "no-crash", N: 3, Channels: "unordered", Initiators: "0,1", Params: msgs(2), Expect: "pass",
					Why: "two nodes multicast twice each and nobody crashes: everyone delivers everything"},
				{Name: "sender-crash", N: 3, Channels: "unordered", Crashes: 1, Initiators: "0", Params: msgs(1), Expect: "fail", Shows: "agreement",
					Why: "the sender crashes in the middle of its loop of sends: \"as long as the multicaster does not crash\" (Vlassov and Montelius)"},
				{Name: "fifo", N: 3, Channels: "unordered", Params: msgs(2), Props: []string{"fifo-order"}, Expect: "fail", Shows: "fifo-order",
					Why: "two messages of one sender overtake each other on unordered channels"},
			},
		},
		&Protocol{
			Name: "reliable", Family: "multicast",
			Summary: "R-multicast over B-multicast: relay on first receipt, then deliver; duplicates dropped",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "agreement", "uniform-agreement"},
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := multicast.CheckParams("multicast/reliable", cfg, false); err != nil {
					return nil, err
				}
				return model.Compile("multicast/reliable", reliable.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "crash", N: 3, Channels: "unordered", Crashes: 1, Initiators: "0", Params: msgs(1), Expect: "pass",
					Why: "any node may crash at any point, mid-loop too: a node relays before it delivers, so the uniform agreement of Vlassov and Montelius holds"},
			},
		},
		&Protocol{
			Name: "fifo", Family: "multicast",
			Summary: "FIFO order: per-sender sequence numbers and a hold-back queue over B-multicast",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "fifo-order"},
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := multicast.CheckParams("multicast/fifo", cfg, false); err != nil {
					return nil, err
				}
				return model.Compile("multicast/fifo", fifo.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "unordered", N: 3, Channels: "unordered", Initiators: "0,1", Params: msgs(2), Expect: "pass",
					Why: "messages overtake each other on the channels; the hold-back queue restores each sender's order"},
				{Name: "causal", N: 3, Channels: "unordered", Params: msgs(1), Props: []string{"causal-order"}, Expect: "fail", Shows: "causal-order",
					Why: "a reply overtakes the message it answers: FIFO order says nothing across senders"},
				{Name: "total", N: 3, Channels: "unordered", Params: msgs(1), Props: []string{"total-order"}, Expect: "fail", Shows: "total-order",
					Why: "two senders' messages reach two nodes in opposite orders"},
			},
		},
		&Protocol{
			Name: "causal", Family: "multicast",
			Summary: "causal order: vector timestamps and a hold-back queue over B-multicast",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "fifo-order", "causal-order"},
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := multicast.CheckParams("multicast/causal", cfg, false); err != nil {
					return nil, err
				}
				return model.Compile("multicast/causal", causal.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "unordered", N: 3, Channels: "unordered", Initiators: "0,1", Params: msgs(2), Expect: "pass",
					Why: "a message waits until everything its sender had delivered is delivered here: causal, hence FIFO, order"},
				{Name: "total", N: 3, Channels: "unordered", Params: msgs(1), Props: []string{"total-order"}, Expect: "fail", Shows: "total-order",
					Why: "concurrent messages are not ordered: two nodes deliver them in opposite orders"},
			},
		},
		&Protocol{
			Name: "sequencer", Family: "multicast",
			Summary: "total order through a sequencer (node 0): hold-back queue, order messages, deliver by sequence number",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "total-order"},
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := multicast.CheckParams("multicast/sequencer", cfg, true); err != nil {
					return nil, err
				}
				return model.Compile("multicast/sequencer", sequencer.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "unordered", N: 3, Channels: "unordered", Initiators: "1", Params: msgs(2), Expect: "pass",
					Why: "every node delivers in the sequencer's order, whatever order the messages and orders arrive in"},
				{Name: "sequencer-crash", N: 3, Channels: "unordered", Crashes: 1, Initiators: "1", Params: msgs(1),
					Props: []string{"validity", "agreement"}, Expect: "fail", Shows: "validity", Violates: []string{"agreement"},
					Why: "\"the sequencer may become a bottleneck and is a critical point of failure\" (Vlassov and Montelius): messages it never ordered are never delivered"},
			},
		},
		&Protocol{
			Name: "isis", Family: "multicast",
			Summary: "ISIS total order: proposed sequence numbers, the highest agreed, deliver in agreed order",
			Source:  vlassov,
			Claims:  []string{"validity", "integrity", "total-order"},
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := multicast.CheckParams("multicast/isis", cfg, true); err != nil {
					return nil, err
				}
				return model.Compile("multicast/isis", isis.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "unordered", N: 3, Channels: "unordered", Initiators: "0,1", Params: msgs(1), Expect: "pass",
					Why: "proposals and agreed numbers cross in any order; every node delivers in agreed order"},
				{Name: "crash", N: 3, Channels: "unordered", Crashes: 1, Initiators: "0,1", Params: msgs(1), Props: []string{"validity"}, Expect: "fail", Shows: "validity",
					Why: "a node crashes before it proposes: its sender waits for the Nth proposal forever"},
			},
		},
	)
}
