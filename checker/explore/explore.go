// Package explore serves a protocol's worlds on a local web page, for a
// person to step through by hand: from the initial world, take any enabled
// event, go back, jump to a counterexample the checker found, and see at
// each point the chart of the run so far, every node's state and how each
// property stands; the run exports as a trace file that vigil replay reads.
//
// The server keeps no session: a request names a run by its choices (the
// index of each event taken among those enabled), and the server replays
// it. It serves only what the checker computes: a request carries numbers,
// never a file name or a command, and a malformed one gets a 4xx answer.
// It answers only requests addressed to the loopback host, so that a web
// page elsewhere cannot reach it through DNS rebinding.
package explore

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"net"
	"net/http"
	"strings"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
)

// MaxSteps bounds the runs a request may name.
const MaxSteps = 100_000

// Counterexample is a run the checker found, as choices for the explorer.
type Counterexample struct {
	Property string `json:"property"`
	Detail   string `json:"detail"`
	Choices  []int  `json:"choices"`
}

// Server serves one machine's worlds.
type Server struct {
	Machine *checker.Machine
	Title   string // the protocol and scenario
	Run     string // the configuration, in words
	// Counterexamples: the runs the checker found, to jump to.
	Counterexamples []Counterexample
	// Export encodes a run as the trace file vigil replay reads.
	Export func(t *checker.Trace) ([]byte, error)
}

// Handler returns the server's HTTP handler: the page at /, its script
// and style, and the API under /api/.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page)
	mux.HandleFunc("GET /explore.js", static("text/javascript; charset=utf-8", script))
	mux.HandleFunc("GET /explore.css", static("text/css; charset=utf-8", style+msc.CSS))
	mux.HandleFunc("GET /api/info", s.info)
	mux.HandleFunc("POST /api/walk", s.walk)
	mux.HandleFunc("POST /api/export", s.export)
	return loopbackOnly(mux)
}

// loopbackOnly answers 403 to a request whose Host is not the loopback
// host, and sets the headers every answer carries.
func loopbackOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if ip := net.ParseIP(host); host != "localhost" && (ip == nil || !ip.IsLoopback()) {
			http.Error(w, "vigil explore answers only on the loopback host", http.StatusForbidden)
			return
		}
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data:")
		h.Set("Cache-Control", "no-store")
		next.ServeHTTP(w, r)
	})
}

func static(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		w.Write([]byte(body))
	}
}

func (s *Server) page(w http.ResponseWriter, _ *http.Request) {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, s); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
}

func (s *Server) info(w http.ResponseWriter, _ *http.Request) {
	var props []string
	for _, p := range s.Machine.Properties() {
		props = append(props, p.Name)
	}
	cxs := s.Counterexamples
	if cxs == nil {
		cxs = []Counterexample{}
	}
	reply(w, map[string]any{"title": s.Title, "run": s.Run, "properties": props, "counterexamples": cxs})
}

// runRequest names a run by its choices.
type runRequest struct {
	Choices []int `json:"choices"`
}

// position replays the run a request names, or answers 4xx and returns
// nil.
func (s *Server) position(w http.ResponseWriter, r *http.Request) *checker.Position {
	var req runRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, 8*MaxSteps))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		status := http.StatusBadRequest
		if errors.As(err, new(*http.MaxBytesError)) {
			status = http.StatusRequestEntityTooLarge
		}
		http.Error(w, "a run is {\"choices\": [n, ...]}: "+err.Error(), status)
		return nil
	}
	if len(req.Choices) > MaxSteps {
		http.Error(w, fmt.Sprintf("a run of %d steps: at most %d", len(req.Choices), MaxSteps), http.StatusRequestEntityTooLarge)
		return nil
	}
	pos, err := s.Machine.Walk(req.Choices)
	if err != nil {
		http.Error(w, err.Error(), http.StatusUnprocessableEntity)
		return nil
	}
	// the run's trace names the first property violated here, so that its
	// chart and its trace file say so
	for _, j := range pos.Judged {
		if j.Verdict == "violated" {
			pos.Run.Property, pos.Run.Detail = j.Property, j.Detail
			break
		}
	}
	pos.Run.Quiescent = pos.Quiescent
	return pos
}

func (s *Server) walk(w http.ResponseWriter, r *http.Request) {
	pos := s.position(w, r)
	if pos == nil {
		return
	}
	var chart strings.Builder
	if err := msc.SVG(&chart, msc.New(pos.Run)); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	reply(w, map[string]any{"position": pos, "chart": chart.String()})
}

func (s *Server) export(w http.ResponseWriter, r *http.Request) {
	pos := s.position(w, r)
	if pos == nil {
		return
	}
	b, err := s.Export(pos.Run)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Disposition", `attachment; filename="vigil-run.json"`)
	w.Write(b)
}

func reply(w http.ResponseWriter, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
}

//go:embed explore.html
var pageText string

//go:embed explore.js
var script string

//go:embed explore.css
var style string

var pageTemplate = template.Must(template.New("explore").Parse(pageText))
