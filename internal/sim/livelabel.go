package sim

func (w *walker[S, M]) labelOf(l string) uint16 {
	if i, ok := w.lblIdx[l]; ok {
		return i
	}
	i := uint16(len(w.labels))
	w.labels = append(w.labels, l)
	w.lblIdx[l] = i
	return i
}

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
	l := w.labelOf(prefix + kindOfValue(k.v))
	w.evLbl[k] = l
	return l
}

func (w *walker[S, M]) kindOf(k string) uint8 {
	if i, ok := w.kndIdx[k]; ok {
		return i
	}
	if len(w.kinds) == 255 {
		panic("more than 255 message kinds")
	}
	i := uint8(len(w.kinds))
	w.kinds = append(w.kinds, k)
	w.kndIdx[k] = i
	return i
}
