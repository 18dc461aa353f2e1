package main

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// An untrustworthy row is marked in its percentile panel too, not only in
// its trade-off panel: the key's "(!)" holds for the whole chart.
func TestPercentilePanelMarksUntrustworthyRows(t *testing.T) {
	rows := rowsOf(chartRows(), "cluster-slowdown")
	p := percentilePanel("cluster-slowdown", rows)
	var labels []string
	for _, tick := range p.X.Tick.Marker.Ticks(p.X.Min, p.X.Max) {
		if tick.Label != "" {
			labels = append(labels, tick.Label)
		}
	}
	assert.Equal(t, []string{"NEVER", "90p\n(!)"}, labels)
}
