package sim

import (
	"github.com/vigil-check/vigil/internal/effects"
	"github.com/vigil-check/vigil/model"
)

// effectBuffer is what a model.Ctx[M] holds of the handler calls made
// through it: their sends, timer operations and observations.
type effectBuffer[M any] = effects.Buffer[model.Sent[M], model.NodeID, model.Obs]

// timerEffect is a timer armed or cancelled by a handler.
type timerEffect = effects.Timer[model.NodeID]

// bufferOf returns the effect buffer of ctx. It costs a call through a
// variable and two type assertions, so a Walker, which calls handlers
// millions of times through one context per node, looks it up once per
// context it makes.
func bufferOf[M any](ctx *model.Ctx[M]) *effectBuffer[M] {
	return effects.Of(ctx).(*effectBuffer[M])
}
