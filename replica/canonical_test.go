package replica_test

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// decodeCanonical is a naive decoder of the version-1 layout as package
// digest documents it. That it rebuilds every partition from its encoding
// shows that the encoding is unambiguous and that the documentation is
// enough to reproduce it. A field of digest.LargeField bytes or more is
// encoded as its digest, so it decodes to largeStandIn of its bytes.
func decodeCanonical(b []byte) (replica.Partition, error) {
	d := &decoder{b: b}
	if v := d.take(1); len(v) == 1 && v[0] != digest.V1 {
		return replica.Partition{}, errors.New("not version 1")
	}
	p := replica.Partition{Key: d.string(), Deletion: d.deletion()}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		p.Rows = append(p.Rows, d.row())
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

func (d *decoder) bool() bool {
	v := d.take(1)[0]
	if v > 1 {
		d.err = errors.New("bad bool")
	}
	return v == 1
}

func (d *decoder) deletion() replica.Deletion {
	return replica.Deletion{MarkedForDeleteAt: d.int64(), LocalDeletionTime: d.int64()}
}

func (d *decoder) row() replica.Row {
	r := replica.Row{Clustering: d.string(), Deletion: d.deletion()}
	for n := d.count(); n > 0 && d.err == nil; n-- {
		r.Cells = append(r.Cells, d.cell())
	}
	return r
}

func (d *decoder) cell() replica.Cell {
	c := replica.Cell{Column: d.string(), Tombstone: d.bool()}
	c.Value = d.bytes()
	c.Timestamp, c.TTL, c.LocalDeletionTime = d.int64(), d.int32(), d.int64()
	return c
}
