package explore_test

import (
	"encoding/json"
	"net/http/httptest"
	"testing"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/explore"
	"github.com/vigil-check/vigil/checker/suite"
)

// FuzzExploreAPI posts a fuzzed body, as the page would, to every route of
// the API, and checks that the server answers each with a 2xx or a 4xx
// (never a panic or a 5xx), as JSON, and a refusal as {"error": ...}.
// Small bounds (runs of at most 16 steps, one walk at a time) keep each
// input's work small. The seed corpus is under testdata/fuzz.
func FuzzExploreAPI(f *testing.F) {
	p, _, m := compiled(f, "bully", "async-crash")
	h := (&explore.Server{Machine: m, Title: "election/bully [async-crash]", MaxSteps: 16, MaxWalks: 1,
		Counterexamples: []explore.Counterexample{{Property: "unique-leader", Choices: []int{0, 0}}},
		Export: func(tr *checker.Trace) ([]byte, error) {
			return json.Marshal(suite.NewTraceFile(p, m.Config(), m.Properties(), tr))
		}}).Handler()
	f.Fuzz(func(t *testing.T, body []byte) {
		for _, path := range []string{"/api/info", "/api/walk", "/api/export"} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, request("POST", path, string(body), nil))
			if class := rec.Code / 100; class != 2 && class != 4 {
				t.Fatalf("POST %s %q: %d %s", path, body, rec.Code, rec.Body)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Fatalf("POST %s %q: %d as %q", path, body, rec.Code, ct)
			}
			if !json.Valid(rec.Body.Bytes()) {
				t.Fatalf("POST %s %q: %d, not JSON: %s", path, body, rec.Code, rec.Body)
			}
			if rec.Code/100 == 4 {
				var refusal struct {
					Error string `json:"error"`
				}
				if err := json.Unmarshal(rec.Body.Bytes(), &refusal); err != nil || refusal.Error == "" {
					t.Fatalf("POST %s %q: %d with no reason: %s", path, body, rec.Code, rec.Body)
				}
			}
		}
	})
}
