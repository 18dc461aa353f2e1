package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// While the simulation runs, nothing sits beside the -plot path: a Ctrl-C
// (SIGINT) ends readsim without running its deferred calls, so a
// temporary file opened before the run was left behind as a hidden
// ".chart.svg.NNN", empty and mode 0600, next to the chart.
func TestPlotLeavesNothingWhileTheRunGoesOn(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "chart.svg")
	chart, err := createChartFile(path)
	require.NoError(t, err)
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries, "a file an interrupted run would leave")

	require.NoError(t, chart.commit(func(w io.Writer) error {
		_, err := io.WriteString(w, "<svg/>")
		return err
	}))
	entries, err = os.ReadDir(dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	assert.Equal(t, "chart.svg", entries[0].Name())
}
