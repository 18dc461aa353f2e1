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
	encodeHeadV1(e, r.Clustering, r.Deletion, len(r.Cells))
	for j := range r.Cells {
		r.Cells[j].encodeV1(e)
	}
}

// encodeHeadV1 writes what a partition and a row begin with: their key,
// their deletion and how many rows or cells follow.
func encodeHeadV1(e *digest.Encoder, key string, d Deletion, count int) {
	e.String(key)
	e.Int64(d.MarkedForDeleteAt)
	e.Int64(d.LocalDeletionTime)
	e.Count(count)
}

func (c *Cell) encodeV1(e *digest.Encoder) {
	e.String(c.Column)
	e.Bool(c.Tombstone)
	e.Bytes(c.Value)
	e.Int64(c.Timestamp)
	e.Int32(c.TTL)
	e.Int64(c.LocalDeletionTime)
}
