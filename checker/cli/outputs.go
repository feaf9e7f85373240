package cli

import (
	"bytes"
	"fmt"
	"io"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/report"
	"github.com/vigil-check/vigil/checker/suite"
)

// checkOutputs are the files a check writes once its search is done
// (-trace, -html, -linearizability-html), opened before it starts: a path
// that cannot be written is refused before any search, and one whose
// write fails afterwards costs a warning, never the result.
type checkOutputs struct {
	trace, html, lin *outputFile
	witness          bool // -witness: the witnesses are runs to show too
}

func openCheckOutputs(f *checkFlags) (*checkOutputs, error) {
	o := &checkOutputs{witness: f.witness}
	for _, out := range []struct {
		path, what string
		file       **outputFile
	}{
		{f.trace, "counterexample (-trace)", &o.trace},
		{f.html, "HTML report (-html)", &o.html},
		{f.linHTML, "history drawing (-linearizability-html)", &o.lin},
	} {
		if out.path == "" {
			continue
		}
		file, err := openOutput(out.path, out.what)
		if err != nil {
			o.close()
			return nil, usageError{err}
		}
		*out.file = file
	}
	return o, nil
}

// close abandons the files not written.
func (o *checkOutputs) close() {
	for _, file := range []*outputFile{o.trace, o.html, o.lin} {
		if file != nil {
			file.Close()
		}
	}
}

// write writes the files of check c that its result has something for:
// the first counterexample, the report, the drawing of the first history
// that is not linearizable. A file that cannot be written is a warning on
// stderr.
func (o *checkOutputs) write(stderr io.Writer, c *searched) {
	commit := func(file *outputFile, render func(w io.Writer) error) {
		var b bytes.Buffer
		err := render(&b)
		if err == nil {
			err = file.Commit(b.Bytes())
		}
		if err != nil {
			fmt.Fprintf(stderr, "vigil: warning: %v\n", err)
		}
	}
	if t := firstTrace(c.res, o.witness); o.trace != nil && t != nil {
		commit(o.trace, func(b io.Writer) error {
			js, err := suite.NewTraceFile(c.p, c.cfg, c.props, t).JSON()
			b.Write(js)
			return err
		})
	}
	if o.html != nil {
		commit(o.html, func(b io.Writer) error {
			var text bytes.Buffer
			printText(&text, c.p, c.sc.Name, c.cfg, c.res, o.witness)
			return report.Write(b, report.Page{Title: fmt.Sprintf("%s [%s]", c.p.Path(), c.sc.Name),
				Run: describeConfig(c.cfg) + ", " + string(c.res.Mode) + " search", Result: c.res, Text: text.String()})
		})
	}
	if l := c.res.Linearizability; o.lin != nil && l != nil && l.Verdict == checker.Fail {
		commit(o.lin, l.HTML)
	}
}
