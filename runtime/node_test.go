package runtime

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/tracelog"
)

// pingPong: n0 sends a ping to n1, and each ping is answered with the
// next, up to the sixth; every node arms a timer at start that fires once.
type pingPong struct{}

type ping struct{ N int }

func (pingPong) Init(ctx *model.Ctx[ping]) int {
	if ctx.Self() == 0 {
		ctx.Send(1, ping{1})
	}
	ctx.SetTimerAfter("nap", 1)
	return 0
}

func (pingPong) Receive(ctx *model.Ctx[ping], s int, from model.NodeID, m ping) int {
	if m.N < 6 {
		ctx.Send(from, ping{m.N + 1})
	}
	return s + 1
}

func (pingPong) Timeout(ctx *model.Ctx[ping], s int, _ model.Timer) int {
	ctx.Observe(model.Leader(ctx.Self()))
	return s
}

var fastTiming = Timing{Tick: 5 * time.Millisecond, SyncWait: 10, AsyncWait: [2]float64{0.2, 2}, ActionEvery: [2]float64{1, 4}}

// startNodes runs n in-process nodes of p until the test ends.
func startNodes(t *testing.T, m *checker.Machine, dir string) (peers []string, stop func() []error) {
	n := m.Config().N
	peers, err := freePorts(n)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = RunNode(ctx, NodeConfig{Machine: m, Self: model.NodeID(i), Peers: peers,
				Log: filepath.Join(dir, tracelog.FileName(i)), Timing: fastTiming, Seed: 1})
		})
	}
	return peers, func() []error { cancel(); wg.Wait(); return errs }
}

func TestNodesRunTheHandlersAndLogThem(t *testing.T) {
	m, err := checker.Compile("ping-pong", pingPong{}, model.Config{N: 2, Channels: model.FIFO})
	require.NoError(t, err)
	dir := t.TempDir()
	peers, stop := startNodes(t, m, dir)

	// a peer that sends rubbish is cut off, and the nodes go on
	require.Eventually(t, func() bool {
		c, err := net.Dial("tcp", peers[1])
		if err == nil {
			c.Close()
		}
		return err == nil
	}, 5*time.Second, 5*time.Millisecond)
	for _, junk := range [][]byte{
		{0, 0, 0, 2, '{', '}'},
		frame(3, "abc"),
	} {
		c, err := net.Dial("tcp", peers[1])
		require.NoError(t, err)
		c.Write(junk)
		c.Close()
	}
	c, err := net.Dial("tcp", peers[1])
	require.NoError(t, err)
	require.NoError(t, writeFrame(c, hello{From: 0}))
	require.NoError(t, writeFrame(c, envelope{Stamp: tracelog.Stamp{From: 0, Event: 1, Clock: []int{1, 0}}, Msg: []byte(`{"N":1,"Extra":1}`)}))
	require.NoError(t, writeFrame(c, envelope{Stamp: tracelog.Stamp{From: 1, Event: 1, Clock: []int{1, 0}}, Msg: []byte(`{"N":1}`)}))
	c.Close()

	require.Eventually(t, func() bool {
		run, err := tracelog.ReadDir(dir)
		return err == nil && len(run.Nodes[0]) == 5 && len(run.Nodes[1]) == 5
	}, 10*time.Second, 10*time.Millisecond)
	for i, err := range stop() {
		require.NoError(t, err, "n%d", i)
	}
	run, err := tracelog.ReadDir(dir)
	require.NoError(t, err)
	count := map[string]int{}
	var pings []string
	for _, recs := range run.Nodes {
		for _, r := range recs {
			count[r.Event]++
			if r.Event == tracelog.Receive {
				pings = append(pings, string(r.Msg))
			}
		}
	}
	require.Equal(t, map[string]int{"start": 2, "receive": 6, "timeout": 2}, count)
	require.ElementsMatch(t, []string{`{"N":1}`, `{"N":2}`, `{"N":3}`, `{"N":4}`, `{"N":5}`, `{"N":6}`}, pings)
	last := run.Nodes[1][len(run.Nodes[1])-1]
	require.NotEmpty(t, last.State)
}

func TestNodeErrorsNameWhatFailed(t *testing.T) {
	m, err := checker.Compile("ping-pong", pingPong{}, model.Config{N: 2})
	require.NoError(t, err)
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	dir := t.TempDir()
	cfg := NodeConfig{Machine: m, Self: 0, Peers: []string{busy.Addr().String(), "127.0.0.1:1"}, Log: filepath.Join(dir, "n0.jsonl"), Timing: fastTiming}
	require.ErrorContains(t, RunNode(context.Background(), cfg), "n0 cannot listen")

	free, err := freePorts(2)
	require.NoError(t, err)
	cfg.Peers = free
	cfg.Log = filepath.Join(dir, "absent", "n0.jsonl")
	require.ErrorContains(t, RunNode(context.Background(), cfg), "n0 cannot write its log")

	cfg.Log = filepath.Join(dir, "n0.jsonl")
	require.NoError(t, os.WriteFile(cfg.Log, []byte(`{"node":0,"clock":[1,0],"time":"2026-11-28T00:00:00Z","event":"start","state":0}`+"\n"), 0o644))
	require.ErrorContains(t, RunNode(context.Background(), cfg), "its log does not end with its crash")
	require.NoError(t, tracelog.AppendCrash(cfg.Log, 2, 1))
	require.ErrorContains(t, RunNode(context.Background(), cfg), "the protocol is crash-stop")

	// a peer that never listens
	cfg.Log, cfg.PeerWait = filepath.Join(dir, "fresh.jsonl"), 50*time.Millisecond
	require.ErrorContains(t, RunNode(context.Background(), cfg), "n0 cannot reach n1 at "+free[1]+" within 50ms")

	cfg.Peers = free[:1]
	require.ErrorContains(t, RunNode(context.Background(), cfg), "1 peers for a run of 2 nodes")
	cfg.Peers, cfg.Self = free, 2
	require.ErrorContains(t, RunNode(context.Background(), cfg), "node 2 is outside 0..1")
	cfg.Self, cfg.Links = 0, free[:1]
	require.ErrorContains(t, RunNode(context.Background(), cfg), "1 links for a run of 2 nodes")
}
