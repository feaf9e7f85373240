//go:build browser

package browser

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/protocols"
)

// page renders a diagram with Mermaid, loaded from the npm package, and
// counts what the drawing holds.
const page = `<!doctype html>
<meta charset="utf-8"><title>vigil diagrams</title>
<script src="/mermaid.min.js"></script>
<body><div id="out"></div>
<script>
mermaid.initialize({startOnLoad: false, securityLevel: "strict"});
let n = 0;
async function draw(text) {
	try {
		await mermaid.parse(text);
		const {svg} = await mermaid.render("d" + n++, text);
		const out = document.getElementById("out");
		out.innerHTML = svg;
		const s = out.querySelector("svg");
		return {ok: true, solid: s.querySelectorAll(".messageLine0").length,
			dotted: s.querySelectorAll(".messageLine1").length, text: s.textContent};
	} catch (e) {
		return {ok: false, error: String((e && e.message) || e)};
	}
}
</script>`

type drawing struct {
	OK     bool   `json:"ok"`
	Error  string `json:"error"`
	Solid  int    `json:"solid"`
	Dotted int    `json:"dotted"`
	Text   string `json:"text"`
}

// serve serves the page and Mermaid.
func serve(t *testing.T) string {
	mermaid := NPM(t, "mermaid/dist/mermaid.min.js")
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(page)) })
	mux.HandleFunc("/mermaid.min.js", func(w http.ResponseWriter, r *http.Request) { http.ServeFile(w, r, mermaid) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// arrows counts a diagram's message lines: solid (delivered, lost) and
// dotted (still in flight).
func arrows(text string) (solid, dotted int) {
	for line := range strings.SplitSeq(text, "\n") {
		switch {
		case strings.Contains(line, "--xn"):
			dotted++
		case strings.Contains(line, "->>n"), strings.Contains(line, "-xn"):
			solid++
		}
	}
	return solid, dotted
}

// Every diagram vigil keeps for a known counterexample, and the one
// vigil check prints for bully's async-crash scenario, is accepted by
// Mermaid's parser and drawn with one message line for each of its
// arrows and the violation in words; the bully diagram is saved as a
// screenshot.
func TestMermaidRendersEveryCounterexample(t *testing.T) {
	url := serve(t)
	ctx := Chromium(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(url), chromedp.WaitReady(chromedp.ID("out"))))
	draw := func(text string) drawing {
		arg, err := json.Marshal(text)
		require.NoError(t, err)
		d, err := chromedp.Run(ctx, chromedp.Evaluate[drawing]("draw("+string(arg)+")", chromedp.EvalAwaitPromise))
		require.NoError(t, err)
		return d
	}

	var out, errOut bytes.Buffer
	code := cli.Main(protocols.Registry(), []string{"check", "bully", "-scenario", "async-crash", "-format", "mermaid"}, &out, &errOut)
	require.Equal(t, 1, code, errOut.String())
	diagrams := map[string]string{"vigil check bully -scenario async-crash -format mermaid": out.String()}
	files, err := filepath.Glob(filepath.Join(Root(), "testdata", "mermaid", "*.mmd"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		diagrams[filepath.Base(f)] = string(b)
	}
	for name, text := range diagrams {
		d := draw(text)
		require.True(t, d.OK, "%s: Mermaid rejects it: %s", name, d.Error)
		solid, dotted := arrows(text)
		require.Equal(t, solid, d.Solid, "%s: solid message lines drawn", name)
		require.Equal(t, dotted, d.Dotted, "%s: dotted message lines drawn", name)
		require.Contains(t, d.Text, "fails:", "%s: the violation is not drawn", name)
	}

	d := draw(out.String())
	require.Contains(t, d.Text, "unique-leader fails: n0 and n3 both believe they are the leader")
	png, err := chromedp.Run(ctx, chromedp.Screenshot(chromedp.CSS("#out svg")))
	require.NoError(t, err)
	require.NotEmpty(t, png)
	Save(t, "mermaid-bully-async-crash.png", png)

	// a diagram Mermaid cannot parse is reported as such: the check can fail
	require.False(t, draw("sequenceDiagram\n    n0->>: no receiver\n").OK)
}
