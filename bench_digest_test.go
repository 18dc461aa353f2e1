package readpath_test

import (
	"testing"

	"github.com/zeebo/xxh3"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

var sinkDigest digest.Digest

// BenchmarkDigest4K digests a partition of one row holding one 4 KiB value.
// Target: at least half the throughput of BenchmarkDigestRawHash4K.
func BenchmarkDigest4K(b *testing.B) {
	p := replica.NewPartition("partition-key",
		replica.NewRow("clustering", replica.Cell{Column: "value", Value: benchValue(4 << 10), Timestamp: 1700000000000000}))
	b.SetBytes(4 << 10)
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = p.Digest()
	}
}

// BenchmarkDigestRawHash4K is the reference for BenchmarkDigest4K: the same
// hash over the 4 KiB value alone, in one call.
func BenchmarkDigestRawHash4K(b *testing.B) {
	value := benchValue(4 << 10)
	b.SetBytes(4 << 10)
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = xxh3.Hash128(value).Bytes()
	}
}

// BenchmarkDigestPartition100x10 digests 100 rows of 10 small cells, where
// the per-field cost of the encoding shows. SetBytes is the size of the
// canonical encoding.
func BenchmarkDigestPartition100x10(b *testing.B) {
	p := benchPartition(100, 10)
	b.SetBytes(int64(len(p.AppendCanonical(nil))))
	b.ReportAllocs()
	for b.Loop() {
		sinkDigest = p.Digest()
	}
}

func benchValue(n int) []byte {
	v := make([]byte, n)
	for i := range v {
		v[i] = byte(i * 7)
	}
	return v
}

func benchPartition(rows, cells int) replica.Partition {
	rs := make([]replica.Row, rows)
	for r := range rs {
		cs := make([]replica.Cell, cells)
		for c := range cs {
			cs[c] = replica.Live(string(rune('a'+c))+"-column", "value-of-16bytes", int64(1700000000000000+r*cells+c))
		}
		rs[r] = replica.NewRow(string(rune('a'+r/26))+string(rune('a'+r%26)), cs...)
	}
	return replica.NewPartition("partition-key", rs...)
}
