// Package handlers is a protocol whose handlers show each diagnostic of
// vigilpure, and the idioms it allows.
package handlers

import (
	"maps"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/vigil-check/vigil/model"
)

type State struct {
	Since   time.Time
	Peers   map[model.NodeID]int
	Count   int
	Log     []model.NodeID
	Names   string
	Leader  model.NodeID
	Highest int
	Done    bool
}

type Msg struct{ K int }

type Protocol struct{}

// Init stores the clock in the state it returns: the runtime example of
// a handler that is not a function of its inputs.
func (Protocol) Init(ctx *model.Ctx[Msg]) State {
	return State{Since: time.Now()} // want `handler Init calls time.Now: the clock is outside the model`
}

// Receive sends in map order: the other runtime example.
func (Protocol) Receive(ctx *model.Ctx[Msg], s State, from model.NodeID, m Msg) State {
	for j := range s.Peers { // want `handler Receive ranges over a map and sends inside the loop: map order is random, so the handler is not deterministic; range over slices.Sorted\(maps.Keys\(s.Peers\)\)`
		ctx.Send(j, m)
	}
	return s
}

// Timeout arms timers in map order, through maps.Keys.
func (Protocol) Timeout(ctx *model.Ctx[Msg], s State, t model.Timer) State {
	for j := range maps.Keys(s.Peers) { // want `handler Timeout ranges over a map and arms a timer inside the loop`
		ctx.SetTimer(j)
	}
	return s
}

// Recover does it right: sorted keys, then sends.
func (Protocol) Recover(ctx *model.Ctx[Msg], s State) State {
	for _, j := range slices.Sorted(maps.Keys(s.Peers)) {
		ctx.Send(j, Msg{})
	}
	var keys []model.NodeID
	for j := range s.Peers {
		keys = append(keys, j)
	}
	slices.Sort(keys)
	var more []model.NodeID
	for j := range s.Peers {
		more = append(more, j)
	}
	sort.Slice(more, func(a, b int) bool { return more[a] < more[b] })
	ctx.SendAll(keys, Msg{})
	ctx.SendAll(more, Msg{})
	return s
}

// Actions accumulates in ways that end the same in any order.
func (Protocol) Actions(env *model.Env, s State) []model.Action {
	total, mask := 0, 0
	seen := map[model.NodeID]bool{}
	best, bestID := -1, model.None
	byNode := make([]int, env.N())
	found := false
	lists := map[model.NodeID][]int{}
	for j, v := range s.Peers {
		lists[j] = append(lists[j], v) // one append per key
		total += v
		mask |= 1 << j
		s.Count++
		seen[j] = true
		delete(seen, j+1)
		if v > best || v == best && j < bestID {
			best, bestID = v, j
		}
		s.Highest = max(s.Highest, v)
		byNode[j] = v
		if v < 0 {
			found = true
		}
	}
	for j := range s.Peers {
		if j == env.Self() {
			return nil // the same result whichever entry is first
		}
	}
	if found || total > 0 || mask > 0 || best > 0 {
		return []model.Action{bestID, byNode[0], len(seen), len(lists)}
	}
	return nil
}

// Do shows what depends on map order, each in a loop of its own.
func (Protocol) Do(ctx *model.Ctx[Msg], s State, a model.Action) State {
	for j := range s.Peers { // want `handler Do ranges over a map and appends to s.Log inside the loop`
		s.Log = append(s.Log, j)
	}
	byValue := map[int][]model.NodeID{}
	for j, v := range s.Peers { // want `handler Do ranges over a map and appends to byValue\[v\] inside the loop`
		byValue[v] = append(byValue[v], j)
	}
	s.Log = byValue[0]
	for j := range s.Peers { // want `handler Do ranges over a map and writes s.Leader inside the loop`
		s.Leader = j
	}
	for j := range s.Peers { // want `handler Do ranges over a map and returns a value of the iteration inside the loop`
		if j > 0 {
			return State{Leader: j}
		}
	}
	for _, v := range s.Peers { // want `handler Do ranges over a map, adds to s.Count and stops early: the entries it visits depend on map order`
		s.Count += v
		if s.Count > 3 {
			break
		}
	}
	for j := range s.Peers { // want `handler Do ranges over a map and updates s.Names with \+= inside the loop`
		s.Names += j.String()
	}
	for j := range s.Peers { // want `handler Do ranges over a map and sets s.Count to different values inside the loop`
		if j > 0 {
			s.Count = 1
		} else {
			s.Count = 2
		}
	}
	for j := range s.Peers { // want `handler Do ranges over a map and calls broadcast with the context inside the loop`
		broadcast(ctx, j)
	}
	for range s.Peers {
		readOnly(ctx) // reads the context, sends nothing
	}
	s.Log = collect(s)
	return s
}

// broadcast sends; Do calls it in map order.
func broadcast(ctx *model.Ctx[Msg], j model.NodeID) {
	ctx.Send(j, Msg{})
}

func readOnly(ctx *model.Ctx[Msg]) int { return ctx.N() }

// collect is no handler, but Do calls it: its map range is judged.
func collect(s State) []model.NodeID {
	var out []model.NodeID
	for j := range s.Peers { // want `collect \(called by handler Do\) ranges over a map and appends to out inside the loop`
		out = append(out, j)
	}
	return out
}

// Report is no handler and no handler calls it: map order is its own
// business.
func Report(s State) []model.NodeID {
	var out []model.NodeID
	for j := range s.Peers {
		out = append(out, j)
	}
	_ = time.Now()
	return out
}

var (
	hits  atomic.Int64
	mu    sync.Mutex
	cache = map[int]int{}
)

// Elector is a handler outside any Protocol type: it takes a context.
type Elector struct{}

// Start reaches outside the model in every way the analyzer knows.
func (Elector) Start(ctx *model.Ctx[Msg], s State) State {
	s.Count = rand.IntN(3)                      // want `handler Start calls rand.IntN: randomness the checker does not choose`
	s.Names = os.Getenv("HOME")                 // want `handler Start calls os.Getenv: the process and its environment are outside the model`
	mu.Lock()                                   // want `handler Start calls sync.Mutex.Lock: the checker calls handlers one at a time`
	defer mu.Unlock()                           // want `handler Start calls sync.Mutex.Unlock`
	hits.Add(1)                                 // want `handler Start calls atomic.Int64.Add`
	time.Sleep(time.Millisecond)                // want `handler Start calls time.Sleep`
	elapsed := time.Since(s.Since)              // want `handler Start calls time.Since`
	s.Highest = int(elapsed / time.Millisecond) // Duration arithmetic is pure
	ch := make(chan int, 1)                     // want `handler Start makes a channel: channels and goroutines are outside the model`
	go func() { ch <- 1 }()                     // want `handler Start starts a goroutine` `handler Start sends on a channel`
	s.Count += <-ch                             // want `handler Start receives from a channel`
	select {                                    // want `handler Start selects on channels`
	case v := <-ch: // want `handler Start receives from a channel`
		s.Count = v
	default:
	}
	_ = os.Args // want `handler Start reads os.Args`
	return s
}

// memo is a cache of a pure function, which its author vouches for.
//
//vigil:pure
func memo(k int) int {
	mu.Lock()
	defer mu.Unlock()
	if v, ok := cache[k]; ok {
		return v
	}
	cache[k] = k * k
	return cache[k]
}

// Stop calls the vouched-for cache, and a label that continues the map
// range itself.
func (Elector) Stop(ctx *model.Ctx[Msg], s State) State {
	s.Count = memo(s.Count)
next:
	for j, v := range s.Peers {
		for _, w := range s.Log {
			if w == j {
				continue next
			}
		}
		s.Count += v
	}
	return s
}
