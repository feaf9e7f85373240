package tracelog_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/tracelog"
)

// Two nodes: n0 starts and sends to n1, which receives it; n0 crashes and
// recovers. The clocks say what happened before what.
func TestLoggersWriteWhatReadDirReads(t *testing.T) {
	dir := t.TempDir()
	l0, err := tracelog.Create(filepath.Join(dir, tracelog.FileName(0)), 0, 2)
	require.NoError(t, err)
	l1, err := tracelog.Create(filepath.Join(dir, tracelog.FileName(1)), 1, 2)
	require.NoError(t, err)

	e := l0.Start()
	st := e.Send(1, map[string]int{"Rank": 0})
	e.SetTimer("wait", 1)
	e.State(map[string]int{"Heard": 0})
	require.NoError(t, e.Done())
	require.NoError(t, l1.Start().Done())
	e = l1.Receive(st, []byte(`{"Rank":0}`))
	e.Observe("leader=n0")
	e.CancelTimer("wait")
	require.NoError(t, e.Done())
	require.NoError(t, l0.Close())
	require.NoError(t, l1.Close())

	path0 := filepath.Join(dir, tracelog.FileName(0))
	require.NoError(t, tracelog.AppendCrash(path0, 2, 4242))
	l0, err = tracelog.Open(path0, 0, 2)
	require.NoError(t, err)
	require.Equal(t, tracelog.Crash, l0.Last().Event)
	require.NoError(t, l0.Recover().Done())
	require.NoError(t, l0.Close())

	run, err := tracelog.ReadDir(dir)
	require.NoError(t, err)
	require.Equal(t, 2, run.N)
	var events [][]string
	var clocks [][][]int
	for _, recs := range run.Nodes {
		var es []string
		var cs [][]int
		for _, r := range recs {
			es, cs = append(es, r.Event), append(cs, r.Clock)
		}
		events, clocks = append(events, es), append(clocks, cs)
	}
	require.Equal(t, [][]string{{"start", "crash", "recover"}, {"start", "receive"}}, events)
	require.Equal(t, [][][]int{{{1, 0}, {2, 0}, {3, 0}}, {{0, 1}, {1, 2}}}, clocks)
	recv := run.Nodes[1][1]
	require.Equal(t, 0, *recv.From)
	require.Equal(t, 1, recv.Sent)
	require.JSONEq(t, `{"Rank":0}`, string(recv.Msg))
	require.Equal(t, []string{"leader=n0"}, recv.Observed)
	require.Equal(t, []tracelog.TimerOp{{Op: "set", Timer: "wait", WaitOn: []int{1}}}, run.Nodes[0][0].Timers)
	require.Equal(t, 4242, run.Nodes[0][1].PID)
	require.Equal(t, 2, run.Nodes[1][1].Line)
}

// A log that was cut or written wrong is refused with its file and line.
func TestReadFileNamesTheBadLine(t *testing.T) {
	start := `{"node":0,"clock":[1,0],"time":"2026-11-28T00:00:00Z","event":"start"}`
	for _, c := range []struct{ name, log, err string }{
		{"not json", start + "\n{", ":2: not a record"},
		{"a line lost", start + "\n" + `{"node":0,"clock":[3,0],"time":"2026-11-28T00:00:00Z","event":"timeout","timer":"t"}`, ":2: n0's event 3 follows its event 1"},
		{"not from the start", `{"node":0,"clock":[2,0],"time":"2026-11-28T00:00:00Z","event":"start"}`, ":1: n0's log begins at its event 2"},
		{"another node", start + "\n" + `{"node":1,"clock":[1,1],"time":"2026-11-28T00:00:00Z","event":"start"}`, ":2: a record of n1 in the log of n0"},
		{"clock length", `{"node":0,"clock":[1,0,0],"time":"2026-11-28T00:00:00Z","event":"start"}` + "\n" + `{"node":0,"clock":[2,0],"time":"2026-11-28T00:00:00Z","event":"start"}`, ":2: the clock has 2 entries for 3 nodes"},
		{"receive without message", start + "\n" + `{"node":0,"clock":[2,1],"time":"2026-11-28T00:00:00Z","event":"receive","from":1,"sent":1}`, "needs the message"},
		{"send not in the clock", start + "\n" + `{"node":0,"clock":[2,1],"time":"2026-11-28T00:00:00Z","event":"receive","from":1,"sent":2,"msg":{}}`, "names its send as event 2"},
		{"timeout without timer", start + "\n" + `{"node":0,"clock":[2,0],"time":"2026-11-28T00:00:00Z","event":"timeout"}`, "a timeout needs one"},
		{"unknown event", start + "\n" + `{"node":0,"clock":[2,0],"time":"2026-11-28T00:00:00Z","event":"nap"}`, `unknown event "nap"`},
		{"crash with effects", start + "\n" + `{"node":0,"clock":[2,0],"time":"2026-11-28T00:00:00Z","event":"crash","observed":["x"]}`, "a crash has no effects"},
		{"send outside", start + "\n" + `{"node":0,"clock":[2,0],"time":"2026-11-28T00:00:00Z","event":"action","action":"a","sends":[{"to":5,"msg":{}}]}`, "a send to 5"},
		{"bad timer op", start + "\n" + `{"node":0,"clock":[2,0],"time":"2026-11-28T00:00:00Z","event":"action","action":"a","timers":[{"op":"arm","timer":"t"}]}`, "op set or cancel"},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "n0.jsonl")
			require.NoError(t, os.WriteFile(path, []byte(c.log), 0o644))
			_, err := tracelog.ReadFile(path, 0)
			require.ErrorContains(t, err, c.err)
			require.True(t, strings.HasPrefix(err.Error(), path+":"), err.Error())
		})
	}
}

func TestReadDirRefusesWhatIsNotARun(t *testing.T) {
	dir := t.TempDir()
	_, err := tracelog.ReadDir(dir)
	require.ErrorContains(t, err, "holds no node's log")
	_, err = tracelog.ReadDir(filepath.Join(dir, "absent"))
	require.Error(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "n0.jsonl"), []byte(`{"node":0,"clock":[1,0],"time":"2026-11-28T00:00:00Z","event":"start"}`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "n2.jsonl"), nil, 0o644))
	_, err = tracelog.ReadDir(dir)
	require.ErrorContains(t, err, "a log of n2 in a run of 2 nodes")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "n2.jsonl"), []byte(`{"node":1,"clock":[0,1],"time":"2026-11-28T00:00:00Z","event":"start"}`), 0o644))
	_, err = tracelog.ReadDir(dir)
	require.ErrorContains(t, err, "it holds the records of n1")
	_, err = tracelog.Create(filepath.Join(dir, "x"), 2, 2)
	require.ErrorContains(t, err, "outside 0..1")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "empty"), nil, 0o644))
	require.ErrorContains(t, tracelog.AppendCrash(filepath.Join(dir, "empty"), 2, 1), "a node that never started cannot crash")
}
