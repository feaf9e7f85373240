package regress

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/msc"
)

// charts keeps the Mermaid sequence diagram of every counterexample a
// shipped scenario shows, one file each under testdata/mermaid, and
// requires that each diagram draws exactly the trace's deliveries and
// losses, in order, between the right lifelines.
func charts(t *testing.T, shown map[string]*checker.Trace, every bool) {
	dir := filepath.Join("..", "..", "testdata", "mermaid")
	for _, name := range slices.Sorted(maps.Keys(shown)) {
		tr := shown[name]
		require.NotNil(t, tr, "%s shows no counterexample", name)
		var b bytes.Buffer
		require.NoError(t, msc.Mermaid(&b, msc.New(tr), name+": "+tr.Property+" fails"))
		requireArrows(t, name, tr, b.String())
		golden(t, filepath.Join("mermaid", name+".mmd"), b.Bytes())
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.mmd"))
	require.NoError(t, err)
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".mmd")
		if _, ok := shown[name]; !ok && every {
			if *update {
				require.NoError(t, os.Remove(f))
				continue
			}
			t.Errorf("%s: no shipped scenario shows this counterexample any more (-update removes it)", f)
		}
	}
}

// arrow is a Mermaid message line: "n0->>n1: 3. election (sent at 1)".
var arrow = regexp.MustCompile(`^    n(\d+)(->>|-x|--x)n(\d+): (?:(\d+)\. )?(lost: )?(.*)$`)

// requireArrows checks that the diagram's solid arrows are the trace's
// deliveries and losses, step by step.
func requireArrows(t *testing.T, name string, tr *checker.Trace, diagram string) {
	type drawn struct {
		from, to, step int
		lost           bool
	}
	var got, want []drawn
	for line := range strings.SplitSeq(diagram, "\n") {
		m := arrow.FindStringSubmatch(line)
		if m == nil || m[2] == "--x" { // --x: still in flight, not an event
			continue
		}
		from, _ := strconv.Atoi(m[1])
		to, _ := strconv.Atoi(m[3])
		step, _ := strconv.Atoi(m[4])
		got = append(got, drawn{from, to, step, m[2] == "-x"})
	}
	for i, ev := range tr.Events {
		if ev.Kind == "deliver" || ev.Kind == "lose" {
			want = append(want, drawn{ev.From, ev.Node, i + 1, ev.Kind == "lose"})
		}
	}
	require.Equal(t, want, got, "%s: the diagram's arrows are not the trace's deliveries", name)
}
