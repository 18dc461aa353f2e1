package main

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The chart's geometry: a row of two panels per scenario under a key.
const (
	chartWidth = 11 * vg.Inch
	panelRow   = 3.4 * vg.Inch
	keyHeight  = 0.45 * vg.Inch
	pngDPI     = 150
)

// drawPlot draws the chart of rows into chart: for each scenario, its tail
// latency against its extra load (the trade-off each policy makes) and its
// percentiles per policy, readsim's figures filled and the ideal hollow.
func drawPlot(rows []row, chart *chartFile) error {
	names := scenarioOrder(rows)
	h := keyHeight + vg.Length(len(names))*panelRow
	c := newCanvas(chart.path, chartWidth, h)
	dc := draw.New(c)
	drawKey(draw.Crop(dc, 0, 0, h-keyHeight, 0), rows)
	colors := policyColors(rows)
	panels := make([][]*plot.Plot, len(names))
	for i, name := range names {
		own := rowsOf(rows, name)
		panels[i] = []*plot.Plot{tradeoffPanel(name, own, colors), percentilePanel(name, own)}
	}
	tiles := draw.Tiles{Rows: len(names), Cols: 2, PadX: vg.Millimeter * 6, PadY: vg.Millimeter * 6,
		PadTop: vg.Millimeter * 2, PadBottom: vg.Millimeter * 2, PadLeft: vg.Millimeter * 2, PadRight: vg.Millimeter * 3}
	canvases := plot.Align(panels, tiles, draw.Crop(dc, 0, 0, 0, -keyHeight))
	for i := range panels {
		for j, p := range panels[i] {
			p.Draw(canvases[i][j])
		}
	}
	return chart.commit(func(w io.Writer) error {
		_, err := c.WriteTo(w)
		return err
	})
}

// newCanvas returns an SVG canvas for a .svg path, else a PNG one.
func newCanvas(path string, w, h vg.Length) vg.CanvasWriterTo {
	if strings.EqualFold(filepath.Ext(path), ".svg") {
		return vgsvg.New(w, h)
	}
	return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(pngDPI))}
}

// drawKey explains the marks once, above every panel, so that no legend
// sits on data.
func drawKey(c draw.Canvas, rows []row) {
	sty := plot.New().Legend.TextStyle
	y := c.Min.Y + (c.Max.Y-c.Min.Y)/2
	x := c.Min.X + vg.Millimeter*4
	grey := color.Gray{Y: 0x40}
	x = keyItem(c, sty, x, y, draw.GlyphStyle{Color: grey, Radius: 3.5, Shape: draw.CircleGlyph{}}, "readsim")
	x = keyItem(c, sty, x, y, draw.GlyphStyle{Color: grey, Radius: 3.5, Shape: draw.RingGlyph{}},
		"ideal: the same model with zero coordinator and runtime overhead (dotted: the gap)")
	if anyRow(rows, func(r row) bool { return !r.Trustworthy }) {
		keyItem(c, sty, x, y, draw.GlyphStyle{}, "(!) overloaded machine: not trustworthy")
	}
}

// keyItem draws a glyph and its text at x and returns where the next goes.
func keyItem(c draw.Canvas, sty draw.TextStyle, x, y vg.Length, g draw.GlyphStyle, txt string) vg.Length {
	if g.Shape != nil {
		c.DrawGlyph(g, vg.Point{X: x, Y: y})
		x += g.Radius + vg.Millimeter*1.5
	}
	sty.YAlign = draw.YCenter
	c.FillText(sty, vg.Point{X: x, Y: y}, txt)
	return x + sty.Width(txt) + vg.Millimeter*6
}

// palette holds one color per policy, in the order policies first appear.
var palette = []color.Color{
	color.RGBA{R: 0x4e, G: 0x79, B: 0xa7, A: 0xff}, color.RGBA{R: 0xf2, G: 0x8e, B: 0x2b, A: 0xff},
	color.RGBA{R: 0xe1, G: 0x57, B: 0x59, A: 0xff}, color.RGBA{R: 0x59, G: 0xa1, B: 0x4f, A: 0xff},
	color.RGBA{R: 0xb0, G: 0x7a, B: 0xa1, A: 0xff}, color.RGBA{R: 0x9c, G: 0x75, B: 0x5f, A: 0xff},
	color.RGBA{R: 0x76, G: 0xb7, B: 0xb2, A: 0xff}, color.RGBA{R: 0xed, G: 0xc9, B: 0x48, A: 0xff},
}

func policyColors(rows []row) map[string]color.Color {
	colors := map[string]color.Color{}
	for _, r := range rows {
		if _, ok := colors[r.Policy]; !ok {
			colors[r.Policy] = palette[len(colors)%len(palette)]
		}
	}
	return colors
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

// logAxis puts a panel's y axis on a log scale from lo to hi (ms), with
// headroom for labels.
func logAxis(p *plot.Plot, lo, hi float64) {
	p.Y.Scale = plot.LogScale{}
	p.Y.Tick.Marker = oneTwoFive{}
	p.Y.Min, p.Y.Max = max(lo, 0.01)/1.4, max(hi, 0.01)*1.6
}

// oneTwoFive labels a log axis at 1, 2, 5, 10, 20, 50…, or at 1, 1.5, 2,
// 3, 5, 7, 10… when that leaves fewer than three labels, so that every panel has
// readable ticks, however narrow its range.
type oneTwoFive struct{}

func (oneTwoFive) Ticks(lo, hi float64) []plot.Tick {
	if ticks := logTicks(lo, hi, []float64{1, 2, 5}); len(ticks) >= 3 {
		return ticks
	}
	return logTicks(lo, hi, []float64{1, 1.5, 2, 3, 5, 7})
}

func logTicks(lo, hi float64, steps []float64) []plot.Tick {
	var ticks []plot.Tick
	for decade := math.Pow(10, math.Floor(math.Log10(lo))); decade <= hi; decade *= 10 {
		for _, m := range steps {
			if v := m * decade; v >= lo && v <= hi {
				ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'g', -1, 64)})
			}
		}
	}
	return ticks
}

// label is a row's name on a chart: its policy, marked when the machine
// was overloaded.
func label(r row) string {
	if !r.Trustworthy {
		return fmt.Sprintf("%s (!)", r.Policy)
	}
	return r.Policy
}
