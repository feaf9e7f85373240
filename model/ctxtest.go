package model

// NewCtx returns a context for calling a protocol's handler directly, as a
// unit test does: node self of a run configured by cfg. Read the handler's
// effects with checker/checktest's Sent, Timers and Observed. The context
// reads cfg's parameters once, here.
func NewCtx[M any](cfg Config, self NodeID) *Ctx[M] {
	c := &Ctx[M]{}
	c.reset(&cfg, self)
	return c
}
