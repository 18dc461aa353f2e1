package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func commitSVG(t *testing.T, path string) {
	t.Helper()
	chart, err := createChartFile(path)
	require.NoError(t, err)
	require.NoError(t, chart.commit(func(w io.Writer) error {
		_, err := io.WriteString(w, "<svg/>")
		return err
	}))
}

// A -plot path that is a symbolic link is written through: the chart
// lands in the file it names and the link stays. The chart was renamed
// over the link, which became a regular file, and the file it named kept
// its old chart.
func TestPlotWritesThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.svg")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o640))
	link := filepath.Join(dir, "chart.svg")
	require.NoError(t, os.Symlink(target, link))

	commitSVG(t, link)
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, st.Mode().Type(), "the link was replaced")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "<svg/>", string(got))
	st, err = os.Stat(target)
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o640), st.Mode().Perm())
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "a temporary file left behind")
}

// A -plot path that names a device, as a link to /dev/null does, is
// written into: no temporary file beside it, and the device stays one.
// The chart was renamed over it (as root, over /dev/null itself when
// linked to it).
func TestPlotIntoADevice(t *testing.T) {
	if _, err := os.Stat(os.DevNull); err != nil {
		t.Skip("no", os.DevNull)
	}
	dir := t.TempDir()
	link := filepath.Join(dir, "chart.svg")
	require.NoError(t, os.Symlink(os.DevNull, link))
	before, err := os.Stat(os.DevNull)
	require.NoError(t, err)

	commitSVG(t, link)
	after, err := os.Stat(os.DevNull)
	require.NoError(t, err)
	assert.Equal(t, before.Mode(), after.Mode(), "%s is no longer the device", os.DevNull)
	st, err := os.Lstat(link)
	require.NoError(t, err)
	assert.Equal(t, fs.ModeSymlink, st.Mode().Type(), "the link was replaced")
}
