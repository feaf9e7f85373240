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
// Because a walk costs time and memory, a request names at most MaxSteps
// steps and at most MaxWalks walks run at once. The server answers only on
// a loopback address, only requests addressed to it by that address or as
// localhost (so that a web page elsewhere cannot reach it through DNS
// rebinding), and only POSTs from its own page (so that another site
// cannot make a browser post to it). docs/explorer.md describes the API.
package explore

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"html/template"
	"io"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
)

// DefaultMaxSteps bounds the runs a request may name when Server.MaxSteps
// is 0: far more than a person steps through by hand, and a walk of that
// length, charted, takes well under a second and about 100 MB.
const DefaultMaxSteps = 10_000

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
	// Export encodes a run as the trace file vigil replay reads; nil
	// leaves /api/export out.
	Export func(t *checker.Trace) ([]byte, error)
	// MaxSteps bounds the steps of the run a request names: 0 means
	// DefaultMaxSteps, and the bound is raised to the longest
	// counterexample's length, so that every counterexample shows.
	MaxSteps int
	// MaxWalks bounds the runs replayed at once, by one handler: 0 means
	// one per core (runtime.GOMAXPROCS). A request beyond it is refused
	// with 503 and Retry-After, rather than queued.
	MaxWalks int
}

// maxSteps is the bound on a request's steps, as MaxSteps describes.
func (s *Server) maxSteps() int {
	n := s.MaxSteps
	if n <= 0 {
		n = DefaultMaxSteps
	}
	for _, cx := range s.Counterexamples {
		n = max(n, len(cx.Choices))
	}
	return n
}

// maxBody bounds a request's body: room for every choice of the longest
// run allowed, written with up to 7 digits and a separator, and for the
// object around them.
func maxBody(maxSteps int) int64 { return 1024 + 8*int64(maxSteps) }

// HTTPServer returns an http.Server for s's handler, with timeouts that
// a slow or idle client cannot hold a connection past: reading a request
// (its body is small), writing the answer to the longest walk allowed
// (allowing a millisecond a step, about thirty times what one takes),
// and waiting for the next request on a kept-alive connection.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30*time.Second + time.Duration(s.maxSteps())*time.Millisecond,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
}

// route is what a path answers: its method (a GET route answers HEAD
// too) and handler, which returns an apiError to refuse the request.
type route struct {
	method string
	serve  func(w http.ResponseWriter, r *http.Request) *apiError
}

// handler is a Server's HTTP handler, with the bounds it enforces.
type handler struct {
	s        *Server
	routes   map[string]route
	maxSteps int
	slots    chan struct{} // a walk holds one while it runs
}

// Handler returns the server's HTTP handler: the page at /, its script
// and style, and the API under /api/. Every answer carries the headers of
// securityHeaders, and every refusal is JSON: {"error": "..."}.
func (s *Server) Handler() http.Handler {
	walks := s.MaxWalks
	if walks <= 0 {
		walks = runtime.GOMAXPROCS(0)
	}
	h := &handler{s: s, maxSteps: s.maxSteps(), slots: make(chan struct{}, walks)}
	h.routes = map[string]route{
		"/":            {http.MethodGet, s.page},
		"/explore.js":  {http.MethodGet, static("text/javascript; charset=utf-8", script)},
		"/explore.css": {http.MethodGet, static("text/css; charset=utf-8", style+msc.CSS)},
		"/api/info":    {http.MethodGet, s.info},
		"/api/walk":    {http.MethodPost, h.walk},
	}
	if s.Export != nil { // otherwise the server exports no runs
		h.routes["/api/export"] = route{http.MethodPost, h.export}
	}
	return h
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	for k, v := range securityHeaders {
		w.Header().Set(k, v)
	}
	if err := h.serve(w, r); err != nil {
		writeError(w, err)
	}
}

// serve checks where r comes from and what it asks, then answers it.
func (h *handler) serve(w http.ResponseWriter, r *http.Request) *apiError {
	if err := checkHost(r); err != nil {
		return err
	}
	rt, ok := h.routes[r.URL.Path]
	if !ok {
		return refuse(http.StatusNotFound, "no such page: %.100q", r.URL.Path)
	}
	if r.Method != rt.method && (rt.method != http.MethodGet || r.Method != http.MethodHead) {
		w.Header().Set("Allow", rt.method)
		return refuse(http.StatusMethodNotAllowed, "%s answers %s only", r.URL.Path, rt.method)
	}
	if rt.method == http.MethodPost {
		if err := checkPost(r); err != nil {
			return err
		}
	}
	return rt.serve(w, r)
}

func static(contentType, body string) func(http.ResponseWriter, *http.Request) *apiError {
	return func(w http.ResponseWriter, _ *http.Request) *apiError {
		w.Header().Set("Content-Type", contentType)
		w.Write([]byte(body))
		return nil
	}
}

func (s *Server) page(w http.ResponseWriter, _ *http.Request) *apiError {
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, s); err != nil {
		return refuse(http.StatusInternalServerError, "%v", err)
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Write(b.Bytes())
	return nil
}

func (s *Server) info(w http.ResponseWriter, _ *http.Request) *apiError {
	props := []string{}
	for _, p := range s.Machine.Properties() {
		props = append(props, p.Name)
	}
	cxs := s.Counterexamples
	if cxs == nil {
		cxs = []Counterexample{}
	}
	return reply(w, map[string]any{"title": s.Title, "run": s.Run, "properties": props, "counterexamples": cxs})
}

// runRequest names a run by its choices; a request must say them, [] for
// the initial world.
type runRequest struct {
	Choices *[]int `json:"choices"`
}

// choices reads the run a request names: one JSON object, with nothing
// after it, no field but choices, and at most h.maxSteps of them.
func (h *handler) choices(w http.ResponseWriter, r *http.Request) ([]int, *apiError) {
	var req runRequest
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxBody(h.maxSteps)))
	dec.DisallowUnknownFields()
	err := dec.Decode(&req)
	if err == nil {
		if extra := dec.Decode(new(json.RawMessage)); errors.As(extra, new(*http.MaxBytesError)) {
			err = extra
		} else if extra != io.EOF {
			err = errors.New("data after the JSON object")
		}
	}
	if err == nil && req.Choices == nil {
		err = errors.New("no choices")
	}
	if errors.As(err, new(*http.MaxBytesError)) {
		return nil, refuse(http.StatusRequestEntityTooLarge, "a request's body is at most %d bytes (a run of at most %d steps)", maxBody(h.maxSteps), h.maxSteps)
	}
	if err != nil {
		return nil, refuse(http.StatusBadRequest, "a run is {\"choices\": [n, ...]}: %v", err)
	}
	if len(*req.Choices) > h.maxSteps {
		return nil, refuse(http.StatusBadRequest, "a run of %d steps is longer than the bound of %d steps a request may name", len(*req.Choices), h.maxSteps)
	}
	return *req.Choices, nil
}

// position replays the run a request names, holding one of the handler's
// slots; it refuses with 503 when none is free.
func (h *handler) position(w http.ResponseWriter, r *http.Request, then func(*checker.Position) *apiError) *apiError {
	choices, rerr := h.choices(w, r)
	if rerr != nil {
		return rerr
	}
	select {
	case h.slots <- struct{}{}:
		defer func() { <-h.slots }()
	default:
		return refuse(http.StatusServiceUnavailable, "%d walks are running, as many as the server runs at once: try again", cap(h.slots))
	}
	pos, err := h.s.Machine.Walk(choices)
	if err != nil {
		return refuse(http.StatusUnprocessableEntity, "%v", err)
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
	return then(pos)
}

func (h *handler) walk(w http.ResponseWriter, r *http.Request) *apiError {
	return h.position(w, r, func(pos *checker.Position) *apiError {
		var chart strings.Builder
		if err := msc.SVG(&chart, msc.New(pos.Run)); err != nil {
			return refuse(http.StatusInternalServerError, "drawing the chart: %v", err)
		}
		return reply(w, map[string]any{"position": pos, "chart": chart.String()})
	})
}

func (h *handler) export(w http.ResponseWriter, r *http.Request) *apiError {
	return h.position(w, r, func(pos *checker.Position) *apiError {
		b, err := h.s.Export(pos.Run)
		if err != nil {
			return refuse(http.StatusInternalServerError, "exporting the run: %v", err)
		}
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Disposition", `attachment; filename="vigil-run.json"`)
		w.Write(b)
		return nil
	})
}

func reply(w http.ResponseWriter, v any) *apiError {
	b, err := json.Marshal(v)
	if err != nil {
		return refuse(http.StatusInternalServerError, "encoding the answer: %v", err)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(b)
	return nil
}

//go:embed explore.html
var pageText string

//go:embed explore.js
var script string

//go:embed explore.css
var style string

var pageTemplate = template.Must(template.New("explore").Parse(pageText))
