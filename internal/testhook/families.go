package testhook

import (
	"encoding/binary"

	"github.com/vigil-check/vigil/internal/sim"
	"github.com/vigil-check/vigil/properties"
)

// Families enumerates every world of m, as a naive enumeration does, and
// counts the families of renamings among them and among the quiescent
// ones: what a search reduced by m's symmetry must count as its states and
// quiescent states.
func Families(m *sim.Machine) (states, quiescent int) {
	sym, _ := m.Symmetry()
	st := m.NewStepper()
	w0, _ := st.Init()
	seen := map[string]bool{WorldKey(w0): true}
	all, quiet := map[string]bool{}, map[string]bool{}
	for level := []sim.World{w0}; len(level) > 0; {
		var next []sim.World
		for _, w := range level {
			rep := WorldKey(st.Canonical(sym, w, nil))
			all[rep] = true
			evs, nproto := st.Enabled(w, nil)
			if nproto == 0 {
				quiet[rep] = true
			}
			for _, ev := range evs {
				succ, _ := st.Apply(w, ev, nil)
				if k := WorldKey(succ); !seen[k] {
					seen[k] = true
					next = append(next, succ)
				}
			}
		}
		level = next
	}
	return len(all), len(quiet)
}

// WorldKey is w's words as a string, to key a map of worlds.
func WorldKey(w sim.World) string {
	b := make([]byte, 0, 8*len(w))
	for _, x := range w {
		b = binary.LittleEndian.AppendUint64(b, x)
	}
	return string(b)
}

// Busy is a test property that a message is in flight: a fair cycle that
// always has one violates it (token rings do).
var Busy = &properties.Property{
	Name: "test:eventually-no-message-in-flight", When: properties.Eventually,
	Pending: func(v properties.View) uint64 {
		if v.InFlight() > 0 {
			return 1
		}
		return 0
	},
	Check: func(v properties.View) string {
		if v.InFlight() > 0 {
			return "a message is in flight"
		}
		return ""
	},
	Obligation: func(int) string { return "a message is in flight" },
}
