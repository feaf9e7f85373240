package regress

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
	"github.com/vigil-check/vigil/protocols"
)

// BenchmarkSchedulers measures, on every known counterexample at N = 10 and
// 30 (where the scenario scales), how many walks each scheduler takes to
// its first counterexample: the median over 5 runs of different seeds,
// and how many of them found one within 100 walks. It prints the table in
// docs/performance.md ("Schedulers"):
//
// It is a measurement, not a check: the schedulers' counterexamples are
// checked by the tests of package checker.
//
//	go test ./internal/regress -run '^$' -bench Schedulers -benchtime 1x -v
func BenchmarkSchedulers(b *testing.B) {
	for b.Loop() {
		b.Log(schedulerTable(b))
	}
}

func schedulerTable(t testing.TB) string {
	scheds := []string{"uniform", "pct:3", "swarm"}
	const trials, walks = 5, 100
	var rows []string
	for _, p := range protocols.All() {
		for _, s := range p.Scenarios {
			if s.Expect != checker.Fail {
				continue
			}
			for _, n := range []int{10, 30} {
				sc := s
				sc.N = n
				sc.Props = []string{s.Shows} // walks stop at the first violation of this one
				m, err := suite.Compile(p, &sc)
				if err != nil {
					continue // the scenario does not scale to n
				}
				row := fmt.Sprintf("| %s %s N=%d | %s |", p.Path(), s.Name, n, s.Shows)
				for _, name := range scheds {
					sched, err := checker.ParseScheduler(name)
					require.NoError(t, err)
					var took []int
					for trial := range trials {
						base := uint64(1 + 1000*trial)
						r := checker.Random(context.Background(), m, checker.RandomOptions{Walks: walks, Seed: base, First: true,
							Scheduler: sched, ShrinkTime: time.Millisecond})
						if c := r.Property(s.Shows).Counterexample; c != nil {
							took = append(took, int(*c.Seed-base)+1)
						}
					}
					cell := "none"
					if len(took) > 0 {
						slices.Sort(took)
						cell = fmt.Sprintf("%d (%d/%d)", took[len(took)/2], len(took), trials)
					}
					row += " " + cell + " |"
				}
				rows = append(rows, row)
			}
		}
	}
	return fmt.Sprintf("\n| counterexample | property | %s |\n| --- | --- | --- | --- | --- |\n%s", strings.Join(scheds, " | "), strings.Join(rows, "\n"))
}
