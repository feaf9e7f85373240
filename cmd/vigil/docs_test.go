package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker/cli"
	"github.com/vigil-check/vigil/protocols"
)

var update = flag.Bool("update", false, "rewrite the protocol table in docs/protocols.md from vigil list -format markdown")

// root is the module's root, where README.md and docs/ are.
const root = "../.."

const (
	tableStart = "<!-- vigil list -format markdown -->\n"
	tableEnd   = "<!-- end -->\n"
)

// The protocol table in docs/protocols.md is what vigil list -format
// markdown prints, so that a protocol's scenarios and claims are told in
// one place, its description; -update rewrites the copy.
func TestProtocolTableIsGenerated(t *testing.T) {
	var out, stderr bytes.Buffer
	code := cli.Main(protocols.Registry(), []string{"list", "-format", "markdown"}, &out, &stderr)
	require.Equal(t, 0, code, stderr.String())

	path := filepath.Join(root, "docs", "protocols.md")
	doc, err := os.ReadFile(path)
	require.NoError(t, err)
	before, table, after, err := splitTable(string(doc))
	require.NoError(t, err, path)
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(before+tableStart+out.String()+tableEnd+after), 0o644))
		return
	}
	require.Equal(t, out.String(), table,
		"docs/protocols.md differs from vigil list -format markdown; go test ./cmd/vigil -run TestProtocolTableIsGenerated -update rewrites it")
}

// splitTable cuts doc around the generated table.
func splitTable(doc string) (before, table, after string, err error) {
	before, rest, ok := strings.Cut(doc, tableStart)
	if !ok {
		return "", "", "", fmt.Errorf("no line %q", strings.TrimSpace(tableStart))
	}
	table, after, ok = strings.Cut(rest, tableEnd)
	if !ok {
		return "", "", "", fmt.Errorf("no line %q after the table", strings.TrimSpace(tableEnd))
	}
	return before, table, after, nil
}

// Every relative link of README.md and docs/*.md names a file that exists
// and, after a '#', a heading of that file.
func TestDocLinksResolve(t *testing.T) {
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	require.NoError(t, err)
	pages = append(pages, filepath.Join(root, "README.md"))
	require.Greater(t, len(pages), 1)
	checked := 0
	for _, page := range pages {
		text, err := os.ReadFile(page)
		require.NoError(t, err)
		for _, target := range relativeLinks(string(text)) {
			checked++
			file, anchor, _ := strings.Cut(target, "#")
			dest := page
			if file != "" {
				dest = filepath.Join(filepath.Dir(page), filepath.FromSlash(file))
			}
			_, err := os.Stat(dest)
			require.NoError(t, err, "%s links to %s, which does not exist", page, target)
			if anchor == "" {
				continue
			}
			body, err := os.ReadFile(dest)
			require.NoError(t, err, "%s links to %s", page, target)
			require.Contains(t, headingAnchors(string(body)), anchor,
				"%s links to %s: %s has no heading with that anchor", page, target, dest)
		}
	}
	require.Positive(t, checked, "no relative link found: the scan is broken")
}

func TestHeadingAnchors(t *testing.T) {
	cases := []struct {
		doc  string
		want []string
	}{
		{"# vigil\n", []string{"vigil"}},
		{"## Sweeps: state spaces too large to keep\n", []string{"sweeps-state-spaces-too-large-to-keep"}},
		{"### Handlers that are not deterministic: vigil vet\n", []string{"handlers-that-are-not-deterministic-vigil-vet"}},
		{"## The `-format` flag, and JSON\n", []string{"the--format-flag-and-json"}},
		{"## Partial order: steps that cannot meet ##\n", []string{"partial-order-steps-that-cannot-meet"}},
		{"## Usage\ntext\n## Usage\n", []string{"usage", "usage-1"}},
		{"```\n# not a heading\n```\n#nospace\n## Real\n", []string{"real"}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, headingAnchors(c.doc), "%q", c.doc)
	}
}

func TestRelativeLinks(t *testing.T) {
	cases := []struct {
		doc  string
		want []string
	}{
		{"see [the guide](docs/guide.md) and [a part](docs/cli.md#exit-codes)", []string{"docs/guide.md", "docs/cli.md#exit-codes"}},
		{"[here](#layout) and [Mermaid](https://mermaid.js.org) and [mail](mailto:x@y)", []string{"#layout"}},
		{"`[not](a-link.md)` and\n```\n[nor](this.md)\n```\n[but](this.md \"title\")", []string{"this.md"}},
	}
	for _, c := range cases {
		require.Equal(t, c.want, relativeLinks(c.doc), "%q", c.doc)
	}
}

var (
	linkRE    = regexp.MustCompile(`\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)`)
	codeRE    = regexp.MustCompile("`[^`]*`")
	schemeRE  = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
	headingRE = regexp.MustCompile(`^#{1,6}\s+(.*?)\s*#*\s*$`)
)

// relativeLinks lists the targets of the inline links of a Markdown
// document that point inside the repository: those with no scheme, outside
// code blocks and code spans.
func relativeLinks(doc string) []string {
	var links []string
	for _, line := range proseLines(doc) {
		for _, m := range linkRE.FindAllStringSubmatch(codeRE.ReplaceAllString(line, ""), -1) {
			if !schemeRE.MatchString(m[1]) {
				links = append(links, m[1])
			}
		}
	}
	return links
}

// headingAnchors lists the anchors GitHub gives a document's headings:
// the heading's text in lower case, spaces turned into '-', punctuation
// other than '-' and '_' dropped, and a repeated anchor numbered -1, -2...
func headingAnchors(doc string) []string {
	var anchors []string
	seen := map[string]int{}
	for _, line := range proseLines(doc) {
		m := headingRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(m[1]) {
			switch {
			case r == ' ':
				b.WriteByte('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			seen[a]++
			a += fmt.Sprintf("-%d", n)
		} else {
			seen[a] = 1
		}
		anchors = append(anchors, a)
	}
	return anchors
}

// proseLines returns the lines of a Markdown document outside fenced code
// blocks.
func proseLines(doc string) []string {
	var lines []string
	fenced := false
	for _, line := range strings.Split(doc, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			lines = append(lines, line)
		}
	}
	return lines
}
