// The claims seen failing: broken variants of the shipped protocols, each
// caught by the claim its fault breaks, and every claim of every protocol
// seen catching a real run, by a variant or a handler mutant.

package regress

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"github.com/vigil-check/vigil/checker"
	"github.com/vigil-check/vigil/internal/tier"
	"github.com/vigil-check/vigil/model"
	"github.com/vigil-check/vigil/properties"
	"github.com/vigil-check/vigil/protocols"
	"github.com/vigil-check/vigil/protocols/election/ringbased"
	"github.com/vigil-check/vigil/protocols/multicast"
	"github.com/vigil-check/vigil/protocols/multicast/causal"
	"github.com/vigil-check/vigil/protocols/multicast/fifo"
	"github.com/vigil-check/vigil/protocols/multicast/isis"
	"github.com/vigil-check/vigil/protocols/multicast/reliable"
	"github.com/vigil-check/vigil/protocols/mutex"
	"github.com/vigil-check/vigil/protocols/mutex/ricartagrawala"
)

// The claims below hold under every fault vigil models, so no scenario can
// show them failing; each variant breaks one rule of its algorithm the way
// a student might, and the checker must catch the claim failing.

// forwardsLower is the ring-based election whose participant passes a
// lower rank on instead of dropping it. The rule broken: "the one with the
// larger identifier will not pass on the other's identifier" (Vlassov and
// Montelius), on which their proof of safety rests: a lower rank goes round
// and its node elects itself too.
type forwardsLower struct{ ringbased.Protocol }

func (p forwardsLower) Receive(ctx *model.Ctx[ringbased.Msg], s ringbased.State, from model.NodeID, m ringbased.Msg) ringbased.State {
	if !m.Elected && m.Rank < ctx.MyRank() && s.Participant {
		ctx.Send(ctx.Next(), m)
		return s
	}
	return p.Protocol.Receive(ctx, s, from, m)
}

// passesLower is the ring-based election whose non-participant passes a
// lower rank on instead of putting its own in its place. The rule broken:
// "if the arrived identifier is smaller and the receiver is not a
// participant, then it substitutes its own identifier" (Vlassov and
// Montelius), which makes the highest rank the one that comes back: the
// lowest initiator's rank goes round unchallenged and it elects itself.
type passesLower struct{ ringbased.Protocol }

func (p passesLower) Receive(ctx *model.Ctx[ringbased.Msg], s ringbased.State, from model.NodeID, m ringbased.Msg) ringbased.State {
	if !m.Elected && m.Rank < ctx.MyRank() && !s.Participant {
		ctx.Send(ctx.Next(), m)
		s.Participant = true
		return s
	}
	return p.Protocol.Receive(ctx, s, from, m)
}

// causalNoHoldBack is causal multicast that delivers every message on
// receipt. The rule broken: the hold-back check, wait until V_j[j] =
// V_i[j] + 1 and V_j[k] ≤ V_i[k] (Vlassov and Montelius).
type causalNoHoldBack struct{ causal.Protocol }

func (causalNoHoldBack) Receive(ctx *model.Ctx[causal.Msg], s causal.State, _ model.NodeID, m causal.Msg) causal.State {
	s.Process = s.Deliver(ctx, m.Value)
	s.V = slices.Clone(s.V)
	s.V[m.Value.ID.Sender]++
	return s
}

// fifoNoHoldBack is FIFO multicast that delivers a message ahead of its
// turn and remembers the highest sequence number delivered. The rule
// broken: "deliver in turn, hold back the rest" (Vlassov and Montelius).
type fifoNoHoldBack struct{ fifo.Protocol }

func (fifoNoHoldBack) Receive(ctx *model.Ctx[fifo.Msg], s fifo.State, _ model.NodeID, m fifo.Msg) fifo.State {
	q, seq := m.Value.ID.Sender, m.Value.ID.Seq
	if seq == s.R[q] {
		return s // the one it delivered last, again
	}
	s.R = slices.Clone(s.R)
	s.Process = s.Deliver(ctx, m.Value)
	s.R[q] = max(s.R[q], seq)
	return s
}

// deliversCopies is R-multicast with R-deliver outside the "if m does not
// belong to Received" of Vlassov and Montelius: it relays a message once
// but delivers every copy, the relays of the others among them. The rule
// broken: "duplicates of the message are detected and not delivered".
type deliversCopies struct{ reliable.Protocol }

func (deliversCopies) Receive(ctx *model.Ctx[reliable.Msg], s reliable.State, _ model.NodeID, m reliable.Msg) reliable.State {
	if !s.Seen(m.Value) {
		s = s.WithReceived(m.Value)
		if m.Value.ID.Sender != ctx.Self() {
			s.Process = s.Send(ctx, multicast.Group(&ctx.Env), m)
		}
	}
	s.Process = s.Deliver(ctx, m.Value)
	return s
}

// causalForgetsOwn is causal multicast whose sender B-multicasts its
// message to the others and never CO-delivers it itself. The rule broken:
// the sender delivers its own message at once, after V_i[i] := V_i[i] + 1
// (Vlassov and Montelius).
type causalForgetsOwn struct{ causal.Protocol }

func (causalForgetsOwn) Do(ctx *model.Ctx[causal.Msg], s causal.State, a model.Action) causal.State {
	s.Process = multicast.Do(ctx, s.Process, a, func(p multicast.Process[causal.Msg], v multicast.Value) multicast.Process[causal.Msg] {
		s.V = slices.Clone(s.V)
		s.V[ctx.Self()]++
		return p.Send(ctx, multicast.Others(&ctx.Env), causal.Msg{Value: v, V: slices.Clone(s.V)})
	})
	return s
}

// causalNoTurnCheck is causal multicast whose hold-back test compares only
// the other senders' entries. The rule broken: the first half of the
// condition, V_j[j] = V_i[j] + 1 (Vlassov and Montelius): a copy of a
// message already delivered passes the test, and is delivered again.
type causalNoTurnCheck struct{ causal.Protocol }

func (causalNoTurnCheck) Receive(ctx *model.Ctx[causal.Msg], s causal.State, _ model.NodeID, m causal.Msg) causal.State {
	j := m.Value.ID.Sender
	for k, x := range m.V {
		if x > s.V[k] && model.NodeID(k) != j {
			s.HoldBack = append(slices.Clip(s.HoldBack), m)
			return s
		}
	}
	s.Process = s.Deliver(ctx, m.Value)
	s.V = slices.Clone(s.V)
	s.V[j]++
	return s
}

// isisAppliesAgain is ISIS total order whose node TO-delivers a message
// whenever an agreed number for it arrives, even one it has applied. The
// rule broken: a message is delivered once, when it reaches the head of
// the queue with its agreed number (Vlassov and Montelius); a copy of the
// agreed message delivers it twice.
type isisAppliesAgain struct{ isis.Protocol }

func (p isisAppliesAgain) Receive(ctx *model.Ctx[isis.Msg], s isis.State, from model.NodeID, m isis.Msg) isis.State {
	if m.Type == isis.Agreed && !slices.ContainsFunc(s.Queue, func(e isis.Entry) bool { return e.Value == m.Value }) {
		s.Process = s.Deliver(ctx, m.Value)
		return s
	}
	return p.Protocol.Receive(ctx, s, from, m)
}

// raByIDs is Ricart and Agrawala without the Lamport timestamps: a waiting
// node defers a request by its id alone. The rule broken: "(T, pj) <
// (Ti, pi)" (Ricart and Agrawala, as Vlassov and Montelius give it):
// mutual exclusion still holds, the ids ordering every pair, but a later
// request from a smaller id goes first.
type raByIDs struct{ ricartagrawala.Protocol }

func (p raByIDs) Receive(ctx *model.Ctx[ricartagrawala.Msg], s ricartagrawala.State, from model.NodeID, m ricartagrawala.Msg) ricartagrawala.State {
	if m.Reply {
		return p.Protocol.Receive(ctx, s, from, m)
	}
	s.Clock = max(s.Clock, m.T)
	if s.Phase == mutex.Held || s.Phase == mutex.Wanted && ctx.Self() < m.P {
		s.Queue = append(slices.Clip(s.Queue), m.P)
	} else {
		ctx.Send(m.P, ricartagrawala.Msg{Reply: true, T: s.Clock})
	}
	return s
}

// brokenVariant is a deliberately broken protocol that must fail the claim
// its broken rule guards, on cfg, where the shipped protocol keeps it.
// quick, if set, is a smaller configuration where it fails it too, for
// the quick tier where the searches of cfg take seconds.
type brokenVariant struct {
	protocol, claim string
	cfg             model.Config
	quick           *model.Config
	opt             checker.Options
	variant         func(t *testing.T, cfg model.Config) *checker.Machine
}

// config is the configuration the variant is searched on in the tier
// that runs.
func (v brokenVariant) config() model.Config {
	if v.quick != nil && !tier.IsLong() {
		return *v.quick
	}
	return v.cfg
}

// variantOf is a brokenVariant's compiler of p, the variant named variant
// of the shipped protocol (see compileVariant).
func variantOf[S, M any](shipped, variant string, p model.Protocol[S, M]) func(*testing.T, model.Config) *checker.Machine {
	return func(t *testing.T, cfg model.Config) *checker.Machine {
		return compileVariant(t, shipped, variant, p, cfg)
	}
}

// brokenVariants are the claims' failures that no scenario can show, the
// algorithm being right under every fault vigil models. The mutation
// check counts them among the runs that show each claim failing.
var brokenVariants = func() []brokenVariant {
	ring := model.Config{N: 3, Topology: "uniring"}
	senders := model.Config{N: 3, Channels: model.Unordered, Initiators: initiators(3, 0, 1), Params: map[string]int{"msgs": 2}}
	one := model.Config{N: 3, Channels: model.Unordered, Initiators: initiators(3, 0), Params: map[string]int{"msgs": 2}}
	copied := model.Config{N: 3, Channels: model.Unordered, Duplicates: 1, Initiators: initiators(3, 0), Params: map[string]int{"msgs": 1}}
	return []brokenVariant{
		{protocol: "ringbased", claim: "unique-leader", cfg: ring, variant: variantOf("ringbased", "election/ringbased-forwards-lower", forwardsLower{})},
		{protocol: "ringbased", claim: "highest-leader", cfg: model.Config{N: 3, Topology: "uniring", Initiators: initiators(3, 0)},
			variant: variantOf("ringbased", "election/ringbased-passes-lower", passesLower{})},
		{protocol: "causal", claim: "causal-order", cfg: senders, variant: variantOf("causal", "multicast/causal-no-hold-back", causalNoHoldBack{})},
		{protocol: "causal", claim: "fifo-order", cfg: one, variant: variantOf("causal", "multicast/causal-no-hold-back", causalNoHoldBack{})},
		{protocol: "causal", claim: "validity", cfg: one, variant: variantOf("causal", "multicast/causal-forgets-own", causalForgetsOwn{})},
		{protocol: "causal", claim: "integrity", cfg: copied, variant: variantOf("causal", "multicast/causal-no-turn-check", causalNoTurnCheck{})},
		{protocol: "isis", claim: "integrity", cfg: copied, variant: variantOf("isis", "multicast/isis-applies-again", isisAppliesAgain{})},
		{protocol: "fifo", claim: "fifo-order", cfg: one, variant: variantOf("fifo", "multicast/fifo-no-hold-back", fifoNoHoldBack{})},
		{protocol: "reliable", claim: "integrity", cfg: model.Config{N: 3, Channels: model.Unordered, Initiators: initiators(3, 0), Params: map[string]int{"msgs": 1}},
			variant: variantOf("reliable", "multicast/reliable-delivers-copies", deliversCopies{})},
		// TestDeliverBeforeRelayBreaksUniformAgreement reads its run
		{protocol: "reliable", claim: "uniform-agreement", cfg: deliverFirstConfig(2), quick: new(deliverFirstConfig(1)),
			variant: variantOf("reliable", "multicast/reliable-deliver-first", deliverFirst{})},
		{protocol: "ricartagrawala", claim: "request-order", cfg: model.Config{N: 3, Params: map[string]int{"requests": 1}},
			variant: variantOf("ricartagrawala", "mutex/ricartagrawala-by-ids", raByIDs{})},
		// TestStarvationLasso reads its lasso
		{protocol: "central", claim: "no-starvation", cfg: model.Config{N: 3, Params: map[string]int{"requests": 0}}, opt: checker.Options{Fairness: checker.WeakFairness},
			variant: variantOf("central", "mutex/central-lowest-first", lowestFirst{})},
	}
}()

// TestBrokenVariantsFailTheirClaims: each broken variant, searched
// exhaustively with the monitors of the shipped protocol's claims, fails
// the claim its broken rule guards; the shipped protocol passes the same
// configuration, so the failure is the variant's. The quick tier searches
// the smaller configuration of the variants that have one.
func TestBrokenVariantsFailTheirClaims(t *testing.T) {
	t.Parallel()
	for _, c := range brokenVariants {
		t.Run(c.protocol+"/"+c.claim, func(t *testing.T) {
			cfg := c.config()
			m := c.variant(t, cfg)
			r := checker.Exhaustive(context.Background(), m, c.opt)
			pr := r.Property(c.claim)
			require.NotNil(t, pr, "the shipped protocol does not claim %s", c.claim)
			require.Equal(t, checker.Fail, pr.Verdict, "the broken variant keeps %s", c.claim)
			back, err := checker.Replay(m, pr.Counterexample)
			require.NoError(t, err)
			// the replay names the first property the run violates: the
			// claim, or one the same broken rule breaks on the way
			require.NotEmpty(t, back.Property, "the counterexample does not replay to a violation")
			if back.Property == c.claim {
				require.Equal(t, pr.Detail, back.Detail)
			}

			shipped := exhaustiveRun(t, c.protocol, cfg, nil, c.opt)
			require.Equal(t, checker.Pass, shipped.Property(c.claim).Verdict, "the shipped protocol fails %s here too", c.claim)
		})
	}
}

// TestEveryClaimIsSeenFailing: a monitor must be seen catching a real run,
// not only the hand-built ones of its unit tables. Every property a
// protocol claims fails in at least one run: a scenario of the protocol
// that shows it failing, a broken variant (brokenVariants, which
// TestBrokenVariantsFailTheirClaims runs), or a handler mutant whose run a
// scenario catches failing it (the mutation check's golden counts them).
// A sometimes-property claimed must instead be seen reached: a shipped
// scenario's golden search keeps its witness.
func TestEveryClaimIsSeenFailing(t *testing.T) {
	t.Parallel()
	byMutants := mutantsShowingClaims(t)
	reached := witnessedClaims(t)
	for _, p := range protocols.All() {
		for _, claim := range claimsOf(p) {
			if prop, err := p.Property(claim); err == nil && prop.When == properties.Possibly {
				require.True(t, reached[p.Path()+" "+claim], "%s %s: no shipped scenario reaches it (testdata/verdicts.golden)", p.Path(), claim)
				continue
			}
			var seen []string
			for _, sc := range p.Scenarios {
				if sc.Expect == checker.Fail && sc.Shows == claim {
					seen = append(seen, "scenario "+sc.Name)
				}
			}
			for _, v := range brokenVariants {
				if q, err := protocols.Lookup(v.protocol); err == nil && q == p && v.claim == claim {
					seen = append(seen, "variant "+v.protocol+"/"+v.claim)
				}
			}
			n, ok := byMutants[p.Path()+" "+claim]
			require.True(t, ok, "testdata/mutation.golden says nothing of %s %s: run the mutation check (-mutate -update)", p.Path(), claim)
			if n > 0 {
				seen = append(seen, fmt.Sprintf("%d handler mutants", n))
			}
			require.NotEmpty(t, seen, "%s %s: no scenario, broken variant or handler mutant shows it failing", p.Path(), claim)
			t.Logf("%s %s: %s", p.Path(), claim, strings.Join(seen, "; "))
		}
	}
}

// witnessedClaims reads, from testdata/verdicts.golden, the sometimes-
// properties a scenario's search reached ("protocol claim").
func witnessedClaims(t *testing.T) map[string]bool {
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "verdicts.golden"))
	require.NoError(t, err)
	out := map[string]bool{}
	for _, block := range splitBlocks(string(b)) {
		lines := strings.Split(block, "\n")
		path := strings.Fields(lines[0])[0]
		for _, l := range lines[1:] {
			if name, _, ok := strings.Cut(strings.TrimSpace(l), " reached in "); ok {
				out[path+" "+name] = true
			}
		}
	}
	return out
}

// mutantsShowingClaims reads, from the mutation check's golden, how many
// handler mutants a scenario catches failing each claim ("protocol claim").
func mutantsShowingClaims(t *testing.T) map[string]int {
	f, err := os.Open(filepath.Join("..", "..", "testdata", "mutation.golden"))
	require.NoError(t, err)
	defer f.Close()
	out := map[string]int{}
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case line == claimsHeader:
			in = true
		case in && strings.HasPrefix(line, "  "):
			claim, rest, ok := strings.Cut(strings.TrimSpace(line), ": ")
			require.True(t, ok, "mutation.golden: %q", line)
			count, _, _ := strings.Cut(rest, ",")
			n, err := strconv.Atoi(count)
			require.NoError(t, err, "mutation.golden: %q", line)
			out[claim] = n
		case in:
			in = false
		}
	}
	return out
}
