package replica

import "github.com/readpath/readpath/digest"

// ValidateDigest returns what Validate and then DigestAt(version) return —
// Validate's error if p is invalid, else DigestAt's digest or error — in
// one walk over p: each row is checked and then encoded while it is still
// in cache. A coordinator checks and digests every data answer it compares
// with others; for a large answer, two walks were two trips to memory. It
// allocates nothing and is safe for concurrent use.
func (p Partition) ValidateDigest(version byte) (digest.Digest, error) {
	v, err := digest.Resolve(version)
	if err != nil {
		if verr := p.Validate(); verr != nil {
			return digest.Digest{}, verr
		}
		return digest.Digest{}, err
	}
	v = p.encodingVersion(v)
	e := encoders.Get().(*digest.Encoder)
	e.Reset(v)
	var d digest.Digest
	if err = p.validateEncode(e, v); err == nil {
		d = e.Sum()
	}
	encoders.Put(e)
	return d, err
}

// validateEncode writes p to e at version v, as encodeFields does, checking
// each piece as Validate does before it writes it; it stops at the first
// fault and returns Validate's error for it.
func (p *Partition) validateEncode(e *digest.Encoder, v byte) error {
	if err := p.validateHead(); err != nil {
		return err
	}
	p.encodeHead(e, v)
	for i := range p.Rows {
		if err := p.validateRow(i); err != nil {
			return err
		}
		p.Rows[i].encode(e, v)
	}
	return nil
}
