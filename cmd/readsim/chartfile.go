package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// chartFile is where the chart goes. Its path is checked before the run,
// by creating a temporary file beside it and removing it at once, so that
// a path readsim cannot write to fails at once rather than after the
// simulation; none is kept open through the run, as a Ctrl-C skips
// deferred calls and would leave it behind. The chart is written to a new
// temporary file and replaces the file the path names only once it is
// whole.
type chartFile struct {
	path string
	// target is the file path names, its symbolic links followed: the
	// chart replaces it, and a link stays. A target that is not a regular
	// file (a device, a pipe) is written into instead, in place.
	target string
	mode   fs.FileMode // the target's, if it exists
}

// createChartFile checks that path can be written; it returns nil for an
// empty path.
func createChartFile(path string) (*chartFile, error) {
	if path == "" {
		return nil, nil
	}
	target := resolve(path)
	mode, err := checkCreatable("-plot", target)
	if err != nil {
		return nil, err
	}
	return &chartFile{path: path, target: target, mode: mode}, nil
}

// resolve is path with its symbolic links followed, or path itself when
// it does not exist yet (or they cannot be followed).
func resolve(path string) string {
	if target, err := filepath.EvalSymlinks(path); err == nil {
		return target
	}
	return path
}

// checkCreatable checks that path, the value of flag, can be written, by
// checkWritable and, unless it exists and is not a regular file (a device
// such as /dev/null, written in place), by creating a temporary file
// beside it and removing it at once; it returns the mode checkWritable
// gives. It changes nothing.
func checkCreatable(flag, path string) (fs.FileMode, error) {
	mode, err := checkWritable(flag, path)
	if err != nil || !mode.IsRegular() {
		return mode.Perm(), err
	}
	tmp, err := createTemp(flag, path)
	if err != nil {
		return 0, err
	}
	if err := errors.Join(tmp.Close(), os.Remove(tmp.Name())); err != nil {
		return 0, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return mode.Perm(), nil
}

// createTemp creates a temporary file beside path, the value of flag.
func createTemp(flag, path string) (*os.File, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, fmt.Errorf("%s %s: cannot create a file in %s: %w", flag, path, dir, pathCause(err))
	}
	return tmp, nil
}

// checkWritable fails if path, the value of flag, exists and is a
// directory or cannot be opened for writing, and returns the mode the
// file it names gets: the existing file's, its type bits included, or a
// regular file's 0644. It changes nothing.
func checkWritable(flag, path string) (fs.FileMode, error) {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0o644, nil
	case err != nil:
		return 0, fmt.Errorf("%s %s: %w", flag, path, pathCause(err))
	case st.IsDir():
		return 0, fmt.Errorf("%s %s: is a directory", flag, path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return 0, fmt.Errorf("%s %s: %w", flag, path, pathCause(err))
	}
	return st.Mode().Type() | st.Mode().Perm(), f.Close()
}

// pathCause drops the *fs.PathError around err, whose path the message
// already names.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// commit writes the chart with write and moves it to its target, or
// writes it into a target that is not a regular file.
func (c *chartFile) commit(write func(io.Writer) error) error {
	if st, err := os.Stat(c.target); err == nil && !st.Mode().IsRegular() {
		return c.writeInPlace(write)
	}
	tmp, err := createTemp("-plot", c.target)
	if err != nil {
		return err
	}
	err = write(tmp)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), c.mode) // not CreateTemp's 0600
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.target)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("-plot %s: %w", c.path, err)
	}
	return nil
}

// writeInPlace writes the chart into its target, a device or a pipe.
func (c *chartFile) writeInPlace(write func(io.Writer) error) error {
	f, err := os.OpenFile(c.target, os.O_WRONLY|os.O_TRUNC, 0)
	if err == nil {
		err = write(f)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("-plot %s: %w", c.path, pathCause(err))
	}
	return nil
}
