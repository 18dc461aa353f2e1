package replica

import "github.com/readpath/readpath/digest"

// expressibleInV1 reports whether version 1 of the encoding can express p:
// it holds nothing that version 2 added.
func (p *Partition) expressibleInV1() bool {
	if len(p.RangeTombstones) > 0 || p.hasStatic() {
		return false
	}
	for i := range p.Rows {
		r := &p.Rows[i]
		if !r.Liveness.IsEmpty() || len(r.ComplexDeletions) > 0 {
			return false
		}
		for j := range r.Cells {
			if r.Cells[j].Path != "" {
				return false
			}
		}
	}
	return true
}

func (r *Row) encodeV1(e *digest.Encoder) {
	b := e.Room(headLenV1(r.Clustering))
	b = appendHeadV1(b, r.Clustering, r.Deletion, len(r.Cells))
	for i := range r.Cells {
		c := &r.Cells[i]
		b = e.Grow(b, c.maxLenV1())
		b = c.appendV1(b)
	}
	e.Commit(b)
}

// encodeHeadV1 writes what a partition begins with: its key, its deletion
// and how many rows follow.
func encodeHeadV1(e *digest.Encoder, key string, d Deletion, count int) {
	e.Commit(appendHeadV1(e.Room(headLenV1(key)), key, d, count))
}

// appendHeadV1 appends what a partition and a row begin with: their key,
// their deletion and how many rows or cells follow.
func appendHeadV1(b []byte, key string, d Deletion, count int) []byte {
	b = digest.AppendString(b, key)
	b = appendDeletion(b, d)
	return digest.AppendCount(b, count)
}

// headLenV1 is the most appendHeadV1 writes for key.
func headLenV1(key string) int {
	return digest.MaxBytesLen(len(key)) + deletionLen + digest.MaxCountLen
}

// maxLenV1 is the most appendV1 writes for c.
func (c *Cell) maxLenV1() int {
	return digest.MaxBytesLen(len(c.Column)) + 1 + digest.MaxBytesLen(len(c.Value)) + 8 + 4 + 8
}

func (c *Cell) appendV1(b []byte) []byte {
	b = digest.AppendString(b, c.Column)
	b = digest.AppendBool(b, c.Tombstone)
	b = digest.AppendBytes(b, c.Value)
	b = digest.AppendInt64(b, c.Timestamp)
	b = digest.AppendInt32(b, c.TTL)
	return digest.AppendInt64(b, c.LocalDeletionTime)
}
