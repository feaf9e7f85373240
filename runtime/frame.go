package runtime

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// MaxFrame bounds a frame's body: a peer that announces more is refused
// before the memory is spent.
const MaxFrame = 16 << 20

// A frame is a 4-byte big-endian length, then that many bytes of JSON.
// Every connection between two nodes begins with a hello, then carries
// envelopes; a node's connection to the runner begins with a hello, then
// carries the node's log records.

// hello opens a connection: who dials, and from which process.
type hello struct {
	From int `json:"from"`
	PID  int `json:"pid,omitempty"`
}

// writeFrame writes v as one frame.
func writeFrame(w io.Writer, v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if len(body) > MaxFrame {
		return fmt.Errorf("a frame of %d bytes, over the bound of %d", len(body), MaxFrame)
	}
	buf := make([]byte, 4, 4+len(body))
	binary.BigEndian.PutUint32(buf, uint32(len(body)))
	_, err = w.Write(append(buf, body...))
	return err
}

// errFrame is a frame that is not what the protocol between nodes says.
var errFrame = errors.New("malformed frame")

// readFrame reads one frame into v. Whatever the peer sends, it returns
// an error rather than panicking or allocating past MaxFrame; io.EOF means
// the peer closed the connection between frames.
func readFrame(r io.Reader, v any) error {
	var head [4]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return err
	}
	n := binary.BigEndian.Uint32(head[:])
	if n == 0 || n > MaxFrame {
		return fmt.Errorf("%w: a body of %d bytes", errFrame, n)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return fmt.Errorf("%w: %v", errFrame, err)
	}
	return nil
}
