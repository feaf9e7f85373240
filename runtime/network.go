package runtime

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"sync"
	"time"

	toxiproxy "github.com/Shopify/toxiproxy/v2"
	"github.com/rs/zerolog"
)

// network is the runner's Toxiproxy, in process: a proxy on every ordered
// link i → j, which node i dials to reach node j (NodeConfig.Links).
// Toxiproxy delays every link with a latency toxic, and cuts the links
// across a partition by disabling their proxies, which closes their
// connections: what is in flight on them is lost, as the model loses the
// messages across a cut. It cannot lose or duplicate one message of a
// framed stream, so the nodes' links do that (see control).
type network struct {
	mu      sync.Mutex
	proxies [][]*toxiproxy.Proxy // [i][j]; nil where i == j
	addrs   [][]string           // where node i dials node j
	cut     [][]bool
}

// newNetwork starts a proxy for every link between the nodes listening at
// peers, each delaying what it carries by a duration drawn in delay
// (none if delay[1] is zero). The delays keep each link's order: a latency
// toxic passes its connection's bytes on one at a time, each chunk after
// the one before it.
func newNetwork(peers []string, delay [2]time.Duration) (*network, error) {
	server := toxiproxy.NewServer(toxiproxy.NewMetricsContainer(nil), zerolog.Nop())
	n := len(peers)
	nw := &network{proxies: make([][]*toxiproxy.Proxy, n), addrs: make([][]string, n), cut: make([][]bool, n)}
	toxic, err := latencyToxic(delay)
	if err != nil {
		return nil, err
	}
	// the proxies listen outside the ephemeral ports too, so that a cut
	// proxy finds its port free when it heals (see freePorts)
	ports, err := freePorts(n * (n - 1))
	if err != nil {
		return nil, err
	}
	for i := range n {
		nw.proxies[i] = make([]*toxiproxy.Proxy, n)
		nw.addrs[i] = make([]string, n)
		nw.cut[i] = make([]bool, n)
		for j := range n {
			if i == j {
				nw.addrs[i][j] = peers[i]
				continue
			}
			p := toxiproxy.NewProxy(server, fmt.Sprintf("n%d-n%d", i, j), ports[0], peers[j])
			ports = ports[1:]
			if toxic != "" {
				// before the proxy starts, so that every connection
				// has it from its first byte
				if _, err := p.Toxics.AddToxicJson(strings.NewReader(toxic)); err != nil {
					nw.close()
					return nil, fmt.Errorf("the delay of n%d's link to n%d: %w", i, j, err)
				}
			}
			if err := p.Start(); err != nil {
				nw.close()
				return nil, fmt.Errorf("n%d's link to n%d cannot listen: %w", i, j, err)
			}
			nw.proxies[i][j] = p
			nw.addrs[i][j] = p.Listen
		}
	}
	return nw, nil
}

// latencyToxic is the JSON of a latency toxic on what a node sends, whose
// delays fall within delay: Toxiproxy draws latency ± jitter, in whole
// milliseconds, so the bounds are rounded inwards. "" if there is no delay.
func latencyToxic(delay [2]time.Duration) (string, error) {
	if delay[1] <= 0 {
		return "", nil
	}
	lo := int64(math.Ceil(float64(delay[0]) / float64(time.Millisecond)))
	hi := max(lo, int64(delay[1]/time.Millisecond))
	jitter := (hi - lo) / 2
	b, err := json.Marshal(map[string]any{
		"name": "delay", "type": "latency", "stream": "upstream", "toxicity": 1,
		"attributes": map[string]int64{"latency": lo + jitter, "jitter": jitter},
	})
	return string(b), err
}

// links are the addresses node i dials to reach each node.
func (nw *network) links(i int) []string { return nw.addrs[i] }

// split cuts exactly the links i → j for which across(i, j), and heals
// every other: a partition replaces the one before it. across nil heals
// them all. A link cut disables its proxy; one healed listens again at its
// address, and the error says so if it cannot.
func (nw *network) split(across func(i, j int) bool) error {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	var errs []error
	for i, row := range nw.proxies {
		for j, p := range row {
			if p == nil {
				continue
			}
			want := across != nil && across(i, j)
			switch {
			case want && !nw.cut[i][j]:
				p.Stop()
			case !want && nw.cut[i][j]:
				if err := p.Start(); err != nil {
					errs = append(errs, fmt.Errorf("n%d's link to n%d cannot listen again at %s: %w", i, j, nw.addrs[i][j], err))
					continue
				}
			}
			nw.cut[i][j] = want
		}
	}
	return errors.Join(errs...)
}

// close stops every proxy, closing its connections.
func (nw *network) close() {
	nw.mu.Lock()
	defer nw.mu.Unlock()
	for _, row := range nw.proxies {
		for _, p := range row {
			if p != nil {
				p.Stop()
			}
		}
	}
}
