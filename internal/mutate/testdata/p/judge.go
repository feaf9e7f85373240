package p

import (
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Judge is a property: its code gets the whole catalogue.
var Judge = &properties.Property{Name: "judge", Check: func(v properties.View) string {
	seen := make([]bool, v.N())
	for i := 0; i < v.N(); i++ {
		seen[i] = v.Alive(model.NodeID(i))
		count(seen[1:v.N()])
	}
	if len(seen) > 2 && seen[0] {
		return "bad"
	}
	return ""
}}

func count(s []bool) int {
	n := 0
	for _, b := range s {
		if b {
			n++
		}
	}
	return n + int(mask(s)&1)
}

// mask's constants are uint64s: their mutants must be too.
func mask(s []bool) uint64 {
	var bits uint64
	for i, b := range s {
		if b {
			bits |= 2 << i
		}
	}
	return bits
}
