package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"time"

	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/checker/explore"
	"github.com/vigil-check/vigil/checker/suite"
)

// exploreCmd checks a protocol as vigil check does, then serves its worlds
// on 127.0.0.1 for a person to step through, with the counterexamples the
// check found, until interrupted.
func exploreCmd(r *suite.Registry, args []string, stdout, stderr io.Writer) error {
	f, name, err := parseCheck(r, "explore", args, stderr)
	if err != nil {
		return err
	}
	switch {
	case name == "":
		return badInput("explore needs a protocol name; vigil list shows them")
	case f.all || f.shard != "" || f.json || f.format != "text" || f.trace != "" || f.html != "":
		return badInput("explore serves one protocol's worlds: -all, -shard, -json, -format, -trace and -html belong to vigil check")
	case f.port < 0 || f.port > 65535:
		return badInput("-port must be between 0 and 65535, not %d", f.port)
	}
	c, err := search(context.Background(), r, name, f, stderr)
	if err != nil {
		return err
	}
	srv := &explore.Server{Machine: c.m, Title: fmt.Sprintf("%s [%s]", c.p.Path(), c.sc.Name), Run: describeConfig(c.cfg),
		Export: func(t *checker.Trace) ([]byte, error) {
			return json.MarshalIndent(suite.NewTraceFile(c.p, c.cfg, c.props, t), "", "  ")
		}}
	cxs := c.res.Failed()
	if c.res.Fault != nil && c.res.Fault.Trace != nil {
		cxs = append(cxs, checker.PropertyResult{Name: "fault", Detail: c.res.Fault.Error(), Counterexample: c.res.Fault.Trace})
	}
	for _, pr := range cxs {
		if pr.Counterexample == nil {
			continue
		}
		choices, err := c.m.Choices(pr.Counterexample)
		if err != nil {
			return fmt.Errorf("the counterexample to %s does not replay: %w", pr.Name, err)
		}
		srv.Counterexamples = append(srv.Counterexamples, explore.Counterexample{Property: pr.Name, Detail: pr.Detail, Choices: choices})
	}
	ln, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", f.port))
	if err != nil {
		return usageError{fmt.Errorf("cannot serve: %w", err)}
	}
	fmt.Fprintf(stdout, "vigil explore: %s, %s: %d counterexamples; serving on http://%s/ (interrupt to stop)\n",
		srv.Title, c.res.Verdict, len(srv.Counterexamples), ln.Addr())
	if f, ok := stdout.(*os.File); ok {
		f.Sync()
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hs := srv.HTTPServer()
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		hs.Shutdown(shut)
	}()
	if err := hs.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
