package replica_test

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/readpath/readpath/digest"
	"github.com/readpath/readpath/replica"
)

// FuzzCanonicalEncoding builds two partitions from the fuzz bytes, over
// alphabets small enough that they are often equal, and checks at both
// versions that their canonical encodings are equal exactly when the
// partitions are.
func FuzzCanonicalEncoding(f *testing.F) {
	for _, seed := range []string{
		"", "\x00", "\x01\x01\x01\x01\x01\x01", "\x02\x00\x01\x01\x02\x00\x01\x01",
		"\x01\x01\x02\x01\x00\x01\x02\x01\x01\x01\x02\x01\x00\x01\x02\x01",
		"\x02\x01\x02\x00\x01\x01\x00\x02\x01\x02\x00\x01\x01\x00",
		"\x02\x00\x01\x00\x01\x01\x02\x01\x00\x01\x01\x01\x01\x01\x02\x00\x01\x00",
		"\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{data: data}
		a, b := in.partition(), in.partition()
		for _, v := range []byte{digest.V1, digest.V2} {
			ea, err := a.AppendCanonicalAt(nil, v)
			require.NoError(t, err)
			eb, err := b.AppendCanonicalAt([]byte("prefix"), v)
			require.NoError(t, err)
			require.Equal(t, "prefix", string(eb[:6]))
			eb = eb[6:]
			assert.Equal(t, a.Equal(b), bytes.Equal(ea, eb), "version %d: a=%v b=%v", v, a, b)
			da, _ := a.DigestAt(v)
			db, _ := b.DigestAt(v)
			assert.Equal(t, a.Equal(b), da == db)
			assert.Equal(t, digest.Hash(ea), da)
			decoded, err := decodeCanonical(ea)
			require.NoError(t, err)
			assert.True(t, decoded.Equal(a), "version %d: decoded %v, encoded %v", v, decoded, a)
		}
	})
}

// fuzzInput reads partitions from fuzz bytes; past the end it reads zeros.
// Partitions need not be valid: the encoding covers every partition.
type fuzzInput struct{ data []byte }

func (in *fuzzInput) next(n byte) byte {
	if len(in.data) == 0 {
		return 0
	}
	b := in.data[0] % n
	in.data = in.data[1:]
	return b
}

func (in *fuzzInput) partition() replica.Partition {
	p := replica.Partition{Key: in.string(), Deletion: in.deletion()}
	if in.next(2) == 1 {
		p.Static = in.row()
	}
	if n := int(in.next(3)); n > 0 || in.next(2) == 1 {
		p.RangeTombstones = make([]replica.RangeTombstone, n)
		for i := range p.RangeTombstones {
			p.RangeTombstones[i] = replica.RangeTombstone{Start: in.bound(), End: in.bound(), Deletion: in.deletion()}
		}
	}
	if rows := int(in.next(3)); rows > 0 || in.next(2) == 1 {
		p.Rows = make([]replica.Row, rows, rows+int(in.next(2)))
	}
	for i := range p.Rows {
		p.Rows[i] = in.row()
	}
	return p
}

func (in *fuzzInput) bound() replica.Bound {
	return replica.Bound{Kind: replica.BoundKind(in.next(7)), Clustering: in.string()}
}

func (in *fuzzInput) row() replica.Row {
	r := replica.Row{Clustering: in.string(), Deletion: in.deletion()}
	if in.next(2) == 1 {
		r.Liveness = replica.Liveness{Timestamp: int64(in.next(2)), TTL: int32(in.next(2)), ExpiresAt: int64(in.next(2))}
	}
	if n := int(in.next(3)); n > 0 {
		r.ComplexDeletions = make([]replica.ComplexDeletion, n)
		for i := range r.ComplexDeletions {
			r.ComplexDeletions[i] = replica.ComplexDeletion{Column: in.string(), Deletion: in.deletion()}
		}
	}
	if cells := int(in.next(3)); cells > 0 || in.next(2) == 1 {
		r.Cells = make([]replica.Cell, cells)
	}
	for i := range r.Cells {
		r.Cells[i] = replica.Cell{
			Column: in.string(), Path: in.string(), Tombstone: in.next(2) == 1, Value: in.bytes(),
			Timestamp: int64(in.next(3)), TTL: int32(in.next(2)), LocalDeletionTime: int64(in.next(2)),
		}
	}
	return r
}

func (in *fuzzInput) deletion() replica.Deletion {
	return replica.Deletion{MarkedForDeleteAt: int64(in.next(2)), LocalDeletionTime: int64(in.next(2))}
}

// string draws up to two letters from "ab", so that boundaries can shift.
func (in *fuzzInput) string() string { return string(in.bytes()) }

func (in *fuzzInput) bytes() []byte {
	n := int(in.next(3))
	if n == 0 && in.next(2) == 0 {
		return nil
	}
	b := make([]byte, n, n+int(in.next(2)))
	for i := range b {
		b[i] = 'a' + in.next(2)
	}
	return b
}
