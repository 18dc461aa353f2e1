package main

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

const markRadius = 3.5

// tradeoffPanel plots a scenario's p99 against its extra load: one point
// per policy, labelled with its name, and the ideal of each beside it,
// hollow, joined to it by a dotted line.
func tradeoffPanel(name string, rows []row, colors map[string]color.Color) *plot.Plot {
	p := newPanel(name + ": the trade-off")
	p.X.Label.Text = "extra: speculative replica reads (% of NEVER's)"
	p.Y.Label.Text = "p99 (ms)"
	m := &marks{style: labelStyle(p)}
	lo, hi, right := math.Inf(1), 0.0, 0.0
	for _, r := range rows {
		x, c := 100*r.ExtraLoad, colors[r.Policy]
		if r.Ideal != nil {
			ix := 100 * r.Ideal.ExtraLoad
			p.Add(gapLine(ix, r.Ideal.P99, x, r.P99, c))
			m.points = append(m.points, mark{x: ix, y: r.Ideal.P99, glyph: ring(c)})
			lo, hi, right = min(lo, r.Ideal.P99), max(hi, r.Ideal.P99), max(right, ix)
		}
		m.points = append(m.points, mark{x: x, y: r.P99, glyph: dot(c), label: label(r), color: c})
		lo, hi, right = min(lo, r.P99), max(hi, r.P99), max(right, x)
	}
	p.Add(m)
	logAxis(p, lo, hi)
	p.X.Min, p.X.Max = -0.06*max(right, 1), 1.25*max(right, 1) // room for the labels
	return p
}

// percentilePanel plots a scenario's p50, p99 and p99.9 per policy, the
// ideal's p50 and p99 hollow beside them, each percentile named at its
// last policy. No lines: the policies are categories, not a continuum.
func percentilePanel(name string, rows []row) *plot.Plot {
	p := newPanel(name + ": percentiles")
	p.Y.Label.Text = "ms"
	policies := make([]string, len(rows))
	for i, r := range rows {
		policies[i] = r.Policy
		if !r.Trustworthy { // marked as in the trade-off, on a line of its own to fit
			policies[i] += "\n(!)"
		}
	}
	p.NominalX(policies...)
	m := &marks{style: labelStyle(p)}
	lo, hi := math.Inf(1), 0.0
	for i, q := range quantiles {
		c := quantileColors[i]
		for j, r := range rows {
			v := q.real(r)
			lbl := ""
			if j == len(rows)-1 {
				lbl = q.name
			}
			m.points = append(m.points, mark{x: float64(j), y: v, glyph: dot(c), label: lbl, color: c})
			if iv, ok := q.ideal(r); ok {
				m.points = append(m.points, mark{x: float64(j) + 0.22, y: iv, glyph: ring(c)})
				lo, hi = min(lo, iv), max(hi, iv)
			}
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	p.Add(m)
	logAxis(p, lo, hi)
	p.X.Min, p.X.Max = -0.5, float64(len(rows))-0.5+0.5 // room for the line names
	return p
}

// quantiles are the percentile panel's lines.
var quantiles = []struct {
	name  string
	real  func(row) float64
	ideal func(row) (float64, bool)
}{
	{"p50", func(r row) float64 { return r.P50 }, func(r row) (float64, bool) { return idealOf(r, func(f *idealFigures) float64 { return f.P50 }) }},
	{"p99", func(r row) float64 { return r.P99 }, func(r row) (float64, bool) { return idealOf(r, func(f *idealFigures) float64 { return f.P99 }) }},
	{"p99.9", func(r row) float64 { return r.P999 }, func(row) (float64, bool) { return 0, false }},
}

func idealOf(r row, pick func(*idealFigures) float64) (float64, bool) {
	if r.Ideal == nil {
		return 0, false
	}
	return pick(r.Ideal), true
}

var quantileColors = []color.Color{
	color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
}

func newPanel(title string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Add(plotter.NewGrid())
	return p
}

func labelStyle(p *plot.Plot) draw.TextStyle {
	sty := p.Legend.TextStyle
	sty.Font.Size = vg.Points(9)
	return sty
}

func dot(c color.Color) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: markRadius, Shape: draw.CircleGlyph{}}
}

func ring(c color.Color) draw.GlyphStyle {
	return draw.GlyphStyle{Color: c, Radius: markRadius, Shape: draw.RingGlyph{}}
}

// gapLine joins a policy's ideal to readsim's figure.
func gapLine(x0, y0, x1, y1 float64, c color.Color) *plotter.Line {
	l, _ := plotter.NewLine(plotter.XYs{{X: x0, Y: y0}, {X: x1, Y: y1}}) // finite points: never an error
	l.Color = c
	l.Dashes = []vg.Length{vg.Points(1), vg.Points(2)}
	return l
}
