package replica_test

import (
	"encoding/binary"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// A decoder of the canonical encoding, written from the layout package
// digest documents and nothing else. If every valid partition decodes back
// to itself, the documented layout is the implemented one, and the encoding
// is injective on what Equal tells apart (a value of LargeField bytes or
// more is decoded as its length and hash, and checked against the
// original's).

var errRvShort = errors.New("encoding ends early")

type rvDecoder struct {
	b   []byte
	err error
}

func (d *rvDecoder) take(n int) []byte {
	if d.err != nil || n < 0 || len(d.b) < n {
		d.err = errRvShort
		return make([]byte, n&0xffff)
	}
	v := d.b[:n]
	d.b = d.b[n:]
	return v
}

func (d *rvDecoder) byte1() byte { return d.take(1)[0] }

func (d *rvDecoder) int64() int64 { return int64(binary.LittleEndian.Uint64(d.take(8))) }

func (d *rvDecoder) int32() int32 { return int32(binary.LittleEndian.Uint32(d.take(4))) }

func (d *rvDecoder) count() int {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.err = errRvShort
		return 0
	}
	// minimal length, as the doc says
	if n != len(binary.AppendUvarint(nil, v)) {
		d.err = errors.New("count not of minimal length")
	}
	d.b = d.b[n:]
	return int(v)
}

// bytes returns a short field's bytes, or for a long one its length and
// hash (large true).
func (d *rvDecoder) bytes() (v []byte, n int, large bool) {
	n = d.count()
	if n >= digest.LargeField {
		return d.take(16), n, true
	}
	return d.take(n), n, false
}

func (d *rvDecoder) str() string {
	v, _, large := d.bytes()
	if large {
		d.err = errors.New("long strings do not occur in the generated partitions")
	}
	return string(v)
}

// rvValue is a decoded value: its bytes, or the length and hash of a
// long one.
type rvValue struct {
	short []byte
	n     int
	hash  []byte
}

func (d *rvDecoder) value() rvValue {
	v, n, large := d.bytes()
	if large {
		return rvValue{n: n, hash: v}
	}
	return rvValue{short: v, n: n}
}

func (v rvValue) matches(b []byte) bool {
	if v.hash == nil {
		return string(v.short) == string(b)
	}
	h := digest.Hash(b)
	return v.n == len(b) && string(v.hash) == string(h[:])
}

func (d *rvDecoder) deletion() replica.Deletion {
	return replica.Deletion{MarkedForDeleteAt: d.int64(), LocalDeletionTime: d.int64()}
}

// rvDecodeV2 decodes a version-2 encoding into a partition whose long values
// are left empty; values holds every cell's decoded value, in order.
func rvDecodeV2(b []byte) (replica.Partition, []rvValue, error) {
	d := &rvDecoder{b: b}
	var values []rvValue
	if v := d.byte1(); v != digest.V2 {
		return replica.Partition{}, nil, errors.New("not version 2")
	}
	var p replica.Partition
	p.Key = d.str()
	flags := d.byte1()
	if flags&^0x07 != 0 {
		d.err = errors.New("unknown partition flag")
	}
	if flags&0x01 != 0 {
		p.Deletion = d.deletion()
	}
	if flags&0x02 != 0 {
		p.Static = d.row(&values)
	}
	if flags&0x04 != 0 {
		for range d.count() {
			var rt replica.RangeTombstone
			rt.Start.Kind = replica.BoundKind(d.byte1())
			rt.Start.Clustering = d.str()
			rt.End.Kind = replica.BoundKind(d.byte1())
			rt.End.Clustering = d.str()
			rt.Deletion = d.deletion()
			p.RangeTombstones = append(p.RangeTombstones, rt)
			if d.err != nil {
				break
			}
		}
	}
	for range d.count() {
		p.Rows = append(p.Rows, d.row(&values))
		if d.err != nil {
			break
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("bytes left over")
	}
	return p, values, d.err
}

func (d *rvDecoder) row(values *[]rvValue) replica.Row {
	var r replica.Row
	r.Clustering = d.str()
	flags := d.byte1()
	if flags&^0x07 != 0 {
		d.err = errors.New("unknown row flag")
	}
	if flags&0x01 != 0 {
		r.Liveness.Timestamp = d.int64()
		r.Liveness.TTL = d.int32()
		r.Liveness.ExpiresAt = d.int64()
	}
	if flags&0x02 != 0 {
		r.Deletion = d.deletion()
	}
	if flags&0x04 != 0 {
		for range d.count() {
			r.ComplexDeletions = append(r.ComplexDeletions, replica.ComplexDeletion{Column: d.str(), Deletion: d.deletion()})
			if d.err != nil {
				break
			}
		}
	}
	for range d.count() {
		var c replica.Cell
		c.Column = d.str()
		cf := d.byte1()
		if cf&^0x0f != 0 {
			d.err = errors.New("unknown cell flag")
		}
		c.Tombstone = cf&0x01 != 0
		if cf&0x02 != 0 {
			c.Path = d.str()
		}
		v := d.value()
		*values = append(*values, v)
		c.Value = v.short
		c.Timestamp = d.int64()
		if cf&0x04 != 0 {
			c.TTL = d.int32()
		}
		if cf&0x08 != 0 {
			c.LocalDeletionTime = d.int64()
		}
		r.Cells = append(r.Cells, c)
		if d.err != nil {
			break
		}
	}
	return r
}

// rvDecodeV1 decodes a version-1 encoding.
func rvDecodeV1(b []byte) (replica.Partition, []rvValue, error) {
	d := &rvDecoder{b: b}
	var values []rvValue
	if v := d.byte1(); v != digest.V1 {
		return replica.Partition{}, nil, errors.New("not version 1")
	}
	var p replica.Partition
	p.Key = d.str()
	p.Deletion = d.deletion()
	for range d.count() {
		r := replica.Row{Clustering: d.str(), Deletion: d.deletion()}
		for range d.count() {
			var c replica.Cell
			c.Column = d.str()
			switch d.byte1() {
			case 0:
			case 1:
				c.Tombstone = true
			default:
				d.err = errors.New("bool neither 0 nor 1")
			}
			v := d.value()
			values = append(values, v)
			c.Value = v.short
			c.Timestamp = d.int64()
			c.TTL = d.int32()
			c.LocalDeletionTime = d.int64()
			r.Cells = append(r.Cells, c)
			if d.err != nil {
				break
			}
		}
		p.Rows = append(p.Rows, r)
		if d.err != nil {
			break
		}
	}
	if d.err == nil && len(d.b) != 0 {
		d.err = errors.New("bytes left over")
	}
	return p, values, d.err
}

// rvCellsOf lists p's cells in encoding order: the static row's, then the
// rows'.
func rvCellsOf(p replica.Partition) []*replica.Cell {
	var out []*replica.Cell
	for i := range p.Static.Cells {
		out = append(out, &p.Static.Cells[i])
	}
	for i := range p.Rows {
		for j := range p.Rows[i].Cells {
			out = append(out, &p.Rows[i].Cells[j])
		}
	}
	return out
}

// rvRequireDecodesTo checks that got, decoded with values, is want.
func rvRequireDecodesTo(t require.TestingT, want, got replica.Partition, values []rvValue) {
	wantCells := rvCellsOf(want.Clone())
	gotCells := rvCellsOf(got)
	require.Len(t, values, len(wantCells))
	require.Len(t, gotCells, len(wantCells))
	for i, c := range wantCells {
		require.True(t, values[i].matches(c.Value), "cell %d value", i)
		if values[i].hash != nil { // a long value: compare the rest
			gotCells[i].Value = c.Value
		}
	}
	require.True(t, want.Equal(got), "decoded\n%v\nwant\n%v", got, want)
}

func TestCanonicalEncodingDecodesByTheDocumentedLayout(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		if p.Validate() != nil {
			t.Skip("invalid")
		}
		enc := p.AppendCanonical(nil)
		require.Equal(t, digest.Hash(enc), p.Digest())
		got, values, err := rvDecodeV2(enc)
		require.NoError(t, err, "% x", enc)
		rvRequireDecodesTo(t, p, got, values)
	})
}

func TestVersion1EncodingDecodesByTheDocumentedLayout(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := v1PartitionGen().Draw(t, "p")
		if p.Validate() != nil {
			t.Skip("invalid")
		}
		enc, err := p.AppendCanonicalAt(nil, digest.V1)
		require.NoError(t, err)
		d, err := p.DigestAt(digest.V1)
		require.NoError(t, err)
		require.Equal(t, digest.Hash(enc), d)
		got, values, err := rvDecodeV1(enc)
		require.NoError(t, err, "% x", enc)
		rvRequireDecodesTo(t, p, got, values)
	})
}

// A partition version 1 cannot express encodes at version 2 when asked
// for version 1, so it decodes as version 2.
func TestVersion1OfTheInexpressibleDecodesAsVersion2(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		p := partitionGen().Draw(t, "p")
		if p.Validate() != nil {
			t.Skip("invalid")
		}
		enc, err := p.AppendCanonicalAt(nil, digest.V1)
		require.NoError(t, err)
		if enc[0] == digest.V1 {
			got, values, err := rvDecodeV1(enc)
			require.NoError(t, err)
			rvRequireDecodesTo(t, p, got, values)
			return
		}
		require.Equal(t, p.AppendCanonical(nil), enc)
		got, values, err := rvDecodeV2(enc)
		require.NoError(t, err)
		rvRequireDecodesTo(t, p, got, values)
	})
}

// Pairs built to collide if a field boundary or a flag were lost: each pair
// differs in one place, is valid, and must digest differently at every
// version. Several also differ in what a client or a merge sees.
func TestNearCollisionsDigestApart(t *testing.T) {
	k := "k"
	cell := replica.Live("c", "v", 5)
	pairs := []struct {
		name string
		a, b replica.Partition
	}{
		{"column+path vs longer column",
			replica.NewPartition(k, replica.NewRow("r", replica.Live("ab", "", 5).WithPath("c"))),
			replica.NewPartition(k, replica.NewRow("r", replica.Live("a", "", 5).WithPath("bc")))},
		{"path vs no path",
			replica.NewPartition(k, replica.NewRow("r", replica.Live("a", "", 5).WithPath("b"))),
			replica.NewPartition(k, replica.NewRow("r", replica.Live("a", "b", 5)))},
		{"path vs value",
			replica.NewPartition(k, replica.NewRow("r", replica.Live("a", "", 5).WithPath("x"))),
			replica.NewPartition(k, replica.NewRow("r", replica.Live("a", "x", 5).WithPath("")))},
		{"static row vs row with empty clustering",
			replica.NewPartition(k).WithStatic(cell),
			replica.NewPartition(k, replica.NewRow("", cell))},
		{"inclusive vs exclusive start",
			replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(replica.StartAt("a"), replica.Top(), replica.DeletedAt(3, 3))),
			replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(replica.StartAfter("a"), replica.Top(), replica.DeletedAt(3, 3)))},
		{"inclusive vs exclusive end",
			replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.EndAt("b"), replica.DeletedAt(3, 3))),
			replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.EndBefore("b"), replica.DeletedAt(3, 3)))},
		{"range tombstone vs partition deletion",
			replica.NewPartition(k).WithRangeTombstones(replica.NewRangeTombstone(replica.Bottom(), replica.Top(), replica.DeletedAt(3, 3))),
			replica.NewPartition(k).WithDeletion(replica.DeletedAt(3, 3))},
		{"row deletion vs complex deletion",
			replica.NewPartition(k, replica.NewRow("r", cell).WithDeletion(replica.DeletedAt(3, 3))),
			replica.NewPartition(k, replica.NewRow("r", cell).WithComplexDeletion("c", replica.DeletedAt(3, 3)))},
		{"complex deletion column",
			replica.NewPartition(k, replica.NewRow("r", cell).WithComplexDeletion("c", replica.DeletedAt(3, 3))),
			replica.NewPartition(k, replica.NewRow("r", cell).WithComplexDeletion("d", replica.DeletedAt(3, 3)))},
		{"liveness TTL",
			replica.NewPartition(k, replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(5, 10, 20))),
			replica.NewPartition(k, replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(5, 11, 20)))},
		{"liveness expiry",
			replica.NewPartition(k, replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(5, 10, 20))),
			replica.NewPartition(k, replica.NewRow("r").WithLiveness(replica.InsertedWithTTL(5, 10, 21)))},
		{"liveness vs row deletion of the same numbers",
			replica.NewPartition(k, replica.NewRow("r", cell).WithLiveness(replica.Inserted(3))),
			replica.NewPartition(k, replica.NewRow("r", cell).WithDeletion(replica.DeletedAt(3, 0)))},
		{"tombstone at the epoch vs live empty value",
			replica.NewPartition(k, replica.NewRow("r", replica.Tombstone("c", 5, 0))),
			replica.NewPartition(k, replica.NewRow("r", replica.Live("c", "", 5)))},
		{"expiring TTL vs expiry",
			replica.NewPartition(k, replica.NewRow("r", replica.Expiring("c", "v", 5, 7, 7))),
			replica.NewPartition(k, replica.NewRow("r", replica.Expiring("c", "v", 5, 7, 8)))},
		{"cell tombstone vs expired-at-write expiring cell",
			replica.NewPartition(k, replica.NewRow("r", replica.Tombstone("c", 5, 7))),
			replica.NewPartition(k, replica.NewRow("r", replica.Expiring("c", "", 5, 7, 7)))},
		{"static deleted via complex deletion vs not",
			replica.NewPartition(k).WithStatic(cell),
			func() replica.Partition {
				p := replica.NewPartition(k).WithStatic(cell)
				p.Static = p.Static.WithComplexDeletion("c", replica.DeletedAt(1, 1))
				return p
			}()},
		{"row moved between clusterings",
			replica.NewPartition(k, replica.NewRow("ab", cell)),
			replica.NewPartition(k, replica.NewRow("a", cell))},
		{"key vs clustering boundary",
			replica.NewPartition("ka", replica.NewRow("b", cell)),
			replica.NewPartition("k", replica.NewRow("ab", cell))},
		{"negative timestamp",
			replica.NewPartition(k, replica.NewRow("r", replica.Live("c", "v", -1))),
			replica.NewPartition(k, replica.NewRow("r", replica.Live("c", "v", 1<<63-1)))},
		{"times past 2038 and 2106",
			replica.NewPartition(k, replica.NewRow("r", replica.Tombstone("c", 5, 1<<31))),
			replica.NewPartition(k, replica.NewRow("r", replica.Tombstone("c", 5, 1<<32+1<<31)))},
	}
	for _, pair := range pairs {
		t.Run(pair.name, func(t *testing.T) {
			require.NoError(t, pair.a.Validate())
			require.NoError(t, pair.b.Validate())
			require.False(t, pair.a.Equal(pair.b))
			for _, v := range []byte{digest.V1, digest.V2} {
				da, err := pair.a.DigestAt(v)
				require.NoError(t, err)
				db, err := pair.b.DigestAt(v)
				require.NoError(t, err)
				assert.NotEqual(t, da, db, "version %d", v)
			}
			// And as a replica answers them, without a read time.
			cmd := replica.Command{Table: "t", Key: pair.a.Key, DigestOnly: true}
			ra, err := cmd.Respond(pair.a)
			require.NoError(t, err)
			cmd.Key = pair.b.Key
			rb, err := cmd.Respond(pair.b)
			require.NoError(t, err)
			assert.NotEqual(t, ra.Digest, rb.Digest)
		})
	}
}
