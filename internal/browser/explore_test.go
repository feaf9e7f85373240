//go:build browser

package browser

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// vigilBinary builds cmd/vigil for the test.
func vigilBinary(t *testing.T) string {
	bin := filepath.Join(t.TempDir(), "vigil")
	out, err := exec.Command("go", "build", "-o", bin, filepath.Join(Root(), "cmd", "vigil")).CombinedOutput()
	require.NoError(t, err, "%s", out)
	return bin
}

// A person drives vigil explore through bully's sync-recovery
// counterexample: the test starts the command, clicks the counterexample's
// events one by one among those the page offers, sees the violation, steps
// back and jumps to the counterexample again, and exports the run, which
// vigil replay reads.
func TestExplore(t *testing.T) {
	ctx := Chromium(t)
	bin := vigilBinary(t)
	cmd := exec.Command(bin, "explore", "bully", "-scenario", "sync-recovery", "-port", "0")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = io.Discard
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	url := regexp.MustCompile(`serving on (http://127\.0\.0\.1:\d+/)`).FindStringSubmatch(line)
	require.NotNil(t, url, line)
	base := url[1]

	res, err := http.Get(base + "api/info")
	require.NoError(t, err)
	var info struct {
		Counterexamples []struct {
			Property string `json:"property"`
			Choices  []int  `json:"choices"`
		} `json:"counterexamples"`
	}
	require.NoError(t, json.NewDecoder(res.Body).Decode(&info))
	res.Body.Close()
	require.NotEmpty(t, info.Counterexamples)
	cx := info.Counterexamples[0]
	require.Equal(t, "unique-leader", cx.Property)
	require.Greater(t, len(cx.Choices), 2, "a counterexample of several steps")

	eval := func(js string) string {
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		require.NoError(t, err, js)
		return s
	}
	steps := func(n int) { // wait until the page shows a run of n steps
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for eval(`String(document.querySelectorAll("#steps li").length)`) != fmt.Sprint(n) {
			require.True(t, time.Now().Before(deadline), "the page never showed %d steps", n)
			time.Sleep(20 * time.Millisecond)
		}
	}
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(base), chromedp.WaitReady(chromedp.CSS("#enabled button"))))
	// the page's Content-Security-Policy must block nothing it does
	eval(`window.blocked = []; document.addEventListener("securitypolicyviolation", (e) => blocked.push(e.violatedDirective + " " + e.blockedURI)); ""`)
	require.Equal(t, "4", eval(`String(document.querySelectorAll("#states tr").length)`))
	for k, c := range cx.Choices {
		require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(fmt.Sprintf(`#enabled button[data-choice="%d"]`, c)))))
		steps(k + 1)
	}
	status := eval(`document.getElementById("status").textContent`)
	require.Contains(t, status, "violated here: unique-leader (n2 and n3 both believe they are the leader)")
	require.Contains(t, eval(`document.querySelector("#chart svg .violation").textContent`), "unique-leader fails")
	require.Equal(t, "violated", eval(`document.querySelector("#judged tr.violated td:nth-child(3)").textContent`))
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	require.NoError(t, err)
	Save(t, "explore-bully-sync-recovery.png", png)

	// back one step: no violation there; then jump to the counterexample
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#back"))))
	steps(len(cx.Choices) - 1)
	require.Contains(t, eval(`document.getElementById("status").textContent`), "no property is violated here")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#cx button[data-cx="0"]`))))
	steps(len(cx.Choices))
	require.Contains(t, eval(`document.getElementById("status").textContent`), "violated here: unique-leader")
	require.NoError(t, chromedp.Do(ctx, chromedp.Click(chromedp.CSS("#export"))))
	require.Equal(t, "", eval(`document.getElementById("error").textContent`), "the page posts as the server requires")
	require.Equal(t, "[]", eval(`JSON.stringify(blocked)`))

	// a POST that is not JSON is refused, even from the page, with a JSON reason
	eval(`fetch("/api/walk", {method: "POST", body: "{}", headers: {"Content-Type": "text/plain"}}).then((r) => r.json()).then((j) => { window.refused = j.error; }); ""`)
	deadline := time.Now().Add(10 * time.Second)
	for eval(`String(window.refused || "")`) == "" {
		require.True(t, time.Now().Before(deadline), "no answer to a text/plain POST")
		time.Sleep(20 * time.Millisecond)
	}
	require.Contains(t, eval(`window.refused`), "Content-Type: application/json")

	// the run, exported, replays to the same violation
	body, _ := json.Marshal(map[string][]int{"choices": cx.Choices})
	req, err := http.NewRequest("POST", base+"api/export", strings.NewReader(string(body)))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", strings.TrimSuffix(base, "/")) // a client that is no browser says where it posts from
	res, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, res.StatusCode)
	file := filepath.Join(t.TempDir(), "run.json")
	b, err := io.ReadAll(res.Body)
	res.Body.Close()
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, b, 0o644))
	out, err := exec.Command(bin, "replay", file).CombinedOutput()
	require.Error(t, err, "replay exits 1 on a violation")
	require.Contains(t, string(out), "counterexample to unique-leader: n2 and n3 both believe they are the leader")
}
