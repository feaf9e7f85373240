package service

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"

	"github.com/vigil-check/vigil/tracelog"
)

// msgKind names a message on the service's wire.
type msgKind string

const (
	prepare msgKind = "prepare"  // the coordinator asks a participant to prepare
	voteYes msgKind = "vote-yes" // a participant is prepared to commit
	voteNo  msgKind = "vote-no"  // a participant aborted
	commit  msgKind = "commit"   // the coordinator's decision: commit
	abort   msgKind = "abort"    // the coordinator's decision: abort
)

// message is a message of the service.
type message struct {
	Kind msgKind `json:"kind"`
}

// modelMsg has the JSON shape of the model's message, twopc.Msg: its
// Type numbers canCommit?, yes, no, doCommit and doAbort from 1.
type modelMsg struct {
	Type uint8
}

// modelTypes numbers the service's messages as the model's MsgType does.
var modelTypes = map[msgKind]uint8{prepare: 1, voteYes: 2, voteNo: 3, commit: 4, abort: 5}

// logged is m as the log records it: the model's message.
func (m message) logged() modelMsg { return modelMsg{Type: modelTypes[m.Kind]} }

// The model's texts the logs use: the participants' votes (the model's
// local actions), the observations as model.Obs prints them, and the
// coordinator's timer on participant j's vote, as twopc.VoteTimer prints.
const (
	actionVoteYes    = "vote yes"
	actionVoteNo     = "vote no"
	obsVotedYes      = "voted=yes"
	obsVotedNo       = "voted=no"
	obsDecidedCommit = "decided=commit"
	obsDecidedAbort  = "decided=abort"
)

func voteTimerName(j int) string { return "vote-n" + strconv.Itoa(j) }

// frame is what goes on the wire: a message and the stamp of its send.
// On the wire a frame is its JSON after its length, 4 bytes big-endian.
type frame struct {
	Stamp tracelog.Stamp `json:"stamp"`
	Msg   message        `json:"msg"`
}

// maxFrame bounds a frame read: the service's are a few hundred bytes.
const maxFrame = 1 << 16

func writeFrame(w io.Writer, f frame) error {
	body, err := json.Marshal(f)
	if err != nil {
		return err
	}
	buf := binary.BigEndian.AppendUint32(make([]byte, 0, 4+len(body)), uint32(len(body)))
	_, err = w.Write(append(buf, body...))
	return err
}

func readFrame(r io.Reader) (frame, error) {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return frame{}, err
	}
	size := binary.BigEndian.Uint32(head[:])
	if size > maxFrame {
		return frame{}, fmt.Errorf("a frame of %d bytes, more than %d", size, maxFrame)
	}
	body := make([]byte, size)
	if _, err := io.ReadFull(r, body); err != nil {
		return frame{}, err
	}
	var f frame
	if err := json.Unmarshal(body, &f); err != nil {
		return frame{}, fmt.Errorf("a frame that is not a message: %w", err)
	}
	return f, nil
}

// checkFrame refuses a frame node self of n cannot take: from itself or
// from outside the run, with a stamp of another run's size, or of a kind
// the service does not have.
func checkFrame(f frame, self, n int) error {
	switch {
	case f.Stamp.From < 0 || f.Stamp.From >= n || f.Stamp.From == self:
		return fmt.Errorf("a frame from n%d", f.Stamp.From)
	case len(f.Stamp.Clock) != n:
		return fmt.Errorf("a frame stamped with %d clock entries for %d nodes", len(f.Stamp.Clock), n)
	case modelTypes[f.Msg.Kind] == 0:
		return fmt.Errorf("a frame of unknown kind %q", f.Msg.Kind)
	}
	return nil
}

// link is a node's connection to one peer, for the frames it sends.
type link struct {
	mu   sync.Mutex
	conn net.Conn
}

// dialWait bounds how long a node tries to reach a peer that does not
// listen yet.
const dialWait = 2 * time.Second

// transmit sends f to node to, dialling it the first time.
func (n *node) transmit(to int, f frame) error {
	l, err := n.link(to)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.conn.SetWriteDeadline(time.Now().Add(dialWait)); err != nil {
		return err
	}
	return writeFrame(l.conn, f)
}

func (n *node) link(to int) (*link, error) {
	n.linksMu.Lock()
	defer n.linksMu.Unlock()
	if l, ok := n.links[to]; ok {
		return l, nil
	}
	if n.c.ctx.Err() != nil {
		return nil, errors.New("the run is stopping")
	}
	deadline := time.Now().Add(dialWait)
	for {
		conn, err := net.DialTimeout("tcp", n.c.addrs[to], dialWait)
		if err == nil {
			l := &link{conn: conn}
			n.links[to] = l
			return l, nil
		}
		if time.Now().After(deadline) {
			return nil, err
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// closeLinks closes the node's connections, both ways, which ends their
// readers.
func (n *node) closeLinks() {
	n.linksMu.Lock()
	defer n.linksMu.Unlock()
	for _, l := range n.links {
		l.conn.Close()
	}
	for _, conn := range n.inbound {
		conn.Close()
	}
}

// accept takes the node's incoming connections, a reader for each.
func (n *node) accept() {
	defer n.c.wg.Done()
	for {
		conn, err := n.ln.Accept()
		if err != nil {
			n.c.fail(err)
			return
		}
		n.linksMu.Lock()
		if n.c.ctx.Err() != nil {
			n.linksMu.Unlock()
			conn.Close()
			return
		}
		n.inbound = append(n.inbound, conn)
		n.linksMu.Unlock()
		n.c.wg.Add(1)
		go n.read(conn)
	}
}

// read hands the node the frames of one connection, in their order. A
// frame it cannot take ends the connection.
func (n *node) read(conn net.Conn) {
	defer n.c.wg.Done()
	defer conn.Close()
	for {
		f, err := readFrame(conn)
		if err == nil {
			err = checkFrame(f, n.id, n.c.opts.N)
		}
		if errors.Is(err, io.EOF) {
			return
		}
		if err != nil {
			n.c.fail(fmt.Errorf("n%d reads: %w", n.id, err))
			return
		}
		n.push(event{kind: received, frame: f})
	}
}
