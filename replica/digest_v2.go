package replica

import "github.com/readpath/readpath/digest"

// The flags of version 2 say which optional fields follow, so that what is
// absent costs one bit instead of its zero value.
const (
	partitionDeleted byte = 1 << iota
	partitionStatic
	partitionRanges
)

const (
	rowLiveness byte = 1 << iota
	rowDeleted
	rowComplexDeletions
)

const (
	cellTombstone byte = 1 << iota
	cellPath
	cellTTL
	cellLocalDeletionTime
)

// encodeHeadV2 writes p up to its rows, their count included.
func (p *Partition) encodeHeadV2(e *digest.Encoder) {
	e.String(p.Key)
	static := p.hasStatic()
	e.Byte(flag(!p.Deletion.IsLive(), partitionDeleted) | flag(static, partitionStatic) |
		flag(len(p.RangeTombstones) > 0, partitionRanges))
	if !p.Deletion.IsLive() {
		encodeDeletion(e, p.Deletion)
	}
	if static {
		p.Static.encodeV2(e)
	}
	if len(p.RangeTombstones) > 0 {
		e.Count(len(p.RangeTombstones))
		for i := range p.RangeTombstones {
			p.RangeTombstones[i].encodeV2(e)
		}
	}
	e.Count(len(p.Rows))
}

func (rt *RangeTombstone) encodeV2(e *digest.Encoder) {
	e.Byte(byte(rt.Start.Kind))
	e.String(rt.Start.Clustering)
	e.Byte(byte(rt.End.Kind))
	e.String(rt.End.Clustering)
	encodeDeletion(e, rt.Deletion)
}

func (r *Row) encodeV2(e *digest.Encoder) {
	e.String(r.Clustering)
	e.Byte(flag(!r.Liveness.IsEmpty(), rowLiveness) | flag(!r.Deletion.IsLive(), rowDeleted) |
		flag(len(r.ComplexDeletions) > 0, rowComplexDeletions))
	if !r.Liveness.IsEmpty() {
		e.Int64(r.Liveness.Timestamp)
		e.Int32(r.Liveness.TTL)
		e.Int64(r.Liveness.ExpiresAt)
	}
	if !r.Deletion.IsLive() {
		encodeDeletion(e, r.Deletion)
	}
	if len(r.ComplexDeletions) > 0 {
		e.Count(len(r.ComplexDeletions))
		for _, cd := range r.ComplexDeletions {
			e.String(cd.Column)
			encodeDeletion(e, cd.Deletion)
		}
	}
	e.Count(len(r.Cells))
	for i := range r.Cells {
		r.Cells[i].encodeV2(e)
	}
}

func (c *Cell) encodeV2(e *digest.Encoder) {
	e.String(c.Column)
	e.Byte(flag(c.Tombstone, cellTombstone) | flag(c.Path != "", cellPath) |
		flag(c.TTL != 0, cellTTL) | flag(c.LocalDeletionTime != 0, cellLocalDeletionTime))
	if c.Path != "" {
		e.String(c.Path)
	}
	e.Bytes(c.Value)
	e.Int64(c.Timestamp)
	if c.TTL != 0 {
		e.Int32(c.TTL)
	}
	if c.LocalDeletionTime != 0 {
		e.Int64(c.LocalDeletionTime)
	}
}

func encodeDeletion(e *digest.Encoder, d Deletion) {
	e.Int64(d.MarkedForDeleteAt)
	e.Int64(d.LocalDeletionTime)
}

// flag returns f if set, else 0.
func flag(set bool, f byte) byte {
	if set {
		return f
	}
	return 0
}
