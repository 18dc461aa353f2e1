package coordinator_test

import (
	"fmt"
	"testing"

	"pgregory.net/rapid"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/repair"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// pagingModes are the levels, speculation, repair modes and strategies
// the paging properties run under: at QUORUM the replicas hold A, B and
// their merge, as in TestPagingReturnsTheMergedView.
var pagingModes = []struct {
	name     string
	level    consistency.Level
	retry    string
	mode     repair.Mode
	strategy coordinator.Strategy
}{
	{"ALL/BLOCKING", consistency.All, "NEVER", repair.Blocking, coordinator.DataAndDigests},
	{"ALL/DigestFirst/NONE", consistency.All, "ALWAYS", repair.None, coordinator.DigestFirst},
	{"QUORUM/ALWAYS", consistency.Quorum, "ALWAYS", repair.Blocking, coordinator.DataAndDigests},
	{"QUORUM/DigestFirst", consistency.Quorum, "NEVER", repair.Blocking, coordinator.DigestFirst},
	{"QUORUM/NONE", consistency.Quorum, "ALWAYS", repair.None, coordinator.DataAndDigests},
}

// modeVersions draws the replicas' versions of k: three disagreeing ones,
// or at QUORUM A, B and Merge(A, B) in any order.
func modeVersions(t *rapid.T, g pageGen, k string, quorum bool) []replica.Partition {
	if quorum {
		ab := g.versions(t, k, 2)
		return rapid.Permutation(append(ab, merge(t, ab...))).Draw(t, "placement")
	}
	return g.versions(t, k, 3)
}

// The pages of an IN query, followed with Next, return each key's rows as
// reading it alone under its per-partition limit does, in key order, up to
// the limit under a page size, under every level, strategy and repair mode
// (TestReadManyPagingHonoursBothLimits reads at ALL, unhedged), a page
// reading its keys one to three at a time.
func TestReadManyPagingUnderEveryMode(t *testing.T) {
	eachPagingMode(t, func(t *rapid.T, level consistency.Level, c *coordinator.Coordinator, cl *replicatest.Cluster,
		versions func(t *rapid.T, key string) []replica.Partition, g *pageGen, n int) {
		req := coordinator.ManyRequest{Table: tbl, Level: level, Query: g.query(t), Columns: g.columns(t),
			Limit: rapid.IntRange(0, 8).Draw(t, "limit"), Concurrency: rapid.IntRange(1, 3).Draw(t, "conc"), NowInSec: now}
		pageManyAgainstWhole(t, c, cl, req, fmt.Sprint("modemany", n), 4, func(k string) []replica.Partition {
			return versions(t, k)
		})
	})
}

// Pages of random sizes, dropped after the first page, return exactly the
// rows of the query read whole up to its limit, under every level,
// strategy and repair mode (TestPageSizeReturnsTheLimitedView reads at
// ALL, unhedged, and never drops the size).
func TestPageSizeUnderEveryMode(t *testing.T) {
	eachPagingMode(t, func(t *rapid.T, level consistency.Level, c *coordinator.Coordinator, cl *replicatest.Cluster,
		versions func(t *rapid.T, key string) []replica.Partition, g *pageGen, n int) {
		req := coordinator.Request{Table: tbl, Key: fmt.Sprint("modesized", n), Level: level,
			Query: g.query(t), Columns: g.columns(t), NowInSec: now}
		pageAgainstWhole(t, c, cl, req, versions(t, req.Key), true)
	})
}

// eachPagingMode runs check, as a property, under every paging mode: with
// a coordinator of the mode, its cluster, the replicas' versions of a key,
// a generator, and the count of the checks so far (for fresh keys).
func eachPagingMode(t *testing.T, check func(t *rapid.T, level consistency.Level, c *coordinator.Coordinator,
	cl *replicatest.Cluster, versions func(t *rapid.T, key string) []replica.Partition, g *pageGen, n int)) {
	for _, tc := range pagingModes {
		t.Run(tc.name, func(t *testing.T) {
			opts := policy(t, tc.retry)
			opts.ReadRepair, opts.Strategy = tc.mode, tc.strategy
			cl, c := propertyCoordinator(t, opts)
			quorum := tc.level == consistency.Quorum
			g := newPageGen(quorum)
			versions := func(t *rapid.T, key string) []replica.Partition { return modeVersions(t, g, key, quorum) }
			n := 0
			rapid.Check(t, func(t *rapid.T) {
				n++
				check(t, tc.level, c, cl, versions, &g, n)
			})
		})
	}
}

// Up to 12 keys of 14 rows, read up to six at a time, with per-partition
// limits, limits and page sizes: a page that stops starting keys once
// those read hold its rows (pageFill) still returns every key's rows once,
// in order. TestReadManyPagingHonoursBothLimits reads fewer keys than its
// default concurrency, so it never stops early: a page that stopped one
// row short passed it.
func TestReadManyPagingOfManyKeysFewAtATime(t *testing.T) {
	cl, c := propertyCoordinator(t, policy(t, "ALWAYS"))
	g := pageGen{purgeable: true}
	for i := range 14 {
		g.keys = append(g.keys, fmt.Sprintf("%02d", i))
	}
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		req := coordinator.ManyRequest{Table: tbl, Level: consistency.All, Query: g.query(t), Columns: g.columns(t),
			Limit: rapid.IntRange(0, 12).Draw(t, "limit"), Concurrency: rapid.IntRange(1, 6).Draw(t, "conc"), NowInSec: now}
		req.Query.Limit = rapid.IntRange(0, 6).Draw(t, "pp")
		pageManyAgainstWhole(t, c, cl, req, fmt.Sprint("fewmany", n), 12, func(k string) []replica.Partition {
			return g.versions(t, k, 3)
		})
	})
}
