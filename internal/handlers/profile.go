package handlers

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// Block is one line of a Go coverage profile (go tool covdata textfmt,
// go test -coverprofile): file:fromLine.col,toLine.col statements count.
type Block struct {
	File     string // import path of the package, then the file name
	From, To int    // lines
	Count    int
}

// ReadProfile reads the blocks of a Go coverage profile.
func ReadProfile(path string) ([]Block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read coverage profile: %w", err)
	}
	defer f.Close()
	var out []Block
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if n == 1 && strings.HasPrefix(line, "mode:") {
			continue
		}
		file, rest, ok1 := strings.Cut(line, ":")
		span, counts, ok2 := strings.Cut(rest, " ")
		from, to, ok3 := strings.Cut(span, ",")
		_, count, ok4 := strings.Cut(counts, " ")
		c, err := strconv.Atoi(count)
		fl, err1 := strconv.Atoi(strings.Split(from, ".")[0])
		tl, err2 := strconv.Atoi(strings.Split(to, ".")[0])
		if !ok1 || !ok2 || !ok3 || !ok4 || err != nil || err1 != nil || err2 != nil {
			return nil, fmt.Errorf("%s:%d is not a line of a Go coverage profile: %q", path, n, line)
		}
		out = append(out, Block{File: file, From: fl, To: tl, Count: c})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("cannot read coverage profile: %w", err)
	}
	return out, nil
}
