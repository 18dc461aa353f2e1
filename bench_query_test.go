package readpath_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/readpath/readpath/consistency"
	"github.com/readpath/readpath/coordinator"
	"github.com/readpath/readpath/replica"
	"github.com/readpath/readpath/replica/replicatest"
)

// ---- replica: answering a query ----

// queryPartition returns n rows of ten small cells under keys "r000000",
// "r000001"...: the shape of benchPartition, with keys that slice by number.
func queryPartition(n int) replica.Partition {
	rows := make([]replica.Row, n)
	for r := range rows {
		cs := make([]replica.Cell, 10)
		for c := range cs {
			cs[c] = replica.Live(string(rune('a'+c))+"-column", "value-of-16bytes", 1700000000000000+int64(r*10+c))
		}
		rows[r] = replica.NewRow(fmt.Sprintf("r%06d", r), cs...)
	}
	return replica.NewPartition("partition-key", rows...)
}

// queryCommand reads q at a read time that purges nothing.
func queryCommand(p replica.Partition, q replica.Query, digestOnly bool) replica.Command {
	return replica.Command{Key: p.Key, Query: q, DigestOnly: digestOnly, NowInSec: 1700000000, GCBefore: 1700000000 - 864000}
}

// middle100 is the 100 rows from the 5000th of a 10,000-row partition.
var middle100 = replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("r005000"), End: replica.EndBefore("r005100")}}}

func benchRespond(b *testing.B, p replica.Partition, cmd replica.Command, rows int) {
	clearSinkAtEnd(b)
	resp, err := cmd.Respond(p)
	if err != nil {
		b.Fatal(err)
	}
	if !cmd.DigestOnly && len(resp.Partition.Rows) != rows {
		b.Fatalf("%d rows answered, want %d", len(resp.Partition.Rows), rows)
	}
	b.ReportAllocs()
	for b.Loop() {
		resp, err := cmd.Respond(p)
		if err != nil {
			b.Fatal(err)
		}
		sinkPartition, sinkDigest = resp.Partition, resp.Digest
	}
}

// BenchmarkRespondSlice100Of10000 is a replica's data answer to a 100-row
// slice of a 10,000-row partition: two binary searches, then the work of
// BenchmarkRespondWhole100, its reference, on the slice alone.
func BenchmarkRespondSlice100Of10000(b *testing.B) {
	p := queryPartition(10000)
	benchRespond(b, p, queryCommand(p, middle100, false), 100)
}

// BenchmarkRespondWhole100 is the reference for
// BenchmarkRespondSlice100Of10000 and BenchmarkRespondLimit100Of10000: the
// data answer to a read of a whole 100-row partition.
func BenchmarkRespondWhole100(b *testing.B) {
	p := queryPartition(100)
	benchRespond(b, p, queryCommand(p, replica.Query{}, false), 100)
}

// BenchmarkRespondExpired100 is BenchmarkRespondWhole100, its reference,
// with one cell of the 100 rows expired at the read time: the answer holds
// it as a tombstone, and the purge rebuilds that row and shares the other
// 99 (it rebuilt all 100). In a table with TTLs most reads meet one, as an
// expired cell stays a tombstone for gc grace.
func BenchmarkRespondExpired100(b *testing.B) {
	p := queryPartition(100)
	cmd := queryCommand(p, replica.Query{}, false)
	p.Rows[50].Cells[5] = replica.Expiring(p.Rows[50].Cells[5].Column, "value-of-16bytes", p.Rows[50].Cells[5].Timestamp, 60, cmd.NowInSec-1)
	benchRespond(b, p, cmd, 100)
}

// BenchmarkRespondLimit100Of10000 reads the last 100 live rows of a
// 10,000-row partition, in reverse: the scan stops at the limit.
func BenchmarkRespondLimit100Of10000(b *testing.B) {
	p := queryPartition(10000)
	benchRespond(b, p, queryCommand(p, replica.Query{Reversed: true, Limit: 100}, false), 100)
}

// twoColumns selects two of queryPartition's ten columns.
var twoColumns = []string{"b-column", "e-column"}

// BenchmarkRespondColumnsLimit100Of10000 is BenchmarkRespondLimit100Of10000
// reading two of the ten columns: the rows are projected as the scan
// reaches them, so the projection stops at the limit too. Its reference is
// BenchmarkRespondColumnsWhole100.
func BenchmarkRespondColumnsLimit100Of10000(b *testing.B) {
	p := queryPartition(10000)
	cmd := queryCommand(p, replica.Query{Reversed: true, Limit: 100}, false)
	cmd.Columns = twoColumns
	benchRespond(b, p, cmd, 100)
}

// BenchmarkRespondColumnsWhole100 is the reference for
// BenchmarkRespondColumnsLimit100Of10000: the data answer to a read of two
// columns of a whole 100-row partition.
func BenchmarkRespondColumnsWhole100(b *testing.B) {
	p := queryPartition(100)
	cmd := queryCommand(p, replica.Query{}, false)
	cmd.Columns = twoColumns
	benchRespond(b, p, cmd, 100)
}

// rangedQueryPartition is queryPartition(n) with a range tombstone between
// each two rows, older than them and within gc grace at queryCommand's
// read time: range deletions that cover no row, and purge nothing.
func rangedQueryPartition(n int) replica.Partition {
	p := queryPartition(n)
	for i := range n - 1 {
		p.RangeTombstones = append(p.RangeTombstones, replica.NewRangeTombstone(
			replica.StartAfter(p.Rows[i].Clustering), replica.EndBefore(p.Rows[i+1].Clustering), replica.DeletedAt(1, 1699999000)))
	}
	return p
}

// BenchmarkRespondRangesLimit100Of10000 reads the first 100 rows of a
// 10,000-row partition with a range tombstone between each two rows: it
// restricts and clips only the range tombstones up to about twice its
// limit, not the 9,999. Its reference is BenchmarkRespondRangesWhole100.
func BenchmarkRespondRangesLimit100Of10000(b *testing.B) {
	p := rangedQueryPartition(10000)
	benchRespond(b, p, queryCommand(p, replica.Query{Limit: 100}, false), 100)
}

// BenchmarkRespondRangesWhole100 is the reference for
// BenchmarkRespondRangesLimit100Of10000: the answer to a read of a whole
// 100-row partition with its range tombstones.
func BenchmarkRespondRangesWhole100(b *testing.B) {
	p := rangedQueryPartition(100)
	benchRespond(b, p, queryCommand(p, replica.Query{}, false), 100)
}

// BenchmarkRespondDigestSlice100Of10000 is the digest answer to the slice
// of BenchmarkRespondSlice100Of10000; its reference is
// BenchmarkRespondDigestWhole100.
func BenchmarkRespondDigestSlice100Of10000(b *testing.B) {
	p := queryPartition(10000)
	benchRespond(b, p, queryCommand(p, middle100, true), 100)
}

// BenchmarkRespondDigestWhole100 is the digest answer to a read of a whole
// 100-row partition.
func BenchmarkRespondDigestWhole100(b *testing.B) {
	p := queryPartition(100)
	benchRespond(b, p, queryCommand(p, replica.Query{}, true), 100)
}

// ---- coordinator: reading a slice ----

// benchQueryCluster is three instant replicas holding p on every one.
func benchQueryCluster(b *testing.B, p replica.Partition) *coordinator.Coordinator {
	cl, err := replicatest.NewCluster(replicatest.ClusterConfig{
		Datacenters: []replicatest.Datacenter{{Name: "dc1", Racks: 3, Nodes: 3}},
		Replication: consistency.Simple(3),
	})
	if err != nil {
		b.Fatal(err)
	}
	if err := cl.Seed("t", p); err != nil {
		b.Fatal(err)
	}
	return benchCoordinator(b, cl)
}

func benchQueryRead(b *testing.B, p replica.Partition, q replica.Query, rows int) {
	c := benchQueryCluster(b, p)
	req := coordinator.Request{Table: "t", Key: p.Key, Level: consistency.Quorum, Query: q}
	ctx := context.Background()
	res, err := c.Read(ctx, req)
	if err != nil || len(res.Partition.Rows) != rows {
		b.Fatalf("%d rows, %v; want %d", len(res.Partition.Rows), err, rows)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Read(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadSlice100Of10000 is a QUORUM read of a 100-row slice of a
// 10,000-row partition. Target: at most 3x BenchmarkReadWhole100, its
// reference, a QUORUM read of a whole 100-row partition.
func BenchmarkReadSlice100Of10000(b *testing.B) {
	benchQueryRead(b, queryPartition(10000), middle100, 100)
}

// BenchmarkReadWhole100 is the reference for BenchmarkReadSlice100Of10000.
func BenchmarkReadWhole100(b *testing.B) {
	benchQueryRead(b, queryPartition(100), replica.Query{}, 100)
}

// ---- coordinator: paging an IN query ----

// inQuery is an IN of the n clustering values of queryPartition(n): n
// one-row slices.
func inQuery(n int) replica.Query {
	sl := make([]replica.Slice, n)
	for i := range sl {
		c := fmt.Sprintf("r%06d", i)
		sl[i] = replica.Slice{Start: replica.StartAt(c), End: replica.EndAt(c)}
	}
	return replica.Query{Slices: sl}
}

// benchPagedRead reads every page of q over p at QUORUM, pageSize rows a
// page, each page resumed from the state of the one before.
func benchPagedRead(b *testing.B, p replica.Partition, q replica.Query, pageSize, pages int) {
	c := benchQueryCluster(b, p)
	ctx := context.Background()
	read := func() int {
		req := coordinator.Request{Table: "t", Key: p.Key, Level: consistency.Quorum, Query: q, PageSize: pageSize}
		for n := 1; ; n++ {
			res, err := c.Read(ctx, req)
			if err != nil {
				b.Fatal(err)
			}
			if res.PagingState == nil {
				return n
			}
			req.PagingState = res.PagingState
		}
	}
	if n := read(); n != pages {
		b.Fatalf("%d pages, want %d", n, pages)
	}
	b.ReportAllocs()
	for b.Loop() {
		read()
	}
}

// BenchmarkPageIN1000 pages an IN of 1,000 clustering values through
// Read in pages of 100: every page resumes the IN list and fingerprints it
// for its state, so it costs O(n) a page. Its reference is
// BenchmarkPageSlice1000, the same rows read by one slice in pages of 100
// (11 pages each: the last is empty, as a full page's state may lead to).
func BenchmarkPageIN1000(b *testing.B) {
	benchPagedRead(b, queryPartition(1000), inQuery(1000), 100, 11)
}

// BenchmarkPageSlice1000 is the reference for BenchmarkPageIN1000.
func BenchmarkPageSlice1000(b *testing.B) {
	q := replica.Query{Slices: []replica.Slice{{Start: replica.StartAt("r000000"), End: replica.EndAt("r000999")}}}
	benchPagedRead(b, queryPartition(1000), q, 100, 11)
}
