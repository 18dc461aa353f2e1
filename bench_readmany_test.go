package readpath_test

import (
	"context"
	"fmt"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
)

// manyKeys are the 100 partitions the multi-partition benchmarks read.
var manyKeys = func() []string {
	keys := make([]string, 100)
	for i := range keys {
		keys[i] = fmt.Sprint("k", i)
	}
	return keys
}()

// BenchmarkReadMany100 reads 100 partitions at QUORUM with one ReadMany,
// 32 at a time. Its reference is BenchmarkErrgroupReads100.
func BenchmarkReadMany100(b *testing.B) {
	c := benchCoordinator(b, benchCluster(b))
	req := coordinator.ManyRequest{Table: "t", Keys: manyKeys, Level: consistency.Quorum, Concurrency: 32}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.ReadMany(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkErrgroupReads100 is the reference for BenchmarkReadMany100: what
// a user writes without ReadMany, the same reads through an errgroup with
// SetLimit(32), a goroutine a key.
func BenchmarkErrgroupReads100(b *testing.B) {
	c := benchCoordinator(b, benchCluster(b))
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		results := make([]coordinator.Result, len(manyKeys))
		var g errgroup.Group
		g.SetLimit(32)
		for i, k := range manyKeys {
			g.Go(func() (err error) {
				results[i], err = c.Read(ctx, coordinator.Request{Table: "t", Key: k, Level: consistency.Quorum})
				return err
			})
		}
		if err := g.Wait(); err != nil {
			b.Fatal(err)
		}
	}
}

// benchReadManyPage reads, over and over, the second page of 100 rows of
// an IN query of one-row keys, with left keys after the first page: what
// a page of a long list costs once Next has made its request. The cluster
// holds the same 20,100 partitions whatever the list, so that the replicas'
// own lookups, and the heap the collector walks, are alike.
func benchReadManyPage(b *testing.B, left int) {
	cl := benchCluster(b)
	keys := make([]string, 100+20000)
	for i := range keys {
		keys[i] = fmt.Sprint("k", i)
		if err := cl.Seed("t", replica.NewPartition(keys[i], replica.NewRow("r", replica.Live("v", "x", 1)))); err != nil {
			b.Fatal(err)
		}
	}
	c := benchCoordinator(b, cl)
	ctx := context.Background()
	req := coordinator.ManyRequest{Table: "t", Keys: keys[:100+left], Level: consistency.Quorum, PageSize: 100, Concurrency: 8}
	res, err := c.ReadMany(ctx, req)
	if err != nil {
		b.Fatal(err)
	}
	req, _ = req.Next(res)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.ReadMany(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadManyPageOf20000Left is a page of 100 rows of an IN query
// with 20,000 keys left. Its reference is BenchmarkReadManyPageOf200Left:
// a page costs the keys it reads, not those the list has left (each page
// returned and checked a result for every key left: 11.5 MB a page).
func BenchmarkReadManyPageOf20000Left(b *testing.B) { benchReadManyPage(b, 20000) }

// BenchmarkReadManyPageOf200Left is the reference for
// BenchmarkReadManyPageOf20000Left.
func BenchmarkReadManyPageOf200Left(b *testing.B) { benchReadManyPage(b, 200) }
