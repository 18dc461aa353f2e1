package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

func chartRows() []row {
	ideal := &idealFigures{P50: 2.5, P99: 6.2, P999: 8.8, ExtraLoad: 0.049}
	return []row{
		{Scenario: "gc-pauses", Policy: "NEVER", Latencies: 4000, P50: 2.5, P99: 75, P999: 100, Ideal: &idealFigures{P50: 2.5, P99: 77, P999: 99}, Trustworthy: true},
		{Scenario: "gc-pauses", Policy: "90p", Latencies: 4000, P50: 2.6, P99: 6.8, P999: 8.8, ExtraLoad: 0.049, Ideal: ideal, Trustworthy: true},
		{Scenario: "cluster-slowdown", Policy: "NEVER", Latencies: 4000, P50: 13.5, P99: 33, P999: 43, Trustworthy: true},
		{Scenario: "cluster-slowdown", Policy: "90p", Latencies: 4000, P50: 13.6, P99: 32, P999: 42, ExtraLoad: 0.055, Warning: "overloaded", Trustworthy: false},
	}
}

// drawChart draws rows to an SVG file and returns its text.
func drawChart(t *testing.T, rows []row) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "chart.svg")
	chart, err := createChartFile(path)
	require.NoError(t, err)
	require.NoError(t, drawPlot(rows, chart))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(b)
}

var svgHeight = regexp.MustCompile(`<svg width="([0-9.]+)pt" height="([0-9.]+)pt"`)

// Each scenario gets one row of two panels, as tall as the canvas allows:
// a chart of one scenario is that row and the key, nothing more.
func TestChartHeightIsItsScenarios(t *testing.T) {
	for _, tc := range []struct {
		rows      []row
		scenarios int
	}{{chartRows()[:2], 1}, {chartRows(), 2}} {
		m := svgHeight.FindStringSubmatch(drawChart(t, tc.rows))
		require.Len(t, m, 3)
		h, err := strconv.ParseFloat(m[2], 64)
		require.NoError(t, err)
		assert.InDelta(t, (keyHeight + vg.Length(tc.scenarios)*panelRow).Points(), h, 0.1)
	}
}

// Points are labelled with their policies, the key explains the marks,
// and an untrustworthy row says so.
func TestChartLabelsAndKey(t *testing.T) {
	svg := drawChart(t, chartRows())
	for _, text := range []string{">readsim<", ">ideal: the same model", ">gc-pauses: the trade-off<",
		">gc-pauses: percentiles<", ">NEVER<", ">90p<", ">90p (!)<", ">(!) overloaded machine: not trustworthy<", ">p50<", ">p99.9<"} {
		assert.Contains(t, svg, text)
	}
}

// A label goes where it covers nothing else: to the right of its point,
// else to its left, else above it.
func TestMarkLabelAvoidsWhatIsTaken(t *testing.T) {
	c := draw.New(vgimg.New(4*vg.Inch, 4*vg.Inch))
	m := &marks{style: plot.New().Legend.TextStyle}
	at := vg.Point{X: 2 * vg.Inch, Y: 2 * vg.Inch}
	right := m.place(c, at, markRadius, "90p", nil)
	assert.Greater(t, right.Min.X, at.X)
	left := m.place(c, at, markRadius, "90p", []vg.Rectangle{right})
	assert.Less(t, left.Max.X, at.X)
	above := m.place(c, at, markRadius, "90p", []vg.Rectangle{right, left})
	assert.Greater(t, above.Min.Y, at.Y)
	for _, r := range []vg.Rectangle{right, left, above} {
		assert.False(t, overlapsAny(r, []vg.Rectangle{square(at, markRadius)}), "the label covers its own point")
	}
	// At the canvas's right edge the right is out of bounds.
	edge := vg.Point{X: 4*vg.Inch - 2, Y: 2 * vg.Inch}
	assert.Less(t, m.place(c, edge, markRadius, "90p", nil).Max.X, edge.X)
}

func TestLogTicksStayReadable(t *testing.T) {
	values := func(lo, hi float64) []float64 {
		var v []float64
		for _, tk := range (oneTwoFive{}).Ticks(lo, hi) {
			v = append(v, tk.Value)
		}
		return v
	}
	assert.Equal(t, []float64{2, 5, 10, 20, 50, 100}, values(1.5, 150))
	assert.Equal(t, []float64{30, 50, 70, 100}, values(25, 110), "a narrow range gets more ticks")
}
