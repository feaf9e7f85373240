//go:build browser

package browser

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/protocols"
)

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
