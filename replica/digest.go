package replica

import (
	"sync"

	"github.com/readpath/readpath/digest"
)

// Digest returns the digest a replica answers to a digest-only read of p at
// the newest encoding version (digest.Latest): the xxh3-128 hash of p's
// canonical encoding, whose layout package digest documents. Partitions
// equal per Equal have equal digests, whatever their slices' capacity and
// nil or empty. It allocates nothing: encoders, with the hasher a long
// encoding streams through, are pooled. It is safe for concurrent use.
func (p Partition) Digest() digest.Digest {
	e := encoders.Get().(*digest.Encoder)
	p.encode(e, digest.Latest)
	d := e.Sum()
	encoders.Put(e)
	return d
}

// DigestAt returns p's digest at an encoding version: 0 for the newest,
// else digest.V1 or digest.V2. Version 1 cannot express what version 2 added
// (a static row, range tombstones, row liveness, cell paths, complex
// deletions): for a partition holding any of those, DigestAt(digest.V1) is
// its version-2 digest, which no version-1 encoding can equal. So a replica
// asked for version 1 answers a partition that version 1 can express
// exactly as a replica of an older build does, and one that it cannot with
// a digest that differs from every version-1 digest: the coordinator then
// reads data instead of trusting a match. An unknown version is a
// *digest.VersionError.
func (p Partition) DigestAt(version byte) (digest.Digest, error) {
	v, err := digest.Resolve(version)
	if err != nil {
		return digest.Digest{}, err
	}
	e := encoders.Get().(*digest.Encoder)
	p.encode(e, v)
	d := e.Sum()
	encoders.Put(e)
	return d, nil
}

// encoders recycles Encoders: their buffer need not be zeroed again, and a
// long encoding's hasher is allocated once per pooled Encoder, not once per
// digest.
var encoders = sync.Pool{New: func() any { return new(digest.Encoder) }}

// AppendCanonical appends to dst the bytes Digest hashes and returns the
// extended slice. Two partitions encode to the same bytes exactly when they
// are Equal (for values of digest.LargeField bytes or more, barring a
// collision of their xxh3-128 digests).
func (p Partition) AppendCanonical(dst []byte) []byte {
	var e digest.Encoder
	e.ResetAppending(digest.Latest, dst)
	p.encodeFields(&e, digest.Latest)
	return e.Appended()
}

// AppendCanonicalAt appends to dst the bytes DigestAt(version) hashes.
func (p Partition) AppendCanonicalAt(dst []byte, version byte) ([]byte, error) {
	v, err := digest.Resolve(version)
	if err != nil {
		return dst, err
	}
	v = p.encodingVersion(v)
	var e digest.Encoder
	e.ResetAppending(v, dst)
	p.encodeFields(&e, v)
	return e.Appended(), nil
}

// encode resets e and writes p at version v, or at version 2 if v is 1 and
// version 1 cannot express p.
func (p *Partition) encode(e *digest.Encoder, v byte) {
	v = p.encodingVersion(v)
	e.Reset(v)
	p.encodeFields(e, v)
}

func (p *Partition) encodingVersion(v byte) byte {
	if v == digest.V1 && !p.expressibleInV1() {
		return digest.V2
	}
	return v
}

func (p *Partition) encodeFields(e *digest.Encoder, v byte) {
	p.encodeHead(e, v)
	for i := range p.Rows {
		p.Rows[i].encode(e, v)
	}
}

// encodeHead writes what p's encoding at version v holds before its rows.
func (p *Partition) encodeHead(e *digest.Encoder, v byte) {
	if v == digest.V1 {
		encodeHeadV1(e, p.Key, p.Deletion, len(p.Rows))
		return
	}
	p.encodeHeadV2(e)
}

// encode writes r at version v.
func (r *Row) encode(e *digest.Encoder, v byte) {
	if v == digest.V1 {
		r.encodeV1(e)
		return
	}
	r.encodeV2(e)
}
