package sim

// names numbers strings in the order it first meets them, for the message
// kinds and the labels of events that machines and walkers keep as small
// indexes. I bounds how many it numbers; full is the panic past that.
type names[I uint8 | uint16] struct {
	list  []string
	index map[string]I
	full  string
}

// messageKinds numbers message kinds, as Step.Sends and a walker's sends
// hold them; eventLabels numbers the labels of events (see Step.Label).
func messageKinds() names[uint8] {
	return names[uint8]{index: map[string]uint8{}, full: "more than 255 message kinds"}
}

func eventLabels() names[uint16] {
	return names[uint16]{index: map[string]uint16{}, full: "more than 65 535 kinds of events"}
}

// id is s's number, given now if s is new.
func (n *names[I]) id(s string) I {
	if i, ok := n.index[s]; ok {
		return i
	}
	if len(n.list) == int(^I(0)) {
		panic(n.full)
	}
	i := I(len(n.list))
	n.list = append(n.list, s)
	n.index[s] = i
	return i
}
