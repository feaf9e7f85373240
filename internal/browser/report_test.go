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

// htmlReport runs vigil check with -html and returns the report's path.
func htmlReport(t *testing.T, name string, args ...string) string {
	path := filepath.Join(t.TempDir(), name+".html")
	var out, errOut bytes.Buffer
	code := cli.Main(protocols.Registry(), append(append([]string{"check"}, args...), "-html", path), &out, &errOut)
	require.Equal(t, 1, code, "%s%s", out.String(), errOut.String())
	return path
}

// The HTML report opens from a file, offline, and its slider walks the
// counterexample as a person would: Maekawa's deadlock, and a central
// server that starves a client on a cycle (no fairness assumed), where the
// step after the last is the cycle's first. Screenshots of both are saved.
func TestHTMLReport(t *testing.T) {
	cases := []struct {
		name      string
		args      []string
		violation string
		last      string // the label at the last step, where the page opens
		nodes     int
		cycle     string // for a lasso: the label of the cycle's first step
	}{
		{"report-maekawa-deadlock", []string{"maekawa", "-scenario", "deadlock"},
			"no-deadlock fails: deadlock: nothing can happen, and n0, n1, n2, n3 wait for the critical section", "20. ", 4, ""},
		{"report-central-starvation", []string{"central", "-n", "2", "-requests", "0", "-fairness", "none", "-props", "no-starvation"},
			"no-starvation fails: n0 waits for the critical section forever, on a cycle", "6. ", 2, "2. "},
	}
	ctx := Chromium(t)
	for _, c := range cases {
		path := htmlReport(t, c.name, c.args...)
		require.NoError(t, chromedp.Do(ctx, chromedp.Navigate("file://"+path), chromedp.WaitReady(chromedp.CSS("section.cx .label"))))
		text := func(sel string) string {
			s, err := chromedp.Run(ctx, chromedp.Evaluate[string]("document.querySelector("+jsString(sel)+").textContent"))
			require.NoError(t, err, sel)
			return s
		}
		count := func(sel string) int { // in the first counterexample
			n, err := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelector("section.cx").querySelectorAll(`+jsString(sel)+").length"))
			require.NoError(t, err)
			return n
		}
		require.Contains(t, text("section.cx svg .violation"), c.violation, c.name)
		label := text("section.cx .label")
		require.True(t, strings.HasPrefix(label, c.last), "%s: opens at %q", c.name, label)
		require.Equal(t, c.nodes, count(".states tbody tr"))
		require.Equal(t, 1, count("svg g.row.current"))

		// one step back: the label, the highlighted row and the table follow
		before := text("section.cx .states tbody")
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("section.cx .prev"))))
		label = text("section.cx .label")
		require.False(t, strings.HasPrefix(label, c.last), "%s: prev did not move: %q", c.name, label)
		step, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector("section.cx svg g.row.current").dataset.step`))
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(label, step+". "), "%s: row %s highlighted, label %q", c.name, step, label)
		require.NotEqual(t, before, text("section.cx .states tbody"), "%s: the states did not follow the slider", c.name)

		// forward again, and past the end of a lasso into its cycle
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("section.cx .next"))))
		require.True(t, strings.HasPrefix(text("section.cx .label"), c.last))
		if c.cycle != "" {
			require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("section.cx .next"))))
			label = text("section.cx .label")
			require.True(t, strings.HasPrefix(label, c.cycle), "%s: after the last step comes %q", c.name, label)
			require.Contains(t, label, "(in the cycle)")
			require.Equal(t, 1, count("svg g.cycle"))
		}
		png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		require.NoError(t, err)
		require.NotEmpty(t, png)
		Save(t, c.name+".png", png)
	}
}
