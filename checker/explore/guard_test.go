package explore_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/explore"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols"
)

// compiled compiles a built-in protocol's scenario with the properties
// the scenario names (or those the protocol claims), or with props where
// given, and returns the protocol and scenario with it: a server's export
// writes the protocol's trace files, and a search keeps the scenario's
// bounds.
func compiled(t testing.TB, name, scenario string, props ...string) (*suite.Protocol, suite.Scenario, *checker.Machine) {
	p, err := protocols.Lookup(name)
	require.NoError(t, err)
	sc, err := p.Scenario(scenario)
	require.NoError(t, err)
	if len(props) > 0 {
		sc.Props = props
	}
	m, err := suite.Compile(p, &sc)
	require.NoError(t, err)
	return p, sc, m
}

// machine is the machine alone of compiled.
func machine(t testing.TB, name, scenario string) *checker.Machine {
	_, _, m := compiled(t, name, scenario)
	return m
}

// served is the address the requests of these tests reach the handler on.
var served = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8080}

// request is a request as the explorer's page sends it, served on
// served: a POST is JSON from the page's own origin. header changes that:
// a header set to "" is left out, and "Host" sets the host the request is
// addressed to.
func request(method, path, body string, header map[string]string) *http.Request {
	return requestOn(served, method, path, body, header)
}

func requestOn(local net.Addr, method, path, body string, header map[string]string) *http.Request {
	req := httptest.NewRequest(method, "http://127.0.0.1:8080"+path, strings.NewReader(body))
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, local))
	if method == http.MethodPost {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Origin", "http://127.0.0.1:8080")
	}
	for k, v := range header {
		switch {
		case k == "Host":
			req.Host = v
		case v == "":
			req.Header.Del(k)
		default:
			req.Header.Set(k, v)
		}
	}
	return req
}

// requireRefusal checks that rec is a JSON refusal with the status code
// and a reason containing reason, carrying the security headers.
func requireRefusal(t *testing.T, rec *httptest.ResponseRecorder, code int, reason string) {
	t.Helper()
	require.Equal(t, code, rec.Code, rec.Body.String())
	require.Equal(t, "application/json", rec.Header().Get("Content-Type"))
	var refusal map[string]string
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &refusal), rec.Body.String())
	require.Len(t, refusal, 1, "a refusal is {\"error\": ...} alone")
	require.Contains(t, refusal["error"], reason)
	requireSecurityHeaders(t, rec.Header())
}

func requireSecurityHeaders(t *testing.T, h http.Header) {
	t.Helper()
	require.Contains(t, h.Get("Content-Security-Policy"), "frame-ancestors 'none'")
	require.Contains(t, h.Get("Content-Security-Policy"), "default-src 'none'")
	require.Equal(t, "DENY", h.Get("X-Frame-Options"))
	require.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
}

// Every kind of request the server refuses, with its status and reason.
func TestRefusals(t *testing.T) {
	h := (&explore.Server{Machine: machine(t, "bully", "async-crash"), MaxSteps: 4}).Handler()
	walk := `{"choices": [0]}`
	for _, c := range []struct {
		name, method, path, body string
		header                   map[string]string
		local                    net.Addr // where the request arrived: served unless set
		code                     int
		reason                   string
	}{
		{"text/plain", "POST", "/api/walk", walk, map[string]string{"Content-Type": "text/plain"}, nil, 415, `Content-Type: application/json, not "text/plain"`},
		{"form", "POST", "/api/walk", walk, map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, nil, 415, "application/json"},
		{"no content type", "POST", "/api/walk", walk, map[string]string{"Content-Type": ""}, nil, 415, "application/json"},
		{"foreign origin", "POST", "/api/walk", walk, map[string]string{"Origin": "http://attacker.example"}, nil, 403, `"http://attacker.example" is refused`},
		{"opaque origin", "POST", "/api/walk", walk, map[string]string{"Origin": "null"}, nil, 403, "is refused"},
		{"origin on another port", "POST", "/api/walk", walk, map[string]string{"Origin": "http://127.0.0.1:9999"}, nil, 403, "is refused"},
		{"https origin", "POST", "/api/walk", walk, map[string]string{"Origin": "https://127.0.0.1:8080"}, nil, 403, "is refused"},
		{"no origin", "POST", "/api/walk", walk, map[string]string{"Origin": ""}, nil, 403, "needs the header Origin: http://127.0.0.1:8080"},
		{"cross-site", "POST", "/api/walk", walk, map[string]string{"Origin": "", "Sec-Fetch-Site": "cross-site"}, nil, 403, "another site"},
		{"same-site", "POST", "/api/walk", walk, map[string]string{"Origin": "", "Sec-Fetch-Site": "same-site"}, nil, 403, "another site"},
		{"cross-site with own origin", "POST", "/api/walk", walk, map[string]string{"Sec-Fetch-Site": "cross-site"}, nil, 403, "another site"},
		{"same-origin with foreign origin", "POST", "/api/walk", walk, map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": "http://attacker.example"}, nil, 403, "is refused"},
		{"rebound host", "GET", "/api/info", "", map[string]string{"Host": "attacker.example:8080"}, nil, 403, "not to \"attacker.example:8080\""},
		{"rebound host, its own origin", "POST", "/api/walk", walk, map[string]string{"Host": "attacker.example:8080", "Origin": "http://attacker.example:8080"}, nil, 403, "answers only requests addressed to"},
		{"host on another port", "GET", "/", "", map[string]string{"Host": "127.0.0.1:9999"}, nil, 403, "addressed to http://127.0.0.1:8080"},
		{"host without port", "GET", "/", "", map[string]string{"Host": "localhost"}, nil, 403, "addressed to"},
		{"another loopback address", "GET", "/", "", map[string]string{"Host": "127.0.0.2:8080"}, nil, 403, "addressed to"},
		{"not on loopback", "GET", "/api/info", "", map[string]string{"Host": "192.0.2.1:8080"}, &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 8080}, 403, "only on a loopback address"},
		{"not over TCP", "GET", "/api/info", "", nil, &net.UnixAddr{Name: "/tmp/explore.sock", Net: "unix"}, 403, "only on a loopback address"},
		{"trailing object", "POST", "/api/walk", walk + ` {"choices": [1]}`, nil, nil, 400, "data after the JSON object"},
		{"trailing garbage", "POST", "/api/walk", walk + `x`, nil, nil, 400, "data after the JSON object"},
		{"unknown field", "POST", "/api/walk", `{"choices": [], "file": "/etc/passwd"}`, nil, nil, 400, `unknown field "file"`},
		{"no choices", "POST", "/api/walk", `{}`, nil, nil, 400, "no choices"},
		{"null", "POST", "/api/walk", `null`, nil, nil, 400, "no choices"},
		{"empty body", "POST", "/api/walk", ``, nil, nil, 400, `a run is {"choices": [n, ...]}: EOF`},
		{"a string", "POST", "/api/walk", `{"choices": "0"}`, nil, nil, 400, "cannot unmarshal"},
		{"a fraction", "POST", "/api/walk", `{"choices": [0.5]}`, nil, nil, 400, "cannot unmarshal"},
		{"oversize body", "POST", "/api/walk", `{"choices": [` + strings.Repeat(" ", 2000) + `]}`, nil, nil, 413, "at most 1056 bytes (a run of at most 4 steps)"},
		{"oversize trailing data", "POST", "/api/walk", walk + strings.Repeat(" ", 2000), nil, nil, 413, "at most 1056 bytes"},
		{"over-long walk", "POST", "/api/walk", `{"choices": [0, 0, 0, 0, 0]}`, nil, nil, 400, "a run of 5 steps is longer than the bound of 4 steps"},
		{"no such event", "POST", "/api/walk", `{"choices": [999]}`, nil, nil, 422, "step 1 chooses event 999"},
		{"negative choice", "POST", "/api/walk", `{"choices": [-1]}`, nil, nil, 422, "step 1 chooses event -1"},
		{"GET a POST route", "GET", "/api/walk", "", nil, nil, 405, "/api/walk answers POST only"},
		{"POST a GET route", "POST", "/api/info", "", nil, nil, 405, "/api/info answers GET only"},
		{"no such page", "GET", "/etc/passwd", "", nil, nil, 404, `no such page: "/etc/passwd"`},
		{"a dotted path", "GET", "/../go.mod", "", nil, nil, 404, "no such page"},
		{"no Export", "POST", "/api/export", `{"choices": []}`, nil, nil, 404, `no such page: "/api/export"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			local := c.local
			if local == nil {
				local = served
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, requestOn(local, c.method, c.path, c.body, c.header))
			requireRefusal(t, rec, c.code, c.reason)
			if c.code == http.StatusMethodNotAllowed {
				require.Equal(t, map[string]string{"GET": "POST", "POST": "GET"}[c.method], rec.Header().Get("Allow"))
			}
		})
	}
}

// The requests a browser on the page sends, or a client that says where
// it comes from, are answered.
func TestAccepted(t *testing.T) {
	h := (&explore.Server{Machine: machine(t, "bully", "async-crash"), MaxSteps: 4,
		Export: func(*checker.Trace) ([]byte, error) { return []byte(`{"events": []}`), nil }}).Handler()
	for _, c := range []struct {
		name, method, path, body string
		header                   map[string]string
	}{
		{"the page", "GET", "/", "", nil},
		{"the page, as localhost", "GET", "/", "", map[string]string{"Host": "localhost:8080"}},
		{"the page's head", "HEAD", "/", "", nil},
		{"its script", "GET", "/explore.js", "", nil},
		{"info", "GET", "/api/info", "", nil},
		{"the initial world", "POST", "/api/walk", `{"choices": []}`, nil},
		{"as many steps as allowed", "POST", "/api/walk", `{"choices": [0, 0, 0, 0]}`, nil},
		{"a charset", "POST", "/api/walk", `{"choices": [0]}`, map[string]string{"Content-Type": "application/json; charset=utf-8"}},
		{"trailing white space", "POST", "/api/walk", "{\"choices\": [0]}\r\n\t ", nil},
		{"localhost", "POST", "/api/walk", `{"choices": [0]}`, map[string]string{"Host": "localhost:8080", "Origin": "http://localhost:8080"}},
		{"Sec-Fetch-Site alone", "POST", "/api/walk", `{"choices": [0]}`, map[string]string{"Origin": "", "Sec-Fetch-Site": "same-origin"}},
		{"Sec-Fetch-Site none", "POST", "/api/walk", `{"choices": [0]}`, map[string]string{"Origin": "", "Sec-Fetch-Site": "none"}},
		{"both", "POST", "/api/export", `{"choices": [0]}`, map[string]string{"Sec-Fetch-Site": "same-origin"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, request(c.method, c.path, c.body, c.header))
			require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
			requireSecurityHeaders(t, rec.Header())
		})
	}
}

// A counterexample longer than MaxSteps raises the bound to its length, so
// that the page can show it; one step more is refused.
func TestMaxStepsCoversCounterexamples(t *testing.T) {
	m := machine(t, "bully", "async-crash")
	h := (&explore.Server{Machine: m, MaxSteps: 2,
		Counterexamples: []explore.Counterexample{{Property: "p", Choices: []int{0, 0, 0}}}}).Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, request("POST", "/api/walk", `{"choices": [0, 0, 0]}`, nil))
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, request("POST", "/api/walk", `{"choices": [0, 0, 0, 0]}`, nil))
	requireRefusal(t, rec, http.StatusBadRequest, "bound of 3 steps")
}

// With MaxWalks 1, a walk that arrives while another runs is refused with
// 503 and Retry-After, and once the first is done the next one runs. The
// first is an export whose Export waits on the test, holding the slot.
func TestBusy(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	h := (&explore.Server{Machine: machine(t, "bully", "async-crash"), MaxWalks: 1,
		Export: func(*checker.Trace) ([]byte, error) {
			close(entered)
			<-release
			return []byte(`{}`), nil
		}}).Handler()
	first := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.ServeHTTP(first, request("POST", "/api/export", `{"choices": [0]}`, nil))
	}()
	<-entered
	for _, path := range []string{"/api/walk", "/api/export"} {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, request("POST", path, `{"choices": []}`, nil))
		requireRefusal(t, rec, http.StatusServiceUnavailable, "1 walks are running, as many as the server runs at once")
		require.Equal(t, "1", rec.Header().Get("Retry-After"))
	}
	// what needs no walk is answered meanwhile
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, request("GET", "/api/info", "", nil))
	require.Equal(t, http.StatusOK, rec.Code)
	close(release)
	<-done
	require.Equal(t, http.StatusOK, first.Code, first.Body.String())
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, request("POST", "/api/walk", `{"choices": []}`, nil))
	require.Equal(t, http.StatusOK, rec.Code, rec.Body.String())
}

// The http.Server has every timeout set, and gives the longest walk
// allowed a millisecond a step beyond half a minute to be answered.
func TestHTTPServer(t *testing.T) {
	for _, steps := range []int{0, 100, 200_000} {
		hs := (&explore.Server{MaxSteps: steps}).HTTPServer()
		require.NotNil(t, hs.Handler)
		require.Positive(t, hs.ReadHeaderTimeout)
		require.Positive(t, hs.ReadTimeout)
		require.Positive(t, hs.IdleTimeout)
		require.Positive(t, hs.MaxHeaderBytes)
		if steps == 0 {
			steps = explore.DefaultMaxSteps
		}
		require.Equal(t, 30*time.Second+time.Duration(steps)*time.Millisecond, hs.WriteTimeout)
	}
}
