package runtime

import (
	"bytes"
	"encoding/binary"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/vigil-check/vigil/tracelog"
)

func TestFramesRoundTrip(t *testing.T) {
	var buf bytes.Buffer
	in := envelope{Stamp: tracelog.Stamp{From: 1, Event: 2, Clock: []int{0, 2}}, Msg: []byte(`{"K":3}`)}
	require.NoError(t, writeFrame(&buf, hello{From: 1, PID: 7}))
	require.NoError(t, writeFrame(&buf, in))
	var h hello
	require.NoError(t, readFrame(&buf, &h))
	require.Equal(t, hello{From: 1, PID: 7}, h)
	var out envelope
	require.NoError(t, readFrame(&buf, &out))
	require.Equal(t, in, out)
}

func frame(n uint32, body string) []byte {
	b := binary.BigEndian.AppendUint32(nil, n)
	return append(b, body...)
}

// Whatever a peer sends, reading it is an error, never a panic or an
// allocation past MaxFrame.
func TestMalformedFramesAreErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		in   []byte
		err  string
	}{
		{"empty body", frame(0, ""), "a body of 0 bytes"},
		{"too large", frame(MaxFrame+1, ""), "a body of 16777217 bytes"},
		{"huge", []byte{0xff, 0xff, 0xff, 0xff}, "malformed frame"},
		{"cut body", frame(10, `{"from"`), "unexpected EOF"},
		{"cut head", []byte{0, 0}, "unexpected EOF"},
		{"not json", frame(3, "abc"), "malformed frame"},
		{"wrong type", frame(9, `{"from":"x"}`), "malformed frame"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var h hello
			require.ErrorContains(t, readFrame(bytes.NewReader(c.in), &h), c.err)
		})
	}
}

func FuzzReadFrame(f *testing.F) {
	var buf bytes.Buffer
	writeFrame(&buf, envelope{Stamp: tracelog.Stamp{From: 0, Event: 1, Clock: []int{1}}, Msg: []byte(`{}`)})
	f.Add(buf.Bytes())
	f.Add(frame(5, `{"a":`))
	f.Add([]byte{0, 0, 0, 1, '{'})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		for {
			var env envelope
			if readFrame(r, &env) != nil {
				return
			}
		}
	})
}
