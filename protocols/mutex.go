package protocols

import (
	"fmt"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/protocols/mutex/central"
	"github.com/vigil-check/vigil/protocols/mutex/maekawa"
	"github.com/vigil-check/vigil/protocols/mutex/ricartagrawala"
	"github.com/vigil-check/vigil/protocols/mutex/tokenring"
)

var mutexClaims = []string{"mutual-exclusion", "no-deadlock", "no-starvation"}

// checkRequests reads the "requests" parameter: how many times each node
// asks for the critical section, 0 for forever. why, if set, is why
// forever is not supported.
func checkRequests(name string, cfg model.Config, why string) error {
	r := cfg.Param("requests", 1)
	switch {
	case r < 0:
		return fmt.Errorf("%s: requests must be at least 0, not %d", name, r)
	case r == 0 && why != "":
		return fmt.Errorf("%s: requests must be at least 1 here, not 0 (forever): %s", name, why)
	}
	return nil
}

func init() {
	register(
		&Protocol{
			Name: "central", Family: "mutex",
			Summary: "mutual exclusion through a central server: request, grant and release a token",
			Source:  vlassov,
			Claims:  mutexClaims,
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := checkRequests("mutex/central", cfg, ""); err != nil {
					return nil, err
				}
				return model.Compile("mutex/central", central.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "two-each", N: 3, Params: map[string]int{"requests": 2}, Expect: "pass",
					Why: "every node, the server too, asks twice: the server grants the token in turn (Vlassov and Montelius: enter 2 messages, exit 1)"},
				{Name: "forever", N: 3, Params: map[string]int{"requests": 0}, Expect: "pass",
					Why: "every node asks again and again: the server's FIFO queue keeps the state finite"},
			},
		},
		&Protocol{
			Name: "tokenring", Family: "mutex",
			Summary: "mutual exclusion by a token passed round a ring; idle nodes pass it on",
			Source:  vlassov,
			Claims:  mutexClaims,
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := checkRequests("mutex/tokenring", cfg, ""); err != nil {
					return nil, err
				}
				return model.Compile("mutex/tokenring", tokenring.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "two-each", N: 3, Params: map[string]int{"requests": 2}, Expect: "pass",
					Why: "every node asks twice and enters when the token comes by (Vlassov and Montelius: enter 0 to N messages, exit 1); the token circulates for ever, so no run ends"},
				{Name: "forever", N: 3, Params: map[string]int{"requests": 0}, Expect: "pass",
					Why: "every node asks again and again: one token, so one node in the critical section"},
			},
		},
		&Protocol{
			Name: "ricartagrawala", Family: "mutex",
			Summary: "Ricart and Agrawala: multicast a Lamport-timestamped request, enter after N-1 replies",
			Source:  vlassov,
			Claims:  append(append([]string(nil), mutexClaims...), "request-order"),
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if err := checkRequests("mutex/ricartagrawala", cfg, "the Lamport clocks grow with every request"); err != nil {
					return nil, err
				}
				return model.Compile("mutex/ricartagrawala", ricartagrawala.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "two-each", N: 3, Params: map[string]int{"requests": 2}, Expect: "pass",
					Why: "every node asks twice: requests enter in (timestamp, id) order, 2(N-1) messages per entry"},
				{Name: "unordered", N: 3, Channels: "unordered", Params: map[string]int{"requests": 2}, Expect: "pass",
					Why: "Vlassov and Montelius ask for reliable channels, not FIFO ones: replies overtaking requests do no harm"},
			},
		},
		&Protocol{
			Name: "maekawa", Family: "mutex",
			Summary: "Maekawa's voting: ask a row-and-column voting set, enter after K votes",
			Source:  vlassov,
			Claims:  mutexClaims,
			Compile: func(cfg model.Config, ms ...model.Monitor) (*model.Machine, error) {
				if cfg.N < 1 {
					return nil, fmt.Errorf("mutex/maekawa: n must be at least 1, not %d", cfg.N)
				}
				if err := checkRequests("mutex/maekawa", cfg, "only central and tokenring ask forever"); err != nil {
					return nil, err
				}
				return model.Compile("mutex/maekawa", maekawa.Protocol{}, cfg, ms...)
			},
			Scenarios: []Scenario{
				{Name: "deadlock", N: 4, Params: map[string]int{"requests": 1}, Expect: "fail",
					Shows: "no-deadlock", Violates: []string{"no-starvation"},
					Why: "concurrent requests each win part of their voting set and wait in a cycle for the rest, e.g. nodes 0 and 1 each vote for themselves first: \"Unfortunately, the algorithm is deadlock-prone\" (Vlassov and Montelius)"},
			},
		},
	)
}
