package digest

import "encoding/hex"

// Digest is a 128-bit digest of a replica response. Two digests are compared
// with ==; the zero Digest is no partition's digest in practice.
type Digest [16]byte

// String returns the digest in lower-case hex.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }
