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
// alphabets small enough that they are often equal, and checks that their
// canonical encodings are equal exactly when the partitions are.
func FuzzCanonicalEncoding(f *testing.F) {
	for _, seed := range []string{
		"", "\x00", "\x01\x01\x01\x01\x01\x01", "\x02\x00\x01\x01\x02\x00\x01\x01",
		"\x01\x01\x02\x01\x00\x01\x02\x01\x01\x01\x02\x01\x00\x01\x02\x01",
		"\x02\x01\x02\x00\x01\x01\x00\x02\x01\x02\x00\x01\x01\x00",
		"\x02\x00\x01\x00\x01\x01\x02\x01\x00\x01\x01\x01\x01\x01\x02\x00\x01\x00",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzInput{data: data}
		a, b := in.partition(), in.partition()
		ea, eb := a.AppendCanonical(nil), b.AppendCanonical([]byte("prefix"))
		require.Equal(t, "prefix", string(eb[:6]))
		eb = eb[6:]
		assert.Equal(t, a.Equal(b), bytes.Equal(ea, eb), "a=%+v b=%+v", a, b)
		assert.Equal(t, a.Equal(b), a.Digest() == b.Digest())
		assert.Equal(t, digest.Hash(ea), a.Digest())
		decoded, err := decodeCanonical(ea)
		require.NoError(t, err)
		assert.True(t, decoded.Equal(a))
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
	if rows := int(in.next(3)); rows > 0 || in.next(2) == 1 {
		p.Rows = make([]replica.Row, rows, rows+int(in.next(2)))
	}
	for i := range p.Rows {
		p.Rows[i] = in.row()
	}
	return p
}

func (in *fuzzInput) row() replica.Row {
	r := replica.Row{Clustering: in.string(), Deletion: in.deletion()}
	if cells := int(in.next(3)); cells > 0 || in.next(2) == 1 {
		r.Cells = make([]replica.Cell, cells)
	}
	for i := range r.Cells {
		r.Cells[i] = replica.Cell{
			Column: in.string(), Tombstone: in.next(2) == 1, Value: in.bytes(),
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
