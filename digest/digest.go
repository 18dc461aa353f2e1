package digest

import (
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
)

// Digest is a 128-bit digest of a replica response. Two digests are compared
// with ==; the zero Digest is no partition's digest in practice. It is a
// plain value, safe for concurrent use.
type Digest [16]byte

// String returns the digest in lower-case hex.
func (d Digest) String() string { return hex.EncodeToString(d[:]) }

// ErrInvalidDigest is matched by every *ParseError.
var ErrInvalidDigest = errors.New("digest: invalid digest")

// ParseError reports a string that is not a digest written by String. It
// is not modified after it is returned, so it may be shared between
// goroutines.
type ParseError struct {
	Input  string
	Reason string
}

func (e *ParseError) Error() string {
	return "digest: invalid digest " + strconv.Quote(e.Input) + ": " + e.Reason
}

// Is makes errors.Is(err, ErrInvalidDigest) hold.
func (e *ParseError) Is(target error) bool { return target == ErrInvalidDigest }

// ParseDigest parses the 32 hex digits that String writes. Upper-case digits
// are accepted too; nothing else is, not even surrounding white space. It
// returns a *ParseError.
func ParseDigest(s string) (Digest, error) {
	var d Digest
	if len(s) != hex.EncodedLen(len(d)) {
		reason := fmt.Sprintf("want %d hex digits, have %d bytes", hex.EncodedLen(len(d)), len(s))
		return Digest{}, &ParseError{Input: s, Reason: reason}
	}
	if _, err := hex.Decode(d[:], []byte(s)); err != nil {
		return Digest{}, &ParseError{Input: s, Reason: "not hex"}
	}
	return d, nil
}

// MarshalText implements encoding.TextMarshaler with the 32 lower-case hex
// digits of String, so a Digest is a hex string in JSON.
func (d Digest) MarshalText() ([]byte, error) {
	b := make([]byte, hex.EncodedLen(len(d)))
	hex.Encode(b, d[:])
	return b, nil
}

// UnmarshalText implements encoding.TextUnmarshaler with ParseDigest. On
// error it returns the *ParseError and leaves d unchanged.
func (d *Digest) UnmarshalText(b []byte) error {
	v, err := ParseDigest(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}
