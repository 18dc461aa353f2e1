package replica_test

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// decodeCanonical is a naive decoder of the layouts package digest
// documents, versions 1 and 2. That it rebuilds every partition from its
// encoding shows that the encoding is unambiguous and that the
// documentation is enough to reproduce it. A field of digest.LargeField
// bytes or more is encoded as its digest, so it decodes to largeStandIn of
// its bytes.
func decodeCanonical(b []byte) (replica.Partition, error) {
	d := &decoder{b: b}
	var p replica.Partition
	switch v := d.take(1); v[0] {
	case digest.V1:
		p = d.partitionV1()
	case digest.V2:
		p = d.partitionV2()
	default:
		return p, fmt.Errorf("unknown version %d", v[0])
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("trailing bytes")
	}
	return p, d.err
}

type decoder struct {
	b   []byte
	err error
}

func (d *decoder) take(n int) []byte {
	if d.err != nil || n < 0 || n > len(d.b) {
		d.err = errors.New("truncated")
		return make([]byte, n)
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *decoder) count() int {
	n, size := binary.Uvarint(d.b)
	if size <= 0 {
		d.err = errors.New("bad count")
		return 0
	}
	d.b = d.b[size:]
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.count()
	if n >= digest.LargeField {
		return []byte(fmt.Sprintf("%d bytes digesting to %x", n, d.take(16)))
	}
	return d.take(n)
}

// largeStandIn is what decodeCanonical makes of a large field b.
func largeStandIn(b []byte) []byte {
	return []byte(fmt.Sprintf("%d bytes digesting to %s", len(b), digest.Hash(b)))
}

func (d *decoder) string() string { return string(d.bytes()) }
func (d *decoder) int64() int64   { return int64(binary.LittleEndian.Uint64(d.take(8))) }
func (d *decoder) int32() int32   { return int32(binary.LittleEndian.Uint32(d.take(4))) }
func (d *decoder) byte() byte     { return d.take(1)[0] }

func (d *decoder) bool() bool {
	v := d.byte()
	if v > 1 {
		d.err = errors.New("bad bool")
	}
	return v == 1
}

func (d *decoder) deletion() replica.Deletion {
	return replica.Deletion{MarkedForDeleteAt: d.int64(), LocalDeletionTime: d.int64()}
}

func (d *decoder) partitionV1() replica.Partition {
	p := replica.Partition{Key: d.string(), Deletion: d.deletion()}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		r := replica.Row{Clustering: d.string(), Deletion: d.deletion()}
		for n := d.count(); n > 0 && d.err == nil; n-- {
			c := replica.Cell{Column: d.string(), Tombstone: d.bool()}
			c.Value = d.bytes()
			c.Timestamp, c.TTL, c.LocalDeletionTime = d.int64(), d.int32(), d.int64()
			r.Cells = append(r.Cells, c)
		}
		p.Rows = append(p.Rows, r)
	}
	return p
}

// flags reads a flags byte, failing on bits the layout does not define.
func (d *decoder) flags(defined byte) byte {
	f := d.byte()
	if f&^defined != 0 {
		d.err = fmt.Errorf("undefined flags %#x", f)
	}
	return f
}

func (d *decoder) partitionV2() replica.Partition {
	p := replica.Partition{Key: d.string()}
	f := d.flags(7)
	if f&1 != 0 {
		p.Deletion = d.deletion()
	}
	if f&2 != 0 {
		p.Static = d.rowV2()
	}
	if f&4 != 0 {
		for n := d.count(); n > 0 && d.err == nil; n-- {
			rt := replica.RangeTombstone{Start: d.bound(), End: d.bound(), Deletion: d.deletion()}
			p.RangeTombstones = append(p.RangeTombstones, rt)
		}
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		p.Rows = append(p.Rows, d.rowV2())
	}
	return p
}

func (d *decoder) bound() replica.Bound {
	kind := replica.BoundKind(d.byte())
	return replica.Bound{Kind: kind, Clustering: d.string()}
}

func (d *decoder) rowV2() replica.Row {
	r := replica.Row{Clustering: d.string()}
	f := d.flags(7)
	if f&1 != 0 {
		r.Liveness.Timestamp, r.Liveness.TTL, r.Liveness.ExpiresAt = d.int64(), d.int32(), d.int64()
	}
	if f&2 != 0 {
		r.Deletion = d.deletion()
	}
	if f&4 != 0 {
		for n := d.count(); n > 0 && d.err == nil; n-- {
			r.ComplexDeletions = append(r.ComplexDeletions, replica.ComplexDeletion{Column: d.string(), Deletion: d.deletion()})
		}
	}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		r.Cells = append(r.Cells, d.cellV2())
	}
	return r
}

func (d *decoder) cellV2() replica.Cell {
	c := replica.Cell{Column: d.string()}
	f := d.flags(15)
	c.Tombstone = f&1 != 0
	if f&2 != 0 {
		c.Path = d.string()
	}
	c.Value, c.Timestamp = d.bytes(), d.int64()
	if f&4 != 0 {
		c.TTL = d.int32()
	}
	if f&8 != 0 {
		c.LocalDeletionTime = d.int64()
	}
	return c
}
