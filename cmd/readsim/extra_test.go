package main

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/readpath/readpath/coordinator"
)

// The extra load counts every speculative replica read: the reconcile
// reads a mismatched read sent to replicas it had not contacted, beside
// the hedges. Of 100 reads of two requests each under NEVER, 4 hedges and
// 2 reconcile reads are 3 % extra.
func TestExtraLoadCountsReconcileReads(t *testing.T) {
	never := outcome{metrics: coordinator.TableMetrics{Reads: 100, DataRequests: 100, DigestRequests: 100}}
	since := since(coordinator.TableMetrics{Reads: 100, SpeculativeRetries: 4, ReconcileSpeculations: 2}, coordinator.TableMetrics{})
	r := toRow(outcome{lat: newRecorder(), metrics: since}, never, nil)
	assert.Equal(t, 0.03, r.ExtraLoad)
	assert.Equal(t, int64(4), r.Hedges, "hedges are the first round's")
}
