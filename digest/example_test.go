package digest_test

import (
	"fmt"

	"github.com/readpath/readpath/digest"
)

// An encoding is a version byte and then fields; the digest changes with any
// of them, and prints and parses as hex.
func ExampleEncoder() {
	var e digest.Encoder
	e.ResetAppending(digest.V1, nil)
	e.String("user:42")
	e.Bool(false)
	e.Int64(1700000000000000)
	fmt.Printf("% x\n", e.Appended())

	d := e.Sum()
	parsed, err := digest.ParseDigest(d.String())
	fmt.Println(d, parsed == d, err)
	// Output:
	// 01 07 75 73 65 72 3a 34 32 00 00 40 1e 18 24 0a 06 00
	// 5f0dae6030066b23b9f57a46826cd15e true <nil>
}

// A hot loop writes a run of fields into the encoder's buffer: Room and Grow
// check for room once a cell, the Append functions write without checking,
// and Commit ends the run. The encoding is what the methods write.
func ExampleEncoder_Room() {
	type cell struct {
		column string
		value  []byte
		ts     int64
	}
	cells := []cell{{"a", []byte("x"), 1}, {"b", []byte("yy"), 2}}
	var e digest.Encoder
	e.ResetAppending(digest.V1, nil)
	b := e.Room(digest.MaxCountLen)
	b = digest.AppendCount(b, len(cells))
	for _, c := range cells {
		b = e.Grow(b, digest.MaxBytesLen(len(c.column))+digest.MaxBytesLen(len(c.value))+8)
		b = digest.AppendString(b, c.column)
		b = digest.AppendBytes(b, c.value)
		b = digest.AppendInt64(b, c.ts)
	}
	e.Commit(b)
	fmt.Printf("% x\n", e.Appended())

	var m digest.Encoder
	m.Reset(digest.V1)
	m.Count(len(cells))
	for _, c := range cells {
		m.String(c.column)
		m.Bytes(c.value)
		m.Int64(c.ts)
	}
	fmt.Println(m.Sum() == e.Sum())
	// Output:
	// 01 02 01 61 01 78 01 00 00 00 00 00 00 00 01 62 02 79 79 02 00 00 00 00 00 00 00
	// true
}
