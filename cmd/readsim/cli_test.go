package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// -reads 0 and an empty -policies list are bad command lines, like
// -reads 50 and an empty -scenarios list: they must not silently run the
// default two-minute simulation (the meter would fail the test).
func TestZeroReadsAndEmptyPoliciesAreRejected(t *testing.T) {
	for _, args := range [][]string{
		{"-reads", "0"}, {"-quick", "-reads", "0"}, {"-policies", ""}, {"-quick", "-policies", ""},
	} {
		var out, errs bytes.Buffer
		noRun := func() func() timing { t.Fatalf("%q: the run started", args); return nil }
		assert.Equal(t, 2, runWith(noRun, args, &out, &errs), "%q", args)
		assert.Empty(t, out.String())
		assert.True(t, strings.HasPrefix(errs.String(), "readsim: -"), errs.String())
		assert.Equal(t, 1, strings.Count(errs.String(), "\n"), errs.String())
	}
}

// -quick "still shows every effect": in cluster-slowdown-nobudget, ALWAYS
// and a fixed threshold the slowdown outgrows turn the slowdown into a
// hedge storm, their p99 above NEVER's. Before the fix, -quick measured
// 1,000 reads, whose ~0.2 s at the peak is too short for the queues to
// build: the 10ms policy's p99 came out 20 % below NEVER's.
func TestQuickShowsTheHedgeStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulation")
	}
	rows := quickRows(t, "cluster-slowdown-nobudget", "NEVER,ALWAYS,10ms")
	never := find(t, rows, "cluster-slowdown-nobudget", "NEVER")
	for _, p := range []string{"ALWAYS", "10ms"} {
		r := find(t, rows, "cluster-slowdown-nobudget", p)
		assert.Greater(t, r["p99_ms"].(float64), never["p99_ms"].(float64), "%s: no hedge storm", p)
		assert.Greater(t, r["p50_ms"].(float64), 1.2*never["p50_ms"].(float64), "%s: no hedge storm", p)
	}
}

// An unwritable -cpuprofile or -trace file is a bad command line, like an
// unwritable -plot: exit status 2, and a message naming the flag.
func TestUnwritableProfileIsABadCommandLine(t *testing.T) {
	dir := t.TempDir()
	for _, flagName := range []string{"-cpuprofile", "-trace"} {
		for _, path := range []string{filepath.Join(dir, "missing", "out"), dir} {
			var out, errs bytes.Buffer
			noRun := func() func() timing { t.Fatalf("%s %s: the run started", flagName, path); return nil }
			code := runWith(noRun, []string{"-quick", flagName, path}, &out, &errs)
			assert.Equal(t, 2, code, "%s %s", flagName, path)
			assert.Contains(t, errs.String(), "readsim: "+flagName+" "+path+": ")
			assert.Equal(t, 1, strings.Count(errs.String(), "\n"), errs.String())
		}
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Empty(t, entries)
}

// suppressed is the coordinator's SuppressedBudget+SuppressedOverload,
// which count every speculative action held back, reconcile reads and
// additional repair writes included, not only hedges: in stale-replica
// under ALWAYS, -quick gives 100 hedges and 1,060 suppressed for 1,000
// reads (the README's table: 400 and 4,028 for 4,000). The column's
// explanation must say so, or hedges+suppressed > reads reads as a bug.
func TestFooterSaysSuppressedCountsMoreThanHedges(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the simulation")
	}
	r := find(t, quickRows(t, "stale-replica", "ALWAYS"), "stale-replica", "ALWAYS")
	require.Greater(t, r["hedges"].(float64)+r["suppressed"].(float64), r["reads"].(float64),
		"the case this test is about: more suppressed than hedges left unsent")
	foot := footer([]row{{Latencies: 1000, Reads: 1000, Trustworthy: true}})
	assert.Contains(t, foot, "suppressed = speculative actions")
	assert.Contains(t, foot, "reconcile reads")
}

// The footer says what the repairs column counts: RepairsSent, the writes
// to the stale replicas a read merged, not the additional writes a late
// BLOCKING repair sends to others (a stale-replica run sent 5–7 of those).
func TestFooterSaysWhatRepairsCount(t *testing.T) {
	foot := footer([]row{{Latencies: 1000, Reads: 1000, Trustworthy: true}})
	assert.Contains(t, foot, "repairs = repair writes sent to the stale replicas a read merged")
	assert.Contains(t, foot, "not the additional writes")
}

// A scenario or policy named twice is a bad command line (it printed the
// same rows twice), and -plot's extension is matched in any case, as the
// chart's writer matches it.
func TestDuplicatesAndPlotExtensionCase(t *testing.T) {
	for _, args := range [][]string{
		{"-scenarios", "healthy,healthy"}, {"-policies", "NEVER,never"}, {"-policies", "MIN(99p,10ms),MIN(99P, 10ms)"},
	} {
		var out, errs bytes.Buffer
		noRun := func() func() timing { t.Fatalf("%q: the run started", args); return nil }
		assert.Equal(t, 2, runWith(noRun, args, &out, &errs), "%q", args)
		assert.Contains(t, errs.String(), " twice\n", "%q", args)
	}
	o, err := parseFlags([]string{"-plot", filepath.Join(t.TempDir(), "chart.SVG")})
	require.NoError(t, err)
	assert.True(t, strings.HasSuffix(o.plot, ".SVG"))
}
