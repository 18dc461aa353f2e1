package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A chart that cannot be written at the end (its folder went away during
// the run) is an error, but the rows the run took minutes to measure are
// printed first, as a table or as JSON: the error used to come instead of
// them.
func TestRowsArePrintedWhenThePlotFails(t *testing.T) {
	for _, asJSON := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "charts")
		require.NoError(t, os.Mkdir(dir, 0o755))
		path := filepath.Join(dir, "chart.svg")
		chart, err := createChartFile(path)
		require.NoError(t, err)
		require.NoError(t, os.Remove(dir))

		var out bytes.Buffer
		err = report(chartRows(), options{json: asJSON, plot: path, chart: chart}, &out)
		assert.ErrorContains(t, err, "-plot "+path)
		if asJSON {
			var rows []row
			assert.NoError(t, json.Unmarshal(out.Bytes(), &rows))
			assert.Len(t, rows, len(chartRows()))
		} else {
			assert.Equal(t, renderRows(chartRows()), out.String(), "the table, and no plot: line")
		}
	}
}
