package explore_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/explore"
	"github.com/vigil-check/vigil/checker/suite"
)

// server serves bully's async-crash scenario, with the counterexample an
// exhaustive search finds.
func server(t *testing.T) (*httptest.Server, *suite.Protocol, *checker.Machine) {
	p, sc, m := compiled(t, "bully", "async-crash")
	res := checker.Exhaustive(t.Context(), m, checker.Options{MaxDepth: sc.MaxDepth})
	cx := res.Property("unique-leader").Counterexample
	choices, err := m.Choices(cx)
	require.NoError(t, err)
	s := &explore.Server{Machine: m, Title: "election/bully [async-crash]", Run: "n=4",
		Counterexamples: []explore.Counterexample{{Property: "unique-leader", Detail: cx.Detail, Choices: choices}},
		Export: func(tr *checker.Trace) ([]byte, error) {
			return json.Marshal(suite.NewTraceFile(p, m.Config(), m.Properties(), tr))
		}}
	srv := httptest.NewServer(s.Handler())
	t.Cleanup(srv.Close)
	return srv, p, m
}

type walked struct {
	Position checker.Position `json:"position"`
	Chart    string           `json:"chart"`
}

func TestAPI(t *testing.T) {
	srv, p, _ := server(t)
	do := func(method, path, body string) (int, string) {
		req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
		require.NoError(t, err)
		if method == "POST" { // as the page posts
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Origin", srv.URL)
		}
		res, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		b, err := io.ReadAll(res.Body)
		require.NoError(t, err)
		return res.StatusCode, string(b)
	}

	code, page := do("GET", "/", "")
	require.Equal(t, http.StatusOK, code)
	require.Contains(t, page, "<title>vigil explore: election/bully [async-crash]</title>")
	require.NotRegexp(t, `(src|href)="(https?:)?//`, page, "nothing is loaded from elsewhere")
	for _, path := range []string{"/explore.js", "/explore.css"} {
		code, body := do("GET", path, "")
		require.Equal(t, http.StatusOK, code, path)
		require.NotEmpty(t, body)
	}

	code, body := do("GET", "/api/info", "")
	require.Equal(t, http.StatusOK, code)
	var info struct {
		Properties      []string                 `json:"properties"`
		Counterexamples []explore.Counterexample `json:"counterexamples"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &info))
	require.Equal(t, []string{"unique-leader", "agreement"}, info.Properties)
	require.Len(t, info.Counterexamples, 1)

	// the initial world: every node's state, the events enabled, and the
	// properties holding
	code, body = do("POST", "/api/walk", `{"choices": []}`)
	require.Equal(t, http.StatusOK, code, body)
	var w walked
	require.NoError(t, json.Unmarshal([]byte(body), &w))
	require.Empty(t, w.Position.Run.Events)
	require.Len(t, w.Position.States, 4)
	require.NotEmpty(t, w.Position.Enabled)
	for _, j := range w.Position.Judged {
		require.Equal(t, "holds", j.Verdict, j.Property)
	}
	require.Contains(t, w.Chart, `<svg xmlns="http://www.w3.org/2000/svg" class="msc"`)
	require.NotContains(t, w.Chart, `class="violation"`)

	// the counterexample's world: unique-leader is violated, and the chart
	// says so
	choices, _ := json.Marshal(info.Counterexamples[0].Choices)
	code, body = do("POST", "/api/walk", `{"choices": `+string(choices)+`}`)
	require.Equal(t, http.StatusOK, code, body)
	w = walked{}
	require.NoError(t, json.Unmarshal([]byte(body), &w))
	require.Equal(t, checker.Judgement{Property: "unique-leader", When: "always", Verdict: "violated", Detail: "n0 and n3 both believe they are the leader"}, w.Position.Judged[0])
	require.Contains(t, w.Chart, "unique-leader fails: n0 and n3 both believe they are the leader")

	// exported, the run replays with vigil replay's reader
	code, body = do("POST", "/api/export", `{"choices": `+string(choices)+`}`)
	require.Equal(t, http.StatusOK, code, body)
	file := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(file, []byte(body), 0o644))
	tf, err := suite.ReadTraceFile(file)
	require.NoError(t, err)
	tr, err := tf.Replay(p)
	require.NoError(t, err)
	require.Equal(t, "unique-leader", tr.Property)

	// bad requests
	for _, c := range []struct {
		method, path, body string
		code               int
	}{
		{"POST", "/api/walk", `{"choices": [999]}`, http.StatusUnprocessableEntity},
		{"POST", "/api/walk", `{"choices": [-1]}`, http.StatusUnprocessableEntity},
		{"POST", "/api/walk", `{"choices": "0"}`, http.StatusBadRequest},
		{"POST", "/api/walk", `{"file": "/etc/passwd"}`, http.StatusBadRequest},
		{"POST", "/api/walk", `not json`, http.StatusBadRequest},
		{"POST", "/api/walk", `{"choices": [` + strings.Repeat("0,", explore.DefaultMaxSteps) + `0]}`, http.StatusBadRequest},
		{"POST", "/api/walk", `{"choices": [` + strings.Repeat(" ", 10*explore.DefaultMaxSteps) + `]}`, http.StatusRequestEntityTooLarge},
		{"GET", "/api/walk", "", http.StatusMethodNotAllowed},
		{"POST", "/api/info", "", http.StatusMethodNotAllowed},
		{"GET", "/etc/passwd", "", http.StatusNotFound},
		{"GET", "/../go.mod", "", http.StatusNotFound},
	} {
		code, body := do(c.method, c.path, c.body)
		require.Equal(t, c.code, code, "%s %s %.60s: %s", c.method, c.path, c.body, body)
	}

	// a request addressed to another host (DNS rebinding) is refused
	req, err := http.NewRequest("GET", srv.URL+"/api/info", nil)
	require.NoError(t, err)
	req.Host = "attacker.example:80"
	res, err := srv.Client().Do(req)
	require.NoError(t, err)
	res.Body.Close()
	require.Equal(t, http.StatusForbidden, res.StatusCode)
}

// How Walk judges a world where the run goes on: an invariant holds or not,
// a property of the run's end waits for it, and an eventually-property
// shows its outstanding obligations.
func TestWalkJudgements(t *testing.T) {
	_, _, m := compiled(t, "central", "", "mutual-exclusion", "no-deadlock", "no-starvation")
	start, err := m.Walk(nil)
	require.NoError(t, err)
	req := -1
	for i, ev := range start.Enabled {
		if ev.Kind == "action" && ev.Node == 1 {
			req = i
		}
	}
	require.GreaterOrEqual(t, req, 0, "n1 can ask for the critical section")
	pos, err := m.Walk([]int{req})
	require.NoError(t, err)
	require.Equal(t, []checker.Judgement{
		{Property: "mutual-exclusion", When: "always", Verdict: "holds"},
		{Property: "no-deadlock", When: "at quiescence", Verdict: "judged at the end"},
		{Property: "no-starvation", When: "eventually", Verdict: "pending", Detail: "n1 waits for the critical section"},
	}, pos.Judged)
	require.False(t, pos.Quiescent)
	require.Len(t, pos.Run.Events, 1)
	_, err = m.Walk([]int{req, 1000})
	require.EqualError(t, err, "step 2 chooses event 1000, but "+itoa(len(pos.Enabled))+" are enabled")
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// BenchmarkWalk replays the 20-step Maekawa deadlock as each request of
// the explorer does, with the chart: the latency of a click.
func BenchmarkWalk(b *testing.B) {
	m := machine(b, "maekawa", "deadlock")
	cx := checker.Exhaustive(b.Context(), m, checker.Options{}).Property("no-deadlock").Counterexample
	choices, err := m.Choices(cx)
	require.NoError(b, err)
	s := &explore.Server{Machine: m, Export: func(*checker.Trace) ([]byte, error) { return nil, nil }}
	h := s.Handler()
	body, _ := json.Marshal(map[string][]int{"choices": choices})
	b.ResetTimer()
	for b.Loop() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, request("POST", "/api/walk", string(body), nil))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Body.String())
		}
	}
}
