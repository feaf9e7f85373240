package service

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"example.com/commit/twopc"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/tracelog"
)

// The texts the service logs are the model's: its messages' JSON, its
// actions, its timer and its observations as the model prints them.
func TestTheLogsSpeakTheModel(t *testing.T) {
	for _, c := range []struct {
		kind  msgKind
		model twopc.MsgType
	}{{prepare, twopc.CanCommit}, {voteYes, twopc.Yes}, {voteNo, twopc.No}, {commit, twopc.DoCommit}, {abort, twopc.DoAbort}} {
		want, err := json.Marshal(twopc.Msg{Type: c.model})
		require.NoError(t, err)
		got, err := json.Marshal(message{Kind: c.kind}.logged())
		require.NoError(t, err)
		require.JSONEq(t, string(want), string(got), "%s is logged as the model's %v", c.kind, twopc.Msg{Type: c.model})
	}
	for _, c := range []struct {
		service string
		model   fmt.Stringer
	}{
		{actionVoteYes, twopc.VoteYes},
		{actionVoteNo, twopc.VoteNo},
		{voteTimerName(3), twopc.VoteTimer(3)},
		{obsVotedYes, model.Obs{Kind: twopc.Voted, Arg: int(twopc.Commit)}},
		{obsVotedNo, model.Obs{Kind: twopc.Voted, Arg: int(twopc.Abort)}},
		{obsDecidedCommit, model.Obs{Kind: twopc.Decided, Arg: int(twopc.Commit)}},
		{obsDecidedAbort, model.Obs{Kind: twopc.Decided, Arg: int(twopc.Abort)}},
	} {
		require.Equal(t, c.model.String(), c.service)
	}
}

// run.json names the model by its registered name, with a configuration
// and properties the model compiles with.
func TestRunFileIsTheModels(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, WriteRunFile(Options{N: 4, Dir: dir, YesVotes: true}))
	var rf struct {
		Protocol   string       `json:"protocol"`
		Config     model.Config `json:"config"`
		Properties []string     `json:"properties"`
	}
	b, err := os.ReadFile(filepath.Join(dir, RunFileName))
	require.NoError(t, err)
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&rf))
	require.Equal(t, twopc.Description.Path(), rf.Protocol)
	require.Equal(t, model.Config{N: 4, Params: map[string]int{"yes-votes": 1, "no-votes": 0}}, rf.Config)
	require.Equal(t, twopc.Description.ClaimsFor(rf.Config), rf.Properties)
	props, err := twopc.Description.Props(rf.Config, rf.Properties)
	require.NoError(t, err)
	_, err = twopc.Description.Compile(rf.Config, props)
	require.NoError(t, err)
}

// runService runs the service with opts until the run is over, and reads
// its logs.
func runService(t *testing.T, opts Options) *tracelog.Run {
	t.Helper()
	opts.Dir = t.TempDir()
	c, err := Start(opts)
	require.NoError(t, err)
	select {
	case <-c.Quiet():
	case <-time.After(3 * time.Second):
		c.Stop()
		t.Fatal("the run is not over after 3s")
	}
	require.NoError(t, c.Stop())
	run, err := tracelog.ReadDir(opts.Dir)
	require.NoError(t, err)
	return run
}

// A clean run's logs are well formed: every node started, and every
// message sent was received, under the stamp of its send.
func TestCleanRunLogsPairUp(t *testing.T) {
	run := runService(t, Options{N: 4, YesVotes: true, NoVotes: true, Seed: 1})
	require.Equal(t, 4, run.N)
	type msg struct {
		from, event, to int
		json            string
	}
	var sent, received []msg
	for i, recs := range run.Nodes {
		require.NotEmpty(t, recs, "n%d left no log", i)
		require.Equal(t, tracelog.Start, recs[0].Event, "n%d begins with its start", i)
		for _, r := range recs {
			for _, s := range r.Sends {
				sent = append(sent, msg{i, r.Clock[i], s.To, string(s.Msg)})
			}
			if r.Event == tracelog.Receive {
				received = append(received, msg{*r.From, r.Sent, i, string(r.Msg)})
			}
		}
	}
	less := func(a, b msg) int {
		return cmpInts(a.from, b.from, a.event, b.event, a.to, b.to)
	}
	slices.SortFunc(sent, less)
	slices.SortFunc(received, less)
	// canCommit? to each of 3 participants, at least one vote, a decision
	// to each participant.
	require.GreaterOrEqual(t, len(sent), 7)
	require.Equal(t, sent, received)
	require.Equal(t, []string{"vote-n1", "vote-n2", "vote-n3"}, timersSet(run.Nodes[0][0]))
}

func cmpInts(pairs ...int) int {
	for i := 0; i < len(pairs); i += 2 {
		if d := pairs[i] - pairs[i+1]; d != 0 {
			return d
		}
	}
	return 0
}

func timersSet(r tracelog.Logged) []string {
	var out []string
	for _, op := range r.Timers {
		if op.Op == "set" {
			out = append(out, op.Timer)
		}
	}
	return out
}

// Clean runs match the model event for event; the divergent service's
// coordinator commits on the second of three yes votes, where the model
// only cancels that vote's timer and waits for the third. The model's
// own planted bug, a hasty coordinator, is the divergent service's.
func TestReplayThroughTheModel(t *testing.T) {
	for _, c := range []struct {
		name      string
		opts      Options
		divergent bool
	}{
		{"alone", Options{N: 1, YesVotes: true}, false},
		{"every vote yes", Options{N: 4, YesVotes: true}, false},
		{"every vote no", Options{N: 3, NoVotes: true}, false},
		{"either vote, seed 3", Options{N: 5, YesVotes: true, NoVotes: true, Seed: 3}, false},
		{"either vote, seed 6", Options{N: 5, YesVotes: true, NoVotes: true, Seed: 6}, false},
		{"divergent", Options{N: 4, YesVotes: true, Divergent: true}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			run := runService(t, c.opts)
			cfg := model.Config{N: c.opts.N, Params: map[string]int{"yes-votes": b2i(c.opts.YesVotes), "no-votes": b2i(c.opts.NoVotes)}}
			divs := replay(t, twopc.Protocol{}, cfg, run)
			if !c.divergent {
				require.Empty(t, divs)
				return
			}
			require.Len(t, divs, 1, "the coordinator alone diverges: %+v", divs)
			d := divs[0]
			require.Equal(t, 0, d.node)
			require.Equal(t, tracelog.Receive, d.rec.Event)
			require.JSONEq(t, `{"Type":2}`, string(d.rec.Msg), "a yes vote")
			voter := *d.rec.From
			cancelVoter := fmt.Sprintf("cancel vote-n%d", voter)
			require.Equal(t, effectTexts{Timers: []string{cancelVoter}}, d.model)
			require.Equal(t, effectTexts{
				Sends:    []string{`n1 {"Type":4}`, `n2 {"Type":4}`, `n3 {"Type":4}`},
				Timers:   []string{cancelVoter, "cancel vote-n1", "cancel vote-n2", "cancel vote-n3"},
				Observed: []string{"decided=commit"},
			}, d.logged)
			require.Empty(t, replay(t, twopc.Protocol{Hasty: true}, cfg, run))
		})
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// effectTexts are an event's effects as text, the model's and the log's
// alike: sends "n1 {json}", timer operations "set vote-n1 [1]" or
// "cancel vote-n1", observations.
type effectTexts struct {
	Sends, Timers, Observed []string
}

// divergence is the first event of a node's log whose effects are not
// the model's.
type divergence struct {
	node          int
	rec           tracelog.Logged
	logged, model effectTexts
}

// replay runs every node's logged events through the model p's handlers,
// from the model's own state, and returns each node's first event whose
// logged effects differ from the handler's.
func replay(t *testing.T, p twopc.Protocol, cfg model.Config, run *tracelog.Run) []divergence {
	t.Helper()
	m, err := checker.Compile("commit/twopc", p, cfg)
	require.NoError(t, err)
	var out []divergence
	for i, recs := range run.Nodes {
		nd := m.Node(model.NodeID(i))
		var s checker.State
		for _, r := range recs {
			var st checker.Step
			switch r.Event {
			case tracelog.Start:
				st, err = nd.Init()
			case tracelog.Receive:
				msg, derr := m.DecodeMessage(r.Msg)
				require.NoError(t, derr)
				st, err = nd.Receive(s, model.NodeID(*r.From), msg)
			case tracelog.Timeout:
				st, err = nd.Timeout(s, modelTimer(t, cfg.N, r.Timer))
			case tracelog.Action:
				acts, aerr := nd.Actions(s)
				require.NoError(t, aerr)
				k := slices.IndexFunc(acts, func(a model.Action) bool { return fmt.Sprint(a) == r.Action })
				require.GreaterOrEqual(t, k, 0, "n%d:%d: action %q is not enabled in %s", i, r.Line, r.Action, m.StateText(s))
				st, err = nd.Do(s, acts[k])
			default:
				t.Fatalf("n%d:%d: an event %q in a run without faults", i, r.Line, r.Event)
			}
			require.NoError(t, err)
			logged, want := loggedTexts(r), modelTexts(t, m, st)
			if !equalTexts(logged, want) {
				out = append(out, divergence{node: i, rec: r, logged: logged, model: want})
				break
			}
			s = st.State
		}
	}
	return out
}

func modelTimer(t *testing.T, n int, text string) model.Timer {
	for j := 1; j < n; j++ {
		if fmt.Sprint(twopc.VoteTimer(j)) == text {
			return twopc.VoteTimer(j)
		}
	}
	t.Fatalf("the model has no timer %q", text)
	return nil
}

func loggedTexts(r tracelog.Logged) effectTexts {
	var e effectTexts
	for _, s := range r.Sends {
		var b bytes.Buffer
		if json.Compact(&b, s.Msg) != nil {
			b.Reset()
			b.Write(s.Msg)
		}
		e.Sends = append(e.Sends, fmt.Sprintf("n%d %s", s.To, b.String()))
	}
	for _, op := range r.Timers {
		e.Timers = append(e.Timers, timerText(op.Op == "set", op.Timer, op.WaitOn, op.Ticks))
	}
	e.Observed = r.Observed
	return e
}

func modelTexts(t *testing.T, m *checker.Machine, st checker.Step) effectTexts {
	var e effectTexts
	for _, s := range st.Sends {
		b, err := m.EncodeMessage(s.Msg)
		require.NoError(t, err)
		e.Sends = append(e.Sends, fmt.Sprintf("%v %s", s.To, b))
	}
	for _, op := range st.Timers {
		wait := make([]int, len(op.WaitOn))
		for k, j := range op.WaitOn {
			wait[k] = int(j)
		}
		e.Timers = append(e.Timers, timerText(op.Armed, fmt.Sprint(op.Timer), wait, op.Ticks))
	}
	for _, o := range st.Observed {
		e.Observed = append(e.Observed, o.String())
	}
	return e
}

func timerText(set bool, timer string, waitOn []int, ticks int) string {
	switch {
	case !set:
		return "cancel " + timer
	case ticks > 0:
		return fmt.Sprintf("set %s after %d", timer, ticks)
	}
	return fmt.Sprintf("set %s %v", timer, waitOn)
}

func equalTexts(a, b effectTexts) bool {
	return slices.Equal(a.Sends, b.Sends) && slices.Equal(a.Timers, b.Timers) && slices.Equal(a.Observed, b.Observed)
}
