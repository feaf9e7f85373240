package checker

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/vigil-check/vigil/internal/sim"

	"github.com/anishathalye/porcupine"

	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
)

// Linearizability is the outcome of checking the client histories of a
// random search's walks with porcupine (RandomOptions.Object).
type Linearizability struct {
	Object     string  `json:"object"`
	Verdict    Verdict `json:"result"` // Unknown: a check timed out, none failed
	Histories  int     `json:"histories"`
	Operations int     `json:"operations"`
	// Seed is the seed of the first walk whose history is not
	// linearizable, and History that history.
	Seed    *uint64               `json:"seed,omitempty"`
	History []porcupine.Operation `json:"-"`
	object  *properties.Object
}

// linearizeTimeout bounds porcupine's search on one history.
const linearizeTimeout = 10 * time.Second

// linearize checks one walk's history: true, false, or Unknown on a
// timeout. Most histories are linearizable in the order their operations
// returned, which one pass tells; porcupine searches the others.
func linearize(obj *properties.Object, h []porcupine.Operation) porcupine.CheckResult {
	if inReturnOrder(obj.Model, h) {
		return porcupine.Ok
	}
	return porcupine.CheckOperationsTimeout(obj.Model, h, linearizeTimeout)
}

// inReturnOrder reports whether model accepts history h with every
// operation taking effect as it returns (each partition of h on its own,
// for a partitioned model). That order keeps real time (an operation that
// returned before another was called comes first), so it is a
// linearization when the model accepts it: true proves h linearizable,
// false proves nothing.
func inReturnOrder(model porcupine.Model, h []porcupine.Operation) bool {
	parts := [][]porcupine.Operation{h}
	if model.Partition != nil {
		parts = model.Partition(h)
	}
	step := model.Step
	if step == nil {
		step = func(st, in, out any) (bool, any) { return model.StepContext(context.Background(), st, in, out) }
	}
	for _, part := range parts {
		ops := slices.Clone(part)
		slices.SortStableFunc(ops, func(a, b porcupine.Operation) int { return cmp.Compare(a.Return, b.Return) })
		st := model.Init()
		for _, op := range ops {
			ok, next := step(st, op.Input, op.Output)
			if !ok {
				return false
			}
			st = next
		}
	}
	return true
}

// WriteHTML writes porcupine's visualization of the failing history (or,
// if none failed, of nothing) to path.
func (l *Linearizability) WriteHTML(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := l.HTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// HTML writes porcupine's visualization of the failing history (or, if
// none failed, of nothing) to w.
func (l *Linearizability) HTML(w io.Writer) error {
	if l.Verdict == Fail && l.History == nil {
		return fmt.Errorf("the history of the walk of seed %d stayed with its shard: a search of that one walk (seed %d, 1 walk) finds it again", *l.Seed, *l.Seed)
	}
	_, info := porcupine.CheckOperationsVerbose(l.object.Model, l.History, linearizeTimeout)
	return porcupine.Visualize(l.object.Model, info, w)
}

// linearize checks the history rec recorded, keeping it in r if it is
// not linearizable.
func (r *walkResult) linearize(obj *properties.Object, rec *properties.Recorder) {
	h := rec.History()
	r.ops = len(h)
	if r.lin = linearize(obj, h); r.lin == porcupine.Illegal {
		r.history = h
	}
}

// recordStep feeds one step's observations to rec.
func recordStep(rec *properties.Recorder, ev *sim.Event, node model.NodeID, step *sim.Step) {
	switch {
	case ev == nil:
	case ev.Kind == sim.Crash:
		rec.Observe(ev.Node, model.Obs{Kind: model.ObsCrash})
	case ev.Kind == sim.Recover:
		rec.Observe(ev.Node, model.Obs{Kind: model.ObsRecover})
	}
	if step == nil {
		return
	}
	for _, o := range step.Obs {
		rec.Observe(node, o)
	}
}
