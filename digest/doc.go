// Package digest computes the 128-bit digests by which a coordinator learns,
// without moving the data, whether replicas hold the same partition.
//
// A digest is the xxh3-128 hash of a canonical, versioned encoding. An
// Encoder writes that encoding field by field and hashes it; package replica
// walks a partition through one ((*replica.Partition).Digest and DigestAt),
// so that every replica implementation digests alike. Digests are compared
// with ==, print and parse as 32 hex digits (Digest.String, ParseDigest),
// and marshal as that text (in JSON, say).
//
//	var e digest.Encoder // on the stack
//	e.Reset(digest.V2)
//	e.String("user:42")
//	e.Int64(1700000000000000)
//	d := e.Sum()
//
// A loop over many fields writes them in runs instead, with one room check
// a run (Encoder.Room, Grow and Commit) and the Append functions, which
// write what the methods do and inline (see the Encoder.Room example).
//
// # Field encodings
//
// An encoding is a version byte (Encoder.Reset) followed by fields:
//
//	Int64   8 bytes, little-endian two's complement
//	Int32   4 bytes, little-endian two's complement
//	Bool    1 byte: 0x00 false, 0x01 true
//	Byte    1 byte
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
// # Partition layout, version 2
//
// Version 2 is the newest (Latest), what (*replica.Partition).Digest
// encodes. It covers the whole data model: the static row, range tombstones,
// row liveness, cell paths and complex deletions. A field that is absent (a
// zero deletion, liveness, TTL, local deletion time or path, an empty list)
// is not written; a flags byte before it says which are present.
//
//	0x02                                 V2
//	String  key
//	Byte    flags: 0x01 deleted, 0x02 static row, 0x04 range tombstones
//	if deleted:
//	  Int64   partition deletion: marked-for-delete-at (µs)
//	  Int64   partition deletion: local deletion time (s)
//	if static row:
//	  Row     the static row (its clustering key is empty)
//	if range tombstones:
//	  Count   number of range tombstones
//	  for each, in order:
//	    Byte    start bound kind (replica.BoundKind: 0 bottom, 1 inclusive
//	            start, 2 exclusive start, 3 inclusive end, 4 exclusive end, 5 top)
//	    String  start bound clustering key
//	    Byte    end bound kind
//	    String  end bound clustering key
//	    Int64   marked-for-delete-at (µs)
//	    Int64   local deletion time (s)
//	Count   number of rows
//	Row     each row, in order
//
// A Row is:
//
//	String  clustering key
//	Byte    flags: 0x01 liveness, 0x02 deleted, 0x04 complex deletions
//	if liveness:
//	  Int64   timestamp (µs)
//	  Int32   TTL (s)
//	  Int64   expiry (s)
//	if deleted:
//	  Int64   row deletion: marked-for-delete-at (µs)
//	  Int64   row deletion: local deletion time (s)
//	if complex deletions:
//	  Count   number of complex deletions
//	  for each, in order: String column, Int64 marked-for-delete-at (µs),
//	  Int64 local deletion time (s)
//	Count   number of cells
//	for each cell, in order:
//	  String  column name
//	  Byte    flags: 0x01 tombstone, 0x02 path, 0x04 TTL, 0x08 local deletion time
//	  if path: String path
//	  Bytes   value
//	  Int64   write timestamp (µs)
//	  if TTL: Int32 TTL (s)
//	  if local deletion time: Int64 local deletion time (s)
//
// A flag is set exactly when its field is not zero (not empty, for lists and
// paths), which is how replica.Partition.Equal compares them, so equal
// partitions encode equally and unequal ones differently. The static row is
// present when it is anything but the zero replica.Row. Elements are encoded
// in slice order; a valid partition holds them sorted. For example the
// partition with key "k", one row "r" and a live cell c="v" written at
// timestamp 1 encodes as
//
//	02 016b 00 01
//	   0172 00 01
//	        0163 00 0176 0100000000000000
//
// Version 2 writes what is absent as one bit, where version 1 wrote zeros:
// this example takes 22 bytes, against 64 in version 1, and a partition of
// live cells digests faster.
//
// # Partition layout, version 1
//
// Version 1 encodes what the model held before version 2:
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
// zero fields. The example partition above encodes as
//
//	01 016b 0000000000000000 0000000000000000 01
//	   0172 0000000000000000 0000000000000000 01
//	        0163 00 0176 0100000000000000 00000000 0000000000000000
//
// Version 1 cannot express a static row, range tombstones, row liveness,
// cell paths or complex deletions. For a partition holding any of them,
// (*replica.Partition).DigestAt(V1) is the version-2 digest: it never
// equals a version-1 digest (the encodings differ from their first byte),
// so two replicas answering version 1 agree exactly when their data does,
// and a replica of an older build, which cannot hold such data, never
// matches it by accident. Nothing fails because versions are mixed; at worst
// the coordinator reads data where a match would have spared it.
//
// # Rolling upgrade from version 1 to 2
//
// A replica.Command carries the DigestVersion that replicas answer with and
// that the coordinator digests data answers at; 0 means Latest. A replica
// adapter whose node may run an older build implements
// replica.DigestVersioner and reports the newest version the node knows;
// one that does not is taken to know Latest. For each read the coordinator
// asks for the newest version that every replica it contacts knows
// (replica.DigestVersionFor), so that all answers, and its own digests of
// data answers, are at one version:
//
//  1. While any replica still runs a build that knows only version 1, reads
//     that contact it digest at version 1. Replicas of the new build answer
//     version 1 for data version 1 can express, byte for byte as the old
//     build does, so digests of equal data match across builds.
//  2. Upgrade the nodes one by one. An upgraded adapter reports version 2.
//  3. Once every replica a read contacts reports version 2, the read
//     digests at version 2. Until then, a partition holding what only
//     version 2 expresses (a range tombstone, say) never matches at version
//     1, so its reads go to data and reconcile, which is correct, only
//     slower.
//
// A build that does not know the version a command asks for refuses it
// (*VersionError, through replica.Command.Respond); asking for the common
// version avoids that.
package digest
