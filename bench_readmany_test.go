package readpath_test

import (
	"context"
	"fmt"
	"testing"

	"golang.org/x/sync/errgroup"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
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
