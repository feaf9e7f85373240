package explore

import (
	"encoding/json"
	"fmt"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
)

// The headers every answer carries. The page loads its script, style and
// data from the server alone (the chart is SVG text the script inserts,
// styled by explore.css, with no style attribute); no other site may frame
// it, so that a click on it cannot be hijacked; and no answer is sniffed
// into another type or cached.
var securityHeaders = map[string]string{
	"Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
		"connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
	"X-Frame-Options":        "DENY",
	"X-Content-Type-Options": "nosniff",
	"Referrer-Policy":        "no-referrer",
	"Cache-Control":          "no-store",
}

// apiError is a refusal: the status and a one-line reason, answered as
// {"error": reason}.
type apiError struct {
	status int
	reason string
}

func (e *apiError) Error() string { return e.reason }

func refuse(status int, format string, args ...any) *apiError {
	return &apiError{status, fmt.Sprintf(format, args...)}
}

// writeError answers e as JSON; a 503 says when to try again.
func writeError(w http.ResponseWriter, e *apiError) {
	if e.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	b, _ := json.Marshal(map[string]string{"error": e.reason}) // a map of strings always encodes
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.status)
	w.Write(b)
}

// checkHost refuses a request that did not reach the server on a loopback
// address, or that names in its Host header anything but that address or
// localhost with the port it was served on. A page elsewhere that rebinds
// its own name to 127.0.0.1 sends its own name as the Host, so DNS
// rebinding cannot read the API.
func checkHost(r *http.Request) *apiError {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(*net.TCPAddr)
	if !ok || !local.IP.IsLoopback() {
		return refuse(http.StatusForbidden, "vigil explore answers only on a loopback address")
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil { // no port: the default one
		host, port = r.Host, "80"
	}
	if (!strings.EqualFold(host, "localhost") && host != local.IP.String()) || port != strconv.Itoa(local.Port) {
		return refuse(http.StatusForbidden, "vigil explore answers only requests addressed to http://127.0.0.1:%d or http://localhost:%d, not to %.100q",
			local.Port, local.Port, r.Host)
	}
	return nil
}

// checkPost refuses a POST that is not JSON, or that does not come from
// the server's own page: it needs an Origin header naming the server (as
// the request addresses it, checked by checkHost) or Sec-Fetch-Site
// same-origin or none, and neither may name another site. Every browser
// sends one of the two with a POST, so a page of another site cannot make
// the browser of the person exploring post to the API (cross-site request
// forgery); a client of its own, such as curl, sends an Origin header.
func checkPost(r *http.Request) *apiError {
	site, origin := r.Header.Get("Sec-Fetch-Site"), r.Header.Get("Origin")
	own := "http://" + r.Host
	switch {
	case site == "" && origin == "":
		return refuse(http.StatusForbidden, "a POST needs the header Origin: %s (or Sec-Fetch-Site: same-origin)", own)
	case site != "" && site != "same-origin" && site != "none":
		return refuse(http.StatusForbidden, "a request from another site (Sec-Fetch-Site: %.40q) is refused", site)
	case origin != "" && !strings.EqualFold(origin, own):
		return refuse(http.StatusForbidden, "a request from %.100q is refused: only the pages of %s may post", origin, own)
	}
	mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "application/json" {
		return refuse(http.StatusUnsupportedMediaType, "a POST's body is JSON: Content-Type: application/json, not %.60q", r.Header.Get("Content-Type"))
	}
	return nil
}
