package main

import (
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// marks is a plotter of points, each drawn as a glyph with an optional
// label beside it. A label goes where it covers no other label and no
// glyph, trying the right of its point first, so that points labelled
// directly need no legend, and no legend covers data.
type marks struct {
	points []mark
	style  text.Style // of the labels; set by the panel
}

// mark is one point of marks.
type mark struct {
	x, y  float64
	glyph draw.GlyphStyle
	label string // "" for none
	color color.Color
}

// Plot draws the glyphs, then places and draws the labels.
func (m *marks) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var taken []vg.Rectangle
	for _, pt := range m.points {
		at := vg.Point{X: trX(pt.x), Y: trY(pt.y)}
		c.DrawGlyph(pt.glyph, at)
		taken = append(taken, square(at, pt.glyph.Radius))
	}
	for _, pt := range m.points {
		if pt.label == "" {
			continue
		}
		at := vg.Point{X: trX(pt.x), Y: trY(pt.y)}
		box := m.place(c, at, pt.glyph.Radius, pt.label, taken)
		taken = append(taken, box)
		sty := m.style
		sty.Color = pt.color
		r := sty.Rectangle(pt.label)
		c.FillText(sty, box.Min.Sub(r.Min), pt.label)
	}
}

// place returns where the label of the point at at goes: the first of a
// few spots around it that is inside the canvas and overlaps nothing
// taken, or the first spot inside the canvas when all overlap.
func (m *marks) place(c draw.Canvas, at vg.Point, radius vg.Length, label string, taken []vg.Rectangle) vg.Rectangle {
	w, h := m.style.Width(label), m.style.Height(label)
	gap := radius + vg.Points(2)
	spots := []vg.Point{
		{X: at.X + gap, Y: at.Y - h/2},     // right
		{X: at.X - gap - w, Y: at.Y - h/2}, // left
		{X: at.X - w/2, Y: at.Y + gap},     // above
		{X: at.X - w/2, Y: at.Y - gap - h}, // below
	}
	for k := vg.Length(1); k <= 3; k++ { // stacked beside, further out
		spots = append(spots,
			vg.Point{X: at.X + gap, Y: at.Y - h/2 + k*h}, vg.Point{X: at.X + gap, Y: at.Y - h/2 - k*h},
			vg.Point{X: at.X - gap - w, Y: at.Y - h/2 + k*h}, vg.Point{X: at.X - gap - w, Y: at.Y - h/2 - k*h})
	}
	fallback := vg.Rectangle{}
	for _, s := range spots {
		box := vg.Rectangle{Min: s, Max: vg.Point{X: s.X + w, Y: s.Y + h}}
		if !inside(c, box) {
			continue
		}
		if fallback == (vg.Rectangle{}) {
			fallback = box
		}
		if !overlapsAny(box, taken) {
			return box
		}
	}
	if fallback == (vg.Rectangle{}) {
		return vg.Rectangle{Min: spots[0], Max: vg.Point{X: spots[0].X + w, Y: spots[0].Y + h}}
	}
	return fallback
}

// DataRange implements plot.DataRanger.
func (m *marks) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, pt := range m.points {
		xmin, xmax = min(xmin, pt.x), max(xmax, pt.x)
		ymin, ymax = min(ymin, pt.y), max(ymax, pt.y)
	}
	return xmin, xmax, ymin, ymax
}

// GlyphBoxes implements plot.GlyphBoxer, so that the plot keeps room for
// the glyphs at its edges.
func (m *marks) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	boxes := make([]plot.GlyphBox, len(m.points))
	for i, pt := range m.points {
		r := pt.glyph.Radius
		boxes[i] = plot.GlyphBox{
			X: p.X.Norm(pt.x), Y: p.Y.Norm(pt.y),
			Rectangle: vg.Rectangle{Min: vg.Point{X: -r, Y: -r}, Max: vg.Point{X: r, Y: r}},
		}
	}
	return boxes
}

func square(at vg.Point, r vg.Length) vg.Rectangle {
	return vg.Rectangle{Min: vg.Point{X: at.X - r, Y: at.Y - r}, Max: vg.Point{X: at.X + r, Y: at.Y + r}}
}

func inside(c draw.Canvas, r vg.Rectangle) bool {
	return r.Min.X >= c.Min.X && r.Min.Y >= c.Min.Y && r.Max.X <= c.Max.X && r.Max.Y <= c.Max.Y
}

func overlapsAny(r vg.Rectangle, taken []vg.Rectangle) bool {
	for _, t := range taken {
		if r.Min.X < t.Max.X && t.Min.X < r.Max.X && r.Min.Y < t.Max.Y && t.Min.Y < r.Max.Y {
			return true
		}
	}
	return false
}
