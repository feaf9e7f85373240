//go:build browser

// Package browser drives a headless Chromium for vigil's browser tests:
// they open what vigil draws (Mermaid diagrams, the HTML report, the
// explorer) as a person would, and check what the page shows.
//
// The package and its tests build only with the tag browser (go test -tags
// browser ./internal/browser), so that go test ./... neither compiles
// chromedp nor starts a browser. The tests need Debian's chromium package
// and the npm packages of tools/web (npm ci there). Without them a test
// skips, saying what is missing; with VIGIL_BROWSER=required in the
// environment, as .ci/run sets it, it fails instead, so that CI cannot
// pass without running them.
package browser

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// missing skips t, or fails it where the browser tests are required.
func missing(t testing.TB, what string) {
	t.Helper()
	if os.Getenv("VIGIL_BROWSER") == "required" {
		t.Fatalf("%s (VIGIL_BROWSER=required)", what)
	}
	t.Skipf("browser test skipped: %s", what)
}

// Chromium returns a context whose chromedp actions run in a fresh
// headless Chromium, closed when t ends.
func Chromium(t testing.TB) context.Context {
	t.Helper()
	var path string
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			path = p
			break
		}
	}
	if path == "" {
		missing(t, "no Chromium on the PATH (Debian: apt-get install chromium)")
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path),
		chromedp.NoSandbox, // CI runs as root, where Chromium's sandbox cannot start
		chromedp.WindowSize(1280, 900),
	)
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // the first run starts the browser
		t.Fatalf("starting %s: %v", path, err)
	}
	// no action may wait for ever: a page that never shows what a test
	// waits for fails the test within a minute
	bounded, cancelBounded := context.WithTimeout(ctx, time.Minute)
	t.Cleanup(cancelBounded)
	return bounded
}

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// NPM returns the path of a file of an npm package installed under
// tools/web, such as "mermaid/dist/mermaid.min.js".
func NPM(t testing.TB, file string) string {
	t.Helper()
	path := filepath.Join(Root(), "tools", "web", "node_modules", filepath.FromSlash(file))
	if _, err := os.Stat(path); err != nil {
		missing(t, "no "+file+" under tools/web/node_modules (run npm ci in tools/web)")
	}
	return path
}

// Save writes a screenshot or other artifact to the directory named by
// VIGIL_ARTIFACTS, if set, and returns its path ("" otherwise).
func Save(t testing.TB, name string, data []byte) string {
	t.Helper()
	dir := os.Getenv("VIGIL_ARTIFACTS")
	if dir == "" {
		return ""
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// jsString quotes s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
