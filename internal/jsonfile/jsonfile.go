// Package jsonfile reads the JSON files vigil's tools take from users,
// shards and traces, which may be anything: whole and within a size cap, as
// one JSON value with nothing after it, so that a file too large, endless
// (/dev/zero) or with trailing data is refused with one line that says so,
// before any of it is used.
package jsonfile

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Read decodes the file at path, of at most limit bytes, into v. what
// names the kind of file for errors ("a shard of a vigil search"), which
// name the file and say in one line what is wrong.
func Read(path string, limit int64, what string, v any) error {
	b, err := ReadCapped(path, limit, what)
	if err != nil {
		return err
	}
	if err := Decode(b, v); err != nil {
		return fmt.Errorf("%s is not %s: %w", path, what, err)
	}
	return nil
}

// ReadParsed reads the file at path, of at most limit bytes, with parse,
// which validates what it reads; what is wrong with the contents is said
// after the file's name.
func ReadParsed[T any](path string, limit int64, what string, parse func([]byte) (T, error)) (T, error) {
	var none T
	b, err := ReadCapped(path, limit, what)
	if err != nil {
		return none, err
	}
	v, err := parse(b)
	if err != nil {
		return none, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// ReadCapped reads the whole file at path, and refuses one of more than
// limit bytes without reading past limit+1.
func ReadCapped(path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read %s: %v", path, err)
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s is larger than the cap of %s for %s", path, Size(limit), what)
	}
	return b, nil
}

// Decode decodes b, one JSON value and nothing after it but white space,
// into v.
func Decode(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(v); err != nil {
		if errors.Is(err, io.EOF) {
			return errors.New("it is empty")
		}
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fmt.Errorf("%v (at byte %d)", err, se.Offset)
		}
		return err
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("trailing data after its JSON value, from byte %d", end)
	}
	return nil
}

// Size writes a number of bytes as people read it: "64 MiB", "3 KiB",
// "100 bytes".
func Size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
