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

// The most bytes a deletion and a row's liveness take, beside the
// strings' MaxBytesLen, for the rooms below.
const (
	deletionLen = 16
	livenessLen = 20
)

// encodeHeadV2 writes p up to its rows, their count included.
func (p *Partition) encodeHeadV2(e *digest.Encoder) {
	b := e.Room(digest.MaxBytesLen(len(p.Key)) + 1 + deletionLen + 2*digest.MaxCountLen)
	b = digest.AppendString(b, p.Key)
	static := p.hasStatic()
	b = append(b, flag(!p.Deletion.IsLive(), partitionDeleted)|flag(static, partitionStatic)|
		flag(len(p.RangeTombstones) > 0, partitionRanges))
	if !p.Deletion.IsLive() {
		b = appendDeletion(b, p.Deletion)
	}
	if static {
		e.Commit(b)
		p.Static.encodeV2(e)
		b = e.Room(2 * digest.MaxCountLen)
	}
	if len(p.RangeTombstones) > 0 {
		b = digest.AppendCount(b, len(p.RangeTombstones))
		for i := range p.RangeTombstones {
			rt := &p.RangeTombstones[i]
			b = e.Grow(b, rt.maxLenV2()+digest.MaxCountLen)
			b = rt.appendV2(b)
		}
	}
	b = digest.AppendCount(b, len(p.Rows))
	e.Commit(b)
}

// maxLenV2 is the most appendV2 writes for rt.
func (rt *RangeTombstone) maxLenV2() int {
	return 2 + digest.MaxBytesLen(len(rt.Start.Clustering)) + digest.MaxBytesLen(len(rt.End.Clustering)) + deletionLen
}

func (rt *RangeTombstone) appendV2(b []byte) []byte {
	b = append(b, byte(rt.Start.Kind))
	b = digest.AppendString(b, rt.Start.Clustering)
	b = append(b, byte(rt.End.Kind))
	b = digest.AppendString(b, rt.End.Clustering)
	return appendDeletion(b, rt.Deletion)
}

// encodeV2 writes r with a room check a cell or complex deletion, not a
// field: cells are most of what a partition encodes.
func (r *Row) encodeV2(e *digest.Encoder) {
	b := e.Room(digest.MaxBytesLen(len(r.Clustering)) + 1 + livenessLen + deletionLen + 2*digest.MaxCountLen)
	b = digest.AppendString(b, r.Clustering)
	b = append(b, flag(!r.Liveness.IsEmpty(), rowLiveness)|flag(!r.Deletion.IsLive(), rowDeleted)|
		flag(len(r.ComplexDeletions) > 0, rowComplexDeletions))
	if !r.Liveness.IsEmpty() {
		b = digest.AppendInt64(b, r.Liveness.Timestamp)
		b = digest.AppendInt32(b, r.Liveness.TTL)
		b = digest.AppendInt64(b, r.Liveness.ExpiresAt)
	}
	if !r.Deletion.IsLive() {
		b = appendDeletion(b, r.Deletion)
	}
	if len(r.ComplexDeletions) > 0 {
		b = digest.AppendCount(b, len(r.ComplexDeletions))
		for i := range r.ComplexDeletions {
			cd := &r.ComplexDeletions[i]
			b = e.Grow(b, digest.MaxBytesLen(len(cd.Column))+deletionLen+digest.MaxCountLen)
			b = digest.AppendString(b, cd.Column)
			b = appendDeletion(b, cd.Deletion)
		}
	}
	b = digest.AppendCount(b, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i]
		b = e.Grow(b, c.maxLenV2())
		b = c.appendV2(b)
	}
	e.Commit(b)
}

// maxLenV2 is the most appendV2 writes for c.
func (c *Cell) maxLenV2() int {
	return digest.MaxBytesLen(len(c.Column)) + 1 + digest.MaxBytesLen(len(c.Path)) +
		digest.MaxBytesLen(len(c.Value)) + 8 + 4 + 8
}

func (c *Cell) appendV2(b []byte) []byte {
	b = digest.AppendString(b, c.Column)
	b = append(b, flag(c.Tombstone, cellTombstone)|flag(c.Path != "", cellPath)|
		flag(c.TTL != 0, cellTTL)|flag(c.LocalDeletionTime != 0, cellLocalDeletionTime))
	if c.Path != "" {
		b = digest.AppendString(b, c.Path)
	}
	b = digest.AppendBytes(b, c.Value)
	b = digest.AppendInt64(b, c.Timestamp)
	if c.TTL != 0 {
		b = digest.AppendInt32(b, c.TTL)
	}
	if c.LocalDeletionTime != 0 {
		b = digest.AppendInt64(b, c.LocalDeletionTime)
	}
	return b
}

func appendDeletion(b []byte, d Deletion) []byte {
	b = digest.AppendInt64(b, d.MarkedForDeleteAt)
	return digest.AppendInt64(b, d.LocalDeletionTime)
}

// flag returns f if set, else 0.
func flag(set bool, f byte) byte {
	if set {
		return f
	}
	return 0
}
