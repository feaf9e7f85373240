package sim

import (
	"fmt"
	"slices"

	"github.com/vigil-check/vigil/model"
)

// View is one world as properties see it; it implements properties.View.
// Engines keep one per worker and point it at each world in turn (At), so
// that judging a world allocates nothing.
type View struct {
	st *Stepper
	w  World
}

// View returns a view of world w.
func (s *Stepper) View(w World) *View { return &View{st: s, w: w} }

// At points v at world w and returns it.
func (v *View) At(w World) *View {
	v.w = w
	return v
}

func (v *View) N() int                           { return v.st.m.cfg.N }
func (v *View) Config() *model.Config            { return &v.st.m.cfg }
func (v *View) Alive(i model.NodeID) bool        { return v.st.Alive(v.w, i) }
func (v *View) Rank(i model.NodeID) int          { return v.st.m.cfg.Rank(i) }
func (v *View) Connected(i, j model.NodeID) bool { return v.st.Connected(v.w, i, j) }
func (v *View) Split() bool                      { return v.st.Split(v.w) }
func (v *View) InFlight() int                    { return len(v.st.Msgs(v.w)) }
func (v *View) State(i model.NodeID) any         { return v.st.m.StateValue(v.st.NodeState(v.w, i)) }
func (v *View) World() World                     { return v.w }
func (v *View) Stepper() *Stepper                { return v.st }

func (v *View) Monitor(mon model.Monitor) any {
	k := slices.Index(v.st.m.monitors, mon)
	if k < 0 {
		panic(fmt.Sprintf("monitor %s is not attached to this machine: compile with a property that reads it", mon.Name()))
	}
	return v.st.MonitorValue(v.w, k)
}
