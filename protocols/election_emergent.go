package protocols

import (
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/election/emergent"
)

func init() {
	register(&Protocol{
		Name: "emergent", Family: "election",
		Summary: "Anthony's emergent election: a self-sized slave pool watches the master and only the slaves elect",
		Source:  anthony,
		// the highest-ranked slave wins, not the highest live node
		Claims: []string{"unique-leader", "agreement", "termination", "pool-size"},
		Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
			return model.Compile("election/emergent", emergent.Protocol{}, cfg, ms...)
		},
		Scenarios: []Scenario{
			{Name: "master-crash", N: 5, Crashes: 1, Params: map[string]int{"pool-min": 2, "pool-max": 3}, Expect: "pass",
				Why: "with a perfect failure detector a pool of two or three slaves emerges, and only its slaves elect one new master when the master crashes"},
			{Name: "async", N: 5, Crashes: 1, Timing: "async", MaxDepth: 8, Expect: "fail",
				Props: []string{"unique-leader", "agreement"}, Shows: "unique-leader", Violates: []string{"agreement"},
				Why: "a late master heartbeat is taken for a dead master: a slave elects itself while the master lives (Anthony: discourage the candidate state under network instability)"},
			{Name: "recovery", N: 4, Crashes: 1, Recoveries: 1, Expect: "fail", Shows: "agreement",
				Why: "a master that crashes and restarts comes back idle under its old identifier: never two masters, but a node its successor's announcement has not reached yet still follows the restarted node, alive again"},
		},
	})
}
