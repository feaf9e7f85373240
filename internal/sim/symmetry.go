package sim

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/vigil-check/vigil/model"
)

// Symmetry reduction (see model.Symmetric). A world is renamed by a
// permutation of the nodes that maps each declared class onto itself:
// node records, channels and messages move to the renamed nodes, and
// every interned state, message, timer and monitor state is renamed and
// interned again. A world's representative is the least of its renamings
// in content order (interned ids left aside, so that it does not depend
// on the order a search met values in): equal for every world of one
// family, so a search that keeps representatives keeps one world per
// family. The renamings tried are those that sort each class by a
// signature no renaming changes, ties tried every way (but one, where
// the tied nodes are alike: see settle).

// Symmetry is the symmetry a search of a Machine may reduce by.
type Symmetry struct {
	classes [][]model.NodeID // each sorted
	plainS  bool             // node states hold no node id
	plainM  bool             // nor do messages
}

// maxClass bounds a class: a world whose members tie without being alike
// (waiting in a queue, say) is renamed up to maxClass! ways.
const maxClass = 8

// Symmetry returns the symmetry m's protocol declares for its
// configuration, or nil and why a search of m cannot reduce by it ("" if
// the protocol declares none).
func (m *Machine) Symmetry() (*Symmetry, string) {
	m.mu.Lock()
	classes, declared, plainS, plainM, err := m.impl.symmetric()
	m.mu.Unlock()
	cfg := &m.cfg
	switch {
	case !declared:
		return nil, ""
	case err != nil:
		return nil, err.Error()
	case len(classes) == 0:
		return nil, "" // none in this run
	case cfg.Topology != "":
		return nil, "a topology other than the complete graph may tell the nodes apart"
	case cfg.Partitions > 0:
		return nil, "partitions cut the nodes in id order"
	case cfg.Traitors > 0:
		return nil, "traitors: what a traitor may send (Forge) is not declared to rename with its nodes"
	}
	for _, mon := range m.monitors {
		if _, ok := mon.(model.SymmetricMonitor); !ok {
			return nil, fmt.Sprintf("monitor %s does not say how to rename its states (model.SymmetricMonitor)", mon.Name())
		}
	}
	s := &Symmetry{plainS: plainS, plainM: plainM}
	seen := make([]bool, cfg.N)
	for _, c := range classes {
		c = slices.Sorted(slices.Values(c))
		switch {
		case len(c) < 2:
			return nil, fmt.Sprintf("class %v has fewer than two nodes", c)
		case len(c) > maxClass:
			return nil, fmt.Sprintf("class %v has more than %d nodes", c, maxClass)
		}
		for _, i := range c {
			if i < 0 || int(i) >= cfg.N || seen[i] {
				return nil, fmt.Sprintf("class %v names a node outside 0..%d or one of another class", c, cfg.N-1)
			}
			seen[i] = true
		}
		s.classes = append(s.classes, c)
	}
	return s, ""
}

// Classes returns the classes of interchangeable nodes, each sorted.
func (s *Symmetry) Classes() [][]model.NodeID { return s.classes }

// String names the classes: "n1 n2 n3 interchangeable".
func (s *Symmetry) String() string {
	var parts []string
	for _, c := range s.classes {
		var ids []string
		for _, i := range c {
			ids = append(ids, i.String())
		}
		parts = append(parts, strings.Join(ids, " "))
	}
	return strings.Join(parts, "; ") + " interchangeable"
}

// Pairs counts the pairs of interchangeable nodes.
func (s *Symmetry) Pairs() int {
	n := 0
	for _, c := range s.classes {
		n += len(c) * (len(c) - 1) / 2
	}
	return n
}

// Transposition returns the renaming that swaps the k-th pair of nodes of
// one class (k counts round the pairs of every class), for sampling.
func (s *Symmetry) Transposition(n, k int) []model.NodeID {
	var pairs [][2]model.NodeID
	for _, c := range s.classes {
		for a := range c {
			for b := a + 1; b < len(c); b++ {
				pairs = append(pairs, [2]model.NodeID{c[a], c[b]})
			}
		}
	}
	p := pairs[k%len(pairs)]
	to := identity(n)
	to[p[0]], to[p[1]] = p[1], p[0]
	return to
}

func identity(n int) []model.NodeID {
	to := make([]model.NodeID, n)
	for i := range to {
		to[i] = model.NodeID(i)
	}
	return to
}

// symCache is a Stepper's memo of renamings and content hashes, in front
// of the Machine's tables.
type symCache struct {
	perms map[string]uint32 // a renaming's bytes → its number
	// renamed and hashes are keyed by table<<56 | perm<<32 | id and
	// table<<32 | id (see renamed, hash): integer keys, which a map
	// hashes fastest
	renamed  map[uint64]uint32
	hashes   map[uint64]uint64
	to       []model.NodeID
	cands    [][]model.NodeID
	img      World
	best     World
	bestSig  []uint64
	sig      []uint64
	nodeSigs []nodeSig
	sigs     [][5]uint64 // by node (see signatures)
	permKey  []byte      // scratch for permID
	swap     []model.NodeID
}

type nodeSig struct {
	node model.NodeID
	sig  [5]uint64
}

func (s *Stepper) symCache() *symCache {
	if s.sym == nil {
		s.sym = &symCache{perms: map[string]uint32{}, renamed: map[uint64]uint32{}, hashes: map[uint64]uint64{}}
	}
	return s.sym
}

func (c *symCache) permID(to []model.NodeID) uint32 {
	b := c.permKey[:0]
	for _, i := range to {
		b = append(b, byte(i), byte(i>>8))
	}
	c.permKey = b
	if id, ok := c.perms[string(b)]; ok {
		return id
	}
	id := uint32(len(c.perms))
	if id >= 1<<24 {
		panic("sim: more than 2^24 renamings")
	}
	c.perms[string(b)] = id
	return id
}

// renamed is id of table (0 states, 1 messages, 2 timer sets, 3+k
// monitor k) renamed by to (perm: its number).
func (s *Stepper) renamed(table uint8, id uint32, to []model.NodeID, perm uint32) uint32 {
	c := s.sym
	k := uint64(table)<<56 | uint64(perm)<<32 | uint64(id)
	if r, ok := c.renamed[k]; ok {
		return r
	}
	m := s.m
	r := id
	if f := catch(func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		switch table {
		case 0:
			r = m.impl.renameState(id, to)
		case 1:
			r = m.impl.renameMsg(id, to)
		case 2:
			r = m.renameTimerSet(id, to)
		default:
			k := int(table) - 3
			st := m.monitors[k].(model.SymmetricMonitor).RenameNodes(&m.cfg, m.mons[k].vals[id], renameFunc(to))
			r = m.internMon(k, st)
		}
	}); f != nil {
		f.Protocol, f.Handler, f.Node = m.Name, "RenameNodes", model.None
		if table >= 3 {
			f.Monitor = m.monitors[table-3].Name()
		}
		s.setFault(f)
		return id
	}
	c.renamed[k] = r
	return r
}

// renameTimerSet interns timer set id with its timers and waits renamed.
// Called with m.mu held.
func (m *Machine) renameTimerSet(id uint32, to []model.NodeID) uint32 {
	es := slices.Clone(m.timerSets[id])
	for k, e := range es {
		t, err := renameValue(m.timerVal[e.timer], to)
		if err != nil {
			panic(misuse(err.Error()))
		}
		ws := slices.Clone(m.waitSets[e.wait])
		for j, w := range ws {
			ws[j] = to[w]
		}
		es[k].timer, es[k].wait = m.internTimer(t), m.internWaitSet(ws)
	}
	slices.SortFunc(es, func(a, b timerEntry) int { return cmp.Compare(a.timer, b.timer) })
	return m.internTimerSet(es)
}

// hash is the content hash of id in table: the same for equal values
// whatever their ids.
func (s *Stepper) hash(table uint8, id uint32) uint64 {
	c := s.sym
	k := uint64(table)<<32 | uint64(id)
	if h, ok := c.hashes[k]; ok {
		return h
	}
	m := s.m
	f := fnv.New64a()
	func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		switch table {
		case 0:
			f.Write([]byte(m.impl.stateKeyOf(id)))
		case 1:
			f.Write([]byte(m.impl.msgKeyOf(id)))
		case 2:
			for _, e := range m.timerSets[id] {
				f.Write([]byte(m.timerKey[e.timer]))
				for _, w := range m.waitSets[e.wait] {
					f.Write([]byte{byte(w), byte(w >> 8)})
				}
				f.Write([]byte{byte(e.ticks), 0xff})
			}
		default:
			f.Write([]byte(m.mons[int(table)-3].keys[id]))
		}
	}()
	h := f.Sum64()
	c.hashes[k] = h
	return h
}

// Rename returns w with node i renamed to[i] throughout, in dst's memory.
func (s *Stepper) Rename(w World, to []model.NodeID, dst World) World {
	c := s.symCache()
	perm := c.permID(to)
	n := s.m.cfg.N
	dst = append(dst[:0], w...)
	for i := range n {
		rec := w[1+i]
		state := s.renamed(0, recState(rec), to, perm)
		ts := recTimers(rec)
		if ts != 0 {
			ts = s.renamed(2, ts, to, perm)
		}
		dst[1+int(to[i])] = makeRec(state, ts, recDead(rec))
	}
	for k := range s.m.monitors {
		dst[1+n+k] = uint64(s.renamed(uint8(3+k), uint32(w[1+n+k]), to, perm))
	}
	msgs := dst[s.header:]
	for k, mw := range msgs {
		id := s.renamed(1, idOf(msgID(mw)), to, perm)
		msgs[k] = packMsg(to[msgFrom(mw)], to[msgTo(mw)], id|msgID(mw)&^idMask)
	}
	if s.m.cfg.Channels == model.FIFO {
		slices.SortStableFunc(msgs, func(a, b uint64) int { return cmp.Compare(a>>32, b>>32) })
	} else {
		slices.Sort(msgs)
	}
	return dst
}

// Canonical returns the representative of w's family under sym, in dst's
// memory (see Symmetry).
func (s *Stepper) Canonical(sym *Symmetry, w World, dst World) World {
	c := s.symCache()
	n := s.m.cfg.N
	// every class sorted by signature; the renamings tried map the k-th
	// of a class, in that order, to the class's k-th id, ties every way
	c.cands = c.cands[:0]
	c.cands = append(c.cands, identity(n))
	s.signatures(sym, w)
	for _, class := range sym.classes {
		c.nodeSigs = c.nodeSigs[:0]
		for _, i := range class {
			c.nodeSigs = append(c.nodeSigs, nodeSig{i, c.sigs[i]})
		}
		slices.SortStableFunc(c.nodeSigs, func(a, b nodeSig) int { return slices.Compare(a.sig[:], b.sig[:]) })
		s.settle(w, c.nodeSigs)
		var next [][]model.NodeID
		for _, to := range c.cands {
			next = s.placements(next, to, class, c.nodeSigs, 0)
		}
		c.cands = next
	}
	c.best, c.bestSig = c.best[:0], c.bestSig[:0]
	for _, to := range c.cands {
		c.img = s.Rename(w, to, c.img)
		c.sig = s.contentOf(c.img, c.sig[:0])
		if len(c.best) == 0 || slices.Compare(c.sig, c.bestSig) < 0 {
			c.best, c.bestSig = append(c.best[:0], c.img...), append(c.bestSig[:0], c.sig...)
		}
	}
	return append(dst[:0], c.best...)
}

// settle breaks the ties among sigs (sorted) whose nodes w cannot tell
// apart: where swapping each two neighbours of a run of equal signatures
// leaves w as it is, every order of the run renames w alike, so one is
// tried (a world whose participants all look alike, say at start-up,
// would be renamed N! ways for one image).
func (s *Stepper) settle(w World, sigs []nodeSig) {
	c := s.sym
	if len(c.swap) != s.m.cfg.N {
		c.swap = identity(s.m.cfg.N)
	}
	to := c.swap // the identity but for the pair swapped in turn
	for at := 0; at < len(sigs); {
		end := at + 1
		for end < len(sigs) && sigs[end].sig == sigs[at].sig {
			end++
		}
		alike := end-at > 1
		for j := at; alike && j+1 < end; j++ {
			a, b := sigs[j].node, sigs[j+1].node
			to[a], to[b] = b, a
			c.img = s.Rename(w, to, c.img)
			to[a], to[b] = a, b
			alike = slices.Equal(c.img, w)
		}
		if alike { // told apart by position alone
			for j := at; j < end; j++ {
				sigs[j].sig[0] |= uint64(j-at) << 1
			}
		}
		at = end
	}
}

// placements appends to out every renaming that extends to by mapping
// the nodes of sigs (sorted), from position at on, to class's ids in
// order, nodes of equal signatures every way.
func (s *Stepper) placements(out [][]model.NodeID, to []model.NodeID, class []model.NodeID, sigs []nodeSig, at int) [][]model.NodeID {
	if at == len(sigs) {
		return append(out, slices.Clone(to))
	}
	end := at + 1
	for end < len(sigs) && sigs[end].sig == sigs[at].sig {
		end++
	}
	// every order of sigs[at:end] onto class[at:end]
	group := make([]model.NodeID, 0, end-at)
	for _, ns := range sigs[at:end] {
		group = append(group, ns.node)
	}
	eachOrder(group, func() {
		for j, i := range group {
			to[i] = class[at+j]
		}
		out = s.placements(out, to, class, sigs, end)
	})
	return out
}

// eachOrder calls visit with ids in each of their orders in turn, swapping
// them in place, and leaves them as they were.
func eachOrder(ids []model.NodeID, visit func()) {
	var perm func(k int)
	perm = func(k int) {
		if k == len(ids) {
			visit()
			return
		}
		for j := k; j < len(ids); j++ {
			ids[k], ids[j] = ids[j], ids[k]
			perm(k + 1)
			ids[k], ids[j] = ids[j], ids[k]
		}
	}
	perm(0)
}

// signatures sets the cache's sigs[i] to what no renaming changes about node i
// in w: whether it is down, its state (when states name no node), its
// timers, and the messages in flight to and from it, summed in one pass
// over the messages.
func (s *Stepper) signatures(sym *Symmetry, w World) {
	c := s.sym
	c.sigs = slices.Grow(c.sigs[:0], s.m.cfg.N)[:s.m.cfg.N]
	for i := range c.sigs {
		rec := w[1+i]
		sig := &c.sigs[i]
		*sig = [5]uint64{}
		if recDead(rec) {
			sig[0] = 1
		}
		if sym.plainS {
			sig[1] = s.hash(0, recState(rec))
		}
		sig[2] = uint64(len(s.timerSet(recTimers(rec))))
	}
	for _, mw := range s.Msgs(w) {
		h := uint64(1)
		if sym.plainM {
			h = s.hash(1, idOf(msgID(mw))) | 1
		}
		h *= uint64(msgAge(mw) + 1)
		c.sigs[msgTo(mw)][3] += h
		c.sigs[msgFrom(mw)][4] += h
	}
}

// contentOf appends w's content, word by word, to sig: what orders the
// renamings of a world whatever ids the values were interned under.
func (s *Stepper) contentOf(w World, sig []uint64) []uint64 {
	n := s.m.cfg.N
	sig = append(sig, w[0])
	for i := range n {
		rec := w[1+i]
		d := uint64(0)
		if recDead(rec) {
			d = 1
		}
		sig = append(sig, d, s.hash(0, recState(rec)), s.hash(2, recTimers(rec)))
	}
	for k := range s.m.monitors {
		sig = append(sig, s.hash(uint8(3+k), uint32(w[1+n+k])))
	}
	msgs := s.Msgs(w)
	fifo := s.m.cfg.Channels == model.FIFO
	for a := 0; a < len(msgs); {
		b := a + 1
		for b < len(msgs) && msgs[b]>>32 == msgs[a]>>32 {
			b++
		}
		sig = append(sig, msgs[a]>>32)
		from := len(sig)
		for _, mw := range msgs[a:b] {
			sig = append(sig, s.hash(1, idOf(msgID(mw)))^uint64(msgAge(mw))<<56)
		}
		if !fifo { // a multiset: its ids' order is the search's
			slices.Sort(sig[from:])
		}
		a = b
	}
	return sig
}
