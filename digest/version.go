package digest

import (
	"errors"
	"strconv"
)

// The versions of the partition encoding, each specified in the package
// comment. A change to a layout must come with a new version.
const (
	// V1 encodes rows of cells with partition and row deletions.
	V1 byte = 1
	// V2 adds the static row, range tombstones, row liveness, complex cells
	// and complex deletions, and writes absent fields as flags.
	V2 byte = 2
	// Latest is the newest version, what a digest is computed at unless a
	// command asks for another.
	Latest = V2
)

// ErrUnknownVersion is matched by every *VersionError.
var ErrUnknownVersion = errors.New("digest: unknown encoding version")

// VersionError reports an encoding version this build does not know. It is
// not modified after it is returned, so it may be shared between goroutines.
type VersionError struct {
	Version byte
	// Known is the newest version the refusing build knows: Latest when 0,
	// older on a node that predates Version (during a rolling upgrade).
	Known byte
}

func (e *VersionError) Error() string {
	known := e.Known
	if known == 0 {
		known = Latest
	}
	return "digest: unknown encoding version " + strconv.Itoa(int(e.Version)) +
		" (this build knows 1 to " + strconv.Itoa(int(known)) + ")"
}

// Is makes errors.Is(err, ErrUnknownVersion) hold.
func (e *VersionError) Is(target error) bool { return target == ErrUnknownVersion }

// Resolve returns the version a request for version v means: v itself, or
// Latest for 0. A version above Latest is a *VersionError.
func Resolve(v byte) (byte, error) {
	switch {
	case v == 0:
		return Latest, nil
	case v > Latest:
		return 0, &VersionError{Version: v}
	}
	return v, nil
}
