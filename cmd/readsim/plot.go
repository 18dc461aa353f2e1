package main

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// drawPlot draws one panel per scenario: p50, p99 and p99.9 of each policy
// on a log scale, and writes it as SVG or PNG by path's extension.
func drawPlot(rows []row, path string) error {
	names := scenarioOrder(rows)
	cols := 2
	tileRows := (len(names) + cols - 1) / cols
	w, h := 8*vg.Inch, vg.Length(tileRows)*3*vg.Inch
	var c vg.CanvasWriterTo = vgimg.PngCanvas{Canvas: vgimg.New(w, h)}
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		c = vgsvg.New(w, h)
	}
	panels := make([][]*plot.Plot, tileRows)
	for i := range panels {
		panels[i] = make([]*plot.Plot, cols)
	}
	for i, name := range names {
		p, err := panel(name, rowsOf(rows, name))
		if err != nil {
			return err
		}
		panels[i/cols][i%cols] = p
	}
	tiles := draw.Tiles{Rows: tileRows, Cols: cols, PadX: vg.Millimeter * 4, PadY: vg.Millimeter * 4,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 2}
	canvases := plot.Align(panels, tiles, draw.New(c))
	for i := range names {
		panels[i/cols][i%cols].Draw(canvases[i/cols][i%cols])
	}
	return writeCanvas(c, path)
}

// panel plots one scenario.
func panel(name string, rows []row) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = name
	p.Y.Label.Text = "ms"
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = oneTwoFive{}
	policies := make([]string, len(rows))
	for i, r := range rows {
		policies[i] = r.Policy
	}
	p.NominalX(policies...)
	lo, hi := latencyRange(rows)
	p.Y.Min, p.Y.Max = lo/1.5, hi*4 // headroom above the lines for the legend
	p.Legend.Top = true
	p.Legend.Left = true
	p.Legend.XOffs = vg.Millimeter * 2
	for i, q := range []struct {
		name string
		get  func(row) float64
	}{{"p50", func(r row) float64 { return r.P50 }}, {"p99", func(r row) float64 { return r.P99 }}, {"p99.9", func(r row) float64 { return r.P999 }}} {
		pts := make(plotter.XYs, len(rows))
		for i, r := range rows {
			pts[i] = plotter.XY{X: float64(i), Y: max(q.get(r), 0.01)}
		}
		if err := addLine(p, q.name, plotColors[i], pts); err != nil {
			return nil, fmt.Errorf("plot %s: %w", name, err)
		}
	}
	return p, nil
}

func addLine(p *plot.Plot, name string, c color.Color, pts plotter.XYs) error {
	l, s, err := plotter.NewLinePoints(pts)
	if err != nil {
		return err
	}
	l.Color, s.Color = c, c
	p.Add(l, s)
	p.Legend.Add(name, l, s)
	return nil
}

var plotColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
}

func writeCanvas(c vg.CanvasWriterTo, path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// scenarioOrder lists the scenarios in the order the rows have them.
func scenarioOrder(rows []row) []string {
	var names []string
	for _, r := range rows {
		if len(names) == 0 || names[len(names)-1] != r.Scenario {
			names = append(names, r.Scenario)
		}
	}
	return names
}

func rowsOf(rows []row, scenario string) []row {
	var out []row
	for _, r := range rows {
		if r.Scenario == scenario {
			out = append(out, r)
		}
	}
	return out
}

// latencyRange returns the smallest and largest latency the panel plots.
func latencyRange(rows []row) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	for _, r := range rows {
		lo, hi = min(lo, r.P50, r.P99, r.P999), max(hi, r.P50, r.P99, r.P999)
	}
	return max(lo, 0.01), max(hi, 0.01)
}

// oneTwoFive labels a log axis at 1, 2, 5, 10, 20, 50… so that every panel
// has readable ticks, however narrow its range.
type oneTwoFive struct{}

func (oneTwoFive) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	for decade := math.Pow(10, math.Floor(math.Log10(lo))); decade <= hi; decade *= 10 {
		for _, m := range []float64{1, 2, 5} {
			if v := m * decade; v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ticks
}
