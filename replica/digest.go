package replica

import (
	"sync"

	"github.com/readpath/readpath/digest"
)

// Digest returns the digest a replica answers to a digest-only read of p: the
// xxh3-128 hash of p's canonical encoding, version 1, whose layout package
// digest documents. Partitions equal per Equal have equal digests, whatever
// their slices' capacity and nil or empty. It allocates nothing: encoders,
// with the hasher a long encoding streams through, are pooled. It is safe
// for concurrent use.
func (p Partition) Digest() digest.Digest {
	e := encoders.Get().(*digest.Encoder)
	e.Reset(digest.V1)
	p.encode(e)
	d := e.Sum()
	encoders.Put(e)
	return d
}

// encoders recycles Encoders: their buffer need not be zeroed again, and a
// long encoding's hasher is allocated once per pooled Encoder, not once per
// digest.
var encoders = sync.Pool{New: func() any { return new(digest.Encoder) }}

// AppendCanonical appends to dst the bytes Digest hashes and returns the
// extended slice. Two partitions encode to the same bytes exactly when they
// are Equal (for values of digest.LargeField bytes or more, barring a
// collision of their xxh3-128 digests).
func (p Partition) AppendCanonical(dst []byte) []byte {
	var e digest.Encoder
	e.ResetAppending(digest.V1, dst)
	p.encode(&e)
	return e.Appended()
}

func (p *Partition) encode(e *digest.Encoder) {
	encodeHead(e, p.Key, p.Deletion, len(p.Rows))
	for i := range p.Rows {
		p.Rows[i].encode(e)
	}
}

func (r *Row) encode(e *digest.Encoder) {
	encodeHead(e, r.Clustering, r.Deletion, len(r.Cells))
	for i := range r.Cells {
		r.Cells[i].encode(e)
	}
}

// encodeHead writes what a partition and a row begin with: their key, their
// deletion and how many rows or cells follow.
func encodeHead(e *digest.Encoder, key string, d Deletion, count int) {
	e.String(key)
	e.Int64(d.MarkedForDeleteAt)
	e.Int64(d.LocalDeletionTime)
	e.Count(count)
}

func (c *Cell) encode(e *digest.Encoder) {
	e.String(c.Column)
	e.Bool(c.Tombstone)
	e.Bytes(c.Value)
	e.Int64(c.Timestamp)
	e.Int32(c.TTL)
	e.Int64(c.LocalDeletionTime)
}
