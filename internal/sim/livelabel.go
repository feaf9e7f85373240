package sim

// evKey is a timer that fires or an action taken (both plain comparable
// values: see checkPlainComparable).
type evKey struct {
	action bool
	v      any
}

// eventLabel is the label of a timeout or action ("timeout " or "action "
// and its kind), worked out once per value.
func (w *walker[S, M]) eventLabel(k evKey) uint16 {
	if l, ok := w.evLbl[k]; ok {
		return l
	}
	prefix := "timeout "
	if k.action {
		prefix = "action "
	}
	l := w.labels.id(prefix + kindOfValue(k.v))
	w.evLbl[k] = l
	return l
}
