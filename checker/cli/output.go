package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// outputFile is a file a command writes once its work is done (-trace,
// -html), opened before the work starts: a path that cannot be written is
// refused at once, not after minutes of search, and a failed write never
// leaves half a file. A regular file is written beside its path, in a
// temporary file of the same directory, and renamed onto it by Commit;
// one that is not (a terminal, a pipe, /dev/stdout) is written in place.
//
//	out, err := openOutput(path, "counterexample (-trace)")
//	if err != nil {
//		return usageError{err}
//	}
//	defer out.Close() // abandons it unless committed
//	... the work ...
//	if err := out.Commit(data); err != nil {
//		fmt.Fprintf(stderr, "vigil: warning: %v\n", err) // the result stands
//	}
type outputFile struct {
	path   string   // as the user gave it, for errors
	what   string   // what is written there, for errors
	target string   // the file renamed onto (path, its symlinks resolved)
	tmp    *os.File // the temporary file beside target; nil when written in place
	direct *os.File // path itself, when it is no regular file
	done   bool     // committed or abandoned
}

// openOutput opens path to write what (e.g. "counterexample (-trace)") in,
// making its directory if needed. Its error names the path and what, in
// one line.
func openOutput(path, what string) (*outputFile, error) {
	o := &outputFile{path: path, what: what, target: path}
	fail := func(err error) (*outputFile, error) {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot write the %s to %s: %v", what, path, err)
	}
	if st, err := os.Stat(path); err == nil {
		switch {
		case st.IsDir():
			return fail(errors.New("it is a directory"))
		case !st.Mode().IsRegular():
			if o.direct, err = os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0); err != nil {
				return fail(err)
			}
			return o, nil
		}
		if o.target, err = filepath.EvalSymlinks(path); err != nil {
			return fail(err)
		}
	}
	dir := filepath.Dir(o.target)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fail(err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(o.target)+".*.tmp")
	if err != nil {
		return fail(err)
	}
	o.tmp = tmp
	return o, nil
}

// Commit writes data as the whole file and closes it: a regular file
// appears at its path, whole, only if every write succeeded. Its error
// names the path and what, in one line.
func (o *outputFile) Commit(data []byte) error {
	if o.done {
		return fmt.Errorf("the %s to %s was already written or abandoned", o.what, o.path)
	}
	o.done = true
	fail := func(err error) error {
		if o.tmp != nil {
			o.tmp.Close()
			os.Remove(o.tmp.Name())
		}
		var pe *os.PathError
		var le *os.LinkError
		switch {
		case errors.As(err, &pe):
			err = pe.Err
		case errors.As(err, &le):
			err = le.Err
		}
		return fmt.Errorf("writing the %s to %s: %v", o.what, o.path, err)
	}
	if o.direct != nil {
		_, err := o.direct.Write(data)
		if cerr := o.direct.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(err)
		}
		return nil
	}
	mode := os.FileMode(0o644)
	if st, err := os.Stat(o.target); err == nil {
		mode = st.Mode().Perm() // as the file it replaces
	}
	if _, err := o.tmp.Write(data); err != nil {
		return fail(err)
	}
	if err := o.tmp.Chmod(mode); err != nil {
		return fail(err)
	}
	if err := o.tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(o.tmp.Name(), o.target); err != nil {
		return fail(err)
	}
	return nil
}

// Close abandons the file unless it was committed: the temporary file is
// removed, and the path is left as it was. It may be called more than
// once, and after Commit.
func (o *outputFile) Close() error {
	if o.done {
		return nil
	}
	o.done = true
	if o.direct != nil {
		return o.direct.Close()
	}
	o.tmp.Close()
	return os.Remove(o.tmp.Name())
}
