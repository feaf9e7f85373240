// Package monitors has monitors, properties and a symmetry whose code
// vigilpure checks, and the idioms it allows there.
package monitors

import (
	"fmt"
	"slices"
	"time"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Seen is a monitor built from callbacks: its observe callback appends in
// map order.
var Seen = properties.NewMonitor("seen",
	func(cfg *model.Config) map[model.NodeID]int { return map[model.NodeID]int{} },
	observeSeen)

func observeSeen(_ *model.Config, st map[model.NodeID]int, node model.NodeID, o model.Obs) map[model.NodeID]int {
	next := map[model.NodeID]int{}
	for k, v := range st { // a copy: map inserts are order-free
		next[k] = v
	}
	next[node] = o.Arg
	return next
}

// Order keeps the nodes in the order they were seen, which it builds in
// map order.
var Order = properties.NewSymmetricMonitor("order",
	func(cfg *model.Config) []model.NodeID { return nil },
	func(_ *model.Config, st []model.NodeID, node model.NodeID, o model.Obs) []model.NodeID {
		return append(slices.Clone(st), node)
	},
	func(_ *model.Config, st []model.NodeID, to func(model.NodeID) model.NodeID) []model.NodeID {
		byNew := map[model.NodeID]bool{}
		for _, n := range st {
			byNew[to(n)] = true
		}
		var out []model.NodeID
		for n := range byNew { // want `monitor "order" callback rename ranges over a map and appends to out inside the loop: map order is random, so the monitor is not deterministic`
			out = append(out, n)
		}
		return out
	})

// clockMonitor implements model.Monitor itself, and reads the clock.
type clockMonitor struct{}

func (clockMonitor) Name() string                { return "clock" }
func (clockMonitor) Start(cfg *model.Config) any { return int64(0) }
func (clockMonitor) Observe(_ *model.Config, st any, node model.NodeID, o model.Obs) any {
	return time.Now().UnixNano() // want `monitor Observe calls time.Now`
}

var _ model.Monitor = clockMonitor{}

// Unique is an invariant whose detail names the first node that a map
// range finds.
var Unique = properties.Invariant("unique", "at most one node per rank",
	func(v properties.View) string {
		ranks := map[int]model.NodeID{}
		for i := range model.NodeID(v.N()) {
			ranks[v.Rank(i)] = i
		}
		for r, i := range ranks { // want `property "unique" callback check ranges over a map and returns a value of the iteration inside the loop: map order is random, so the property is not deterministic`
			if r < 0 {
				return fmt.Sprintf("%v has a negative rank", i)
			}
		}
		for r := range ranks { // the same verdict whichever entry is first
			if r > 1000 {
				return "a rank is too large"
			}
		}
		return ""
	})

// Quiet is a Property literal whose Check reads the clock.
var Quiet = &properties.Property{
	Name: "quiet", When: properties.AtQuiescence,
	Check: func(v properties.View) string {
		if time.Now().Hour() > 12 { // want `property "quiet" Check calls time.Now`
			return "late"
		}
		return ""
	},
}

// Proto declares a symmetry, built in map order.
type Proto struct{}

func (Proto) Interchangeable(cfg *model.Config) [][]model.NodeID {
	var class []model.NodeID
	for name, v := range cfg.Params { // want `symmetry Interchangeable ranges over a map and appends to class inside the loop`
		if name != "" {
			class = append(class, model.NodeID(v))
		}
	}
	return [][]model.NodeID{class}
}

// Summary is no monitor: map order is its own business.
func Summary(st map[model.NodeID]int) []model.NodeID {
	var out []model.NodeID
	for k := range st {
		out = append(out, k)
	}
	return out
}
