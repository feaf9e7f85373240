package cli

import (
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/suite"
)

// listCmd prints the registry: one line per protocol (-format text, the
// default), or one Markdown table row per protocol (-format markdown),
// which the documentation keeps as its protocol table.
func listCmd(r *suite.Registry, args []string, out io.Writer) error {
	fs := flag.NewFlagSet("list", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	format := fs.String("format", "text", "text, or markdown (a table of every protocol, its claims, scenarios and parameters)")
	if err := fs.Parse(args); err != nil {
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return badInput("list takes no arguments, not %q: vigil list [-format text|markdown]", fs.Arg(0))
	}
	switch *format {
	case "text":
		return list(r, out)
	case "markdown":
		return listMarkdown(r, out)
	default:
		return badInput("list -format takes text or markdown, not %q", *format)
	}
}

// list prints each protocol with its summary, scenarios and parameters.
func list(r *suite.Registry, out io.Writer) error {
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	for _, p := range r.All() {
		var names []string
		for _, s := range p.Scenarios {
			names = append(names, s.Name)
		}
		extra := ""
		if len(p.Params) > 0 {
			extra = "; parameters: " + p.ParamNames()
		}
		fmt.Fprintf(tw, "%s\t%s\t(scenarios: %s%s)\n", p.Path(), p.Summary, strings.Join(names, ", "), extra)
	}
	return tw.Flush()
}

// listMarkdown prints the registry as a Markdown table, every cell drawn
// from the descriptions, so that a copy kept in the documentation can be
// compared with what the registry says.
func listMarkdown(r *suite.Registry, out io.Writer) error {
	var b strings.Builder
	b.WriteString("| protocol | what it does | follows | claims | other properties | scenarios (expected verdict) | parameters |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- | --- |\n")
	for _, p := range r.All() {
		cells := []string{
			"`" + p.Path() + "`",
			p.Summary,
			p.Source,
			markdownClaims(p),
			codeList(otherProperties(p)),
			markdownScenarios(p.Scenarios),
			markdownParams(p.Params),
		}
		for i, c := range cells {
			cells[i] = markdownCell(c)
		}
		b.WriteString("| " + strings.Join(cells, " | ") + " |\n")
	}
	_, err := io.WriteString(out, b.String())
	return err
}

// markdownClaims names what the protocol claims, and what it claims
// instead when only some nodes initiate.
func markdownClaims(p *suite.Protocol) string {
	s := codeList(p.Claims)
	if p.PartialClaims != nil {
		s += "; when only some nodes initiate: " + codeList(p.PartialClaims)
	}
	return s
}

// otherProperties lists the properties a protocol may be checked for
// (vigil check -props) beyond those it claims, sorted.
func otherProperties(p *suite.Protocol) []string {
	var names []string
	for _, name := range p.PropertyNames() {
		if !slices.Contains(p.Claims, name) && !slices.Contains(p.PartialClaims, name) {
			names = append(names, name)
		}
	}
	return names
}

// markdownScenarios gives each scenario's name, size and expected verdict:
// pass, or the property it shows failing.
func markdownScenarios(scenarios []suite.Scenario) string {
	var parts []string
	for _, s := range scenarios {
		verdict := string(s.Expect)
		if s.Expect == checker.Fail {
			verdict = s.Shows + " fails"
		}
		parts = append(parts, fmt.Sprintf("`%s` N=%d (%s)", s.Name, s.N, verdict))
	}
	return strings.Join(parts, "; ")
}

// markdownParams gives each parameter's name, default and named values.
func markdownParams(params []suite.Param) string {
	var parts []string
	for _, prm := range params {
		s := fmt.Sprintf("`-%s` (default %s", prm.Name, prm.Format(prm.Default))
		if prm.Values != nil {
			s += "; " + strings.Join(prm.Values, ", ")
		}
		parts = append(parts, s+")")
	}
	return strings.Join(parts, "; ")
}

// codeList writes names as a comma-separated list of code spans.
func codeList(names []string) string {
	var quoted []string
	for _, n := range names {
		quoted = append(quoted, "`"+n+"`")
	}
	return strings.Join(quoted, ", ")
}

// markdownCell keeps a cell on its row: a '|' would end it early and a
// line break would end the row.
func markdownCell(s string) string {
	s = strings.ReplaceAll(s, "|", `\|`)
	return strings.Join(strings.Fields(s), " ")
}
