// Package digest computes the 128-bit digests by which a coordinator learns,
// without moving the data, whether replicas hold the same partition.
//
// A digest is the xxh3-128 hash of a canonical, versioned encoding. An
// Encoder writes that encoding field by field and hashes it; package replica
// walks a partition through one ((*replica.Partition).Digest), so that every
// replica implementation digests alike. Digests are compared with ==, and
// print and parse as 32 hex digits (Digest.String, ParseDigest).
//
//	var e digest.Encoder // on the stack
//	e.Reset(digest.V1)
//	e.String("user:42")
//	e.Int64(1700000000000000)
//	d := e.Sum()
//
// # Field encodings
//
// An encoding is a version byte (Encoder.Reset) followed by fields:
//
//	Int64   8 bytes, little-endian two's complement
//	Int32   4 bytes, little-endian two's complement
//	Bool    1 byte: 0x00 false, 0x01 true
//	Count   unsigned LEB128 varint of minimal length (as encoding/binary.PutUvarint)
//	Bytes   Count(length), then the bytes if length < LargeField (256),
//	        else their 16-byte digest, Hash(bytes)
//	String  as Bytes
//
// Every variable-length field carries its length and every repeated group is
// preceded by its Count, so the encoding of a sequence of fields determines
// the fields: no two different values can shift a boundary into one another.
// A field of LargeField bytes or more is determined up to a collision of
// xxh3-128, which is what the digest as a whole promises anyway; in return a
// 4 KiB value is hashed in one call, twice as fast as streaming it.
//
// The digest is xxh3-128 (seed 0) of the whole encoding, its high 64 bits
// first, each half big-endian (Hash).
//
// # Partition layout, version 1
//
// (*replica.Partition).Digest encodes a partition as:
//
//	0x01                                 V1
//	String  key
//	Int64   partition deletion: marked-for-delete-at (µs)
//	Int64   partition deletion: local deletion time (s)
//	Count   number of rows
//	for each row, in order:
//	  String  clustering key
//	  Int64   row deletion: marked-for-delete-at (µs)
//	  Int64   row deletion: local deletion time (s)
//	  Count   number of cells
//	  for each cell, in order:
//	    String  column name
//	    Bool    tombstone
//	    Bytes   value
//	    Int64   write timestamp (µs)
//	    Int32   TTL (s)
//	    Int64   local deletion time (s)
//
// A deletion that is absent (the zero replica.Deletion) is encoded as its two
// zero fields, exactly as replica.Partition.Equal compares it. Rows and cells
// are encoded in slice order; a valid partition holds them sorted, so equal
// data encodes equally. For example the partition with key "k", one row "r"
// and a live cell c="v" written at timestamp 1 encodes as
//
//	01 016b 0000000000000000 0000000000000000 01
//	   0172 0000000000000000 0000000000000000 01
//	        0163 00 0176 0100000000000000 00000000 0000000000000000
package digest
